"""Process handling for the terminal: the plan's steps, carried out with worker processes.

run(path, time_limit)        one file -> its result: counts, load, one dict per check

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

Each submission is read once, before anything runs (``snapshot``), and
its worker gets a private copy of it, never the file itself.  Where
bubblewrap (``bwrap``) is installed, the worker runs in its sandbox
(``sandbox_command``): its own process, IPC, host-name and network
namespaces (no network; no signal or /proc reaches the checker or a
classmate), no capabilities (run as root, bwrap would keep root's: enough
to remount the system writable), a read-only /proc/sys (root may write
the machine's kernel settings without any), a read-only system (its /dev
too), the homes, /tmp, the submission's and the class folder and the
lesson's own package hidden, and size-capped writable folders: the one
holding the copy, /tmp and /dev/shm.  The Python running the checker is
seen again, read-only, wherever it lives (``python_paths``).
Everywhere, the harness sets its limits (memory, file size, processes, no
core files) before any learner code runs, then says hello: a worker that
stops before its hello did not start (bwrap's own message says why, or a
memory limit too small for Python), which is the checker's failure, a load
of status "unstarted", never the learner's grade.

The worker talks to the checker over private pipes, never over stdout:
the learner's code may print, clear the screen, run shell commands or
replace sys.stdout.  The learner's stdout and stderr are pipes that the
checker drains as it goes and never waits to close, since a process the
learner started may hold them open.
"""

import base64
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from lesson.grader import judge, report
from lesson.grader.contract import SOURCE_KINDS, TIME_LIMIT, checks_for, new_seed
from lesson.grader.harness import HARNESS_SAYS, HELLO, load_record
from lesson.grader.plan import Plan

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
LESSON_HOME = os.path.dirname(os.path.dirname(HARNESS))    # the lesson's own package
MARK = "LESSON_CHECK_RUN"       # in the worker's environment, to find its processes
MAX_LINE = 1 << 20              # bytes a reply may have; a longer one is garbled
MEMORY_LIMIT = 1024             # MiB of address space a worker may use
FILE_SIZE = 64 << 20            # bytes one file a worker writes may have
WORK_SIZE = 128 << 20           # bytes of the sandbox's writable folders, each
SHM_SIZE = 16 << 20             # bytes of its /dev/shm (multiprocessing's semaphores)
MOST_FILES = 200                # files of one submission copied for it
MOST_BYTES = 16 << 20           # bytes of one submission copied for it
SANDBOX_HOME = "/home/learner"  # the worker's home and working folder, in the sandbox


class Submission:
    """One learner's work, read once: its files' bytes, and which one is graded.

    ``files`` maps a path relative to the submission's folder to its bytes;
    ``main`` is the file graded; ``shown_as`` names it in the report;
    ``hide`` lists folders the worker must not see (the class folder).
    """

    def __init__(self, files, main, shown_as, hide=()):
        self.files, self.main, self.shown_as, self.hide = files, main, shown_as, tuple(hide)


def snapshot(path, shown_as=None, folder=None, hide=(), inside=True):
    """Read a submission now: the file at ``path``, with the other files of
    ``folder`` (a student's own folder; with ``inside``, the folders in it
    too) beside it.  (Submission, None), or (None, load) saying why it
    cannot be graded."""
    shown_as = path if shown_as is None else shown_as
    kind = os.path.splitext(path)[1].lower()
    if kind not in SOURCE_KINDS:
        return None, load_record("not_python", kind=kind)
    try:
        with open(path, "rb") as file:
            data = file.read(MOST_BYTES + 1)
    except FileNotFoundError:
        return None, load_record("missing")
    except OSError as error:
        return None, load_record("unreadable", message=error.strerror or str(error))
    if len(data) > MOST_BYTES:
        return None, load_record("unreadable", message=f"it is larger than "
                                                       f"{MOST_BYTES >> 20} MiB")
    main = os.path.basename(path)
    files = {main: data}
    if folder is not None:
        main = os.path.relpath(path, folder)
        files = {main: data}
        size = len(data)
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if inside else []
            for name in sorted(names):
                full = os.path.join(root, name)
                relative = os.path.relpath(full, folder)
                if relative in files or not os.path.isfile(full) or os.path.islink(full):
                    continue
                if len(files) >= MOST_FILES or size + os.path.getsize(full) > MOST_BYTES:
                    continue
                try:
                    with open(full, "rb") as file:
                        files[relative] = file.read()
                except OSError:
                    continue
                size += len(files[relative])
    return Submission(files, main, shown_as, hide), None


def run(path, time_limit=TIME_LIMIT, shown_as=None, sandbox=None, memory_limit=MEMORY_LIMIT,
        seed=None, snapshot=None):
    """Grade one learner's file; return its result as plain data.

    ``sandbox`` is "bwrap", "none", or None for bwrap where it is installed.
    ``snapshot`` is what ``snapshot()`` read earlier (else ``path`` is read
    now); ``seed`` draws the fresh inputs (``contract.checks_for``; a new
    one when None).  The result has "file" (``shown_as``, default ``path``), "passed",
    "failed", "problem" (why the file could not load, or what went wrong
    while it loaded: a notebook cell that failed, an exit(); else None),
    "uses_reference", "stdout" and "stderr" (printed while loading),
    "checks" (one ``judge.result_record`` per check, with the learner's
    "line" its error points at: ``report.located``), "load", "sandbox",
    "seed" and "seconds".

    >>> result = run("notes.txt")
    >>> result["passed"], result["failed"], result["problem"]
    (0, 20, 'notes.txt is not a Python file: the checker reads .py files and Jupyter notebooks (.ipynb).')
    """
    started = time.monotonic()
    shown_as = path if shown_as is None else shown_as
    sandbox = sandbox or default_sandbox()
    seed = new_seed() if seed is None else seed
    checks = checks_for(seed)
    try:
        load, outcomes = grade(path, time_limit, sandbox, memory_limit, checks, snapshot)
    except Exception as error:             # a bug of ours: one sentence, not a traceback
        load, outcomes = load_record("internal", message=repr(error)[:300]), {}
    return dict(judged(load, outcomes, time_limit, checks, shown_as), sandbox=sandbox,
                seed=seed, seconds=round(time.monotonic() - started, 3))


def judged(load, outcomes, time_limit, checks, shown_as):
    """A file's result (``run``'s, but "sandbox", "seed" and "seconds") from
    how its load went and its outcomes: the judge's verdicts, each with the
    learner's line it points at, and the counts."""
    results = report.located(judge.results(load, outcomes, time_limit, checks), outcomes)
    passed, failed = judge.counts(results)
    return {"file": shown_as, "passed": passed, "failed": failed,
            "problem": report.problem(load, time_limit, file=shown_as),
            "uses_reference": judge.uses_reference(load, outcomes),
            "stdout": load.get("stdout", ""), "stderr": load.get("stderr", ""),
            "checks": results, "load": load}


def grade(path, time_limit=TIME_LIMIT, sandbox="none", memory_limit=MEMORY_LIMIT, checks=None,
          read=None):
    """(load, outcomes by check index) for one file: the plan, carried out."""
    submission, load = read or snapshot(path)
    if submission is None:
        return load, {}
    if not hasattr(os, "killpg"):          # Windows: no process groups, no select on pipes
        return load_record("unsupported"), {}
    plan = Plan(time_limit, checks) if checks else Plan(time_limit)
    limits = {"memory": memory_limit << 20, "file_size": FILE_SIZE,
              "processes": _process_limit()}
    worker = None
    step = plan.next()
    try:
        while step["do"] != "done":
            event = {}
            if STOPPING:
                raise KeyboardInterrupt
            if step["do"] == "load":
                worker = Worker(submission, step["keep"], sandbox, limits)
                event = worker.receive(step["seconds"], "loaded")
                if "unstarted" in event and not (event.get("late") and plan.load):
                    return load_record("unstarted", message=unstarted_text(   # ours: no grade
                        event.pop("unstarted"), sandbox, memory_limit)), {}
                event.pop("unstarted", None)   # a reload in the file's last moments: its time
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


def unstarted_text(cause, sandbox, memory_limit):
    """Why a worker did not start, and the way out, as one sentence.

    >>> unstarted_text("bwrap: No permissions to create a new namespace", "bwrap", 1024)
    'the sandbox could not start (bwrap: No permissions to create a new namespace): --no-sandbox grades without it, each file then running with your rights (it could read or change your files)'
    >>> unstarted_text("MemoryError: ", "none", 1)
    'Python could not start within --memory-limit 1 MiB (MemoryError): give it more (the default is 1024)'
    """
    if sandbox == "bwrap" and not cause.startswith(HARNESS_SAYS):
        return (f"the sandbox could not start ({cause}): --no-sandbox grades without it, "
                f"each file then running with your rights (it could read or change your files)")
    cause = cause[len(HARNESS_SAYS):] if cause.startswith(HARNESS_SAYS) else cause
    if "MemoryError" in cause or memory_limit < MEMORY_LIMIT:
        return (f"Python could not start within --memory-limit {memory_limit} MiB "
                f"({cause.strip(': ')}): give it more (the default is {MEMORY_LIMIT})")
    return f"Python could not start to load the file ({cause}): please report this"


def default_sandbox():
    """"bwrap" where bubblewrap is installed (on Linux), else "none".

    Whether it starts here is known when each worker says hello, or does
    not: a sandbox that cannot start is the checker's failure, said in one
    line with bwrap's own message (``unstarted_text``), never a grade.
    """
    return "bwrap" if sys.platform.startswith("linux") and bwrap() else "none"


def bwrap():
    """bubblewrap's path, found on the checker's PATH, or None."""
    return shutil.which("bwrap")


def sandbox_starts():
    """Does bubblewrap start here, with the namespaces the sandbox uses?

    A grading platform's container is a sandbox already, and may forbid the
    namespaces bwrap makes: there, the runners grade without it.
    """
    if not _SANDBOX:
        starts = False
        if default_sandbox() == "bwrap":
            try:
                done = subprocess.run([bwrap(), "--cap-drop", "ALL", "--unshare-pid",
                                       "--unshare-net", "--ro-bind", "/", "/", "--proc",
                                       "/proc", "--dev", "/dev", "true"],
                                      capture_output=True, timeout=20)
                starts = done.returncode == 0
            except (OSError, subprocess.SubprocessError):
                starts = False
        _SANDBOX.append(starts)
    return _SANDBOX[0]


_SANDBOX = []


def sandbox_command(command, hide=()):
    """``command`` run in bubblewrap's sandbox (see the module's docstring).

    bwrap sets the sandbox up in the order of its arguments, each on top of
    the last: the system read-only; the homes, /tmp and each folder in
    ``hide`` (the submission's own, the class folder) hidden; then the
    Python running the harness seen again, read-only, wherever it lives
    (``python_paths``: a venv inside the exercise's folder, under /tmp or a
    home, behind a symlink), so NumPy still imports; then the lesson's own
    package, and any hidden folder inside that Python, hidden again.
    """
    masked = ["/tmp", "/home"] + [p for p in ["/root", "/run/user", "/var/tmp"]
                                  if os.path.isdir(p)]
    hidden = [os.path.realpath(p) for p in hide if p and os.path.isdir(p)]
    out = [bwrap() or "bwrap", "--cap-drop", "ALL",   # as root, bwrap keeps root's powers
           "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session",
           "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
           "--ro-bind-try", "/proc/sys", "/proc/sys",      # the machine's kernel settings
           "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
           "--perms", "1777", "--size", str(SHM_SIZE), "--tmpfs", "/dev/shm",
           "--remount-ro", "/dev"]                 # else root fills it: RAM, no cap
    for path in masked:
        out += (["--size", str(WORK_SIZE)] if path in ("/tmp", "/home") else []) + [
            "--tmpfs", path]
    for path in hidden:                            # the submission's folder, the class's
        out += ["--tmpfs", path]
    bound = [(source, seen) for source, seen in python_paths()
             if _inside(seen, masked + hidden)]
    for source, seen in bound:                     # Python, seen again, read-only
        out += ["--ro-bind", source, seen]
    again = [LESSON_HOME] + [p for p in hidden if any(_inside(p, [source], strictly=True)
                                                      for source, _ in bound)]
    for path in _aliases(again, bound):            # hidden again, even inside Python
        out += ["--tmpfs", path]
    out += ["--dir", SANDBOX_HOME, "--chdir", SANDBOX_HOME,
            "--ro-bind", HARNESS, "/tmp/.lesson-harness.py", "--"]
    return out + [arg if arg != HARNESS else "/tmp/.lesson-harness.py" for arg in command]


def python_paths(executable=None):
    """What the Python running the checker needs, as (source, where seen)
    pairs, for the sandbox to bind read-only: its prefixes, its
    site-packages (the user's too, where it reads them), and every link on
    the way from ``sys.executable`` to the real interpreter.

    Each is seen at the path Python knows it by and at its real path, so a
    venv reached through a symlink works.  A path inside another one is
    left out: the folder's bind shows it as it is (its source is always
    the other's real path).

    >>> all(source == os.path.realpath(source) for source, seen in python_paths())
    True
    """
    executable = executable or sys.executable
    wanted = [sys.prefix, sys.base_prefix, sys.exec_prefix,
              getattr(sys, "base_exec_prefix", sys.exec_prefix)]
    wanted += site_folders()
    link, steps = executable, 0
    while steps < 40:                              # the chain of links to the binary
        wanted.append(link)
        if not os.path.islink(link):
            break
        link = os.path.join(os.path.dirname(link), os.readlink(link))
        steps += 1
    pairs = []
    for path in wanted:
        path = os.path.abspath(path)
        real = os.path.realpath(path)
        if os.path.exists(real):
            pairs += [(real, real), (real, path)]
    seen = sorted({pair[1] for pair in pairs})
    return sorted({pair for pair in pairs if not _inside(pair[1], seen, strictly=True)},
                  key=lambda pair: pair[1])


def site_folders():
    """The site-packages this Python reads: its own, and the user's where it
    reads those (the harness is told to add them, ``Worker``)."""
    import site
    folders = list(getattr(site, "getsitepackages", lambda: [])())
    return folders + user_site()


def user_site():
    """The user's site-packages (``pip install --user``), as a list: empty
    where this Python does not read it (a venv) or it does not exist.  The
    worker runs with a home of its own, so the harness adds it by path."""
    import site
    folder = site.getusersitepackages() if hasattr(site, "getusersitepackages") else ""
    if site.ENABLE_USER_SITE and folder in sys.path and os.path.isdir(folder):
        return [folder]
    return []


def _aliases(paths, bound):
    """Each path, at its real path, and wherever a bind shows it again.

    >>> _aliases(["/real/v/lib/lesson"], [("/real/v", "/v"), ("/real/v", "/real/v")])
    ['/real/v/lib/lesson', '/v/lib/lesson']
    """
    out = set()
    for path in paths:
        real = os.path.realpath(path)
        out |= {path, real}
        for source, seen in bound:
            if _inside(real, [source]):
                out.add(os.path.normpath(os.path.join(seen, os.path.relpath(real, source))))
    return sorted(out)


def _inside(path, folders, strictly=False):
    """Is ``path`` one of ``folders``, or inside one (``strictly``: inside only)?"""
    return any((path == folder and not strictly) or path.startswith(folder.rstrip(os.sep)
                                                                    + os.sep)
               for folder in folders)


def _process_limit():
    """Processes the worker's user may run: those running now, and 256 more."""
    try:
        uid = os.getuid()
        mine = sum(1 for name in os.listdir("/proc") if name.isdigit()
                   and os.stat(f"/proc/{name}").st_uid == uid)
    except OSError:
        mine = 0
    return mine + 256


class Worker:
    """A Python running the harness on a private copy of a submission, with private pipes."""

    def __init__(self, submission, keep, sandbox="none", limits=None):
        self.token = uuid.uuid4().hex
        self.keep = keep
        self.started = time.monotonic()
        self.folder = None
        replies_read, replies_write = os.pipe()
        requests_read, self.requests = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        command = [sys.executable, "-E", "-u", HARNESS, str(replies_write), str(requests_read)]
        env = {"PATH": os.defpath, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
               "TERM": os.environ.get("TERM", "dumb"), MARK: self.token}
        if sandbox == "bwrap":
            command, cwd = sandbox_command(command, submission.hide), None
            env["HOME"], env["TMPDIR"] = SANDBOX_HOME, "/tmp"
        else:                                  # its temporary files go where stop() removes them
            self.folder = cwd = tempfile.mkdtemp(prefix="lesson-check-")
            env["HOME"] = env["TMPDIR"] = cwd
        try:
            with _REAPING:                     # a worker is never taken for an orphan
                self.process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=out_write, stderr=err_write,
                    pass_fds=(replies_write, requests_read), cwd=cwd,
                    start_new_session=True, env=env)
                _WORKERS.add(self.process.pid)
        finally:
            for fd in (replies_write, requests_read, out_write, err_write):
                os.close(fd)
        self.sandboxed = sandbox == "bwrap"
        self.fds = {"replies": replies_read, "stdout": out_read, "stderr": err_read}
        for fd in self.fds.values():
            os.set_blocking(fd, False)
        self.buffer = b""
        self.printed = {"stdout": bytearray(), "stderr": bytearray()}
        self.sizes = {"stdout": 0, "stderr": 0}
        self.greeted = False                   # has the harness said hello?
        self._write({"files": {name: base64.b64encode(data).decode()
                               for name, data in submission.files.items()},
                     "main": submission.main, "limits": limits or {}, "sites": user_site()})

    def send(self, request):
        """Ask the worker for one call (so what it prints next is that call's)."""
        self.started = time.monotonic()
        self._write(request)

    def _write(self, message):
        data = (json.dumps(message) + "\n").encode()
        try:
            while data:                        # a large submission: the harness reads it all
                data = data[os.write(self.requests, data):]
        except OSError:                        # it has stopped: receive() will say so
            pass

    def receive(self, timeout, key):
        """What happened, as the plan reads it: {key: the reply}, {"late": True}
        or {"crashed": code}, with "seconds" and what was printed."""
        end = time.monotonic() + max(timeout, 0)
        while True:
            if b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if not self.greeted:           # its first line, before any learner code
                    self.greeted = _reply(line, "hello") == HELLO
                    continue
                return self._event({key: _reply(line, key)})
            if len(self.buffer) > MAX_LINE:
                self.buffer = b""
                return self._event({key: None})
            if self.process.poll() is not None:
                self._drain()
                if b"\n" not in self.buffer:
                    return self._event(self._unstarted() or {"crashed": self._exit_code()})
                continue
            left = end - time.monotonic()
            if left <= 0:
                return self._event(self._unstarted(timeout) or {"late": True})
            readable, _, _ = select.select(list(self.fds.values()), [], [], min(left, 0.05))
            for fd in readable:
                self._read(fd)

    def _unstarted(self, timeout=None):
        """{"unstarted": why} if the worker stopped before its hello (so before
        any learner code ran), with "late" if its time ran out; else None."""
        if self.greeted:
            return None
        self._drain()
        said = self.printed["stderr"].decode("utf-8", "replace").strip().splitlines()
        if timeout is not None:
            return {"unstarted": f"it did not start within {timeout:g} s", "late": True}
        return {"unstarted": said[-1] if said else f"exit code {self._exit_code()}"}

    def _exit_code(self):
        """The worker's exit code; a signal that ended it as its negative number
        (bubblewrap reports one as 128 plus the signal)."""
        code = self.process.returncode
        if self.sandboxed and 128 < code < 160:
            return 128 - code
        return code

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
        with _REAPING:
            _WORKERS.discard(self.process.pid)
        kill_marked(self.token)
        reap_orphans()
        for fd in list(self.fds.values()) + [self.requests]:
            os.close(fd)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


_WORKERS = set()                # pids of the workers running now, in this checker
_REAPING = threading.Lock()
_SUBREAPER = []                 # [True] once this process is its workers' subreaper
STOPPING = []                   # [True] once the checker is stopping (Ctrl+C)


def stop_all():
    """Stop every worker now, and start no more (Ctrl+C)."""
    STOPPING.append(True)
    _kill_workers()


def _kill_workers():
    """Kill every worker's whole process group."""
    for pid in list(_WORKERS):
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def become_subreaper():
    """Make this process the one that inherits its workers' orphans (Linux).

    A learner's process that double-forks and calls setsid() with an empty
    environment leaves the worker's group and loses its mark; as a
    subreaper, the checker still finds it, as a child of its own.
    """
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(36, 1, 0, 0, 0) == 0:    # PR_SET_CHILD_SUBREAPER
            _SUBREAPER.append(True)
        libc.prctl(4, 0, 0, 0, 0)              # PR_SET_DUMPABLE 0: no /proc/<us>/fd for others
    except (OSError, AttributeError):
        pass


def reap_all():
    """Before the checker exits: every process it started has ended and been
    waited for, so none is left for init to reap, and ``time`` counts them.

    As its workers' subreaper (``become_subreaper``), the checker adopts
    what a worker left behind (bubblewrap's own process in the sandbox, a
    learner's daemon): each is killed and waited for here.
    """
    _kill_workers()
    reap_orphans()
    while _SUBREAPER:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return


def reap_orphans():
    """Kill and reap this process's children that are not workers: orphans of
    the learners' processes, handed to the checker as their subreaper."""
    if not _SUBREAPER or not os.path.isdir("/proc"):
        return
    me = str(os.getpid())
    with _REAPING:
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) in _WORKERS:
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as file:
                    fields = file.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if fields[1].decode() != me:
                continue
            try:
                os.kill(int(name), signal.SIGKILL)
                os.waitpid(int(name), 0)
            except (OSError, ChildProcessError):
                pass


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
