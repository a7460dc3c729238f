"""The lesson's tables as Markdown, every number computed by :mod:`lesson` now.

    {{ table [SCORE ...] }}    scores, exps and weights (default: the lesson's scores)
    {{ worked_example }}       the worked example's steps, formulas set as math
    {{ table_source }}         where the idea page's three scores come from: its
                               query and keys, q . k and q . k / sqrt(d_k)
"""

import math

import lesson
from lesson import example
from lesson.tables import fmt, fmt_list, table_rows

from .markdown_text import markdown_table


def table(*scores):
    """The lesson's table for some scores (default: the lesson's own)."""
    scores = [float(s) for s in scores] or example.TABLE_SCORES
    rows, total = table_rows(scores)
    return (markdown_table(rows) + "\n\n"
            + f"Sum of the weights: **{total}**.\n"
            + "{ .lesson-table-caption }")


# The worked example's steps as math; lesson.example words them for a terminal.
STEP_MATH = {
    "dot scores": r"\(q \cdot K_j\) for each key \(j\)",
    "scaled scores": r"\(q \cdot K_j / \sqrt{d_k}\), with \(\sqrt{d_k} = \sqrt{%(d_k)d}\)",
    "weights": r"\(\operatorname{softmax}\) of the scaled scores",
    "output": r"\(\sum_j w_j V_j\): each value times its weight",
    "causal weights": r"mask \([0, -\infty]\) added before softmax",
    "causal output": r"only the first value is seen: \(w_1 V_1\)",
}


def worked_example():
    """The worked example's steps as a Markdown table, formulas set as math."""
    rows = [("step", "what happens", "result")]
    for number, (step, _, values) in enumerate(example.worked_example(), 1):
        rows.append((f"{number}. {step}", STEP_MATH[step] % {"d_k": len(example.q)},
                     f"`{fmt_list(values)}`"))
    return markdown_table(rows, left=2)



# --- Where the idea page's scores come from ----------------------------------

# One query and three keys with d_k = 2.  The first two keys are the chapter's
# worked example; the third points the other way, sqrt(2) long.
TABLE_QUERY = [1.0, 0.0]
TABLE_KEYS = [[1.0, 0.0], [0.0, 1.0], [-math.sqrt(2), 0.0]]
TABLE_KEYS_SHOWN = ["[1, 0]", "[0, 1]", "[\u2212\u221a2, 0]"]

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
