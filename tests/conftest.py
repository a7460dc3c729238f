"""Shared fixtures for the lesson's tests.

Tests that drive a real browser are marked ``browser`` here, whichever file
they are in, so ``pytest -m "not browser"`` runs everything else quickly.
Hypothesis runs derandomized: the same examples on every run and in CI.
"""

import collections
import compileall
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys

# Bytecode: the tests (their assertions rewritten) and the lesson are compiled
# once, into the __pycache__ folders git ignores, and read from there by every
# later pytest process and every Python the tests start, even where
# PYTHONDONTWRITEBYTECODE=1 is set (as on a shared machine): else each of the
# run's hundreds of Pythons compiles them again.  Only while tests/ and lesson/
# are collected (see pytest_make_collect_report): never beside a page's files
# (docs/assets, which the site copies) or a learner's.
DONT_WRITE_BYTECODE = sys.dont_write_bytecode
sys.dont_write_bytecode = False

try:
    import fcntl                # a lock for made_once; POSIX only
except ImportError:
    fcntl = None

import pytest
from hypothesis import HealthCheck, settings
from xdist.scheduler import LoadScopeScheduling

from lesson_docs import build_cache, checker_output
from page_states import DESKTOP, measure_page

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The same examples on every run; no timing limits, which a busy CI machine
# would trip without any bug.
settings.register_profile("lesson", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("lesson")


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
               "test_report_agreement.py", "test_explorer.py", "test_trace.py"]
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


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """Bytecode written while a file of tests/ or lesson/ is collected, and
    as this Python was told for any other (the docs' doctests, say)."""
    ours = any(pathlib.Path(collector.path).is_relative_to(ROOT / folder)
               and collector.path != ROOT / folder for folder in ("tests", "lesson"))
    sys.dont_write_bytecode = DONT_WRITE_BYTECODE and not ours
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = DONT_WRITE_BYTECODE


def pytest_collection_finish(session):
    """The lesson compiled for the Pythons the tests start (the checker);
    then bytecode is written, or not, as this Python was told."""
    compileall.compile_dir(str(ROOT / "lesson"), quiet=2)
    sys.dont_write_bytecode = DONT_WRITE_BYTECODE


def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the browser fixture (through open_page too)
    ``browser``; put the costliest first."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    rank = {name: place for place, name in enumerate(COSTLIEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable


# Learners' files: graded by the checker, never imported by pytest (some have
# syntax errors, never finish loading, call input(), exit or fork).
collect_ignore_glob = ["learner_corpus/*", "mistakes/*", "hostile_class/*"]


class Samples:
    """The learners' files the tests grade, as one folder: ``SAMPLES / "forgot_max.py"``.

    The files a page shows live with the site (lesson_docs/samples, which the
    build grades); the rest live in the one corpus of learners' files,
    tests/learner_corpus.
    """

    def __init__(self, *folders):
        self.folders = folders

    def __truediv__(self, name):
        for folder in self.folders:
            if (folder / name).exists():
                return folder / name
        return self.folders[-1] / name


SAMPLES = Samples(checker_output.SAMPLES, pathlib.Path(__file__).parent / "learner_corpus")


@pytest.fixture
def rng():
    """A seeded random generator, so every run checks the same cases."""
    return random.Random(20261130)


def made_once(tmp_path_factory, name, make):
    """A folder made by ``make(folder)`` once per test run, and its path.

    With pytest-xdist the run's workers share it: the first to ask makes it
    while the others wait on a lock, so a site is built once, not per worker.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent                 # the run's folder, above each worker's
    folder, done = base / name, base / f"{name}.done"
    with open(base / f"{name}.lock", "w") as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session", autouse=True)
def docs_cache(tmp_path_factory):
    """One folder a run where the site's builds keep what they compute from
    the code (lesson_docs.build_cache): the MkDocs, Zensical and no-npm
    builds, on every worker, run the scaling experiment, the accuracy
    benchmark and the checker on the samples once between them."""
    folder = made_once(tmp_path_factory, "docs-cache", lambda folder: None)
    os.environ[build_cache.VARIABLE] = str(folder)
    return folder


def mkdocs_build(project, site):
    """`mkdocs build --strict` of the project in folder ``project`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
        capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once per test run with `mkdocs build --strict`."""
    def build(site):
        result = mkdocs_build(ROOT, site)
        assert result.returncode == 0, result.stdout + result.stderr
    return made_once(tmp_path_factory, "site", build)


# --- A real browser: headless Chromium driven by Playwright -----------------

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-quic"]


def chromium_path():
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def skip_or_fail(reason):
    """Skip where a learner lacks a tool (Chromium, Pyodide, Zensical); in CI,
    where every tool is installed, such a skip is a failure.  The tests' one
    skip-or-fail."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run every test: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        skip_or_fail("no Chromium found (apt-get install chromium, or set CHROMIUM=/path)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shots():
    """Where to save screenshots to look at: $LESSON_SCREENSHOTS, or None.

    Full-page screenshots cost seconds and no test reads them, so they are
    taken only when someone asks: LESSON_SCREENSHOTS=shots pytest -m browser.
    """
    folder = os.environ.get("LESSON_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
    return folder or None


# Before any script of a page runs, its storage is emptied: a page opened in a
# shared context starts as if in a fresh one (no saved editor text, scheme or tab).
EMPTY_STORAGE = "try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}"


@pytest.fixture(scope="session")
def contexts(browser):
    """One browser context per (colour scheme, width), shared by the whole run.

    A context keeps its cache, so the theme's scripts and styles load once,
    not once per test; each page still starts with empty storage.  Each
    context also keeps one blank tab open: while it is open, Chromium keeps
    the context's renderer process, and a page opened in a new tab reuses it
    (and the scripts it compiled) instead of starting a process of its own:
    about 0.6 s of CPU a page instead of 1.3 s.  (Page keeps the tabs a test
    is done with too; the blank one still saves CPU: test_widget,
    test_widget_layout and test_quiz took 87 s of CPU with it, 101 s without.)
    """
    made = {}

    def context(scheme="light", width=DESKTOP):
        if (scheme, width) not in made:
            made[scheme, width] = browser.new_context(viewport={"width": width, "height": 900},
                                                      color_scheme=scheme)
            made[scheme, width].add_init_script(EMPTY_STORAGE)
            made[scheme, width].new_page()              # the blank tab kept open
        return made[scheme, width]
    yield context
    for each in made.values():
        IDLE_TABS.pop(id(each), None)
        each.close()


class Page:
    """A page of the site opened from disk, with every JavaScript error it raised.

    It is loaded, as a new document (its storage emptied by the context's
    script, as in a new tab), into a tab an earlier page of its context left,
    else into a new tab: a load in a tab Chromium has running costs about a
    third less CPU.  The tab is brought to the front first (a tab behind
    another gets no animation frames).  A tab whose viewport a test changed
    is closed, not kept.
    """

    def __init__(self, context, site, name):
        self.context = context
        idle = IDLE_TABS.setdefault(id(context), [])
        self.page = idle.pop() if idle else context.new_page()
        self.page.bring_to_front()          # a tab behind another gets no animation frames
        self.viewport = self.page.viewport_size      # the context's, until a test changes it
        self.errors, self.requests = [], []
        self.listeners = {
            "pageerror": lambda error: self.errors.append(str(error)),
            "console": lambda m: m.type == "error" and self.errors.append(m.text),
            "request": lambda r: self.requests.append(r.url)}
        for event, listener in self.listeners.items():
            self.page.on(event, listener)
        self.page.goto((site / f"{name}.html").as_uri())
        self.page.wait_for_load_state("load")

    def close(self):
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)
        if self.page.is_closed():
            return
        if self.page.viewport_size != self.viewport:
            self.page.close()
            return
        self.page.evaluate("window.scrollTo(0, 0)")       # as a new tab has them, should the
        self.page.mouse.move(0, 0)                         # next load restore either
        IDLE_TABS.setdefault(id(self.context), []).append(self.page)


IDLE_TABS = {}              # id(context): tabs a closed Page left, to load the next in


@pytest.fixture
def open_page(browser, contexts, built_site):
    opened = []

    def open_(name, scheme="light", width=DESKTOP):
        page = Page(contexts(scheme, width), built_site, name)
        opened.append(page)
        return page
    yield open_
    for page in opened:
        page.close()


@pytest.fixture(scope="session")
def untouched(contexts, built_site):
    """Pages that tests only read: each (page, scheme, width) opened once per worker.

    A page load costs Material's bundle again, and many checks only read the state
    a page starts in or call its pure functions. They share one load here, across
    files. No test may click, type, focus or scroll these pages; a test that
    changes anything opens its own page with open_page.
    """
    opened = {}

    def untouched_(name, scheme="light", width=DESKTOP):
        if (name, scheme, width) not in opened:
            opened[name, scheme, width] = Page(contexts(scheme, width), built_site, name)
        return opened[name, scheme, width]
    yield untouched_
    for view in opened.values():
        view.close()


class Inspected:
    """One page state's measurements; a part that could not be measured fails its test."""

    def __init__(self, key, found):
        self.key, self.found = key, found

    def __getitem__(self, path):
        """state["sideways"], or state["focus", selector] for a part of a part."""
        value = self.found
        for part in path if isinstance(path, tuple) else (path,):
            if part not in value:
                pytest.fail(f"{self.key}: {path!r} is not measured in this state")
            value = value[part]
            if isinstance(value, dict) and "__skipped__" in value:
                skip_or_fail(value["__skipped__"])
            if isinstance(value, dict) and "__failed__" in value:
                pytest.fail(f"{self.key}: measuring {path!r} failed:\n{value['__failed__']}")
        return value


@pytest.fixture(scope="session")
def inspected(browser, contexts, built_site, shots, tmp_path_factory):
    """inspected(name, scheme, width): that page state's measurements, taken once per run.

    One load per (page, colour scheme, width), shared by every browser test and,
    through a file, by every pytest-xdist worker: the first test to ask measures
    (see measure_page for what and in which order) and the rest read the result.
    """
    memo = {}

    def inspected_(name, scheme="light", width=DESKTOP):
        key = (name, scheme, width)
        if key not in memo:
            def measure(folder):
                view = Page(contexts(scheme, width), built_site, name)
                try:
                    found = measure_page(view, name, scheme, width, shots)
                finally:
                    view.close()
                (folder / "measured.json").write_text(json.dumps(found))
            folder = made_once(tmp_path_factory, f"page-{name}-{scheme}-{width}", measure)
            memo[key] = Inspected(key, json.loads((folder / "measured.json").read_text()))
        return memo[key]
    return inspected_
