"""Time the checker on a class (issue 18); not a test: it prints figures.

    python tests/bench_class.py [--correct 60] [--hanging 6] [--time-limit 2]

Builds a class of CORRECT correct files and HANGING files whose softmax
never returns, in a temporary folder, and times ``python -m lesson check``
on it with the default --jobs against --jobs 1 (the issue's goal: at most
0.65 of the wall time), then the correct files alone, --jobs 1, with
--sandbox against --no-sandbox (the sandbox's cost per file).  Each figure is the median of
--repeat runs.
"""

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORRECT = ROOT / "tests" / "learner_corpus" / "correct_loops.py"
HANGS = "def softmax(x, axis=-1):\n    while True:\n        pass\n"


def seconds(args, cwd, repeat):
    times = []
    for _ in range(repeat):
        start = time.monotonic()
        subprocess.run([sys.executable, "-m", "lesson", "check", *args], cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
        times.append(time.monotonic() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--correct", type=int, default=60)
    parser.add_argument("--hanging", type=int, default=6)
    parser.add_argument("--time-limit", default="2")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--sandbox", choices=["--sandbox", "--no-sandbox"], default=None,
                        help="for the class runs (default: the checker's own choice)")
    options = parser.parse_args()
    root = pathlib.Path(tempfile.mkdtemp(prefix="lesson-bench-class-"))
    try:
        folder = root / "class"
        folder.mkdir()
        for number in range(options.correct):
            shutil.copy(CORRECT, folder / f"correct_{number:03}.py")
        for number in range(options.hanging):
            (folder / f"hangs_{number:03}.py").write_text(HANGS)
        common = ["--time-limit", options.time_limit, "--seed", "1"]
        common += [options.sandbox] if options.sandbox else []
        jobs = os.cpu_count() or 1
        print(f"class: {options.correct} correct + {options.hanging} hanging files, "
              f"--time-limit {options.time_limit}, {jobs} cores, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        parallel = seconds(common + ["class"], root, options.repeat)
        print(f"default --jobs ({jobs}): {parallel:.1f} s", flush=True)
        serial = seconds(common + ["--jobs", "1", "class"], root, options.repeat)
        print(f"--jobs 1: {serial:.1f} s", flush=True)
        print(f"ratio: {parallel / serial:.2f} (goal <= 0.65)", flush=True)
        correct = [str(p.relative_to(root)) for p in sorted(folder.glob("correct_*.py"))]
        one = ["--time-limit", options.time_limit, "--seed", "1", "--jobs", "1", *correct]
        bare = seconds(["--no-sandbox"] + one, root, options.repeat)
        boxed = seconds(["--sandbox"] + one, root, options.repeat)
        each = (boxed - bare) / len(correct)
        print(f"{len(correct)} correct files, --jobs 1: --no-sandbox {bare:.1f} s, --sandbox "
              f"{boxed:.1f} s: the sandbox costs {each * 1000:+.0f} ms a file")
        print(f"load at the end: {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
