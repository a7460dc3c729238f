"""Questions that answer back, the widget's data, and the two "why" pages.

Build-time functions for the site's placeholders (registered in
``lesson_site.PLACEHOLDERS``).  Every right answer, every explanation and
every number here is computed with :mod:`lesson` when the site is built:

    {{ quiz NAME }}            a multiple-choice question: a form of radio
                               buttons; every option carries its explanation
    {{ answer_box NAME }}      a box for a by-hand answer, with the answer, its
                               precision and the common wrong answers diagnosed
    {{ table_source }}         where the idea page's three scores come from
    {{ why_softmax PART }}     "Why exponentiate?": compare, temperature, figure
    {{ scaling PART }}         "Why divide by sqrt(d_k)?": table, figure

``docs/assets/quiz.js`` makes the forms answer back.  Without JavaScript a
question still shows its options, and "Show the answer" explains each one.
"""

import functools
import html
import json
import math
import random
import statistics

import lesson
from lesson import example
from lesson.tables import TABLE_HEADER, fmt, fmt_list, fmt_tiny

from .markdown_text import markdown_table

NEG_INF = -math.inf


def _list(values, digits=4):
    return fmt_list(values, digits)


def _weights(values, digits=4):
    """A list of weights, each with the same number of decimals, so a list reads
    evenly: [0.5972, 0.2940, 0.1083], not [0.5972, 0.294, 0.1083].  A weight too
    small for those decimals is shown as the lesson's tables show it
    (``lesson.tables.fmt_tiny``), never as 0.

    >>> _weights([0.6, 0.29403, 2.6e-9]), _weights([1.0, 0.0]), _weights([-0.0, 0.5], 2)
    ('[0.6000, 0.2940, 2.6e-9]', '[1.0000, 0.0000]', '[0.00, 0.50]')
    """
    def one(w):
        if w != 0 and abs(w) < 0.5 * 10 ** -digits:
            return fmt_tiny(w)
        text = f"{w:.{digits}f}"
        return text.lstrip("-") if float(text) == 0 else text
    return "[" + ", ".join(one(w) for w in values) + "]"


def shown_scores():
    """The lesson's scores as the pages print them: 1/sqrt(2) to four places.

    Every equation on a page is worked from these printed numbers, so that
    softmax([0.7071, 0, -1]) = [...] is true for the 0.7071 a learner reads.

    >>> shown_scores()
    [0.7071, 0.0, -1.0]
    """
    return [float(fmt(s)) for s in example.TABLE_SCORES]


def _g(value):
    """A weight to three significant figures, so a tiny one is not shown as 0."""
    return f"{value:.3g}"


# --- Where the idea page's scores come from ----------------------------------

# One query and three keys with d_k = 2.  The first two keys are the chapter's
# worked example; the third points the other way, sqrt(2) long.
TABLE_QUERY = [1.0, 0.0]
TABLE_KEYS = [[1.0, 0.0], [0.0, 1.0], [-math.sqrt(2), 0.0]]
TABLE_KEYS_SHOWN = ["[1, 0]", "[0, 1]", "[\u2212\u221a2, 0]"]
# The value each key carries, drawn by the widget; keys added later take the rest.
WIDGET_VALUES = [[2, 0], [0, 2], [0, -2], [-2, 0], [1, 1], [-1, 1], [-1, -1], [1, -1]]

# The causal heatmap's four example tokens (lesson.example.TOKENS are their vectors).
TOKEN_WORDS = ("the", "cat", "sat", "down")


def table_source():
    """The three scores as q . k / sqrt(d_k), checked against the table's scores."""
    scores = lesson.scaled_scores(TABLE_QUERY, TABLE_KEYS)
    if scores != example.TABLE_SCORES:
        raise ValueError(f"table_source: q and the keys give {scores}, "
                         f"not the table's scores {example.TABLE_SCORES}")
    rows = [("key", "\\(k\\)", "\\(q \\cdot k\\)", "\\(q \\cdot k / \\sqrt{2}\\)")]
    for i, (k, shown, s) in enumerate(zip(TABLE_KEYS, TABLE_KEYS_SHOWN, scores), 1):
        dot = math.fsum(a * b for a, b in zip(TABLE_QUERY, k))
        rows.append((str(i), shown, fmt(dot), fmt(s)))
    return markdown_table(rows)


def widget_attributes():
    """The widget's data: scores, value vectors, the table's column headers
    (the static table prints the same TABLE_HEADER), and what an all-masked
    row gets."""
    try:
        lesson.softmax([NEG_INF, NEG_INF])
    except ValueError as error:
        all_masked = f"ValueError: {error}"
    else:                                                      # pragma: no cover
        raise AssertionError("softmax of an all-masked row must raise")
    scores = " ".join(repr(s) for s in example.TABLE_SCORES)
    values = " ".join(f"{x},{y}" for x, y in WIDGET_VALUES)
    headers = html.escape(json.dumps(TABLE_HEADER), quote=True)
    return (f'data-scores="{scores}" data-values="{values}" data-headers="{headers}" '
            f'data-all-masked="{html.escape(all_masked, quote=True)}"')


# --- Multiple-choice questions ------------------------------------------------
#
# A question is (legend, options, worked answer).  An option is (text, right,
# why): ``why`` is shown when the option is chosen, so a wrong option says
# which misconception it comes from.

def _rows():
    Q, K, V = [[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 1]], [[2, 0], [0, 2]]
    _, A = lesson.attention(Q, K, V)
    rows = ", ".join(fmt(math.fsum(row), 12) for row in A)
    total = fmt(math.fsum(map(math.fsum, A)), 12)
    return (
        "Must attention weights sum to one across every query in the whole batch?",
        [("Yes", False,
          f"That holds for a batch of one query only. Softmax normalises each "
          f"query's row on its own, so three queries against the same keys give "
          f"rows that sum to {rows}: {total} in all."),
         ("No", True,
          f"Each query's row of weights sums to 1, and nothing ties one row to "
          f"another, so {len(Q)} queries have weights that add up to {total}.")],
        f"<code>attention(Q, K, V)</code> with Q = {Q}, K = {K}: the rows sum to "
        f"{rows}, the whole matrix to {total}.")


def _shift():
    s = shown_scores()
    c = 5
    before, after = lesson.softmax(s), lesson.softmax([x + c for x in s])
    same = all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(before, after))
    assert same, "adding a constant must not move the weights"
    return (
        f"Add {c} to each of the lesson's scores {_list(s)}. What happens to the weights?",
        [("Nothing: they stay the same", True,
          f"Only the differences between scores matter. Every e<sup>s</sup> is "
          f"multiplied by e<sup>{c}</sup> = {fmt(math.exp(c), 1)}, and that factor "
          f"cancels in the division: softmax({_list([x + c for x in s])}) = "
          f"{_weights(after)}, the same weights. Subtracting the maximum is this shift, "
          f"with c = \u2212max."),
         ("Every weight grows, because every score grew", False,
          f"The weights still add up to 1, so they cannot all grow. Each exp grows "
          f"by the same factor e<sup>{c}</sup>, and dividing by the sum cancels it: "
          f"the weights stay {_weights(after)}."),
         ("The largest weight grows and the others shrink", False,
          f"That is what multiplying the scores by more than 1 does: it stretches the gaps "
          f"between them. Adding {c} moves every score by the same amount, so the "
          f"gaps, and the weights {_weights(after)}, stay as they were.")],
        f"softmax({_list(s)}) = {_weights(before)} and "
        f"softmax({_list([x + c for x in s])}) = {_weights(after)}.")


def _double():
    s = shown_scores()
    w, w2, half = (lesson.softmax(s), lesson.softmax([2 * x for x in s]),
                   lesson.softmax([x / 2 for x in s]))
    return (
        f"Multiply each of the lesson's scores {_list(s)} by 2. "
        f"What happens to the weights?",
        [("They stay the same", False,
          f"Only adding a constant leaves the weights alone. Doubling the scores "
          f"doubles the gaps between them, so the weights change from {_weights(w)} "
          f"to {_weights(w2)}."),
         ("They get sharper: the largest grows, the others shrink", True,
          f"softmax({_list([2 * x for x in s])}) = {_weights(w2)}, against "
          f"{_weights(w)} before. Doubling the scores is a temperature of T = 0.5."),
         ("Every weight doubles", False,
          f"The weights always add up to 1, so they cannot all double. "
          f"e<sup>2s</sup> = (e<sup>s</sup>)<sup>2</sup>: the exps are squared, "
          f"then normalised, giving {_weights(w2)}."),
         ("They get flatter, closer to equal", False,
          f"That is what halving the scores does (T = 2): {_weights(half)}. Doubling "
          f"stretches the gaps, giving {_weights(w2)}.")],
        f"softmax({_list(s)}) = {_weights(w)}; doubled, {_weights(w2)}; halved, "
        f"{_weights(half)}.")


def _tiny():
    w = lesson.softmax([2, -100])
    masked = lesson.softmax([2, NEG_INF])
    assert w[1] > 0 and masked[1] == 0
    return (
        "The scores are [2, \u2212100]. Is the second key's weight exactly 0?",
        [("Yes: e<sup>\u2212100</sup> is as good as 0", False,
          f"Close to 0 is not 0. The second weight is {_g(w[1])}: tiny, but "
          f"positive, so the key still counts a little. Only a score of \u2212\u221e "
          f"gives exactly 0: softmax([2, \u2212inf]) = {masked}."),
         ("No: it is tiny but positive; only \u2212\u221e gives exactly 0", True,
          f"softmax([2, \u2212100]) = [{w[0]}, {_g(w[1])}]: the first weight rounds "
          f"to {w[0]} in floating point, yet the second is positive. A mask uses "
          f"\u2212\u221e because exp(\u2212\u221e) is exactly 0."),
         ("No: it is negative, because its score is negative", False,
          f"Every e<sup>s</sup> is positive, so every weight is positive whatever "
          f"the sign of its score. Here it is {_g(w[1])}.")],
        f"softmax([2, \u2212100]) = [{w[0]}, {_g(w[1])}]; softmax([2, \u2212inf]) = {masked}.")


def _temperature():
    s = example.TABLE_SCORES
    cold, hot = (lesson.softmax([x / 0.1 for x in s]), lesson.softmax([x / 100 for x in s]))
    shown = f"T = 0.1 gives {_weights(cold)}; T = 100 gives {_weights(hot)}"
    return (
        "Softmax with temperature divides every score by T first. What do the "
        "weights tend to as T \u2192 0, and as T \u2192 \u221e?",
        [("T \u2192 0: all the weight on the largest score (argmax); "
          "T \u2192 \u221e: equal weights", True,
          f"Dividing by a small T stretches the gaps between scores, so the largest "
          f"takes nearly everything; a large T squeezes every score towards 0, so the "
          f"weights approach 1/n. For the lesson's scores, {shown}."),
         ("T \u2192 0: equal weights; T \u2192 \u221e: argmax", False,
          f"The other way round: a small T divides by a small number, which makes "
          f"the gaps between scores larger, not smaller. {shown}."),
         ("Neither: only differences between scores matter, and T keeps them", False,
          f"Adding a constant keeps the differences; dividing by T scales them. "
          f"{shown}.")],
        shown + ".")


def _mask():
    q, K, V = example.q, example.K, example.V
    masked_out, masked_w = lesson.attention(q, K, V, mask=[0.0, NEG_INF])
    _, w = lesson.attention(q, K, V)
    zeroed = [w[0], 0.0]
    zeroed_out = [math.fsum(a * v[j] for a, v in zip(zeroed, V)) for j in range(2)]
    scores = lesson.scaled_scores(q, K)
    return (
        "A causal model must not let the worked example's query see key 2. "
        "Where does the mask go?",
        [("Add \u2212\u221e to key 2's score, before softmax", True,
          f"Then key 1 takes all the weight: attention(q, K, V, mask=[0, \u2212inf]) "
          f"gives weights {_weights(masked_w)} and output {_list(masked_out)}. The keys "
          f"that may be seen always share a total weight of 1."),
         ("Run softmax, then set key 2's weight to 0", False,
          f"Then the weights no longer add up to 1: softmax gives {_weights(w)}, and "
          f"zeroing the second leaves {_weights(zeroed)}, which sums to "
          f"{fmt(math.fsum(zeroed))}. The output shrinks to {_list(zeroed_out)} "
          f"instead of {_list(masked_out)}."),
         ("Set key 2's score to 0, before softmax", False,
          f"A score of 0 is not \"no attention\": e<sup>0</sup> = 1. Key 2's scaled "
          f"score is already {fmt(scores[1])} here, and it still gets weight "
          f"{fmt(w[1])}. Only \u2212\u221e gives a weight of exactly 0.")],
        f"Masked before softmax: weights {_weights(masked_w)}, output "
        f"{_list(masked_out)}. Zeroed after: {_weights(zeroed)}, output {_list(zeroed_out)}.")


def divide_by_sum(scores):
    """Scores divided by their sum, the 'normalisation' softmax is not."""
    total = math.fsum(scores)
    if total == 0:
        return None
    return [s / total for s in scores]


def _divide():
    s = shown_scores()
    naive = divide_by_sum(s)
    return (
        "Why not turn scores into weights by dividing each by their sum, "
        "w<sub>i</sub> = s<sub>i</sub> / \u03a3 s<sub>j</sub>?",
        [("Scores can be negative: the weights can go negative, or the sum can be 0", True,
          f"The lesson's scores {_list(s)} sum to {fmt(math.fsum(s))}, so dividing "
          f"gives {_weights(naive)}: the largest score gets a negative weight. "
          f"[1, \u22121] sums to 0, and there is nothing to divide by. Exponentiating "
          f"first makes every term positive."),
         ("Nothing is wrong with it; softmax is just faster", False,
          f"Softmax is not faster: exp costs more than a division. The trouble is "
          f"negative scores: {_list(s)} would get the weights {_weights(naive)}."),
         ("The results would not add up to 1", False,
          f"They do add up to 1 whenever the sum is not 0: "
          f"{_weights(naive)} sums to {fmt(math.fsum(naive))}. The trouble is the "
          f"sign: a negative weight, and for the largest score.")],
        f"Divided by their sum, {_list(s)} become {_weights(naive)}; softmax "
        f"gives {_weights(lesson.softmax(s))}.")


def _argmax():
    s = shown_scores()
    w = lesson.softmax(s)
    slope = w[0] * (1 - w[0])
    return (
        "A hard argmax gives all the weight to the largest score. Why does attention "
        "use softmax instead?",
        [("Softmax is smooth: nudging a score moves the weights a little, so training "
          "gets a gradient", True,
          f"The slope of w<sub>1</sub> against s<sub>1</sub> is "
          f"w<sub>1</sub>(1 \u2212 w<sub>1</sub>) = {fmt(slope)} for the lesson's "
          f"scores. Argmax's output does not move at all until the largest score "
          f"changes, so its slope is 0 almost everywhere: nothing to learn from."),
         ("Argmax cannot decide when two scores tie", False,
          "Ties are rare and easy to break (take the first). The real trouble is that "
          "argmax is flat: a small change in a score changes nothing, so its "
          "gradient is 0 and a model cannot learn its scores from it."),
         ("They give the same weights anyway", False,
          f"Only as the temperature goes to 0. At T = 1 the lesson's weights are "
          f"{_weights(w)}: every key contributes to the output, not just the first.")],
        f"softmax({_list(s)}) = {_weights(w)}; argmax gives [1, 0, 0].")


def _scaling():
    rows = scaling_experiment()
    big = rows[-1]
    return (
        "Attention divides every q\u00b7k by \u221ad<sub>k</sub>. What does that do?",
        [("It keeps the spread of the scores near 1 whatever d<sub>k</sub>, so the "
          "weights do not collapse to one-hot", True,
          f"In the experiment above, with d<sub>k</sub> = {big['d_k']} the raw q\u00b7k "
          f"spread is {big['spread']:.1f} and the largest weight averages "
          f"{big['top_raw']:.2f}; divided by \u221a{big['d_k']} = {math.sqrt(big['d_k']):g}, "
          f"the spread is {big['spread_scaled']:.2f} and the largest weight "
          f"{big['top_scaled']:.2f}."),
         ("It stops exp() from overflowing", False,
          "Subtracting the maximum already does that, for any scores, and it changes "
          "no weight. Dividing by \u221ad<sub>k</sub> does change the weights: it is "
          "a temperature T = \u221ad<sub>k</sub>, chosen to undo the growth of the spread."),
         ("It makes each row of weights sum to 1", False,
          "Softmax does that for any scores, scaled or not. Scaling changes how "
          "the weight is shared out, not what it sums to."),
         ("It makes the scores positive", False,
          "Dividing by a positive number keeps every sign. Softmax needs no positive "
          "scores anyway: exp makes every term positive.")],
        f"With d<sub>k</sub> = {big['d_k']}: largest weight {big['top_raw']:.2f} "
        f"unscaled, {big['top_scaled']:.2f} scaled.")


QUIZZES = {"rows": _rows, "shift": _shift, "double": _double, "tiny": _tiny,
           "temperature": _temperature, "mask": _mask, "divide": _divide,
           "argmax": _argmax, "scaling": _scaling}
LETTERS = "ABCDEFGH"


def quiz(name):
    """A multiple-choice question as an HTML form, with every option explained."""
    legend, options, worked = QUIZZES[name]()
    if sum(right for _, right, _ in options) != 1:
        raise ValueError(f"quiz {name!r}: exactly one option must be right")
    group = f"quiz-{name}"
    lines = [f'<form class="lesson-quiz" id="{group}" data-quiz="{name}">',
             f"<fieldset><legend>{legend}</legend>"]
    for letter, (text, right, _) in zip(LETTERS, options):
        lines.append(f'<label class="quiz-option"><input type="radio" name="{group}" '
                     f'value="{letter}" data-right="{str(right).lower()}"> '
                     f'<span class="quiz-letter">{letter}.</span> <span>{text}</span></label>')
    lines.append("</fieldset>")
    lines.append('<div class="quiz-feedback" role="status" aria-live="polite"></div>')
    lines.append('<details class="success quiz-answer"><summary>Show the answer, '
                 'and why each option is right or wrong</summary>')
    right_letter = next(l for l, (_, r, _) in zip(LETTERS, options) if r)
    lines.append(f"<p><strong>{right_letter}.</strong> {worked}</p><ul>")
    for letter, (text, right, why) in zip(LETTERS, options):
        verdict = "Right" if right else "Wrong"
        lines.append(f'<li data-option="{letter}"><strong>{letter}, {verdict.lower()}.</strong> '
                     f'<span class="quiz-why">{why}</span></li>')
    lines.append("</ul></details></form>")
    return "\n".join(lines)


# --- Answer boxes for the by-hand questions ---------------------------------
#
# An answer box holds the answer, the tolerance the question's precision
# allows, and diagnoses: wrong values (or words) and what each reveals.

def _first_weight():
    s = [0.7071, 0]
    w = lesson.softmax(s)
    by_sum = divide_by_sum(s)
    unscaled = lesson.softmax([1, 0])
    exps = [math.exp(x) for x in s]
    return dict(
        label="First key's weight, to 3 decimals", answer=w[0], decimals=3,
        shown=f"{w[0]:.3f}",
        diagnoses=[
            (by_sum[0], 0.0015,
             f"{fmt(by_sum[0])} is what dividing the scores by their sum gives, with no "
             f"exp: 0.7071 / (0.7071 + 0) = {fmt(by_sum[0])}, and the key scoring 0 "
             f"would get nothing. Softmax exponentiates each score first, so "
             f"e<sup>0</sup> = 1 still earns the second key a share."),
            (unscaled[0], 0.0015,
             f"{unscaled[0]:.3f} is the weight for the unscaled scores [1, 0]. The "
             f"question's scores are already scaled: 0.7071 is 1/\u221a2."),
            (w[1], 0.0015,
             f"{w[1]:.3f} is the second key's weight. The question asks for the first, "
             f"the key with the larger score."),
            (exps[0], 0.0015,
             f"{exps[0]:.3f} is e<sup>0.7071</sup>, before dividing by the sum of the "
             f"exps; a weight is never more than 1."),
            (s[0], 0.0015,
             "0.7071 is the score itself. Turn it into a weight: exponentiate, then "
             "divide by the sum of the exps."),
            (0.5, 0.0015, "Equal weights would need equal scores; the first score is larger."),
        ],
        hint="Subtract the maximum, exponentiate both scores, divide by their sum.")


def _four_weights():
    W = lesson.softmax([[0.7071, 0.0], [0.0, 0.7071]])
    total = math.fsum(map(math.fsum, W))
    flat = lesson.softmax([w for row in [[0.7071, 0.0], [0.0, 0.7071]] for w in row])
    return dict(
        label="Sum of all four weights", answer=total, decimals=None, shown=fmt(total),
        diagnoses=[
            (math.fsum(flat), 1e-6,
             f"{fmt(math.fsum(flat))} would be right if softmax normalised the whole "
             f"2 \u00d7 2 matrix at once. It normalises each query's row on its own, "
             f"so each row sums to 1."),
            (len(W) * len(W[0]), 1e-6,
             "That counts the weights. Each weight is less than 1; it is the rows "
             "that sum to 1."),
            (0.5, 1e-6, "0.5 is the average weight in a row of two equal scores; the "
                        "question asks for the sum of all four."),
        ],
        hint="What does one query's row of weights add up to? And how many rows are there?")


def _large_scores():
    s = [1000, 1000]
    w = lesson.softmax(s)
    try:
        lesson.naive_softmax(s)
    except OverflowError as error:
        overflow = f"{type(error).__name__}: {error}"
    else:                                                      # pragma: no cover
        raise AssertionError("naive_softmax([1000, 1000]) must overflow")
    return dict(
        label="Each weight", answer=w[0], decimals=None, shown=fmt(w[0]), each=len(w),
        diagnoses=[
            (1.0, 1e-6,
             "1 is e<sup>0</sup>, each exp after subtracting the maximum. Divide by "
             "the sum of the exps to get a weight."),
            (1000.0, 1e-6, "1000 is the score itself, not its weight."),
            (0.0, 1e-6,
             "Neither weight can be 0: the two scores are equal, so they share the "
             "weight equally, and weights always add up to 1."),
        ],
        words=(["nan", "inf", "\u221e", "overflow", "error", "infinity", "undefined"],
               f"That is what happens without subtracting the maximum: e<sup>1000</sup> "
               f"overflows a float. <code>lesson.naive_softmax([1000, 1000])</code> "
               f"raises <code>{html.escape(overflow)}</code>. Subtract the "
               f"maximum first: both scores become 0."),
        hint="Subtract the maximum first: what are the scores then?")


ANSWERS = {"first_weight": _first_weight, "four_weights": _four_weights,
           "large_scores": _large_scores}


def answer_box(name):
    """A by-hand question's answer box; hidden until quiz.js makes it work."""
    spec = ANSWERS[name]()
    tolerance = 0.5 * 10 ** -spec["decimals"] if spec["decimals"] else 0.5e-4
    data = {"answer": spec["answer"], "tolerance": tolerance, "shown": spec["shown"],
            "decimals": spec["decimals"], "each": spec.get("each", 1),
            "diagnoses": [{"value": v, "tolerance": t, "says": says}
                          for v, t, says in spec["diagnoses"]],
            "words": spec.get("words", ([], ""))[0], "wordsSay": spec.get("words", ([], ""))[1],
            "hint": spec["hint"]}
    box = f"answer-{name.replace('_', '-')}"
    return (f'<form class="lesson-answer" id="{box}" hidden '
            f'data-answer="{html.escape(json.dumps(data), quote=True)}">\n'
            f'<label for="{box}-input">{spec["label"]}:</label>\n'
            f'<input id="{box}-input" type="text" inputmode="decimal" autocomplete="off" '
            f'spellcheck="false" size="12">\n'
            f'<button type="submit" class="md-button">Check</button>\n'
            f'<p class="answer-feedback" role="status" aria-live="polite"></p>\n</form>')


# --- Why exponentiate? -------------------------------------------------------

def compact(markdown):
    """A table kept narrow enough for a phone (see widget.css)."""
    return f'<div class="lesson-compact" markdown="1">\n\n{markdown}\n\n</div>'


def _argmax_row(scores):
    top = max(scores)
    first = scores.index(top)
    return [1.0 if i == first else 0.0 for i in range(len(scores))]


def why_softmax(part):
    """'Why exponentiate?': three recipes side by side, temperature, and a figure."""
    if part == "compare":
        rows = [("scores", "divided by their sum", "softmax", "hard argmax")]
        for scores in ([3, 1, 0.5], shown_scores(), [1, -1]):
            naive = divide_by_sum(scores)
            naive = _weights(naive, 2) if naive is not None else "none: the sum is 0"
            rows.append((_list(scores), naive, _weights(lesson.softmax(scores), 2),
                         _list(_argmax_row(scores), 0)))
        return compact(markdown_table(rows))
    if part == "temperature":
        s = example.TABLE_SCORES
        rows = [("T", "weights", "entropy (nats)")]
        for T in (100, 10, 1, 0.5, 0.1, 0.01):
            w = lesson.softmax([x / T for x in s])
            rows.append((f"{T:g}", _weights(w), fmt(lesson.entropy(w))))
        return compact(markdown_table(rows, left=0)) + (
            f"\n\nargmax of the same scores: {_list(_argmax_row(s), 0)}; "
            f"equal weights: {_weights([1 / len(s)] * len(s))}, "
            f"entropy ln {len(s)} = {fmt(math.log(len(s)))}. A weight too small for "
            f"four decimals is shown to three significant figures: it is not 0.\n"
            "{ .lesson-table-caption }")
    if part == "figure":
        return _soft_argmax_figure()
    raise ValueError(f"why_softmax: unknown part {part!r}")


def _soft_argmax_figure():
    xs = [x / 20 for x in range(-80, 81)]
    series = []
    for T, dash in ((1, ""), (0.25, "6 3")):
        series.append((f"softmax, T = {T:g}",
                       [(x, lesson.softmax([x / T, 0])[0]) for x in xs], dash, len(series)))
    step = [(x, 0.0) for x in xs if x < 0] + [(0, 0.0), (0, 1.0)] + [(x, 1.0) for x in xs if x > 0]
    series.append(("hard argmax", step, "2 3", 2))
    svg = line_chart(series, x_range=(-4, 4), y_range=(0, 1), x_ticks=range(-4, 5, 2),
                     y_ticks=(0, 0.5, 1), x_label="score of key 1 (key 2 scores 0)",
                     y_label="weight of key 1",
                     alt="Line chart: the weight of key 1 against its score, key 2 "
                         "scoring 0. Softmax at T = 1 is a smooth S-curve through 0.5; "
                         "at T = 0.25 it is steeper; hard argmax jumps from 0 to 1 at 0.")
    return (f'<figure class="lesson-figure-box">{svg}<figcaption>Two keys, the second '
            f"scoring 0. Softmax rises smoothly with the first key's score, so a small "
            f"change in a score makes a small change in the weight. Lower T makes it "
            f"steeper; as T \u2192 0 it becomes the hard argmax, which jumps.</figcaption></figure>")


# --- Why divide by sqrt(d_k)? -------------------------------------------------

SCALING_DIMS = (1, 4, 16, 64, 256)
SCALING_KEYS = 8
SCALING_TRIALS = 300
SCALING_SEED = 20261130


@functools.lru_cache(maxsize=None)
def scaling_experiment():
    """Random q and keys with unit-variance entries, at growing d_k.

    For each d_k: the spread (standard deviation) of q . k, with and without
    dividing by sqrt(d_k), and the mean largest weight and mean entropy of
    the softmax weights over SCALING_KEYS keys.
    """
    rng = random.Random(SCALING_SEED)
    results = []
    for d_k in SCALING_DIMS:
        raw, scaled, top_raw, top_scaled, h_raw, h_scaled = [], [], [], [], [], []
        for _ in range(SCALING_TRIALS):
            q = [rng.gauss(0, 1) for _ in range(d_k)]
            K = [[rng.gauss(0, 1) for _ in range(d_k)] for _ in range(SCALING_KEYS)]
            s = lesson.scaled_scores(q, K)
            dots = [math.fsum(a * b for a, b in zip(q, k)) for k in K]
            raw += dots
            scaled += s
            w_raw, w_scaled = lesson.softmax(dots), lesson.softmax(s)
            top_raw.append(max(w_raw))
            top_scaled.append(max(w_scaled))
            h_raw.append(lesson.entropy(w_raw))
            h_scaled.append(lesson.entropy(w_scaled))
        results.append(dict(
            d_k=d_k, spread=statistics.pstdev(raw), spread_scaled=statistics.pstdev(scaled),
            top_raw=statistics.fmean(top_raw), top_scaled=statistics.fmean(top_scaled),
            h_raw=statistics.fmean(h_raw), h_scaled=statistics.fmean(h_scaled)))
    return tuple(results)


def scaling(part):
    """The sqrt(d_k) experiment as a table or a figure."""
    rows = scaling_experiment()
    if part == "table":
        spread = [("\\(d_k\\)", "\\(\\sqrt{d_k}\\)", "spread of \\(q \\cdot k\\)",
                   "spread of \\(q \\cdot k / \\sqrt{d_k}\\)")]
        weights = [("\\(d_k\\)", "largest weight, unscaled", "largest weight, scaled",
                    "entropy, unscaled", "entropy, scaled")]
        for r in rows:
            spread.append((str(r["d_k"]), f"{math.sqrt(r['d_k']):g}", f"{r['spread']:.2f}",
                           f"{r['spread_scaled']:.2f}"))
            weights.append((str(r["d_k"]), f"{r['top_raw']:.2f}", f"{r['top_scaled']:.2f}",
                            f"{r['h_raw']:.2f}", f"{r['h_scaled']:.2f}"))
        return (compact(markdown_table(spread, left=0)) + "\n\n"
                + compact(markdown_table(weights, left=0)) + (
            f"\n\n{SCALING_TRIALS} random queries per row, each against {SCALING_KEYS} "
            f"random keys; every entry drawn from a normal distribution with mean 0 and "
            f"spread 1 (Python's `random.Random({SCALING_SEED})`), computed with "
            f"`lesson.scaled_scores`, `lesson.softmax` and `lesson.entropy` when this "
            f"page was built. Entropy is in nats; equal weights over {SCALING_KEYS} keys "
            f"would give ln {SCALING_KEYS} = {fmt(math.log(SCALING_KEYS), 2)}.\n"
            "{ .lesson-table-caption }"))
    if part == "figure":
        xs = [math.log2(r["d_k"]) for r in rows]
        ticks = [(math.log2(d), str(d)) for d in SCALING_DIMS]
        spread = line_chart(
            [("q\u00b7k, unscaled", list(zip(xs, (r["spread"] for r in rows))), "", 0),
             ("\u221ad\u2096", list(zip(xs, (math.sqrt(r["d_k"]) for r in rows))), "2 3", 1),
             ("q\u00b7k / \u221ad\u2096, scaled",
              list(zip(xs, (r["spread_scaled"] for r in rows))), "6 3", 2)],
            x_range=(0, 8), y_range=(0, 17), x_ticks=ticks, y_ticks=(0, 4, 8, 12, 16),
            x_label="d\u2096 (log scale)", y_label="spread of the scores",
            alt="Line chart: the spread of q dot k grows with d_k, following the square "
                "root of d_k (" + ", ".join(f"{r['spread']:.1f}" for r in rows)
                + "); divided by the square root it stays near 1.")
        top = math.log(SCALING_KEYS)
        entropy = line_chart(
            [("unscaled", list(zip(xs, (r["h_raw"] for r in rows))), "", 0),
             ("scaled", list(zip(xs, (r["h_scaled"] for r in rows))), "6 3", 2)],
            x_range=(0, 8), y_range=(0, top), x_ticks=ticks,
            y_ticks=[(0, "0"), (1, "1"), (top, f"ln {SCALING_KEYS}")],
            x_label="d\u2096 (log scale)", y_label="entropy of the weights (nats)",
            alt="Line chart: mean entropy of the weights over 8 keys. Scaled, it stays "
                "near " + f"{rows[-1]['h_scaled']:.2f}" + " nats at every d_k; unscaled "
                "it falls from " + f"{rows[0]['h_raw']:.2f} to {rows[-1]['h_raw']:.2f}"
                + " nats: the weights collapse towards one key.")
        return (f'<figure class="lesson-figure-box lesson-figure-pair">{spread}{entropy}'
                f"<figcaption>First chart: the spread of q\u00b7k grows like \u221ad\u2096; "
                f"divided by \u221ad\u2096 it stays near 1. Second chart: without the division "
                f"the weights' entropy falls as d\u2096 grows (the weights collapse "
                f"towards one key); with it, the entropy stays put.</figcaption></figure>")
    raise ValueError(f"scaling: unknown part {part!r}")


# --- A small line chart in SVG --------------------------------------------------

INK = "var(--md-default-fg-color, #222)"
FAINT = "var(--md-default-fg-color--lighter, #999)"
COLOURS = ("var(--lesson-figure-fill, #3949ab)", "var(--lesson-figure-second, #c2185b)",
           "var(--md-default-fg-color--light, #555)")


def line_chart(series, x_range, y_range, x_ticks, y_ticks, x_label, y_label, alt):
    """An SVG line chart: series of (name, [(x, y), ...], dash pattern, colour number)."""
    width, height, left, right, top, bottom = 320, 262, 46, 12, 14, 74
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(x):
        return left + (x - x_range[0]) / (x_range[1] - x_range[0]) * plot_w

    def py(y):
        return top + plot_h - (y - y_range[0]) / (y_range[1] - y_range[0]) * plot_h

    def text(x, y, words, anchor="middle", extra=""):
        return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{INK}" '
                f'font-size="11"{extra}>{html.escape(words)}</text>')

    body = [f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
            f'stroke="{FAINT}"/>']
    for tick in x_ticks:
        x, label = tick if isinstance(tick, tuple) else (tick, f"{tick:g}")
        body.append(f'<line x1="{px(x):.1f}" y1="{top}" x2="{px(x):.1f}" '
                    f'y2="{top + plot_h}" stroke="{FAINT}" stroke-opacity="0.35"/>')
        body.append(text(px(x), top + plot_h + 14, label))
    for tick in y_ticks:
        y, label = tick if isinstance(tick, tuple) else (tick, f"{tick:g}")
        body.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{left + plot_w}" '
                    f'y2="{py(y):.1f}" stroke="{FAINT}" stroke-opacity="0.35"/>')
        body.append(text(left - 5, py(y) + 4, label, anchor="end"))
    body.append(text(left + plot_w / 2, top + plot_h + 30, x_label))
    body.append(text(12, top + plot_h / 2, y_label,
                     extra=f' transform="rotate(-90 12 {top + plot_h / 2:.1f})"'))
    legend_y = top + plot_h + 50
    legend_x = left
    for name, points, dash, number in series:
        colour = COLOURS[number]
        if legend_x + 30 + 6 * len(name) > width:          # the legend wraps
            legend_x, legend_y = left, legend_y + 17
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                    f'stroke-width="2.2"{style}/>')
        if len(points) < 12:
            body += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>'
                     for x, y in points]
        body.append(f'<line x1="{legend_x}" y1="{legend_y - 4}" x2="{legend_x + 22}" '
                    f'y2="{legend_y - 4}" stroke="{colour}" stroke-width="2.2"{style}/>')
        body.append(text(legend_x + 26, legend_y, name, anchor="start"))
        legend_x += 38 + 6 * len(name)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{html.escape(alt)}" '
            f'class="lesson-figure" font-family="sans-serif"><title>{html.escape(alt)}'
            f'</title>{"".join(body)}</svg>')
