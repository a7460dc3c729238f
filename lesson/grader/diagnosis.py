"""What a function's answers and code prove: the usual mistakes they name, or a sign, or a fact.

When a check fails, ``diagnose`` works out what every mistake of that
function (``lesson.grader.mistakes``) returns on each of the function's
checks, and names a mistake only if it explains every answer the function
gave (both passed, or both gave the same answer), and the learner's code
could make it (``lesson.grader.reading``: a ``rows_normalised`` that never
calls ``np.isclose`` did not make np.isclose's mistake).  Two or three
that are left are named together, "either … or …".  When none is, no
mistake is named: a sign in the value itself may name its cause (float32,
rounding, a generator, the wrong exception), or a fact says what the value
shows ("your row sums to 3, not 1") before the check's own hint.

A hint speaks the learner's dialect, as the code shows it: lists or NumPy
(in either, where the code was not read), and "column" for "row" where the
check normalises columns (axis=0).

Diagnosis            what ``diagnose`` returns: the names it found, and the text
diagnose(check, outcome, right, same_function, code)   -> Diagnosis

    >>> from lesson.grader.contract import check_named, right_answer
    >>> check = check_named("uniform over 4 is ln 4")
    >>> found = diagnose(check, {"value": 2.0}, right_answer(check))
    >>> found.names
    ('entropy_log2',)
    >>> found.text
    'your entropy is 1.386 / ln 2 = 2: you take log base 2; use math.log, the natural log'
    >>> diagnose(check, {"value": 7.0}, right_answer(check))
    Diagnosis(names=(), text=None)

A row 1e-8 short of 1 passes: three mistakes give that answer, and the
code of a plain-list solution that compares without abs() makes only one:

    >>> check = check_named("outside tol is false")
    >>> diagnose(check, {"value": True}, right_answer(check)).names
    ('rows_no_abs', 'rows_loose_fixed_tolerance', 'rows_allclose')
    >>> found = diagnose(check, {"value": True}, right_answer(check),
    ...                  code=frozenset({"compares without abs"}))
    >>> found.names
    ('rows_no_abs',)
    >>> print(found.text)
    you compare sum - 1 with tol without abs(), so a row short of 1 passes; compare abs(sum - 1) <= tol
"""

import math
import re
import struct
from typing import NamedTuple, Optional

from lesson.grader.compare import (REL_TOL, digits_to_differ, matches, numbers,
                                   raised_one_of, rounded, shape)
from lesson.grader.contract import KINDS, STARTER, show
from lesson.grader.mistakes import (FLOAT32, GENERATOR, MISTAKES, NOT_A_PARAMETER,
                                    NOT_NUMBERS, ROUNDED, WRONG_ERROR, transpose)
from lesson.tables import show_value

MOST_NAMED = 3          # more mistakes than this explain the answers: name none


class Diagnosis(NamedTuple):
    """What a failed check's answers prove: ``names``, the mistakes (or the
    sign) found, by name (``Mistake.name``, ``Sign.name``; none for a fact
    or nothing), and ``text``, the hint that says it (None: nothing proved,
    the check's own hint stands)."""
    names: tuple = ()
    text: Optional[str] = None


NOTHING = Diagnosis()

SIGNATURES = {name: f"{name}({parameters})" for name, parameters
              in re.findall(r"^def (\w+)\((.*)\):", STARTER, re.MULTILINE)}


def diagnose(check, outcome, right, same_function=(), code=None):
    """What the function's answers and code prove, for a failed check (a ``Diagnosis``).

    ``right`` is the check's right answer; ``same_function`` holds the
    (check, outcome, right answer) of the function's checks; ``code`` is
    the facts of the function's code (``reading.facts``), or None where it
    was not read.  The mistakes that explain every answer, and that the
    code could make, are named, up to MOST_NAMED; with none, a sign of what
    the value shows, before the check's own hint.
    """
    unknown = _not_a_parameter(check, outcome.get("error"))
    if unknown:
        return unknown                              # the call failed before the code ran
    answers = [(check, outcome, right)] + [each for each in same_function
                                           if each[0] is not check]
    named = [mistake for mistake in MISTAKES if mistake.function == check.function
             and mistake.possible(code) and _explains(mistake, answers)]
    if 0 < len(named) <= MOST_NAMED:
        return Diagnosis(tuple(m.name for m in named),
                         _naming(named, check, outcome, right, _dialect(code)))
    return _sign(check, outcome, right)


def _dialect(code):
    """"numpy" or "lists", as the function's code is written; None: not read."""
    return None if code is None else "numpy" if "numpy" in code else "lists"


def _explains(mistake, answers):
    """Does one way of writing the mistake give every answer (the first one
    above all, the others where it has a say)?"""
    for answer in mistake.answers:
        agree = [_agrees(mistake.outcome(check, answer), check, outcome, right)
                 for check, outcome, right in answers]
        if agree[0] is True and False not in agree:
            return True
    return False


def _agrees(wrong, check, outcome, right):
    """True if the learner's outcome and the mistake's (``wrong``) both pass,
    or both fail with the same answer; False if not; None where either
    decides nothing."""
    if wrong is None or ("error" not in outcome and outcome.get("value") is None):
        return None                             # no say; missing, hung, or None
    kind = KINDS[check.kind]
    passed = _passes(kind, outcome, right)
    if passed != _passes(kind, wrong, right):
        return False
    return passed or _same_answer(outcome, wrong)


def _passes(kind, outcome, right):
    if "error" in outcome:
        return kind.accepts(outcome["error"])
    return kind.passes(outcome["value"], right)


def _same_answer(outcome, wrong):
    """The same value; or both failing loudly: an ArithmeticError or ValueError,
    or inf or nan, on each side (lists raise where NumPy gives nan); or both
    raising the same other error (a TypeError)."""
    if "error" not in outcome and "error" not in wrong:
        return matches(outcome["value"], wrong["value"])
    if "error" in outcome and "error" in wrong and not _fails_loudly(wrong):
        return raised_one_of(outcome["error"], (wrong["error"]["type"],))
    return _fails_loudly(outcome) and _fails_loudly(wrong)


def _fails_loudly(outcome):
    """As the "fails" checks want: an ArithmeticError or ValueError, or inf or nan."""
    return _passes(KINDS["fails"], outcome, None)


def _naming(named, check, outcome, right, dialect=None):
    """One mistake, with its evidence; or two or three, "either ... or ...", each
    with its fix; in the learner's ``dialect``, about rows or columns."""
    line = "column" if check.kwargs.get("axis") == 0 else "row"
    said = [mistake.said(dialect, line) for mistake in named]
    if len(named) > 1:
        return "your answers fit {} mistakes: either {}".format(
            ("two", "three")[len(named) - 2], "; or ".join(f"{w}: {f}" for w, f in said))
    mistake, (what, fix) = named[0], said[0]
    sentence = f"{what}; {fix}"
    if not mistake.evidence:
        return sentence
    scores = check.args[0]
    evidence = mistake.evidence.format(got=_show(outcome.get("value")), right=_show(right),
                                       n=len(scores) if isinstance(scores, list) else "?")
    return f"{evidence}: {sentence}"


def _show(value):
    return show_value(value, 4)


def _sign(check, outcome, right):
    """A sign that names its cause; else what the value shows, then the check's
    hint; else nothing."""
    if "error" in outcome:
        return _error_sign(check, outcome["error"], right)
    got = outcome.get("value")
    if got is None:
        return NOTHING                              # not done yet: the report says so
    for sign in (_not_numbers, _float32, _rounded):
        said = sign(check, got, right)
        if said:
            return said
    fact = _fact(check, got, right)
    return Diagnosis((), f"{fact}; {check.hint}") if fact else NOTHING


def _error_sign(check, error, right):
    """An exception the check does not take, where it wants one."""
    kind = KINDS[check.kind]
    if kind.errors and not kind.accepts(error):
        said = _said(WRONG_ERROR, type=error.get("type", "an exception"),
                     wanted=kind.wanted(right))
        return said._replace(text=f"{said.text}; {check.hint}")
    return NOTHING


def _not_a_parameter(check, error):
    """The sign of a call that gives a keyword the function has no parameter
    for (a TypeError before any of its code runs), or None."""
    if not error:
        return None
    unknown = re.search(r"unexpected keyword argument '(\w+)'", str(error.get("message")))
    if raised_one_of(error, ("TypeError",)) and unknown and check.kwargs:
        return _said(NOT_A_PARAMETER, name=unknown.group(1),
                     signature=SIGNATURES[check.function])
    return None


def _said(sign, **values):
    """The diagnosis that names ``sign``, its sentence filled in with ``values``."""
    return Diagnosis((sign.name,), sign.says.format(**values))


def _not_numbers(check, got, right):
    """A string, a generator, a Decimal: anything else than numbers and bools."""
    other = _first_other(got)
    if other is None:
        return None
    shown = GENERATOR if other["other"] == "generator" else show_value(other)
    if other is not got:
        shown = f"a list holding {shown}"
    return _said(NOT_NUMBERS, function=check.function, got=shown,
                 wanted=KINDS[check.kind].returns)


def _first_other(value):
    if isinstance(value, dict) and "other" in value:
        return value
    if isinstance(value, list):
        return next(filter(None, map(_first_other, value)), None)
    return None


def _float32(check, got, right):
    """Every number a float32, each the right one to float32's precision."""
    values, wanted = numbers(got), numbers(right)
    if not values or not wanted or len(values) != len(wanted):
        return None
    if not all(_is_float32(v) and abs(v - w) <= 1e-4 * max(abs(w), 1e-3)
               for v, w in zip(values, wanted)):
        return None
    g, w = next(((g, w) for g, w in zip(values, wanted) if g != w), (values[0], wanted[0]))
    return _said(FLOAT32, got=f"{g:.9g}", right=f"{w:.9g}", tol=show(REL_TOL))


def _is_float32(value):
    try:
        return struct.unpack("f", struct.pack("f", value))[0] == value
    except OverflowError:
        return False


def _rounded(check, got, right):
    """Every number the right one, rounded to the same few decimals."""
    values, wanted = numbers(got), numbers(right)
    if not values or not wanted or len(values) != len(wanted):
        return None
    for places in range(1, 9):
        if values == rounded(values, places):
            if matches(values, rounded(wanted, places)) and values != wanted:
                return _said(ROUNDED, places=places)
            return None
    return None


def _fact(check, got, right):
    """What a wrong value shows, in a sentence, or None.  Where the call must
    fail (no right answer) the report's "got" says it all."""
    if isinstance(right, bool):
        return None if isinstance(got, bool) else f"you returned {_show(got)}, not True or False"
    values = numbers(got)
    if not values or right is None:
        return None
    if any(math.isnan(v) for v in values):
        return "your answer holds nan (from 0/0, inf/inf or inf - inf)"
    if any(math.isinf(v) for v in values):
        return "your answer holds inf (an exp() overflowed)"
    if check.function == "entropy":
        return (f"your entropy is {_show(got)}, below 0, and -sum(w * ln w) never is"
                if values[0] < 0 else None)
    if isinstance(right, list) and shape(got) != shape(right):
        return f"you returned {_described(got)} for {_described(right)}"
    return _rows_fact(check, got, right)


def _rows_fact(check, got, right):
    """Rows (or, with axis=0, columns) that do not sum to 1, or are all the same."""
    form = shape(got)
    if not isinstance(form, list):
        return None                                 # one number, where weights belong
    if form == [0] * len(form):
        lines, noun = [got], "row"
    elif form == [form[0]] * len(form) and form[0] and form[0] == [0] * len(form[0]):
        columns = check.kwargs.get("axis") == 0
        lines, noun = (transpose(got), "column") if columns else (got, "row")
    else:
        return None                                 # ragged, or deeper than a matrix
    low = min(v for line in lines for v in line)
    if low < 0:
        return f"a weight of {low:.4g} is below 0, and exp() never is"
    sums = [math.fsum(line) for line in lines]
    if not all(matches(total, 1.0) for total in sums):
        digits = digits_to_differ(sums, [1.0] * len(sums), 4)
        shown = [show_value(total, digits) for total in sums]
        if len(sums) == 1:
            return f"your {noun} sums to {shown[0]}, not 1"
        return f"your {noun}s sum to {', '.join(shown[:-1])} and {shown[-1]}, not 1 each"
    if not isinstance(right, list):
        return None
    right_lines = transpose(right) if noun == "column" else right
    if len(lines) > 1 and all(line == lines[0] for line in lines) and \
            not all(line == right_lines[0] for line in right_lines):
        return f"you returned the same weights for every {noun}"
    return None


def _described(value):
    if isinstance(value, list) and value and isinstance(value[0], list):
        return f"{len(value)} rows of {len(value[0])}"
    return f"{len(value)} numbers" if isinstance(value, list) else "one number"


