"""Benchmarks: how accurate the lesson's softmax is (how fast: ``lesson.speed``).

python -m lesson bench accuracy    misrounded weights, and error in ulps, against
                                   a 60-digit reference, on random rows and on
                                   adversarial ones; how often softmax_compensated
                                   needed its fallback, and what it costs over softmax

Standard library only.  Where NumPy or SciPy happen to be installed, their
softmax is measured beside the lesson's; they are never required.

An ulp ("unit in the last place") is the gap between a float and the next
one.  The best a float result can be is the float nearest to the exact
value, within half an ulp: *correctly rounded*.  A weight that is any other
float is *misrounded*.

>>> exact = exact_softmax([1 / 2 ** 0.5, 0])
>>> [round(float(w), 6) for w in exact]
[0.669762, 0.330238]
>>> ulp_error(0.5 + 2 ** -53, 0.5)
1.0
"""

import importlib
import math
import random
from decimal import Decimal, localcontext

from lesson.compensated import fast_weights, softmax_compensated
from lesson.weights import naive_softmax, softmax

LENGTHS = (2, 3, 4, 8, 16, 32, 64, 128, 256)
SPREADS = (0.1, 1.0, 10.0, 30.0, 100.0)
ROWS_PER_CELL = 48


# --- Accuracy ---------------------------------------------------------------

def exact_softmax(row, digits=60):
    """Softmax of a row of floats as Decimals, to ``digits`` significant digits.

    Every float is exactly a Decimal, so this is the true softmax of the
    row the float code sees, rounded only at the 60th digit.

    >>> exact_softmax([0.0, -math.inf, 0.0])
    [Decimal('0.5'), Decimal('0'), Decimal('0.5')]
    >>> str(exact_softmax([1.0, 0.0], digits=30)[0])     # 1 / (1 + 1/e)
    '0.731058578630004879251159241823'
    """
    with localcontext() as ctx:
        ctx.prec = digits
        finite = [Decimal(s) for s in row if s != -math.inf]
        top = max(finite)
        exps = [(Decimal(s) - top).exp() if s != -math.inf else Decimal(0)
                for s in row]
        total = sum(exps)
        return [e / total for e in exps]


def nearest_floats(row):
    """The float nearest to each exact weight: the correctly rounded softmax.

    ``float()`` of a Decimal rounds correctly, subnormals included; the 60
    digits leave it in doubt only for a weight within 10**-58 of a
    midpoint between two floats (the tests check it against mpmath).

    >>> nearest_floats([0.0, -1.0])
    [0.7310585786300049, 0.2689414213699951]
    """
    return [float(w) for w in exact_softmax(row)]


def ulp_error(value, exact):
    """|value - exact| in units of the last place of exact (as a float).

    >>> ulp_error(0.1, 0.1), ulp_error(0.1 + 2 ** -56, 0.1)
    (0.0, 1.0)
    """
    exact = Decimal(exact)
    return float(abs(Decimal(value) - exact) / Decimal(math.ulp(float(exact))))


def accuracy_corpus(seed=20261130):
    """A fixed corpus of (spread, row): the lesson's rows, random rows, extremes.

    Random rows: every length in LENGTHS with every spread in SPREADS, the
    scores uniform over an interval that wide, centred anywhere in [-50, 50].

    >>> corpus = accuracy_corpus()
    >>> len(corpus), corpus[2]
    (2167, (0.0, [1000.0, 1000.0]))
    """
    rng = random.Random(seed)
    corpus = [(1.0, [1 / math.sqrt(2), 0.0, -1.0]), (1.0, [1 / math.sqrt(2), 0.0]),
              (0.0, [1000.0, 1000.0])]
    for n in LENGTHS:
        for spread in SPREADS:
            for _ in range(ROWS_PER_CELL):
                centre = rng.uniform(-50, 50)
                corpus.append((spread, [centre + spread * (rng.random() - 0.5)
                                        for _ in range(n)]))
    corpus += [
        (700.0, [0.0, -700.0, -350.0]),                 # weights near underflow
        (200.0, [100.0, -100.0, 0.1, -0.1]),            # scores straddling zero
        (1e-9, [1e6, 1e6 + 1e-9, 1e6 - 1e-9]),          # tiny gaps at a large offset
        (100.0, [3.0, -math.inf, -97.0, -math.inf]),    # masked keys
    ]
    return corpus


ADVERSARIAL = {
    "long": "1,000 to 64,000 scores",
    "wide": "spread 200 to 740",
    "ties": "many ties",
    "masked": "most keys -inf",
    "subnormal": "weights below 2**-1022",
    "far": "fine bits far below the top",
    "midpoint": "a weight within 2**-80 of a midpoint",
}


def adversarial_corpus(seed=20261202):
    """A fixed corpus of (kind, row): rows chosen to cost a softmax its digits.

    One kind of row for each key of ADVERSARIAL.

    >>> corpus = adversarial_corpus()
    >>> sorted({kind for kind, _ in corpus}) == sorted(ADVERSARIAL)
    True
    >>> max(len(row) for _, row in corpus)
    64000
    """
    rng = random.Random(seed)
    corpus = [("long", [rng.gauss(0, 5) for _ in range(n)]) for n in (1000, 4000, 16000, 64000)]
    for width in (200.0, 500.0, 740.0):
        centre = rng.uniform(-500, 500)
        corpus.append(("wide", [centre + width * (rng.random() - 0.5) for _ in range(500)]))
    levels = [rng.uniform(-20, 20) for _ in range(4)]
    corpus += [("ties", [rng.choice(levels) for _ in range(1000)]),
               ("ties", [7.25] * 1024),                       # 2**-10 each, exactly
               ("ties", [0.0, 0.0, 0.0, -math.log(3.0)])]     # 0.3, 0.3, 0.3 and 0.1
    corpus += [("masked", [rng.gauss(0, 10) if rng.random() < 0.2 else -math.inf
                           for _ in range(500)] + [3.0]),
               ("masked", [-math.inf] * 99 + [-123.456])]
    corpus += [("subnormal", [0.0] + [-708.0 - 37.5 * rng.random() for _ in range(300)]),
               ("subnormal", [0.5, 0.25] + [-700.0 - i * 0.125 for i in range(360)])]
    corpus += [("far", [0.1] + [0.1 - 100.0 - i / 7 for i in range(400)]),
               ("far", [1e6 + 0.1] + [1e6 - rng.uniform(1, 600) for _ in range(400)])]
    bases = [([rng.gauss(0, 3) for _ in range(rng.randint(2, 8))], 1) for _ in range(24)]
    bases += [([2.0] * 5, 0), ([-math.inf, 3.5, -math.inf, 1.25], 3),
              ([rng.gauss(0, 5) for _ in range(1000)], 7),
              ([1e6 + 0.1, 1e6 - 12.5, 1e6 - 3.0], 1),
              ([0.0, -715.3, -3.0], 1), ([0.0, -740.1, -1.0], 1)]     # subnormal weights
    corpus += [("midpoint", near_midpoint(row, i)) for row, i in bases]
    return corpus


def near_midpoint(row, i):
    """The row and one more key, so that weight i is within 2**-80 of a midpoint.

    A midpoint, halfway between two floats, is where rounding is hardest:
    the exact weight must be known past the 53rd bit to round it.  The new
    key adds just the exp that brings weight i down from its exact value w
    to the midpoint M below it: w / M - 1 in units of the old total, which
    is 1 / (the weight of the top key) in units of exp(top).

    >>> row = near_midpoint([0.0, -1.0], 1)
    >>> row[:2], round(row[2], 3)
    ([0.0, -1.0], -35.214)
    >>> w = exact_softmax(row)[1]
    >>> f = float(w)                         # one of the two floats beside it
    >>> midpoints = [(Decimal(f) + Decimal(math.nextafter(f, g))) / 2 for g in (0, 1)]
    >>> min(abs(w / m - 1) for m in midpoints) < Decimal(2) ** -80
    True
    """
    weights = exact_softmax(row)           # to 60 digits
    w, w_top = weights[i], weights[row.index(max(row))]
    with localcontext() as ctx:
        ctx.prec = 1200                    # midpoints exactly, subnormal ones too
        f = float(w)
        below = math.nextafter(f, 0)
        midpoint = (Decimal(f) + Decimal(below)) / 2
        if w / midpoint - 1 < Decimal(2) ** -40:          # too close: the next one
            midpoint = (Decimal(below) + Decimal(math.nextafter(below, 0))) / 2
        ctx.prec = 60
        extra = w / midpoint - 1           # as a weight, in units of the total
        return row + [float(Decimal(max(row)) + (extra / w_top).ln())]


def installed(module):
    """An optional module (NumPy, SciPy), or None if it is not installed.

    >>> installed("math").sqrt(4), installed("no_such_module_here")
    (2.0, None)
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def softmax_methods(optional=True):
    """The softmax implementations to compare: name -> function on one row.

    >>> list(softmax_methods(optional=False))
    ['softmax', 'softmax_compensated', 'naive_softmax']
    """
    methods = {"softmax": softmax, "softmax_compensated": softmax_compensated,
               "naive_softmax": naive_softmax}
    np = installed("numpy") if optional else None
    special = installed("scipy.special") if optional else None
    if np is not None:
        def numpy_softmax(row):
            x = np.asarray(row, dtype=float)
            e = np.exp(x - x.max())
            return (e / e.sum()).tolist()
        methods["NumPy exp(x - max) / sum"] = numpy_softmax
    if special is not None:
        methods["scipy.special.softmax"] = lambda row: special.softmax(row).tolist()
    return methods


def accuracy(corpus=None, methods=None):
    """Measure each method on the corpus against the exact softmax.

    The corpus is a list of (group, row): the group is the spread of a
    random row, or the kind of an adversarial one.  Returns {name: {"max":
    ulps, "mean": ulps, "misrounded": weights, "weights": weights, "failed":
    rows, "by_group": {group: max ulps}}}.  A weight is misrounded when it
    is not the float nearest to the exact one.  A method that raises on a
    row (the naive one overflows) counts that row as failed, not as an error
    of 0 (and one that fails on every row has a max and mean of nan).

    >>> corpus = [(1.0, [0.1, -0.9]), (0.0, [1000.0, 1000.0])]
    >>> report = accuracy(corpus, {"naive": naive_softmax})
    >>> report["naive"]["failed"], report["naive"]["max"] < 2
    (1, True)
    >>> report["naive"]["misrounded"], report["naive"]["weights"]
    (0, 2)
    """
    corpus = accuracy_corpus() if corpus is None else corpus
    methods = softmax_methods() if methods is None else methods
    exact = [exact_softmax(row) for _, row in corpus]
    report = {}
    for name, method in methods.items():
        errors, failed, misrounded, by_group = [], 0, 0, {}
        for (group, row), truth in zip(corpus, exact):
            try:
                weights = method(row)
            except (OverflowError, ValueError):
                failed += 1
                continue
            row_errors = [ulp_error(w, t) for w, t in zip(weights, truth)]
            misrounded += sum(w != float(t) for w, t in zip(weights, truth))
            errors += row_errors
            by_group[group] = max(by_group.get(group, 0.0), max(row_errors))
        mean = math.fsum(errors) / len(errors) if errors else math.nan
        report[name] = {"max": max(errors, default=math.nan), "mean": mean,
                        "misrounded": misrounded, "weights": len(errors),
                        "failed": failed, "by_group": by_group}
    return report


def print_accuracy(corpus=None, adversarial=None, optional=True):
    """Print the accuracy on both corpora, the largest error by group, and how
    often softmax_compensated needed its fallback (its cost: ``lesson.speed``).

    >>> print_accuracy([(1.0, [0.1, -0.9]), (0.0, [1000.0, 1000.0])],
    ...                [("ties", [2.0, 2.0]), ("far", [0.1, -99.9])],
    ...                optional=False)   # doctest: +ELLIPSIS
    Accuracy of softmax against a 60-digit reference: misrounded weights, error in ulps
    random rows: 2 rows, 4 weights; adversarial rows: 2 rows, 4 weights
                                               random rows                    adversarial rows
    method                             misrounded max ulp mean ulp         misrounded max ulp mean ulp  rows failed
    softmax                                0 of 4    0.20    0.077             1 of 4   42.83   10.708            0
    softmax_compensated                    0 of 4    0.20    0.077             0 of 4    0.17    0.042            0
    naive_softmax                          0 of 2    0.20    0.153             0 of 4    0.17    0.042            1
    ...
    softmax_compensated's rounding test left 0 of 8 weights (0.000%) to decimal, in 0 of 4 rows
    """
    corpus = accuracy_corpus() if corpus is None else corpus
    adversarial = adversarial_corpus() if adversarial is None else adversarial
    methods = softmax_methods(optional)
    random_rows, hard_rows = accuracy(corpus, methods), accuracy(adversarial, methods)
    print("Accuracy of softmax against a 60-digit reference: misrounded weights, error in ulps")
    print(f"random rows: {len(corpus):,} rows, {sum(len(r) for _, r in corpus):,} weights; "
          f"adversarial rows: {len(adversarial):,} rows, "
          f"{sum(len(r) for _, r in adversarial):,} weights")
    print(f"{'':26}{'random rows':>28}{'adversarial rows':>36}")
    print(f"{'method':26} {'misrounded':>18} {'max ulp':>7} {'mean ulp':>8} "
          f"{'misrounded':>18} {'max ulp':>7} {'mean ulp':>8} {'rows failed':>12}")
    for name in methods:
        a, b = random_rows[name], hard_rows[name]
        print(f"{name:26} {misrounded(a):>18} {a['max']:7.2f} {a['mean']:8.3f} "
              f"{misrounded(b):>18} {b['max']:7.2f} {b['mean']:8.3f}"
              f" {a['failed'] + b['failed']:12d}")
    spreads = sorted({spread for spread, _ in corpus if spread in SPREADS})
    _print_by_group("Largest error (ulp) on random rows, by the spread of the scores:",
                    random_rows, spreads, [f"{s:g}" for s in spreads])
    kinds = [kind for kind in ADVERSARIAL if any(k == kind for k, _ in adversarial)]
    _print_by_group("Largest error (ulp) on adversarial rows, by kind:",
                    hard_rows, kinds, kinds)
    for kind in kinds:
        print(f"  {kind:10} {ADVERSARIAL[kind]}")
    doubtful, weights, rows_with, rows = fallback_rate(corpus + adversarial)
    print()
    print(f"softmax_compensated's rounding test left {doubtful:,} of {weights:,} weights "
          f"({doubtful / weights:.3%}) to decimal, in {rows_with:,} of {rows:,} rows")


def misrounded(measured):
    """'3 of 1,000': the misrounded weights among those measured.

    >>> misrounded({"misrounded": 0, "weights": 214000})
    '0 of 214,000'
    """
    return f"{measured['misrounded']:,} of {measured['weights']:,}"


def fallback_rate(corpus):
    """(doubtful, weights, rows with one, rows): how often the decimal fallback ran.

    ``fast_weights`` says which weights its rounding test left in doubt;
    ``softmax_compensated`` hands just those (with their row) to decimal.

    >>> fallback_rate([("ties", [2.0, 2.0]), ("subnormal", [0.0, -720.0])])
    (1, 4, 1, 2)
    """
    doubtful = rows_with = 0
    for _, row in corpus:
        in_doubt = len(fast_weights(row)[1])
        doubtful += in_doubt
        rows_with += in_doubt > 0
    return doubtful, sum(len(row) for _, row in corpus), rows_with, len(corpus)


def _print_by_group(title, report, groups, headings):
    """One line per method: its largest error in each group."""
    print()
    print(title)
    print(f"{'method':28}" + "".join(f"{h:>10}" for h in headings))
    for name, r in report.items():
        print(f"{name:28}" + "".join(f"{r['by_group'].get(g, math.nan):10.2f}"
                                     for g in groups))
