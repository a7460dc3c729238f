"""How the tests are shared out and timed: pytest-xdist's scheduling, the
markers given by file, and --file-durations.

Every marker expression (-m), -k and -n 0 work with it: the scheduler only
groups the tests that were collected, whatever was deselected.
"""

import collections
import os

import pytest
from xdist.scheduler import LoadScopeScheduling


# How pytest-xdist shares the tests out (-n auto).  A file whose tests share
# one costly fixture made per worker (a page where Python has started, a class
# graded once, the autograder's venv, the learner corpus's runs) runs whole on
# one worker: WHOLE_FILES.  Every other test goes to whichever worker is free,
# so the browser tests that read the shared page states, and the site's
# checks, spread over every worker.  Workers take the costliest whole files
# first, then the single tests, the costliest files' first.  The order is each
# file's total time in `pytest --file-durations 0` (2026-12-02, 2 cores); look
# again when a file grows.
WHOLE_FILES = ["test_runner_browser.py", "test_learner_corpus.py", "test_exercise.py",
               "test_report.py", "test_hostile_class.py", "test_formats.py",
               "test_bundle.py", "test_mistakes.py", "test_precision.py", "test_layouts.py",
               "test_report_agreement.py", "test_explorer.py", "test_confinement.py",
               "test_trace.py"]
COSTLIEST_FIRST = WHOLE_FILES + [
    "test_browser.py", "test_quiz.py", "test_accessibility.py", "test_widget.py",
    "test_download.py", "test_site.py", "test_widget_layout.py", "test_session.py",
    "test_process.py", "test_classroom.py"]


class WholeFiles(LoadScopeScheduling):
    """pytest-xdist's loadscope, where a scope is a file of WHOLE_FILES or a
    single test.  (pytest-xdist's own loadgroup cannot group under pytest 9:
    it renames nodes through an attribute pytest no longer reads.)"""

    def _split_scope(self, nodeid):
        path = nodeid.split("::", 1)[0]
        return path if os.path.basename(path) in WHOLE_FILES else nodeid


def pytest_addoption(parser):
    parser.addoption("--file-durations", type=int, metavar="N", default=None,
                     help="list the N test files that took longest: each file's setup, call "
                          "and teardown times summed over its tests (0 for every file), "
                          "to see which files to order first in WHOLE_FILES and COSTLIEST_FIRST; "
                          "with -n 0, also the CPU the whole machine spent meanwhile")


def machine_cpu():
    """Seconds of CPU the whole machine has spent so far (Linux's /proc/stat),
    the learners' sandboxed files and Chromium's processes included; None
    where there is no /proc/stat."""
    try:
        with open("/proc/stat") as stat:
            user, nice, system, idle, iowait, irq, softirq, steal = map(
                int, stat.readline().split()[1:9])
    except (OSError, ValueError):
        return None
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


FILE_CPU = collections.Counter()     # test file: the machine's CPU seconds while its tests ran


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """--file-durations in one process: the machine's CPU while each test ran
    (its fixtures' setup and teardown included).  On a machine whose cores are
    all busy, as under pytest-xdist here, CPU, not wall time, is what a test
    costs the run."""
    before = machine_cpu() if item.config.getoption("file_durations") is not None else None
    try:
        return (yield)
    finally:
        if before is not None:
            FILE_CPU[item.nodeid.split("::", 1)[0]] += machine_cpu() - before


def pytest_terminal_summary(terminalreporter, config):
    """--file-durations N: the files' own times, as --durations gives the tests'."""
    count = config.getoption("file_durations")
    if count is None:
        return
    seconds, tests = collections.Counter(), collections.Counter()
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) in ("setup", "call", "teardown"):
                path = report.nodeid.split("::", 1)[0]
                seconds[path] += report.duration
                tests[path] += report.when == "call"
    cpu = FILE_CPU if FILE_CPU else None          # empty under -n: each worker has its own
    terminalreporter.write_sep("=", f"slowest {count or 'all'} test files")
    if cpu:
        terminalreporter.write_line(f"{'wall':>9}  {'CPU':>9}  (the whole machine's, "
                                    f"{sum(cpu.values()):.1f} s in all)")
    for path, total in (cpu or seconds).most_common(count or None):
        spent = f"{cpu[path]:8.1f}s  " if cpu else ""
        terminalreporter.write_line(f"{seconds[path]:8.1f}s  {spent}{tests[path]:4d} tests  {path}")


def pytest_xdist_make_scheduler(config, log):
    """Under -n, share the tests out as WholeFiles does, whatever --dist says."""
    return WholeFiles(config, log)


def pytest_xdist_auto_num_workers(config):
    """-n auto: one worker more than there are cores.  A browser test waits on
    Chromium, and a checker test on a learner's file that hangs, for much of
    its time; the extra worker uses those waits."""
    return (os.cpu_count() or 1) + 1


# What makes a test slow, in one place: the files that install the wheel,
# build a venv or a container, or grade files through the checker as teachers
# run it (a class, the corpus, the layouts); and the fixtures that build the
# site.  `pytest -m "not browser and not slow"` is the loop to run on every
# change: every doctest and each module's own tests.  (A test that is slow
# within a quick file is marked where it is written.)
SLOW_FILES = ["test_layouts.py", "test_bundle.py", "test_learner_corpus.py",
              "test_report_agreement.py", "test_download.py", "test_hostile_class.py",
              "test_exercise.py", "test_report.py", "test_readme.py", "test_confinement.py"]
SLOW_FIXTURES = {"built_site", "zensical_site"}


def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the browser fixture (through open_page too)
    ``browser``, and every test of SLOW_FILES or SLOW_FIXTURES ``slow``; put
    the costliest first."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if item.path.name in SLOW_FILES or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
    rank = {name: place for place, name in enumerate(COSTLIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable
