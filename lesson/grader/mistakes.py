"""The usual wrong answers, as data: what each mistake returns, and the sentence for it.

When a check fails, the judge works out what each mistake of that function
would have returned on the same input, from the lesson's own functions, and
compares it with what came back.  When one matches, the hint names that
mistake with the number that shows it (both, when two give that answer);
when none does, the check's own hint stands.  A diagnosis the value does not
support is never given.

    >>> from lesson.grader.contract import check_named
    >>> diagnose(check_named("uniform over 4 is ln 4"), {"value": 2.0})
    'your entropy is 1.386 / ln 2 = 2: that is log base 2; use math.log, the natural log'
"""

import math

import lesson

NEG_INF = -math.inf


def _rows(x):
    """A flat list as one row, a matrix as its rows."""
    return [x] if x and not isinstance(x[0], list) else x


def _shaped(x, rows):
    return rows[0] if x and not isinstance(x[0], list) else rows


def _by_rows(function):
    def each(x, axis=-1):
        if axis == 0 and x and isinstance(x[0], list):
            columns = [function(list(c)) for c in zip(*x)]
            return [list(r) for r in zip(*columns)]
        return _shaped(x, [function(row) for row in _rows(x)])
    return each


def _whole_max(x, axis=-1):
    """exp(s - the matrix's one maximum), each row divided by its own sum."""
    rows = _rows(x)
    top = max(s for row in rows for s in row)
    out = []
    for row in rows:
        exps = [math.exp(s - top) for s in row]
        out.append([e / math.fsum(exps) for e in exps])
    return _shaped(x, out)


def _whole_sum(x, axis=-1):
    """exp(s - max) of every row, all divided by the matrix's one sum."""
    rows = _rows(x)
    exps = [[math.exp(s - max(row)) for s in row] for row in rows]
    total = math.fsum(e for row in exps for e in row)
    return _shaped(x, [[e / total for e in row] for row in exps])


def _no_exp(row):
    total = math.fsum(row)
    return [s / total for s in row]


def _minus_min(row):
    low = min(row)                          # -inf when a key is masked: exp(inf)
    exps = [math.exp(s - low) for s in row]
    total = math.fsum(exps) if all(e != math.inf for e in exps) else math.inf
    return [math.nan if e == total == math.inf else e / total for e in exps]


def _scaled(row):
    return lesson.softmax([s / math.sqrt(len(row)) for s in row])


def _large_mask(x, axis=-1):
    """-inf replaced by -1e9, as d2l and The Annotated Transformer mask."""
    return lesson.softmax([[(-1e9 if s == NEG_INF else s) for s in row] for row in _rows(x)])


def _grand_total(W, tol=1e-9):
    rows = _rows(W)
    return abs(math.fsum(w for row in rows for w in row) - len(rows)) <= tol


def _rows_of_one(W, tol=1e-9):
    if W and not isinstance(W[0], list):
        return all(abs(w - 1) <= tol for w in W)
    return lesson.rows_normalised(W, tol)


def _exact(W, tol=1e-9):
    return all(math.fsum(row) == 1 for row in _rows(W))


def _fixed_tol(W, tol=1e-9):
    return lesson.rows_normalised(W)


def _per_row(W, tol=1e-9):
    return [abs(math.fsum(row) - 1) <= tol for row in _rows(W)]


def _show(value):
    return f"{value:.4g}"


class Mistake:
    """What one mistake returns (``answer``, on a check's input) and its sentence,
    a format with {got} and {right} (each to 4 figures) and {n}."""

    def __init__(self, function, answer, sentence):
        self.function, self.answer, self.sentence = function, answer, sentence


MISTAKES = [
    # entropy
    Mistake("entropy", lambda w: lesson.entropy(w) / math.log(2),
            "your entropy is {right} / ln 2 = {got}: that is log base 2; use math.log, "
            "the natural log"),
    Mistake("entropy", lambda w: lesson.entropy(w) / math.log(10),
            "your entropy is {right} / ln 10 = {got}: that is log base 10; use math.log, "
            "the natural log"),
    Mistake("entropy", lambda w: -lesson.entropy(w),
            "your entropy is {got}, minus the right {right}: entropy is -sum(w * ln w); "
            "the minus sign makes it 0 or more"),
    Mistake("entropy", lambda w: lesson.entropy(w) / math.log(len(w)),
            "your entropy is {right} / ln {n} = {got}: that divides by ln n (normalised "
            "entropy); the lesson's entropy is in nats, not divided"),
    # softmax
    Mistake("softmax", _whole_max,
            "a row far below the others came back as 0/0 or nan: you subtract the "
            "whole matrix's maximum, and every exp() of that row underflows to 0; "
            "subtract each row's own maximum"),
    Mistake("softmax", _whole_sum,
            "your rows add up to 1 together, not each: you divide by the whole matrix's "
            "sum; divide each row by its own sum"),
    Mistake("softmax", _by_rows(_no_exp),
            "your weights are the scores divided by their sum: exponentiate each score "
            "first (exp(s - max)), then divide"),
    Mistake("softmax", _by_rows(_minus_min),
            "you subtract the row's minimum: subtract its maximum, so the largest "
            "exponential is exp(0) = 1 and none can overflow"),
    Mistake("softmax", _by_rows(_scaled),
            "you divide the scores by sqrt(n) first: softmax takes the scores as they "
            "are (scaling by sqrt(d_k) happens before, in attention)"),
    Mistake("softmax", lambda x, axis=-1: lesson.softmax(x),
            "with axis=0 you normalised each row: axis=0 runs down each column"),
    Mistake("softmax", _large_mask,
            "a row with every key masked came back as weights: that is masking with "
            "-1e9 instead of -inf; with -inf, a row with no key to see must raise "
            "ValueError"),
    # naive_softmax
    Mistake("naive_softmax", lambda x: lesson.softmax(x),
            "naive_softmax gave {got}: it subtracts the maximum, so it cannot fail; the "
            "naive recipe is exp(x) / sum(exp(x)) with no subtraction"),
    # rows_normalised
    Mistake("rows_normalised", _grand_total,
            "you compare the total of every weight with the number of rows: each row "
            "must sum to 1 on its own"),
    Mistake("rows_normalised", _rows_of_one,
            "you read a flat list as rows of one weight each: a flat list is one row"),
    Mistake("rows_normalised", _exact,
            "you compare the sum with 1 exactly (== 1): compare abs(sum - 1) <= tol"),
    Mistake("rows_normalised", _fixed_tol,
            "you use a fixed tolerance: use the tol argument the call gives"),
    Mistake("rows_normalised", _per_row,
            "you return a bool per row: return one bool, True only if every row "
            "sums to 1 (all(...))"),
]

# Raised instead of the ValueError a row with no visible key must raise.
WRONG_ERROR = ("you raise {type}: a row with no key to see must raise ValueError "
               "(or a subclass of it)")


def diagnose(check, outcome, others=()):
    """The sentence naming the mistake ``outcome`` shows, or None when no
    usual mistake gives what came back.

    ``others`` are the (check, outcome) pairs of the function's other checks:
    among the mistakes that give this answer, the one that also gives the
    most of those answers is named (two, when they tie).
    """
    error = outcome.get("error")
    if (error is not None and check.kind == "raises"
            and "ValueError" not in (error.get("kinds") or [])):
        return WRONG_ERROR.format(type=error.get("type", "an exception"))
    found = []
    for mistake in MISTAKES:
        if mistake.function == check.function and _gives(mistake, check, outcome):
            agrees = sum(_gives(mistake, c, o) for c, o in others if c is not check)
            found.append((-agrees, len(found), mistake))
    found.sort(key=lambda f: f[:2])
    best = [m for agrees, _, m in found if agrees == found[0][0]] if found else []
    right = _right(check)
    got = outcome.get("value")
    sentences = [m.sentence.format(
        got=_show(got) if _number(got) else got,
        right=_show(right) if _number(right) else right,
        n=len(check.args[0]) if isinstance(check.args[0], list) else "?") for m in best[:2]]
    # Two mistakes that give the same answers are both what the values show.
    return "; or ".join(sentences) or None


def _gives(mistake, check, outcome):
    """Would this mistake have given this outcome on this check?"""
    try:
        wrong = mistake.answer(*check.args, **check.kwargs)
    except (ArithmeticError, ValueError) as failed:
        wrong = failed                      # the mistake fails here: 0/0, say
    except (TypeError, IndexError):
        return False
    error = outcome.get("error")
    if "value" not in outcome and error is None:
        return False
    if check.kind in ("raises", "fails") and not all(map(math.isfinite, _flat(wrong))):
        return False                        # nan or inf where it should fail: no news
    if _same(outcome.get("value"), wrong):
        return True
    # Failing where the mistake fails says something only where the check
    # wants an answer: where it wants a failure, failing is right.
    return check.kind not in ("raises", "fails") and _fails_alike(outcome.get("value"),
                                                                  error, wrong)


def _right(check):
    from lesson.grader.judge import expected
    return expected(check)


def _fails_alike(got, error, wrong):
    """Did the learner's call fail where the mistake fails: the same exception,
    or (with NumPy) nan or inf where the mistake divides by 0 or overflows?"""
    if not isinstance(wrong, BaseException):
        return False
    if error is not None:
        return type(wrong).__name__ in (error.get("kinds") or [])
    numbers = _flat(got)
    return bool(numbers) and not all(math.isfinite(n) for n in numbers)


def _flat(value):
    if _number(value):
        return [float(value)]
    if isinstance(value, list):
        out = []
        for item in value:
            out += _flat(item)
        return out
    return []


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(got, wrong):
    """Does a returned value match a mistake's answer (bools exactly, numbers to 1e-9)?"""
    if isinstance(wrong, bool) or isinstance(got, bool):
        return type(got) is bool and got == wrong
    if isinstance(wrong, list):
        return (isinstance(got, list) and len(got) == len(wrong)
                and all(_same(g, w) for g, w in zip(got, wrong)))
    if not _number(got) or not _number(wrong):
        return False
    if math.isnan(wrong) or math.isnan(got):
        return math.isnan(wrong) and math.isnan(got)
    return math.isclose(got, wrong, rel_tol=1e-9, abs_tol=1e-12)
