"""The "Why exponentiate?" page: softmax beside dividing by the sum and a hard argmax.

    {{ why_softmax compare }}      three recipes side by side, for three rows of scores
    {{ why_softmax temperature }}  the lesson's weights from T = 100 down to T = 0.01
    {{ why_softmax figure }}       the weight of one key against its score, as a chart
"""

import math

import lesson
from lesson import example
from .charts import line_chart
from lesson.tables import fmt

from .markdown_text import compact, listed, markdown_table, shown_scores, weights_listed


def divide_by_sum(scores):
    """Scores divided by their sum, the 'normalisation' softmax is not."""
    total = math.fsum(scores)
    if total == 0:
        return None
    return [s / total for s in scores]


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
            naive = weights_listed(naive, 2) if naive is not None else "none: the sum is 0"
            rows.append((listed(scores), naive, weights_listed(lesson.softmax(scores), 2),
                         listed(_argmax_row(scores), 0)))
        return compact(markdown_table(rows))
    if part == "temperature":
        s = example.TABLE_SCORES
        rows = [("T", "weights", "entropy (nats)")]
        for T in (100, 10, 1, 0.5, 0.1, 0.01):
            w = lesson.softmax([x / T for x in s])
            rows.append((f"{T:g}", weights_listed(w), fmt(lesson.entropy(w))))
        return compact(markdown_table(rows, left=0)) + (
            f"\n\nargmax of the same scores: {listed(_argmax_row(s), 0)}; "
            f"equal weights: {weights_listed([1 / len(s)] * len(s))}, "
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
