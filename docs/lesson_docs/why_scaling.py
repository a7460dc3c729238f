"""The "Why divide by sqrt(d_k)?" page: an experiment with random queries and keys.

    {{ scaling table }}    the spread of q . k, the largest weight and the
                           entropy at growing d_k, unscaled and scaled
    {{ scaling figure }}   the same as two charts

The experiment is seeded, so every build shows the same numbers, and it runs
once per build (``scaling_experiment`` is cached; the "scaling" question on
the same page reads it too).
"""

import functools
import math
import random
import statistics

import lesson
from .charts import line_chart
from lesson.tables import fmt

from . import build_cache
from .markdown_text import compact, markdown_table


SCALING_DIMS = (1, 4, 16, 64, 256)
SCALING_KEYS = 8
SCALING_TRIALS = 300
SCALING_SEED = 20261130


@functools.lru_cache(maxsize=None)
def scaling_experiment():
    """Random q and keys with unit-variance entries, at growing d_k.

    For each d_k: the spread (standard deviation) of q . k, with and without
    dividing by sqrt(d_k), and the mean largest weight and mean entropy of
    the softmax weights over SCALING_KEYS keys.  (Seconds of CPU: kept for
    the next build of the same code, see build_cache.)
    """
    return build_cache.kept("scaling_experiment", _scaling_experiment)


def _scaling_experiment():
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
