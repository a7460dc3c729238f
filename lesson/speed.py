"""Benchmarks: how fast the lesson's softmax is (how accurate: ``lesson.bench``).

python -m lesson bench speed       softmax against the bare recipe, seconds
                                   per call, and how time grows; what
                                   softmax_compensated costs over softmax

Standard library only; where NumPy is installed, its softmax and attention
are timed beside the lesson's.  Times are best CPU times of paired runs, so
a busy machine moves both alike.
"""

import math
import random
import time
import timeit

from lesson.bench import installed, softmax_methods
from lesson.compensated import softmax_compensated
from lesson.head import attention
from lesson.weights import softmax


def seconds_per_call(call, budget=0.5, repeats=3, timer=timeit.default_timer):
    """Best time of one call: batches of calls, each about budget / 10 long.

    The best of ``repeats`` batches, and of the batch that set their size;
    a call slower than the whole budget is repeated only as the budget
    allows, at least once.  ``timer=time.process_time`` counts this
    process's CPU time only, which other work on a busy machine does not
    inflate.

    >>> 0 < seconds_per_call(lambda: sum(range(100)), budget=0.01) < 1
    True
    """
    timer = timeit.Timer(call, timer=timer)
    number, elapsed = _batch(timer, budget / 10)
    repeats = max(1, min(repeats, int(budget / elapsed)))
    return min([elapsed] + timer.repeat(repeat=repeats, number=number)) / number


def _batch(timer, seconds):
    """(number, elapsed): how many calls make a batch at least seconds long."""
    number, elapsed = 1, timer.timeit(1)
    while elapsed < seconds:
        number *= 10
        elapsed = timer.timeit(number)
    return number, elapsed


def recipe_softmax(scores):
    """The chapter's bare recipe, with no checks: max, exp list, sum, divide.

    The yardstick for softmax's speed: what the checks cost is how much
    slower ``softmax`` is than this.

    >>> [round(w, 6) for w in recipe_softmax([1 / 2 ** 0.5, 0.0])]
    [0.669762, 0.330238]
    """
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def paired_ratios(method, baseline, sizes, budget=0.5, rounds=25, seed=1):
    """Time of one softmax over another's on one row: [(size, ratio, times)].

    method and baseline are (name, function).  Short batches of the two take
    turns on the same row of floats, ``rounds`` times, and each keeps its
    best batch: on a busy machine both meet the same quiet moments.  They
    are timed in this process's CPU time, which other work on the machine
    does not count in.  ``times`` is {name: seconds per call}.

    >>> [(n, ratio > 0) for n, ratio, _ in paired_ratios(
    ...     ("softmax", softmax), ("recipe", recipe_softmax), (3,), 0.001, rounds=1)]
    [(3, True)]
    """
    rng = random.Random(seed)
    results = []
    for n in sizes:
        row = [rng.gauss(0, 3) for _ in range(n)]
        timers = {name: timeit.Timer(lambda f=f: f(row), timer=time.process_time)
                  for name, f in (method, baseline)}
        numbers = {name: _batch(timer, budget / (2 * rounds))[0]
                   for name, timer in timers.items()}
        best = {name: math.inf for name in timers}
        for _ in range(rounds):
            for name, timer in timers.items():
                seconds = timer.timeit(numbers[name]) / numbers[name]
                best[name] = min(best[name], seconds)
        results.append((n, best[method[0]] / best[baseline[0]], best))
    return results


def speed_ratios(sizes=(3, 1000), budget=0.5, rounds=25, seed=1):
    """softmax's time over the bare recipe's: what the checks cost.

    >>> [(n, sorted(times)) for n, _, times in speed_ratios((3,), 0.001, rounds=1)]
    [(3, ['recipe', 'softmax'])]
    """
    return paired_ratios(("softmax", softmax), ("recipe", recipe_softmax),
                         sizes, budget, rounds, seed)


def cost_ratios(sizes=(3, 100, 1000), budget=0.5, rounds=25, seed=1):
    """softmax_compensated's time over softmax's: what the last bits cost.

    >>> [(n, sorted(times)) for n, _, times in cost_ratios((3,), 0.001, rounds=1)]
    [(3, ['softmax', 'softmax_compensated'])]
    """
    return paired_ratios(("softmax_compensated", softmax_compensated),
                         ("softmax", softmax), sizes, budget, rounds, seed)


def print_cost(sizes=(3, 100, 1000), budget=0.5):
    """Print softmax_compensated's time over softmax's at each length.

    >>> print_cost((3,), 0.001)                      # doctest: +ELLIPSIS
    softmax_compensated over softmax (paired runs, best CPU time of each):
      length  softmax_compensated       softmax     ratio
           3 ...x
    """
    print("softmax_compensated over softmax (paired runs, best CPU time of each):")
    print(f"{'length':>8}{'softmax_compensated':>21}{'softmax':>14}{'ratio':>10}")
    for n, ratio, times in cost_ratios(sizes, budget):
        print(f"{n:>8}{format_seconds(times['softmax_compensated']):>21}"
              f"{format_seconds(times['softmax']):>14}{ratio:>9.2f}x")


def speed_rows(sizes=(3, 10, 1000, 100000), budget=0.5, optional=True, seed=1,
               timer=timeit.default_timer):
    """Seconds per softmax call on one row of each size: [(size, {name: s})].

    >>> [(n, sorted(times)) for n, times in speed_rows((3,), 0.01, optional=False)]
    [(3, ['chapter recipe (no checks)', 'softmax', 'softmax_compensated'])]
    """
    rng = random.Random(seed)
    methods = softmax_methods(optional)
    methods.pop("naive_softmax")
    methods = {"chapter recipe (no checks)": recipe_softmax, **methods}
    results = []
    for n in sizes:
        row = [rng.gauss(0, 3) for _ in range(n)]
        results.append((n, {name: seconds_per_call(lambda f=f: f(row), budget,
                                                   timer=timer)
                            for name, f in methods.items()}))
    return results


def numpy_attention():
    """One head in NumPy, for comparison, or None if NumPy is not installed.

    >>> head = numpy_attention()
    >>> head is None or round(head([[1, 0]], [[1, 0], [0, 1]], [[2, 0], [0, 2]])[1][0][0], 6) == 0.669762
    True
    """
    np = installed("numpy")
    if np is None:
        return None

    def head(Q, K, V):
        Q, K, V = (np.asarray(a, dtype=float) for a in (Q, K, V))
        S = Q @ K.T / math.sqrt(Q.shape[1])
        A = np.exp(S - S.max(axis=1, keepdims=True))
        A /= A.sum(axis=1, keepdims=True)
        return (A @ V).tolist(), A.tolist()
    return head


def speed_attention(sizes=(16, 32, 64, 128, 256), d=64, budget=0.5, optional=True, seed=2):
    """Seconds per attention call with n_q = n_k = n and d_k = d_v = d.

    >>> [n for n, _ in speed_attention(sizes=(2, 4), d=2, budget=0.01, optional=False)]
    [2, 4]
    """
    rng = random.Random(seed)
    methods = {"attention": attention}
    head = numpy_attention() if optional else None
    if head is not None:
        methods["NumPy"] = head
    results = []
    for n in sizes:
        Q, K, V = ([[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)] for _ in range(3))
        results.append((n, {name: seconds_per_call(lambda f=f: f(Q, K, V), budget)
                            for name, f in methods.items()}))
    return results


def format_seconds(seconds):
    """A time with a readable unit.

    >>> format_seconds(0.0021), format_seconds(2.5e-6), format_seconds(9.997e-7)
    ('2.1 ms', '2.5 us', '1 us')
    """
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        shown = f"{seconds / scale:.3g}"
        if float(shown) >= 1 or unit == "ns":      # 999.7 ns rounds to 1 us, not 1e+03 ns
            return f"{shown} {unit}"


def print_speed(budget=0.5, row_sizes=(3, 10, 1000, 100000),
                head_sizes=(16, 32, 64, 128, 256), d=64, optional=True,
                ratio_sizes=(3, 1000)):
    """Print what softmax's checks cost, then seconds per call as sizes grow.

    >>> print_speed(0.001, row_sizes=(3,), head_sizes=(2, 4), d=2,
    ...             optional=False, ratio_sizes=(3,))   # doctest: +ELLIPSIS
    softmax over the chapter's bare recipe (max, exp list, sum, divide):
      length       softmax        recipe     ratio
           3 ...x
    <BLANKLINE>
    softmax of one row (best of several runs, per call):
      length ...softmax...
           3 ...
    <BLANKLINE>
    attention, n queries x n keys, d_k = d_v = 2 (work grows as n*n*d):
           n     attention  x per doubling
           2 ...
           4 ...
    """
    print("softmax over the chapter's bare recipe (max, exp list, sum, divide):")
    print(f"{'length':>8}{'softmax':>14}{'recipe':>14}{'ratio':>10}")
    for n, ratio, times in speed_ratios(ratio_sizes, budget):
        print(f"{n:>8}{format_seconds(times['softmax']):>14}"
              f"{format_seconds(times['recipe']):>14}{ratio:>9.2f}x")
    print()
    rows = speed_rows(row_sizes, budget, optional)
    names = list(rows[0][1])
    print("softmax of one row (best of several runs, per call):")
    width = max(len(name) for name in names) + 2
    print(f"{'length':>8}" + "".join(f"{name:>{width}}" for name in names))
    for n, times in rows:
        print(f"{n:>8}" + "".join(f"{format_seconds(times[name]):>{width}}"
                                  for name in names))
    print()
    heads = speed_attention(head_sizes, d, budget, optional)
    names = list(heads[0][1])
    print(f"attention, n queries x n keys, d_k = d_v = {d} (work grows as n*n*d):")
    print(f"{'n':>8}" + "".join(f"{n:>14}" for n in names) + f"{'x per doubling':>16}")
    previous = None
    for n, times in heads:
        growth = f"{times['attention'] / previous:.2f}" if previous else ""
        print(f"{n:>8}" + "".join(f"{format_seconds(times[name]):>14}" for name in names)
              + f"{growth:>16}")
        previous = times["attention"]
