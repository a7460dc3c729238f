"""The precision page's figures: accuracy measured at build time, speed read from a file.

    {{ accuracy }}             the accuracy benchmark's summary, measured now
    {{ accuracy_by_spread }}   its largest error by the spread of the scores
    {{ speed }}                softmax per call at growing lengths, from speed.json
                               (written by ``python -m lesson_docs.measure_speed``)
"""

import functools
import json
import math

from lesson import bench

from . import measure_speed
from .markdown_text import markdown_table


@functools.lru_cache(maxsize=None)
def _accuracy():
    corpus = bench.accuracy_corpus()
    return corpus, bench.accuracy(corpus, bench.softmax_methods(optional=False))


def accuracy():
    """The accuracy benchmark's summary, measured now."""
    corpus, report = _accuracy()
    rows = [("method", "largest error (ulp)", "mean error (ulp)", "rows it failed on")]
    for name, r in report.items():
        rows.append((f"`{name}`", f"{r['max']:.2f}", f"{r['mean']:.3f}", str(r["failed"])))
    weights = sum(len(row) for _, row in corpus)
    return (markdown_table(rows) + f"\n\n{len(corpus)} rows, {weights} weights, "
            f"measured when this page was built.\n{{ .lesson-table-caption }}")


def accuracy_by_spread():
    """Largest error by the spread of the scores, measured now."""
    _, report = _accuracy()
    rows = [("spread of the scores",) + tuple(f"`{name}`" for name in report)]
    for spread in bench.SPREADS:
        rows.append((f"{spread:g}",) + tuple(f"{r['by_spread'][spread]:.2f}"
                                             for r in report.values()))
    return markdown_table(rows)


def speed():
    """softmax per call at growing lengths, as measured by measure_speed.py.

    The figures are read from ``speed.json``, not timed during the build, so
    the page says the same at every build and says where they were taken.
    """
    measured = json.loads(measure_speed.FIGURES.read_text(encoding="utf-8"))
    names = list(measured["seconds_per_call"][0]["seconds"])
    # One method a row and one length a column, with the unit said once, so
    # five methods and four lengths fit a phone.
    lengths = measured["seconds_per_call"]
    rows = [("µs per call, by scores in the row",) + tuple(f"{row['scores']:,}" for row in lengths)]
    for name in names:
        rows.append((f"`{name}`",) + tuple(microseconds(row["seconds"][name]) for row in lengths))
    machine = measured["machine"]
    libraries = "".join(f", {name} {version}" for name, version in measured["libraries"].items())
    return (markdown_table(rows) + "\n\nTime per call in microseconds (µs), best of three. "
            f"Measured on {measured['taken'][:10]} on a {machine['cores']}-core "
            f"{machine['cpu']} ({machine['system']}, Python {machine['python']}{libraries}, "
            f"load average {machine['load_average']:.1f}) with `{measured['command']}`; "
            "your machine will differ, the proportions less so.\n"
            "{ .lesson-table-caption }")


def microseconds(seconds):
    """A time in µs with three significant figures: 4.05, 192, 48,700.

    >>> microseconds(4.049e-06), microseconds(0.000192), microseconds(0.04872)
    ('4.05', '192', '48,700')
    """
    value = float(f"{seconds * 1e6:.3g}")
    return f"{value:,.{max(0, 2 - math.floor(math.log10(value)))}f}"
