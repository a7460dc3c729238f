"""What the tests share: one module of helpers, imported by name.

ROOT, SAMPLES, CORPUS              the repository, the learners' files the tests grade
skip_or_fail(reason)               skip where a learner lacks a tool; in CI, fail
made_once(factory, name, make)     a folder made once per run, shared by pytest-xdist's workers
mkdocs_build(project, site)        `mkdocs build --strict`
Run, check(*args)                  ``python -m lesson check`` as a teacher runs it, under
                                   tests/reaper.py: nothing it starts may outlive it
starts_processes(mark), leftovers  the corpus's file that starts processes, and what it left
checked_at_once, checked           a module's cases graded together, in the background
call_check, run_here, code_of      a learner's code called, and read, in this process
misspoken(results, code)           the hints that speak another dialect than their code

The fixtures live in the plugins tests/conftest.py loads (plugin_fixtures.py,
plugin_browser.py); how the tests are shared out, in plugin_scheduling.py.
"""

import collections
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time
import uuid
import warnings
import concurrent.futures

try:
    import fcntl                # a lock for made_once; POSIX only
except ImportError:
    fcntl = None

import pytest

from lesson.grader import contract, harness, reading
from lesson_docs import checker_output
from reaper import processes

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = 11                   # the seed of the checks run in this process (run_here)


# --- The learners' files ---------------------------------------------------------

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


# --- Tools a learner may lack ----------------------------------------------------

def skip_or_fail(reason):
    """Skip where a learner lacks a tool (Chromium, Pyodide, Zensical); in CI,
    where every tool is installed, such a skip is a failure.  The tests' one
    skip-or-fail."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run every test: {reason}")
    pytest.skip(reason)


# --- Made once a run -------------------------------------------------------------

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


def mkdocs_build(project, site):
    """`mkdocs build --strict` of the project in folder ``project`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
        capture_output=True, text=True, timeout=300)


# --- The checker as teachers run it ------------------------------------------------

CORPUS = ROOT / "tests" / "learner_corpus"
REAPER = ROOT / "tests" / "reaper.py"
HARD_CAP = 60               # seconds before the harness gives up on a checker run

# On the command line of every process the corpus's starts_processes.py starts.
MARK = "lesson-test-mark-starts-processes"

# The checker under test: this repository's lesson package, unless another
# build is named (e.g. a checkout of a branch) with LESSON_CORPUS_CHECKER=DIR.
CHECKER = os.environ.get("LESSON_CORPUS_CHECKER", str(ROOT))


class Run:
    """One checker command line, run in its own session under tests/reaper.py,
    which reports what is still running once the checker has ended."""

    def __init__(self, label, paths, cwd, time_limit=None, human=False, options=(), env=None,
                 hard_cap=HARD_CAP):
        """``options``: more of the checker's options, before the paths;
        ``env``: variables to set for the checker beside the harness's own."""
        self.label, self.paths, self.cwd, self.human = label, list(paths), cwd, human
        self.time_limit, self.env, self.hard_cap = time_limit, dict(env or {}), hard_cap
        self.solo = False                 # timed on its own, after the others
        self.argv = [sys.executable, "-m", "lesson", "check"]
        self.argv += [] if human else ["--json"]
        self.argv += [] if time_limit is None else ["--time-limit", str(time_limit)]
        self.argv += list(options) + self.paths
        self.token = uuid.uuid4().hex
        self.left = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"lesson-corpus-{self.token}.json"
        self.stdout = self.stderr = ""
        self.returncode = self.seconds = None
        self.survivors, self.report, self.json_error = [], None, None
        self.hard_capped = False

    def environment(self):
        env = dict(os.environ, PYTHONPATH=CHECKER, TERM="xterm-256color",
                   PYTHONDONTWRITEBYTECODE="1", PYTHONIOENCODING="utf-8", **self.env)
        env.pop("PYTHONSAFEPATH", None)
        return env

    def __call__(self):
        # The checker's own stdin stays open (a pipe nobody writes to): a
        # learner's input() must not wait for it.
        stdin_read, stdin_write = os.pipe()
        start = time.monotonic()
        process = subprocess.Popen([sys.executable, str(REAPER), str(self.left), "--"]
                                   + self.argv, cwd=self.cwd, env=self.environment(),
                                   stdin=stdin_read, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
        os.close(stdin_read)
        try:
            out, err = process.communicate(timeout=self.hard_cap)
        except subprocess.TimeoutExpired:
            self.hard_capped = True
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        self.seconds = time.monotonic() - start
        os.close(stdin_write)
        self.returncode = process.returncode
        self.stdout = out.decode("utf-8", "replace")
        self.stderr = err.decode("utf-8", "replace")
        self.survivors = self._leftovers()
        if not self.human:
            try:
                self.report = json.loads(self.stdout)
            except ValueError as error:
                self.json_error = f"{error}; stdout starts {self.stdout[:600]!r}; stderr ends {self.stderr[-600:]!r}"
        return self

    def _leftovers(self):
        """What was still running once the checker ended (the reaper killed it)."""
        try:
            return [tuple(each) for each in json.loads(self.left.read_text())]
        except (FileNotFoundError, ValueError):
            return [("?", "the reaper wrote no report: was it killed?")]
        finally:
            self.left.unlink(missing_ok=True)


Checked = collections.namedtuple("Checked", "returncode stdout stderr seconds")


def check(*args, cwd=None):
    """``python -m lesson check ARGS`` as a teacher runs it: (exit code, stdout,
    stderr, seconds), by position or by name.  Nothing it started may be left
    running."""
    run = Run("check", args, cwd or ROOT, human=True)()
    assert run.survivors == [], f"still running after the checker ended: {run.survivors}"
    assert not run.hard_capped, f"the checker never finished ({run.hard_cap} s)"
    return Checked(run.returncode, run.stdout, run.stderr, run.seconds)


def starts_processes(mark):
    """The source of the corpus's starts_processes.py, its processes marked with
    ``mark`` instead of MARK: a test's own, which no other worker's runs carry."""
    return (CORPUS / "starts_processes.py").read_text().replace(MARK, mark)


def leftovers(mark=MARK):
    """Processes still running with ``mark`` on their command line."""
    return [pid for pid, command in processes() if mark in command]


# --- A module's cases, graded together ----------------------------------------------

FAST = "0.5"                                  # seconds per check in the tests that hang


def checked_at_once(cases, tmp_path_factory, slowest=(), mark=MARK):
    """Start checking every case at once, in the background: a module's fixture
    yields this as the module starts, so tests that need no case run meanwhile.

    Each case is checked once, as a teacher who keeps the JSON does: the
    report on stdout and, with --results DIR, the file's JSON result (what
    --json prints for it) written beside it; the ``slowest`` start first.
    ``checked(grading, cases)`` waits for the results.  The corpus's
    starts_processes.py, if a case, marks its processes with ``mark``.
    """
    names = sorted(cases, key=lambda name: name not in slowest)         # the slowest first
    folders = {name: tmp_path_factory.mktemp("results") for name in names}   # not in threads
    own = tmp_path_factory.mktemp("own-mark")

    def grade(name):
        path = str(SAMPLES / (name if "." in name else f"{name}.py"))
        if name == "starts_processes":          # its processes marked as this module's
            path = own / "starts_processes.py"
            path.write_text(starts_processes(mark))
        done = check("--results", str(folders[name]), *cases[name], path)
        saved = sorted(folders[name].iterdir())
        assert len(saved) == 1, (name, saved)
        return done, json.loads(saved[0].read_text())["file"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        yield {name: pool.submit(grade, name) for name in names}


def checked(grading, cases):
    """{case: (exit code, report, JSON result, seconds)} for every case."""
    done = {name: future.result() for name, future in grading.items()}
    return {name: (run.returncode, run.stdout, result, run.seconds)
            for name, (run, result) in done.items() if name in cases}


def statuses(entry):
    return {r["name"]: r["status"] for r in entry["checks"]}


def passing(entry):
    return {r["name"] for r in entry["checks"] if r["passed"]}


def closing_line(text):
    return text.rstrip("\n").splitlines()[-1]


# --- A learner's code, called and read in this process -------------------------------

def call_check(function, check):
    """Call a function on a check's input in this process, as a worker does."""
    return harness.call(function, check.args, check.kwargs)


def code_of(path):
    """What a file's code shows, by function, as the checker reads it."""
    path = pathlib.Path(path)
    return reading.facts(path.read_bytes(), path.name)


def run_here(path, seed=SEED):
    """(load, outcomes, checks): one file loaded and called in this process as
    a worker does, for the checks ``seed`` draws.  For benign files only: no
    time limit, no sandbox."""
    import numpy
    checks = contract.checks_for(seed)
    saved = sys.argv[:], sys.path[:], numpy.geterr(), set(sys.modules)
    with warnings.catch_warnings():
        return _run_here(path, checks, saved)


def _run_here(path, checks, saved):
    import numpy
    try:
        warnings.simplefilter("ignore")           # NumPy's, which a worker sends to stderr
        module, load = harness.load_file(str(path))
        outcomes = {}
        for index, check in enumerate(checks):
            function = getattr(module, check.function, None)
            outcomes[index] = (harness.call(function, check.args, check.kwargs)
                               if callable(function) else {"missing": True})
    finally:
        sys.argv[:], sys.path[:] = saved[0], saved[1]
        numpy.seterr(**saved[2])
        for name in set(sys.modules) - saved[3]:
            if name.split(".")[0] != "numpy":
                del sys.modules[name]
    return load, outcomes, checks


# Words only NumPy code has: a list solution's hint holds none of them.
NUMPY_WORDS = ("np.", "NumPy", "keepdims", "axis=axis", "(axis=-1)")


def misspoken(results, code):
    """The hints that speak another dialect than the code they are about: NumPy's
    words to a function written with lists, or "each row" on a check of columns
    (axis=0, the check's "input" says so)."""
    wrong = []
    for result in results:
        facts = (code or {}).get(result["function"])
        hint = result["hint"] or ""
        if facts is not None and "numpy" not in facts and any(w in hint for w in NUMPY_WORDS):
            wrong.append(hint)
        if "axis=0" in result["input"] and "each row" in hint:
            wrong.append(hint)
    return wrong
