"""The tests' one corpus of learners' files (tests/learner_corpus) and one harness.

``Run`` is one checker command line, run as a teacher runs it: in its own
session, under tests/reaper.py (which reports, then kills, whatever is still
running once the checker has ended), with an open stdin nobody writes to.
``check`` runs one and returns what the tests read.  Every test that runs
``python -m lesson check`` in a subprocess goes through these two (the
learner corpus, test_exercise.py, test_formats.py, test_hostile_class.py).
"""

import collections
import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import uuid

from reaper import processes

ROOT = pathlib.Path(__file__).resolve().parent.parent
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
