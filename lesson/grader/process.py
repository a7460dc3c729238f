"""Process handling for the terminal: the plan's steps, carried out with worker processes.

run(path, time_limit)        one file -> its result: counts, load, one dict per check
report(result, time_limit)   the learner's report for one result, as lines

    >>> import os, tempfile
    >>> from lesson.grader.contract import write_starter
    >>> path = os.path.join(tempfile.mkdtemp(), "softmax_exercise.py")
    >>> write_starter(path)
    >>> result = run(path)
    >>> result["passed"], result["failed"], result["checks"][0]["message"]
    (0, 20, 'not done yet: softmax() returns None')

What to do, and every rule of time and of checks not run, is in
``lesson.grader.plan``; this module starts, feeds, times and stops the
workers.  A worker is a fresh Python running ``lesson/grader/harness.py``
by its path (it does not import the lesson), in which neither the
learner's folder nor the current one comes before the standard library.
It runs in its own session, so the whole process group, with anything
the learner started, is killed when it is stopped.

The worker talks to the checker over private pipes, never over stdout:
the learner's code may print, clear the screen, run shell commands or
replace sys.stdout.  The learner's stdout and stderr are pipes that the
checker drains as it goes and never waits to close, since a process the
learner started may hold them open.
"""

import json
import os
import select
import signal
import subprocess
import sys
import time
import uuid

from lesson.grader import judge, report as reports
from lesson.grader.contract import SOURCE_KINDS, TIME_LIMIT
from lesson.grader.harness import load_record
from lesson.grader.plan import Plan

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
MARK = "LESSON_CHECK_RUN"       # in the worker's environment, to find its processes
MAX_LINE = 1 << 20              # bytes a reply may have; a longer one is garbled


def run(path, time_limit=TIME_LIMIT, shown_as=None):
    """Grade one learner's file; return its result as plain data.

    The result has "file" (``shown_as``, default ``path``), "passed",
    "failed", "problem" (why the file could not load, or what went wrong
    while it loaded: a notebook cell that failed, an exit(); else None),
    "uses_reference", "stdout" and "stderr" (printed while loading),
    "checks" (one ``judge.result_record`` per check), "load" and "seconds".

    >>> result = run("notes.txt")
    >>> result["passed"], result["failed"], result["problem"]
    (0, 20, 'notes.txt is not a Python file: the checker reads .py files and Jupyter notebooks (.ipynb).')
    """
    started = time.monotonic()
    shown_as = path if shown_as is None else shown_as
    try:
        load, outcomes = grade(path, time_limit)
    except Exception as error:             # a bug of ours: one sentence, not a traceback
        load, outcomes = load_record("internal", message=repr(error)[:300]), {}
    checks = judge.results(load, outcomes, time_limit)
    passed, failed = judge.counts(checks)
    return {"file": shown_as, "passed": passed, "failed": failed,
            "problem": reports.problem(load, time_limit, file=shown_as),
            "uses_reference": judge.uses_reference(load, outcomes),
            "stdout": load.get("stdout", ""), "stderr": load.get("stderr", ""),
            "checks": checks, "load": load,
            "seconds": round(time.monotonic() - started, 3)}


def report(result, time_limit=TIME_LIMIT):
    """The report for one result from ``run``, as lines.

    >>> for line in report(run("notes.txt"))[:3]:
    ...     print(line)
    ...
    Checking notes.txt against lesson 4's contract
    <BLANKLINE>
    notes.txt is not a Python file: the checker reads .py files and Jupyter notebooks (.ipynb).
    """
    return reports.report_lines(result["file"], result["load"], result["checks"], time_limit)


def grade(path, time_limit=TIME_LIMIT):
    """(load, outcomes by check index) for one file: the plan, carried out."""
    kind = os.path.splitext(path)[1].lower()
    if kind not in SOURCE_KINDS:
        return load_record("not_python", kind=kind), {}
    if not os.path.isfile(path):
        return load_record("missing"), {}
    if not hasattr(os, "killpg"):          # Windows: no process groups, no select on pipes
        return load_record("unsupported"), {}
    plan = Plan(time_limit)
    worker = None
    step = plan.next()
    try:
        while step["do"] != "done":
            event = {}
            if step["do"] == "load":
                worker = Worker(path, step["keep"])
                event = worker.receive(step["seconds"], "loaded")
            elif step["do"] == "call":
                worker.send({key: step[key] for key in ("token", "function", "args", "kwargs")})
                event = worker.receive(step["seconds"], "reply")
            else:
                worker.stop()
                worker = None
            step = plan.next(event)
    finally:
        if worker is not None:
            worker.stop()
    return plan.load, plan.outcomes


class Worker:
    """A Python running the harness on the learner's file, with private pipes."""

    def __init__(self, path, keep):
        self.token = uuid.uuid4().hex
        self.keep = keep
        self.started = time.monotonic()
        replies_read, replies_write = os.pipe()
        requests_read, self.requests = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        folder = os.path.dirname(os.path.abspath(path))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-E", "-u", HARNESS, str(replies_write), str(requests_read),
                 os.path.abspath(path)],
                stdin=subprocess.DEVNULL, stdout=out_write, stderr=err_write,
                pass_fds=(replies_write, requests_read), cwd=folder, start_new_session=True,
                env=dict(os.environ, **{MARK: self.token}))
        finally:
            for fd in (replies_write, requests_read, out_write, err_write):
                os.close(fd)
        self.fds = {"replies": replies_read, "stdout": out_read, "stderr": err_read}
        for fd in self.fds.values():
            os.set_blocking(fd, False)
        self.buffer = b""
        self.printed = {"stdout": bytearray(), "stderr": bytearray()}
        self.sizes = {"stdout": 0, "stderr": 0}

    def send(self, request):
        """Ask the worker for one call (so what it prints next is that call's)."""
        self.started = time.monotonic()
        try:
            os.write(self.requests, (json.dumps(request) + "\n").encode())
        except OSError:                       # it has stopped: receive() will say so
            pass

    def receive(self, timeout, key):
        """What happened, as the plan reads it: {key: the reply}, {"late": True}
        or {"crashed": code}, with "seconds" and what was printed."""
        end = time.monotonic() + max(timeout, 0)
        while True:
            if b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                return self._event({key: _reply(line, key)})
            if len(self.buffer) > MAX_LINE:
                self.buffer = b""
                return self._event({key: None})
            if self.process.poll() is not None:
                self._drain()
                if b"\n" not in self.buffer:
                    return self._event({"crashed": self.process.returncode})
                continue
            left = end - time.monotonic()
            if left <= 0:
                return self._event({"late": True})
            readable, _, _ = select.select(list(self.fds.values()), [], [], min(left, 0.05))
            for fd in readable:
                self._read(fd)

    def _event(self, event):
        self._drain()
        event["seconds"] = time.monotonic() - self.started
        for stream, data in self.printed.items():
            text = data.decode("utf-8", "replace")
            kept = text[:self.keep]
            event[stream] = [kept, len(text) + self.sizes[stream] - len(data)]
            data.clear()
            self.sizes[stream] = 0
        return event

    def _read(self, fd):
        try:
            data = os.read(fd, 65536)
        except (BlockingIOError, InterruptedError):
            return False
        if not data:
            return False
        if fd == self.fds["replies"]:
            if len(self.buffer) <= MAX_LINE:         # past that, only the newline matters
                self.buffer += data
        else:
            stream = "stdout" if fd == self.fds["stdout"] else "stderr"
            room = 4 * self.keep - len(self.printed[stream])   # a print loop must not fill memory
            self.printed[stream] += data[:max(room, 0)]
            self.sizes[stream] += len(data)
        return True

    def _drain(self):
        for fd in self.fds.values():
            while self._read(fd):
                pass

    def stop(self):
        """Kill the worker's whole process group, and anything it started."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        kill_marked(self.token)
        for fd in list(self.fds.values()) + [self.requests]:
            os.close(fd)


def _reply(line, key):
    """A reply line as the worker sent it, or None if it is not JSON of one.

    Only the learner's code could garble it (by writing to the private pipe).
    """
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if key == "loaded":
        return message.get("load") if isinstance(message, dict) else None
    return message


def kill_marked(token):
    """Kill processes that left the worker's group (setsid) but carry its mark."""
    if not os.path.isdir("/proc"):
        return
    mark = f"{MARK}={token}".encode()
    for _ in range(3):
        found = False
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as file:
                    if mark not in file.read():
                        continue
                os.kill(int(name), signal.SIGKILL)
                found = True
            except OSError:
                continue
        if not found:
            return
