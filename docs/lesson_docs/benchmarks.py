"""The precision page's figures: accuracy measured at build time, speed read from a file.

    {{ accuracy }}                        the accuracy on the random rows, measured now
    {{ accuracy adversarial }}            the same on the adversarial rows
    {{ accuracy_by_spread }}              the largest error by the spread of the scores
    {{ accuracy_by_spread adversarial }}  the largest error by the kind of adversarial row
    {{ accuracy misrounded }}             "0 of N weights misrounded", both corpora
    {{ accuracy fallback }}               how often softmax_compensated needed decimal
    {{ speed }}                           softmax per call at growing lengths, from speed.json
    {{ speed cost }}                      softmax_compensated's time over softmax's, from
                                          speed.json (both written by
                                          ``python -m lesson_docs.measure_speed``)
"""

import functools
import json
import math

from lesson import bench

from . import build_cache, measure_speed
from .markdown_text import compact, markdown_table

CORPORA = {"random": bench.accuracy_corpus, "adversarial": bench.adversarial_corpus}


@functools.lru_cache(maxsize=None)
def measured(rows):
    """(corpus, report) for "random" or "adversarial" rows: seconds of CPU, kept
    for the next build of the same code, and for the tests of the same run
    (tests/test_precision.py reads the same report the page shows)."""
    def measure():
        corpus = CORPORA[rows]()
        return corpus, bench.accuracy(corpus, bench.softmax_methods(optional=False))
    return build_cache.kept(f"accuracy {rows}", measure)


@functools.lru_cache(maxsize=None)
def _fallback():
    """bench.fallback_rate over both corpora: seconds of CPU, kept like the accuracy."""
    return build_cache.kept("fallback", lambda: bench.fallback_rate(
        bench.accuracy_corpus() + bench.adversarial_corpus()))


def accuracy(rows="random"):
    """The accuracy benchmark's summary on one corpus, measured now; or, with
    ``misrounded``, softmax_compensated's count on both; with ``fallback``,
    how often its rounding test sent a weight to decimal."""
    if rows == "misrounded":
        counts = [measured(corpus)[1]["softmax_compensated"] for corpus in CORPORA]
        return (f"**{sum(c['misrounded'] for c in counts):,} of "
                f"{sum(c['weights'] for c in counts):,} weights misrounded**, "
                "measured when this page was built.")
    if rows == "fallback":
        doubtful, weights, rows_with, total_rows = _fallback()
        return (f"**{doubtful:,} of {weights:,} weights ({doubtful / weights:.2%})**, "
                f"in {rows_with:,} of {total_rows:,} rows.")
    corpus, report = measured(rows)
    table = [("method", "misrounded", "largest error (ulp)", "mean error (ulp)",
              "rows failed")]
    for name, r in report.items():
        table.append((f"`{name}`", f"{r['misrounded']:,}", f"{r['max']:.2f}",
                      f"{r['mean']:.3f}", str(r["failed"])))
    weights = sum(len(row) for _, row in corpus)
    return (compact(markdown_table(table)) + f"\n\n{len(corpus)} {rows} rows, {weights:,} weights, "
            f"measured when this page was built.\n{{ .lesson-table-caption }}")


def accuracy_by_spread(rows="random"):
    """Largest error by the spread of the scores, or by the kind of row, measured now."""
    _, report = measured(rows)
    if rows == "random":
        groups = [(spread, f"{spread:g}") for spread in bench.SPREADS]
        heading = "spread of the scores"
    else:
        groups = [(kind, about) for kind, about in bench.ADVERSARIAL.items()]
        heading = "kind of row"
    table = [(heading,) + tuple(f"`{name}`" for name in report)]
    for group, label in groups:
        table.append((label,) + tuple(f"{r['by_group'].get(group, math.nan):.2f}"
                                      for r in report.values()))
    return compact(markdown_table(table))


def speed(what="seconds"):
    """softmax per call at growing lengths, or what the compensated one costs.

    The figures are read from ``speed.json``, as measured by measure_speed.py,
    not timed during the build, so the page says the same at every build and
    says where they were taken.
    """
    measured = json.loads(measure_speed.FIGURES.read_text(encoding="utf-8"))
    table, how = cost_table(measured) if what == "cost" else seconds_table(measured)
    machine = measured["machine"]
    libraries = "".join(f", {name} {version}" for name, version in measured["libraries"].items())
    return (f"{table}\n\n{how} Measured on {measured['taken'][:10]} on a {machine['cores']}-core "
            f"{machine['cpu']} ({machine['system']}, Python {machine['python']}{libraries}, "
            f"load average {machine['load_average']:.1f}) with `{measured['command']}`; "
            "your machine will differ, the proportions less so.\n"
            "{ .lesson-table-caption }")


def seconds_table(measured):
    """(table, how): seconds per call, one method a row and one length a column.

    With the unit said once, five methods and four lengths fit a phone.
    """
    names = list(measured["seconds_per_call"][0]["seconds"])
    lengths = measured["seconds_per_call"]
    rows = [("µs per call, by scores in the row",) + tuple(f"{row['scores']:,}" for row in lengths)]
    for name in names:
        rows.append((f"`{name}`",) + tuple(microseconds(row["seconds"][name]) for row in lengths))
    return markdown_table(rows), ("Time per call in microseconds (µs), best of three, "
                                  f"in {measured['clock']}.")


def cost_table(measured):
    """(table, how): softmax_compensated's time over softmax's, by scores in the row."""
    ratios = measured["cost_ratios"]
    rows = [("scores in the row",) + tuple(f"{row['scores']:,}" for row in ratios),
            ("`softmax_compensated` / `softmax`",) + tuple(f"{row['ratio']:.2f}×"
                                                        for row in ratios)]
    return markdown_table(rows), ("The two take turns on the same row, and each keeps "
                                  "its best CPU time (`lesson.speed.cost_ratios`).")


def microseconds(seconds):
    """A time in µs with three significant figures: 4.05, 192, 48,700.

    >>> microseconds(4.049e-06), microseconds(0.000192), microseconds(0.04872)
    ('4.05', '192', '48,700')
    """
    value = float(f"{seconds * 1e6:.3g}")
    return f"{value:,.{max(0, 2 - math.floor(math.log10(value)))}f}"
