"""Questions that answer back: multiple choice, and boxes for a by-hand answer.

    {{ quiz NAME }}            a multiple-choice question: a form of radio
                               buttons; every option carries its explanation
    {{ answer_box NAME }}      a box for a by-hand answer, with the answer, its
                               precision and the common wrong answers diagnosed

Every right answer, every explanation and every number here is computed
with :mod:`lesson` when the site is built.  ``docs/assets/quiz.js`` makes
the forms answer back.  Without JavaScript a question still shows its
options, and "Show the answer" explains each one.
"""

import html
import json
import math

import lesson
from lesson import example
from lesson.tables import fmt

from . import explorer
from .markdown_text import listed, shown_scores, weights_listed
from .why_scaling import scaling_experiment
from .why_softmax import divide_by_sum

NEG_INF = -math.inf


def _g(value):
    """A weight to three significant figures, so a tiny one is not shown as 0."""
    return f"{value:.3g}"


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
        f"Add {c} to each of the lesson's scores {listed(s)}. What happens to the weights?",
        [("Nothing: they stay the same", True,
          f"Only the differences between scores matter. Every e<sup>s</sup> is "
          f"multiplied by e<sup>{c}</sup> = {fmt(math.exp(c), 1)}, and that factor "
          f"cancels in the division: softmax({listed([x + c for x in s])}) = "
          f"{weights_listed(after)}, the same weights. Subtracting the maximum is this shift, "
          f"with c = \u2212max."),
         ("Every weight grows, because every score grew", False,
          f"The weights still add up to 1, so they cannot all grow. Each exp grows "
          f"by the same factor e<sup>{c}</sup>, and dividing by the sum cancels it: "
          f"the weights stay {weights_listed(after)}."),
         ("The largest weight grows and the others shrink", False,
          f"That is what multiplying the scores by more than 1 does: it stretches the gaps "
          f"between them. Adding {c} moves every score by the same amount, so the "
          f"gaps, and the weights {weights_listed(after)}, stay as they were.")],
        f"softmax({listed(s)}) = {weights_listed(before)} and "
        f"softmax({listed([x + c for x in s])}) = {weights_listed(after)}.")


def _double():
    s = shown_scores()
    w, w2, half = (lesson.softmax(s), lesson.softmax([2 * x for x in s]),
                   lesson.softmax([x / 2 for x in s]))
    return (
        f"Multiply each of the lesson's scores {listed(s)} by 2. "
        f"What happens to the weights?",
        [("They stay the same", False,
          f"Only adding a constant leaves the weights alone. Doubling the scores "
          f"doubles the gaps between them, so the weights change from {weights_listed(w)} "
          f"to {weights_listed(w2)}."),
         ("They get sharper: the largest grows, the others shrink", True,
          f"softmax({listed([2 * x for x in s])}) = {weights_listed(w2)}, against "
          f"{weights_listed(w)} before. Doubling the scores is a temperature of T = 0.5."),
         ("Every weight doubles", False,
          f"The weights always add up to 1, so they cannot all double. "
          f"e<sup>2s</sup> = (e<sup>s</sup>)<sup>2</sup>: the exps are squared, "
          f"then normalised, giving {weights_listed(w2)}."),
         ("They get flatter, closer to equal", False,
          f"That is what halving the scores does (T = 2): {weights_listed(half)}. Doubling "
          f"stretches the gaps, giving {weights_listed(w2)}.")],
        f"softmax({listed(s)}) = {weights_listed(w)}; doubled, {weights_listed(w2)}; halved, "
        f"{weights_listed(half)}.")


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
    shown = f"T = 0.1 gives {weights_listed(cold)}; T = 100 gives {weights_listed(hot)}"
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
          f"gives weights {weights_listed(masked_w)} and output {listed(masked_out)}. The keys "
          f"that may be seen always share a total weight of 1."),
         ("Run softmax, then set key 2's weight to 0", False,
          f"Then the weights no longer add up to 1: softmax gives {weights_listed(w)}, and "
          f"zeroing the second leaves {weights_listed(zeroed)}, which sums to "
          f"{fmt(math.fsum(zeroed))}. The output shrinks to {listed(zeroed_out)} "
          f"instead of {listed(masked_out)}."),
         ("Set key 2's score to 0, before softmax", False,
          f"A score of 0 is not \"no attention\": e<sup>0</sup> = 1. Key 2's scaled "
          f"score is already {fmt(scores[1])} here, and it still gets weight "
          f"{fmt(w[1])}. Only \u2212\u221e gives a weight of exactly 0.")],
        f"Masked before softmax: weights {weights_listed(masked_w)}, output "
        f"{listed(masked_out)}. Zeroed after: {weights_listed(zeroed)}, output {listed(zeroed_out)}.")


def _matrix():
    Q, K, V = explorer.Q, explorer.K, explorer.V
    n_q, n_k = len(Q), len(K)
    _, A = lesson.attention(Q, K, V, mask=lesson.causal_mask(n_q, n_k))
    rows = ", ".join(fmt(math.fsum(row), 12) for row in A)
    total = fmt(math.fsum(map(math.fsum, A)))
    _, first = lesson.attention(Q, K, V)           # the first view, no mask
    zeroed = math.fsum(w for i, row in enumerate(first) for j, w in enumerate(row) if j <= i)
    seen = [min(i + 1, n_k) for i in range(n_q)]   # keys 0..i
    return (
        f"In the explorer below, the {n_q} rows of weights sum to "
        f"{fmt(math.fsum(map(math.fsum, first)))} in all. Predict "
        f"first: once you tick <em>causal</em>, what will the whole matrix sum to?",
        [("1", False,
          f"Softmax normalises each query's row on its own, never the whole matrix: "
          f"every row sums to 1, so {n_q} rows sum to {total}, with a mask or without."),
         (f"{sum(seen)}: one for each key a query may still see", False,
          f"That counts the cells the mask leaves, {' + '.join(map(str, seen))}. Each "
          f"weight is less than 1; it is each row of them that sums to 1."),
         (f"{total}, as before: one for each query", True,
          f"Every query may still see key 0, and the mask goes in before softmax, so the "
          f"keys a row may still see share all of its weight. The rows sum to {rows}: "
          f"{total} in all."),
         (f"Less than {n_q}: the masked keys' weights are gone", False,
          f"That is what zeroing weights after softmax would do: the first view's "
          f"weights of the keys a query may see sum to {fmt(zeroed)}. A mask of "
          f"\u2212\u221e goes in before softmax, and the keys left share the whole row.")],
        f"With the causal mask the rows sum to {rows}: {total} in all, one for each query.")


def _divide():
    s = shown_scores()
    naive = divide_by_sum(s)
    return (
        "Why not turn scores into weights by dividing each by their sum, "
        "w<sub>i</sub> = s<sub>i</sub> / \u03a3 s<sub>j</sub>?",
        [("Scores can be negative: the weights can go negative, or the sum can be 0", True,
          f"The lesson's scores {listed(s)} sum to {fmt(math.fsum(s))}, so dividing "
          f"gives {weights_listed(naive)}: the largest score gets a negative weight. "
          f"[1, \u22121] sums to 0, and there is nothing to divide by. Exponentiating "
          f"first makes every term positive."),
         ("Nothing is wrong with it; softmax is just faster", False,
          f"Softmax is not faster: exp costs more than a division. The trouble is "
          f"negative scores: {listed(s)} would get the weights {weights_listed(naive)}."),
         ("The results would not add up to 1", False,
          f"They do add up to 1 whenever the sum is not 0: "
          f"{weights_listed(naive)} sums to {fmt(math.fsum(naive))}. The trouble is the "
          f"sign: a negative weight, and for the largest score.")],
        f"Divided by their sum, {listed(s)} become {weights_listed(naive)}; softmax "
        f"gives {weights_listed(lesson.softmax(s))}.")


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
          f"{weights_listed(w)}: every key contributes to the output, not just the first.")],
        f"softmax({listed(s)}) = {weights_listed(w)}; argmax gives [1, 0, 0].")


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
           "temperature": _temperature, "mask": _mask, "matrix": _matrix, "divide": _divide,
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
    three = lesson.softmax([0.7071, 0, -1])              # the idea page's example
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
            (three[0], 0.00015,
             f"{three[0]:.4f} is the first weight of the three-key example, "
             f"softmax([0.7071, 0, −1]). This question has two keys, scoring "
             f"0.7071 and 0: the third key's share goes back to these two."),
        ],
        not_each="The question asks for the first key's weight alone: the two keys' "
                 "weights are not equal, since their scores are not.",
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
        percent=f"That looks like a percent without its % sign. The answer is a sum of "
                f"weights, a plain number: each row's weights add up to 1 (100%), so "
                f"the {len(W)} rows add up to {fmt(total)}.",
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
    # A number 100 times the answer: a percent typed without its % sign.  What
    # to say depends on what the answer is: a weight (the default), or a sum.
    percent = (100 * spec["answer"], 100 * tolerance, spec.get("percent") or (
               f"That looks like a percent without its % sign. A weight is a fraction "
               f"between 0 and 1: {spec['shown']}, which is {100 * spec['answer']:.4g}%."))
    data = {"answer": spec["answer"], "tolerance": tolerance, "shown": spec["shown"],
            "decimals": spec["decimals"], "each": spec.get("each", 1),
            "diagnoses": [{"value": v, "tolerance": t, "says": says}
                          for v, t, says in spec["diagnoses"] + [percent]],
            "notEach": spec.get("not_each", ""),
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
