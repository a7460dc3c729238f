"""The attention-matrix explorer: every query's row of weights at once.

    {{ explorer }}         Q, K and V; the grid of weights A with each row's sum,
                           the whole matrix's sum and the output O = AV, all
                           computed by lesson.attention now; a legend
    {{ explorer tries }}   what to try in it, with the numbers the lesson
                           computes for each

docs/assets/attention-explorer.js makes the grid live: a causal checkbox, a
click (or Enter or Space) on a weight masks that key for that query, and a
temperature.  It reads Q, K, V from the root's data-* attributes, with the
ValueError lesson.attention raises for each query whose every key is
masked, so the page shows the lesson's own message.  Without JavaScript the
reader sees the first view as the lesson computed it.
"""

import html
import json
import math

import lesson
from lesson import example
from lesson.tables import fmt, fmt_list

from lesson.tables import fmt_weight

from .markdown_text import markdown_table

# Four queries and four keys, d_k = 2.  Query 0 and keys 0 and 1, with their
# values, are the chapter's worked example, so masking keys 2 and 3 of query 0
# gives its weights, and the causal mask its output [2, 0].
Q = [list(example.q), [1, 2], [2, 1], [-1, 2]]
K = [list(k) for k in example.K] + [[1, 1], [-2, 1]]
V = [list(v) for v in example.V] + [[0, -2], [-2, 0]]

DIGITS = 4          # the places every number shows; the script reads it from data-digits


def explorer(part="grid"):
    """The explorer (``grid``), or the list of what to try in it (``tries``)."""
    if part == "grid":
        return grid()
    if part == "tries":
        return tries()
    raise ValueError(f"explorer: unknown part {part!r}; known: grid, tries")


def grid():
    """The explorer's first view: Q, K, V, the weights and outputs, a legend."""
    O, A = lesson.attention(Q, K, V)
    data = {"queries": Q, "keys": K, "values": V, "all-masked": all_masked_messages(),
            "digits": DIGITS}
    attributes = " ".join(f'data-{name}="{html.escape(json.dumps(value), quote=True)}"'
                          for name, value in data.items())
    return (f'<div class="attention-explorer" data-explorer="attention" {attributes} '
            f'markdown="1">\n\n<div class="ax-vectors" markdown="1">\n\n{vectors_table()}\n\n'
            f"</div>\n\n{weights_table(A, O)}\n\n{legend()}\n\n</div>")


def all_masked_messages():
    """For each query, what lesson.attention raises when every key of it is masked.

    >>> all_masked_messages()[1]
    'ValueError: attention: every key of query 1 is masked; every query needs at least one key it may see'
    """
    messages = []
    for i in range(len(Q)):
        mask = [[-math.inf if row == i else 0.0 for _ in K] for row in range(len(Q))]
        try:
            lesson.attention(Q, K, V, mask=mask)
        except ValueError as error:
            messages.append(f"ValueError: {error}")
        else:                                                  # pragma: no cover
            raise AssertionError(f"attention must raise when query {i} sees no key")
    return messages


def vectors_table():
    """Q, K and V as a Markdown table: row i holds query i, key i and value i."""
    rows = [("i", "query \\(q_i\\)", "key \\(k_i\\)", "value \\(v_i\\)")]
    for i, (q, k, v) in enumerate(zip(Q, K, V)):
        rows.append((str(i), f"`{fmt_list(q)}`", f"`{fmt_list(k)}`", f"`{fmt_list(v)}`"))
    return markdown_table(rows)


def weights_table(A, O):
    """The grid: a row per query (its weights, their sum, its output), the sum below."""
    n_k = len(K)
    head = "".join(f'<th scope="col">{_word("key")}{j}</th>' for j in range(n_k))
    lines = ['<div class="ax-scroll">', '<table class="ax-grid">',
             "<caption>The weights A = softmax(QK\u1d40 / \u221ad\u2096 + M): row i is "
             "query i, column j is key j. Beside them each row's sum, and the output "
             "O = AV.</caption>",
             f'<thead><tr><td></td>{head}<th scope="col">{_word("row")}sum</th>'
             f'<th scope="col">{_word("output")}O</th></tr></thead>', "<tbody>"]
    for i, (weights, output) in enumerate(zip(A, O)):
        cells = "".join(f'<td data-q="{i}" data-k="{j}" style="--w:{w:.4f}">{fmt_weight(w)}</td>'
                        for j, w in enumerate(weights))
        lines.append(f'<tr><th scope="row">{_word("query")}{i}</th>{cells}'
                     f'<td class="ax-sum">{fmt(math.fsum(weights), DIGITS)}</td>'
                     f'<td class="ax-out">{fmt_list(output, DIGITS)}</td></tr>')
    total = fmt(math.fsum(map(math.fsum, A)), DIGITS)
    lines += ["</tbody>",
              f'<tfoot><tr><th scope="row" colspan="{n_k + 1}">the whole matrix</th>'
              f'<td class="ax-total">{total}</td><td></td></tr></tfoot>',
              "</table>", "</div>"]
    return "\n".join(lines)


def _word(word):
    """A header's first word, which a phone leaves out of sight ("key 0" is "0"),
    but a screen reader still says."""
    return f'<span class="ax-word">{word} </span>'


def legend():
    """What the shading and the hatching mean."""
    return ('<p class="ax-legend"><span class="ax-legend-item">'
            '<span class="ax-legend-ramp" aria-hidden="true"><span>0</span>'
            '<span class="ax-ramp"></span><span>1</span></span> '
            "The stronger the shade, the more weight.</span> "
            '<span class="ax-legend-item"><span class="ax-legend-masked" aria-hidden="true">'
            "<span>0</span></span> Hatched: a masked key, \u2212\u221e before softmax, "
            "so its weight is exactly 0.</span></p>")


def tries():
    """What to try in the explorer, each step with the lesson's numbers for it."""
    n = len(Q)
    causal_O, causal_A = lesson.attention(Q, K, V, mask=lesson.causal_mask(n, len(K)))
    steps = {step: values for step, _, values in example.worked_example()}
    if causal_O[0] != steps["causal output"]:                  # pragma: no cover
        raise AssertionError("query 0 under the causal mask must be the worked example")
    only_two = [[0.0, 0.0, -math.inf, -math.inf]] + [[0.0] * len(K)] * (n - 1)
    two_O, two_A = lesson.attention(Q, K, V, mask=only_two)
    if two_A[0][:2] != steps["weights"]:                       # pragma: no cover
        raise AssertionError("query 0 with keys 0 and 1 must be the worked example")
    message = all_masked_messages()[0]
    cold = lesson.attention([[x / 0.1 for x in q] for q in Q], K, V)[1][2]
    hot = lesson.attention([[x / 10 for x in q] for q in Q], K, V)[1][2]
    top = max(range(len(K)), key=lambda j: cold[j])
    return "\n".join([
        f"1. **Tick *causal*.** Query \\(i\\) may now see keys \\(0, \\dots, i\\) only. "
        f"Query 0 keeps key 0 alone, so its output is exactly \\(v_0\\) = "
        f"`{fmt_list(causal_O[0], DIGITS)}`: the worked example's causal output. The "
        f"keys a row may still see share all of its weight, so every row still sums "
        f"to 1 and the whole matrix to {fmt(math.fsum(map(math.fsum, causal_A)))}.",
        f"2. **Untick it, and click the weights of keys 2 and 3 in query 0's row.** "
        f"Query 0 now sees the worked example's two keys: weights "
        f"`{fmt_list(two_A[0][:2], DIGITS)}`, output `{fmt_list(two_O[0], DIGITS)}`. "
        f"No other row moves: each query's row is normalised on its own.",
        f"3. **Mask key 0 and key 1 of query 0 as well.** No key is left, and the "
        f"lesson's policy is an error, not weights: `{message}`. The "
        f"whole matrix now sums to {n - 1}, one for each row that has weights.",
        f"4. **Slide the temperature.** Every score is divided by \\(T\\) as well as by "
        f"\\(\\sqrt{{d_k}}\\). At \\(T = 0.1\\), query 2 puts {fmt(cold[top], DIGITS)} "
        f"of its weight on key {top}; at \\(T = 10\\) its weights are "
        f"`{fmt_list(hot, DIGITS)}`, flatter, towards \\(1/{len(K)}\\) each.",
    ])
