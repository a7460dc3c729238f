"""Worker processes, and the reaping that leaves none of a learner's behind.

Worker(submission, keep, mode, limits)   a Python running the harness on a private copy
become_subreaper()                       this process adopts what its workers leave
stop_all()                               stop every worker now, and start no more (Ctrl+C)
reap_all()                               before the checker exits: every process it started, ended

A worker is a fresh Python running ``lesson/grader/harness.py`` by its
path (it does not import the lesson), in which neither the learner's
folder nor the current one comes before the standard library.  It runs in
its own session, so the whole process group, with anything the learner
started, is killed when it is stopped; in the sandbox (mode "bwrap", see
``lesson.grader.sandbox``) or as a user of its own (mode "user"), or with
the checker's rights (mode "none").

The worker talks to the checker over private pipes, never over stdout:
the learner's code may print, clear the screen, run shell commands or
replace sys.stdout.  The learner's stdout and stderr are pipes that the
checker drains as it goes and never waits to close, since a process the
learner started may hold them open.

A learner's process that double-forks, calls setsid() and empties its
environment leaves the worker's group and its mark: the checker, as its
workers' subreaper, adopts it and kills it (``reap_orphans``); as a user
of its own, every process of that user is killed when the worker stops.
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

from lesson.grader import bubblewrap, places, users
from lesson.grader.harness import HELLO, Event, Load

MARK = "LESSON_CHECK_RUN"       # in the worker's environment, to find its processes
MAX_LINE = 1 << 20              # bytes a reply may have; a longer one is garbled
FILE_SIZE = 64 << 20            # bytes one file a worker writes may have
MEMORY_LIMIT = 1024             # MiB of address space a worker may use


def limits(memory_limit=MEMORY_LIMIT, uid=None, sealed=False, user=None):
    """The harness's limits for a worker: memory, file size, processes,
    whether it is sealed from the network, the machine's sockets and its
    keyrings (``harness.seal``), and the user (uid, gid) it becomes first
    in the sandbox, if any."""
    return {"memory": memory_limit << 20, "file_size": FILE_SIZE,
            "processes": _process_limit(uid), "sealed": sealed, "user": user}


def _process_limit(uid=None):
    """Processes the worker's user may run: those running now, and 256 more."""
    try:
        uid = os.getuid() if uid is None else uid
        mine = sum(1 for name in os.listdir("/proc") if name.isdigit()
                   and os.stat(f"/proc/{name}").st_uid == uid)
    except OSError:
        mine = 0
    return mine + 256


class Worker:
    """A Python running the harness on a private copy of a submission, with
    private pipes, in ``mode`` ("bwrap", "user" or "none"; see
    ``lesson.grader.sandbox``)."""

    def __init__(self, submission, keep, mode="none", memory_limit=MEMORY_LIMIT):
        self.token = uuid.uuid4().hex
        self.keep, self.mode = keep, mode
        self.started = time.monotonic()
        self.folder = self.learner = None
        replies_read, replies_write = os.pipe()
        requests_read, self.requests = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        env = {"PATH": os.defpath, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
               "TERM": os.environ.get("TERM", "dumb"), MARK: self.token}
        harness, keywords, data, uid, become = places.HARNESS, {}, [], None, None
        if mode == "bwrap":
            if users.becomes_learner_in_sandbox():   # root: a user of its own inside, too
                self.learner = users.Learner(in_sandbox=True)
                uid, become = self.learner.uid, (self.learner.uid, self.learner.gid)
            data = [(_readable(content), path) for content, path in
                    zip(bubblewrap.identity(become), ("/etc/passwd", "/etc/group"))]
            cwd = "/"           # bwrap's own process, which others may look into, not the class's
            env["HOME"], env["TMPDIR"] = bubblewrap.SANDBOX_HOME, "/tmp"
        elif mode == "user":                   # its files go where stop() removes them
            self.learner = users.Learner()
            harness, keywords, uid = self.learner.harness, self.learner.popen(), self.learner.uid
            cwd = env["HOME"] = env["TMPDIR"] = self.learner.home
        else:
            self.folder = cwd = tempfile.mkdtemp(prefix="lesson-check-")
            env["HOME"] = env["TMPDIR"] = cwd
        command = [sys.executable, "-E", "-u", harness, str(replies_write), str(requests_read)]
        if mode == "bwrap":
            command = bubblewrap.command(command, submission.hide, data, become)
        passed = [replies_write, requests_read] + [fd for fd, _ in data]
        try:
            with _REAPING:                     # a worker is never taken for an orphan
                self.process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=out_write, stderr=err_write,
                    pass_fds=passed, cwd=cwd, start_new_session=True, env=env, **keywords)
                _WORKERS.add(self.process.pid)
        except BaseException:
            if self.learner is not None:
                self.learner.remove()
            raise
        finally:
            for fd in passed + [out_write, err_write]:
                os.close(fd)
        self.fds = {"replies": replies_read, "stdout": out_read, "stderr": err_read}
        for fd in self.fds.values():
            os.set_blocking(fd, False)
        self.buffer = b""
        self.printed = {"stdout": bytearray(), "stderr": bytearray()}
        self.sizes = {"stdout": 0, "stderr": 0}
        self.greeted = False                   # has the harness said hello?
        self._write({"files": {name: base64.b64encode(data).decode()
                               for name, data in submission.files.items()},
                     "main": submission.main,
                     "limits": limits(memory_limit, uid, sealed=mode != "none", user=become),
                     "sites": places.user_site()})

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
                    return self._event(self._unstarted() or {Event.CRASHED: self._exit_code()})
                continue
            left = end - time.monotonic()
            if left <= 0:
                return self._event(self._unstarted(timeout) or {Event.LATE: True})
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
            return {Load.UNSTARTED: f"it did not start within {timeout:g} s", Event.LATE: True}
        return {Load.UNSTARTED: said[-1] if said else f"exit code {self._exit_code()}"}

    def _exit_code(self):
        """The worker's exit code; a signal that ended it as its negative number
        (bubblewrap reports one as 128 plus the signal)."""
        code = self.process.returncode
        if self.mode == "bwrap" and 128 < code < 160:
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
        if self.learner is not None:           # every process of its user, and its files
            self.learner.remove()
        reap_orphans()
        for fd in list(self.fds.values()) + [self.requests]:
            os.close(fd)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _readable(data):
    """A pipe's reading end, holding ``data`` (a small file for bwrap to copy)."""
    read, write = os.pipe()
    try:
        os.write(write, data)
    finally:
        os.close(write)
    return read


_WORKERS = set()                # pids of the workers running now, in this checker
_REAPING = threading.Lock()
SUBREAPER = threading.Event()   # set once this process is its workers' subreaper
STOPPING = threading.Event()    # set once the checker is stopping (Ctrl+C): start no worker


def stop_all():
    """Stop every worker now, and start no more (Ctrl+C)."""
    STOPPING.set()
    _kill_workers()


def _kill_workers():
    """Kill every worker's whole process group."""
    for pid in list(_WORKERS):
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def as_program(run, *arguments, **keywords):
    """``run(...)`` as a program's whole work (the command line, Gradescope's
    run_autograder): this process becomes its workers' subreaper first, so
    what a learner's code leaves, however it hides, is its own to kill, and
    every process it started has ended and been waited for when it returns.
    Never in a process with children of its own it did not start for a
    learner (pytest's, say): as a subreaper it would take them for orphans."""
    become_subreaper()
    try:
        return run(*arguments, **keywords)
    finally:
        reap_all()


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
            SUBREAPER.set()
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
    while SUBREAPER.is_set():
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return


def reap_orphans():
    """Kill and reap this process's children that are not workers: orphans of
    the learners' processes, handed to the checker as their subreaper."""
    if not SUBREAPER.is_set() or not os.path.isdir("/proc"):
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
    except (ValueError, RecursionError):        # not JSON, or nested past Python's stack
        return None
    if key == Event.LOADED:
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
