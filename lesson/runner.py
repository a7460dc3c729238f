"""Run a learner's file against the checks, in a separate process.

run(path, time_limit)        one file -> its result: counts, load, one dict per check
report(result, time_limit)   the learner's report for one result, as lines

    >>> import os, tempfile
    >>> from lesson import exercise
    >>> path = os.path.join(tempfile.mkdtemp(), "softmax_exercise.py")
    >>> exercise.write_starter(path)
    >>> result = run(path)
    >>> result["passed"], result["failed"], result["checks"][0]["message"]
    (0, 20, 'not done yet: softmax() returns None')

This module only handles processes; what is checked and how it is judged
is in ``lesson.exercise``.  The worker is a fresh Python in which neither
the learner's folder nor the current one comes before the standard library
(the folder is added at the end, so a learner's helper module still
imports).  It runs in its own session, so the whole process group, with
anything the learner started, is killed on a timeout and at the end.

The worker talks to the checker over a private pipe, never over stdout:
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

from lesson import exercise

_MARK = "LESSON_CHECK_RUN"      # in the worker's environment, to find its processes
_KEEP = 4 * exercise.OUTPUT_LIMIT   # bytes of output kept per stream and check


def run(path, time_limit=exercise.TIME_LIMIT, shown_as=None):
    """Grade one learner's file; return its result as plain data.

    The result has "file" (``shown_as``, default ``path``), "passed",
    "failed", "problem" (why the file could not load, or what went wrong
    while it loaded: a notebook cell that failed, an exit(); else None),
    "uses_reference", "stdout" and "stderr" (printed while loading),
    "checks" (one result per check, see ``exercise.results``), "load" and
    "seconds".  After a function has not returned once, its remaining
    checks are not run; the whole file gets at most
    ``exercise.time_limits(time_limit)[2]`` seconds.

    >>> result = run("notes.txt")
    >>> result["passed"], result["failed"], result["problem"]
    (0, 20, 'notes.txt is not a Python file: the checker reads .py files and Jupyter notebooks (.ipynb).')
    """
    started = time.monotonic()
    shown_as = path if shown_as is None else shown_as
    try:
        load, outcomes = _grade(path, time_limit)
    except Exception as error:             # a bug of ours: one sentence, not a traceback
        load, outcomes = {"status": "internal", "message": repr(error)[:300]}, {}
    checks = exercise.results(load, outcomes, time_limit)
    passed, failed = exercise.counts(checks)
    return {"file": shown_as, "passed": passed, "failed": failed,
            "problem": (exercise.load_problem_text(load, time_limit, file=shown_as)
                        or " ".join(exercise.load_notes(load, time_limit)) or None),
            "uses_reference": exercise.uses_reference(load, outcomes),
            "stdout": load.get("stdout", ""), "stderr": load.get("stderr", ""),
            "checks": checks, "load": load,
            "seconds": round(time.monotonic() - started, 3)}


def report(result, time_limit=exercise.TIME_LIMIT):
    """The report for one result from ``run``, as lines.

    >>> for line in report(run("notes.txt"))[:3]:
    ...     print(line)
    ...
    Checking notes.txt against lesson 4's contract
    <BLANKLINE>
    notes.txt is not a Python file: the checker reads .py files and Jupyter notebooks (.ipynb).
    """
    return exercise.report_lines(result["file"], result["load"], result["checks"],
                                 time_limit)


def _grade(path, time_limit):
    """(load, outcomes by check index) for one file."""
    kind = os.path.splitext(path)[1].lower()
    if kind not in exercise.SOURCE_KINDS:
        return {"status": "not_python", "kind": kind}, {}
    if not os.path.isfile(path):
        return {"status": "missing"}, {}
    if not hasattr(os, "killpg"):          # Windows: no process groups, no select on pipes
        return {"status": "unsupported"}, {}
    check_limit, load_limit, file_limit = exercise.time_limits(time_limit)
    deadline = time.monotonic() + file_limit
    pending = list(range(len(exercise.CHECKS)))
    outcomes, load = {}, None
    reason = f"the file used up its {file_limit:g} s"
    while pending:
        worker = _Worker(path, pending)
        try:
            message, printed = worker.receive(min(load_limit, deadline - time.monotonic()))
            if load is None:
                load = _first_load(message, printed)
                if load["status"] != "ok":
                    return load, {}
            elif message is None or "load" not in message:
                reason = "the file did not load again after the check above stopped"
                break
            pending = _run_checks(worker, pending, outcomes, check_limit, deadline)
        finally:
            worker.stop()
        if time.monotonic() >= deadline:
            break
    for index in pending:
        outcomes.setdefault(index, {"not_run": reason})
    return load, outcomes


def _first_load(message, printed):
    if message is None:
        load = {"status": "timeout"}
    elif message.get("crashed") == "garbled":
        load = {"status": "garbled"}
    elif "crashed" in message:
        load = {"status": "crashed", "code": message["crashed"]}
    else:
        load = message["load"]
    load.update(printed)
    return load


def _run_checks(worker, pending, outcomes, check_limit, deadline):
    """Collect the worker's outcomes; return the checks still to run elsewhere."""
    pending = list(pending)
    while pending:
        index = pending.pop(0)
        worker.go()
        message, printed = worker.receive(min(check_limit, deadline - time.monotonic()))
        if message is None:                       # this check never returned
            outcomes[index] = dict(printed, timeout=True)
            if time.monotonic() >= deadline:
                outcomes[index]["message"] = ("stopped: the file used up its time "
                                              "while this check ran")
                return pending
            function = exercise.CHECKS[index].function
            for other in [i for i in pending if exercise.CHECKS[i].function == function]:
                outcomes[other] = {"not_run": f"{function}() did not return on "
                                              f"'{exercise.CHECKS[index].name}' "
                                              f"(above)"}
                pending.remove(other)
            return pending
        if "crashed" in message:
            outcomes[index] = dict(printed, crashed=message["crashed"])
            return pending
        outcomes[index] = dict(message["outcome"], **printed)
    return pending


class _Worker:
    """A Python running the learner's file, with private pipes for messages."""

    def __init__(self, path, indices):
        self.token = uuid.uuid4().hex
        protocol_read, protocol_write = os.pipe()
        go_read, self.go_write = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        folder = os.path.dirname(os.path.abspath(path))
        here = os.path.dirname(os.path.abspath(__file__))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-E", "-u", "-c", _BOOT, here, str(protocol_write),
                 str(go_read), os.path.abspath(path), ",".join(map(str, indices))],
                stdin=subprocess.DEVNULL, stdout=out_write, stderr=err_write,
                pass_fds=(protocol_write, go_read), cwd=folder, start_new_session=True,
                env=dict(os.environ, **{_MARK: self.token}))
        finally:
            for fd in (protocol_write, go_read, out_write, err_write):
                os.close(fd)
        self.fds = {"protocol": protocol_read, "stdout": out_read, "stderr": err_read}
        for fd in self.fds.values():
            os.set_blocking(fd, False)
        self.buffer = b""
        self.printed = {"stdout": bytearray(), "stderr": bytearray()}
        self.sizes = {"stdout": 0, "stderr": 0}

    def go(self):
        """Let the worker start its next check (so its output is that check's)."""
        try:
            os.write(self.go_write, b"g")
        except OSError:                       # it has stopped: receive() will say so
            pass

    def receive(self, timeout):
        """The next message and what was printed before it: (message or None, printed).

        None means nothing came within ``timeout`` seconds; {"crashed": code}
        that the worker stopped.
        """
        end = time.monotonic() + max(timeout, 0)
        while True:
            if b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                self._drain()
                return _message(line), self._take_printed()
            if self.process.poll() is not None:
                self._drain()
                if b"\n" not in self.buffer:
                    return {"crashed": self.process.returncode}, self._take_printed()
                continue
            left = end - time.monotonic()
            if left <= 0:
                self._drain()
                return None, self._take_printed()
            readable, _, _ = select.select(list(self.fds.values()), [], [], min(left, 0.05))
            for fd in readable:
                self._read(fd)

    def _read(self, fd):
        try:
            data = os.read(fd, 65536)
        except (BlockingIOError, InterruptedError):
            return False
        if not data:
            return False
        if fd == self.fds["protocol"]:
            self.buffer += data
        else:
            stream = "stdout" if fd == self.fds["stdout"] else "stderr"
            room = _KEEP - len(self.printed[stream])   # a print loop must not fill memory
            self.printed[stream] += data[:max(room, 0)]
            self.sizes[stream] += len(data)
        return True

    def _drain(self):
        for fd in self.fds.values():
            while self._read(fd):
                pass

    def _take_printed(self):
        """What the learner's code printed since the last message, capped."""
        printed = {}
        for stream, data in self.printed.items():
            text = data.decode("utf-8", "replace")
            kept = text[:exercise.OUTPUT_LIMIT]
            more = len(text) - len(kept) + self.sizes[stream] - len(data)
            printed[stream] = exercise.capped(kept, len(kept) + more)
            data.clear()
            self.sizes[stream] = 0
        return printed

    def stop(self):
        """Kill the worker's whole process group, and anything it started."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        _kill_marked(self.token)
        for fd in list(self.fds.values()) + [self.go_write]:
            os.close(fd)


def _message(line):
    """A message from the worker, or {"crashed": ...} if the line is not one.

    Only the learner's code could garble it (by writing to the private pipe).
    """
    try:
        message = json.loads(line)
    except ValueError:
        message = None
    if not (isinstance(message, dict)
            and ("load" in message or isinstance(message.get("outcome"), dict))):
        return {"crashed": "garbled"}
    return message


def _kill_marked(token):
    """Kill processes that left the worker's group (setsid) but carry its mark."""
    if not os.path.isdir("/proc"):
        return
    mark = f"{_MARK}={token}".encode()
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


# The worker's first lines.  ``python -E -c`` ignores PYTHONPATH and puts
# the current folder (the learner's) first on sys.path: take it off before
# anything is imported, then import this very package by its path.  (Not
# ``-I``: that would also hide a NumPy installed with ``pip install --user``.)
_BOOT = """\
import sys
if sys.path and sys.path[0] == "":
    del sys.path[0]
import importlib.util
here = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    "lesson", here + "/__init__.py", submodule_search_locations=[here])
module = importlib.util.module_from_spec(spec)
sys.modules["lesson"] = module
spec.loader.exec_module(module)
from lesson import runner
runner._worker(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4],
               [int(i) for i in sys.argv[5].split(",")])
"""


def _worker(protocol, go, path, indices):
    """In the worker: load the learner's file, run the checks, send each outcome.

    Each check waits for the checker's go-ahead on ``go``, so all that one
    check printed is in the output pipes before the next check starts.
    """
    write, read = os.write, os.read                       # before the learner's code runs
    encode = json.JSONEncoder().encode
    os.set_inheritable(protocol, False)
    os.set_inheritable(go, False)

    def send(message):
        data = (encode(message) + "\n").encode()
        while data:
            data = data[write(protocol, data):]
    try:
        sys.argv = [path]
        name = _module_name(path)
        sys.path.append(os.path.dirname(path))   # helpers import; never ahead of stdlib
        try:
            with open(path, "rb") as file:
                source, load = exercise.read_learner(file.read(), path)
        except OSError as error:                 # no permission to read it, say
            source, load = None, {"status": "unreadable", "message": error.strerror}
        module = None
        if source is not None:
            with _ExitRaises():
                module, load = exercise.load_learner(source, path, name, capture=False)
        send({"load": load})
        if module is None:
            os._exit(0)
        for index in indices:
            if not read(go, 1):
                os._exit(0)                              # the checker has gone
            check = exercise.CHECKS[index]
            function = getattr(module, check.function, None)
            if not callable(function):
                send({"check": index, "outcome": {"missing": True}})
                continue
            with _ExitRaises():
                outcome = exercise.call_check(function, check, capture=False)
            send({"check": index, "outcome": outcome})
    except BaseException:                  # noqa: B036 - never show our own traceback
        os._exit(70)
    os._exit(0)


class _ExitRaises:
    """While the learner's code runs, os._exit() in the worker raises SystemExit.

    So a file that ends with os._exit(0) is graded like one ending with
    exit(); a child process the learner forked still exits for real.
    """

    def __enter__(self):
        self.real, worker = os._exit, os.getpid()

        def _exit(code):
            if os.getpid() != worker:
                self.real(code)
            raise SystemExit(code)
        os._exit = _exit

    def __exit__(self, *error):
        os._exit = self.real


def _module_name(path):
    """The learner's module name: the file's own, unless another module has it.

    The file's own name lets multiprocessing's spawned processes import it;
    json.py or numpy.py would hide the real one, so those get a plain name.
    """
    import importlib.util
    import keyword
    name = os.path.splitext(os.path.basename(path))[0]
    try:
        taken = (not name.isidentifier() or keyword.iskeyword(name) or name in sys.modules
                 or name == "lesson" or importlib.util.find_spec(name) is not None)
    except (ImportError, ValueError):
        taken = True
    return "softmax_exercise" if taken else name
