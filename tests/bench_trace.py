"""The cost of tracing (issue 40); not a test: it prints figures.

    python tests/bench_trace.py [--repeat 20] [--files 3]

For each file of tests/traced (and its hostile ones), and each function's
first failing check: the call untraced (``harness.call``) against the same
call traced (``harness.traced``), in this process, as a worker makes them:
the median time of --repeat calls, the peak of memory allocated during one
(tracemalloc), and the size of the trace as the worker sends it (JSON).
Then whole files in the terminal's checker (``process.run``, no sandbox),
with the plan's traces and without: the median seconds of --files runs.
"""

import argparse
import contextlib
import functools
import os
import json
import pathlib
import statistics
import sys
import time
import tracemalloc
import warnings

from lesson.grader import harness, plan as planning, process
from lesson.grader.contract import checks_for

ROOT = pathlib.Path(__file__).resolve().parent.parent
TRACED = ROOT / "tests" / "traced"
SEED = 7


def first_failures(module, checks):
    """Each function's first check that fails on an answer, as the plan picks them."""
    outcomes = {}
    for index, check in enumerate(checks):
        function = getattr(module, check.function, None)
        outcomes[index] = (harness.call(function, check.args, check.kwargs)
                           if callable(function) else {"missing": True})
    plan = planning.Plan(checks=checks)
    plan.outcomes = outcomes
    return plan._first_failures()


def measure(function, check, repeat, traced):
    def once():
        if traced:
            return harness.traced(function, check.args, check.kwargs, planning.TRACE_SECONDS)
        return harness.call(function, check.args, check.kwargs), None
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        once()
        times.append(time.perf_counter() - started)
    tracemalloc.start()
    _, trace = once()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak, len(json.dumps(trace)) if trace else 0


def per_check(paths, repeat):
    print(f"{'file':34} {'check':26} {'untraced':>9} {'traced':>9} {'x':>6} "
          f"{'peak KiB':>15} {'trace chars':>11}")
    ratios = []
    for path in paths:
        saved = set(sys.modules), sys.path[:]
        with warnings.catch_warnings(), open(os.devnull, "w") as nowhere, \
                contextlib.redirect_stdout(nowhere), contextlib.redirect_stderr(nowhere):
            warnings.simplefilter("ignore")
            module, load = harness.load_file(str(path))
            checks = checks_for(SEED)
            for index in first_failures(module, checks) if module else []:
                check = checks[index]
                function = getattr(module, check.function)
                plain = measure(function, check, repeat, traced=False)
                traced = measure(function, check, repeat, traced=True)
                ratios.append(traced[0] / plain[0])
                print(f"{path.name[:34]:34} {check.name[:26]:26} {plain[0] * 1e3:7.3f}ms "
                      f"{traced[0] * 1e3:7.3f}ms {traced[0] / plain[0]:6.1f} "
                      f"{plain[1] / 1024:6.0f} -> {traced[1] / 1024:5.0f} {traced[2]:11}",
                      file=sys.__stdout__)
        sys.path[:] = saved[1]
        for name in set(sys.modules) - saved[0]:
            if not name.startswith("numpy"):
                del sys.modules[name]
    print(f"\ntraced / untraced, median over {len(ratios)} checks: "
          f"{statistics.median(ratios):.1f}x")


def per_file(paths, runs):
    print(f"\n{'file':34} {'untraced s':>10} {'traced s':>9} {'traces':>6}")
    untraced = functools.partial(planning.Plan, traces=False)
    for path in paths:
        timings = {}
        for name, plan in (("untraced", untraced), ("traced", planning.Plan)):
            process.Plan = plan
            seconds = []
            for _ in range(runs):
                result = process.run(str(path), 2.0, path.name, "none", seed=SEED)
                seconds.append(result["seconds"])
            timings[name] = statistics.median(seconds)
        process.Plan = planning.Plan
        traces = sum(bool(check["trace"]) for check in result["checks"])
        print(f"{path.name[:34]:34} {timings['untraced']:10.3f} {timings['traced']:9.3f} "
              f"{traces:6}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--files", type=int, default=3)
    options = parser.parse_args()
    paths = sorted(TRACED.glob("*.py")) + sorted((TRACED / "hostile").glob("*.py"))
    in_worker_only = ("hangs_when_traced.py", "forges_when_traced.py", "odd_objects.py")
    per_check([p for p in paths if p.name not in in_worker_only], options.repeat)
    per_file([p for p in paths if p.parent == TRACED][:6], options.files)
    print(f"\n(Python {sys.version.split()[0]}; TRACE_SECONDS {planning.TRACE_SECONDS:g})")


if __name__ == "__main__":
    main()
