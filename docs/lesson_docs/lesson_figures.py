"""The lesson's pictures on its pages, drawn by :mod:`lesson_docs.charts`, with captions.

    {{ figure bars }}      the lesson's three weights as bars (the idea page)
    {{ figure worked }}    the worked example's weights as a heatmap
    {{ figure causal }}    causal attention over four tokens, masked cells hatched
"""

import lesson
from lesson import example

from . import charts

# The causal heatmap's four example tokens (lesson.example.TOKENS are their vectors).
TOKEN_WORDS = ("the", "cat", "sat", "down")


def figure(name):
    """A picture drawn by lesson_docs.charts, with its caption."""
    if name == "bars":
        weights = [row[-1] for row in lesson.softmax_table(example.TABLE_SCORES)]
        svg = charts.weight_bars(weights, alt="Bar chart of the lesson's three weights: "
                                  + ", ".join(f"key {i} {w:.4f}" for i, w in enumerate(weights, 1)))
        caption = ("The lesson's three weights. The largest score takes the largest "
                   "share, but every key keeps some weight.")
    elif name == "worked":
        _, A = lesson.attention(example.q, example.K, example.V)
        svg = charts.heatmap([A], ["q"], ["key 1", "key 2"], alt=(
            f"Heatmap, one query by two keys: weights {A[0]:.2f} and {A[1]:.2f}"))
        caption = ("The worked example's weights: one row, one query, and the row "
                   "sums to 1.")
    elif name == "causal":
        A, M = example.causal_example()
        tokens = list(TOKEN_WORDS)
        svg = charts.heatmap(charts.masked_weights(A, M), tokens, tokens, alt=(
            f"Heatmap of causal self-attention over the tokens {' '.join(tokens)!r}: the "
            f"upper triangle is masked; {tokens[0]!r} puts weight 1.00 on itself; every "
            "row sums to 1"))
        caption = (f"Causal attention over the tokens \u201c{' '.join(tokens)}\u201d: each "
                   "looks only at itself and the tokens before it. Hatched cells are masked "
                   "(\u2212\u221e before softmax, weight exactly 0); a faintly coloured "
                   "cell is a small weight, not a masked one. Each row sums to 1.")
    else:
        raise ValueError(f"unknown figure {name!r}")
    return f'<figure class="lesson-figure-box">{svg}<figcaption>{caption}</figcaption></figure>'
