"""Time softmax once and save the figures the Precision page shows.

    python -m lesson_docs.measure_speed        # about 25 s; writes speed.json

Timing at every build would make the page change from build to build, and
a build is no place for a benchmark.  So the figures are measured by this
script, with ``lesson.speed.speed_rows`` (what ``python -m lesson bench
speed`` prints) and ``lesson.speed.cost_ratios`` (the cost that ``python -m
lesson bench accuracy`` prints), and saved beside it with the machine and
the date they were taken on.  Run it again after changing the code the
tables time, and commit the file.
"""

import datetime
import json
import os
import pathlib
import platform
import sys
import time

from lesson import bench, speed

FIGURES = pathlib.Path(__file__).resolve().parent / "speed.json"
SIZES = (3, 10, 1000, 100000)
COST_SIZES = (3, 100, 1000)


def cpu_name():
    """The processor's model name, where the system says it."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def library_versions():
    versions = {}
    for name in ("numpy", "scipy"):
        module = bench.installed(name)
        if module is not None:
            versions[name] = module.__version__
    return versions


def measure(budget=0.5):
    """Seconds per call for each size and method, with where and when."""
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    # CPU time: the figures hold on a machine shared with other work.
    rows = speed.speed_rows(SIZES, budget=budget, optional=True, timer=time.process_time)
    ratios = speed.cost_ratios(COST_SIZES, budget=budget)
    return {
        "taken": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": {
            "cpu": cpu_name(), "cores": os.cpu_count(), "system": platform.system(),
            "python": platform.python_version(),
            "load_average": load_before,
        },
        "libraries": library_versions(),
        "command": "python -m lesson_docs.measure_speed",
        "clock": "CPU time",
        "seconds_per_call": [{"scores": n, "seconds": times} for n, times in rows],
        "cost_ratios": [{"scores": n, "ratio": ratio, "seconds": times}
                        for n, ratio, times in ratios],
    }


def main():
    figures = measure()
    FIGURES.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {FIGURES}")
    for row in figures["seconds_per_call"]:
        print(row["scores"], {name: f"{s * 1e6:.3g} us" for name, s in row["seconds"].items()})
    for row in figures["cost_ratios"]:
        print(row["scores"], f"softmax_compensated / softmax: {row['ratio']:.2f}")


if __name__ == "__main__":
    sys.exit(main())
