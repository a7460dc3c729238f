"""Confinement (issue 37): a submission reaches nothing but its own copy,
graded as teachers grade a class and as the platforms run the grader.

Each file in tests/confinement/ is one attack, its first comment saying
what it tries; its four functions give right answers only when the attack
worked (or only call what it borrowed), so its grade says whether it did.
``EXPECTED`` gives each one's outcome in each mode.  The checker runs in
one of three modes, which its JSON names ("sandbox"):

- bwrap: bubblewrap's sandbox, built from nothing: /usr, the few /etc files
  Python needs, the Python running the checker, a fresh /proc and /dev, the
  private copy, and size-capped /tmp and home.  Nothing else is seen.
- user: no bubblewrap (--no-sandbox, or none on PATH), run by root: each
  learner's code runs as a fresh user who owns nothing; the lesson's files,
  the teacher's private files and the results are out of its reach, and
  none of its processes outlives the run.  What every user may read
  (world-readable files, abstract and TCP sockets, /proc's command lines)
  it may read too: the tests allow that, and only that.
- none: no bubblewrap, run by another user: unprotected, and said so (the
  JSON, the report's line).  Only what the checker does itself is asserted:
  the mode it names, the classmates' grades, and how it reads the class
  folder (a FIFO or a device refused in one line, a link out of the folder
  never read and quoted).  The rest is skipped, with that reason.

The tests place around the class folders, before any run: canaries (files
holding CANARY-<secret>-<place>) the teacher keeps privately or every user
may read, in /opt, /srv, /etc, /root, /home, /tmp, /var/tmp, /dev/shm,
beside each class folder, in git repositories, in the kernel's keyrings
and in the checker's environment; a wheel of the lesson and a git checkout
of it, private to the teacher; listening sockets (Unix ones in /run and
beside each class, an abstract one, TCP on 127.0.0.1) that record each
connection with the nonce the attacker printed; a decoy process per user
that records who signals it; a terminal per user.  Everything is removed
afterwards, and every name carries this run's own id, so two runs at once
do not meet.  LESSON_CONFINEMENT_KEEP=DIR keeps what each run printed.

The corpus connects only to those listeners (named lesson-confinement, or
on TCP ports 47100-47199), signals only the decoys, and writes only where
the tests look and clean up: never to a service or process of the machine.

Runs, all started together at first use: the corpus and the site's solution
(three copies and a student's folder) as root with bwrap (class in /opt),
as root without it (/srv; its checker in a venv any user may run), as
nobody with bwrap (/srv) and without it (/opt); a class of odd files
(FIFOs, a device, links out of the folder) in each of the four; a FIFO
given alone; two runs into one --results folder; and the platforms as
they run: Gradescope's zip, set up by its own setup.sh in a container made
with bubblewrap (tests/platform_roots.py), Exercism's and PrairieLearn's
entrypoints in the same container.  The corpus's files are never imported
by pytest (tests/conftest.py ignores them).
"""

import ast
import glob
import json
import os
import pathlib
import platform
import pwd
import re
import secrets
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import concurrent.futures

import pytest

import platform_roots
from helpers import CHECKER, ROOT, Run
from reaper import processes

CORPUS = ROOT / "tests" / "confinement"
ATTACKS = sorted(p.stem for p in CORPUS.glob("*.py"))
SOLUTION = ROOT / "docs" / "assets" / "solution" / "softmax_exercise.py"
SOLUTIONS = ["a_solution.py", "m_solution.py", "zz_solution.py", "zz_student/softmax_exercise.py"]
SYSTEM_PYTHON = "/usr/bin/python3"
RUNUSER = shutil.which("runuser") or "/usr/sbin/runuser"
MARK = "lesson-confinement"             # in every name the tests and the corpus make
SEED = 37
TIME_LIMIT = 3                          # loads get 15 s: the attacks' walks, on a busy machine
HARD_CAP = 300                          # seconds before a checker run counts as stopped
ODD_CAP = 40                            # seconds a class of odd files may take at most
WAIT = 3                                # seconds after a run before its results are read again
BANNER = b"lesson-confinement-listener"
TCP_PORTS = range(47100, 47200)         # where sock_tcp_loopback.py knocks

# Each attack's outcome: (its kind, in mode bwrap, in mode user).  In mode
# none nothing is promised.  The kinds decide what the tests assert:
# borrow: 0 points, and no copy of the lesson readable (in user, only
#   copies any user may read: "anywhere" attacks may score from those);
# read, proc: no canary of the kind the mode keeps; 0 points in bwrap;
# socket: no connection to a listener of the tests (user: only to those
#   every user may reach);
# detach: the results are the grader's after a wait; nothing outlives the run;
# write: nothing left in site-packages, nor where every user may write (/tmp, /var/tmp,
#   /dev/shm, /run/lock, a shared scratch folder in /tmp);
# terminal, fds: no terminal typed into or opened, no file inherited;
# namespace: none made, by unshare() or by clone(); 0 points;
# forge: the file's own line, garbled and 0 points; the class graded on.
EXPECTED = {
    "borrow_classmate_worker": ("borrow", "0: no other process seen",
                                "0: other users' processes closed"),
    "borrow_git_checkout": ("borrow anywhere", "0: no checkout seen",
                            "0, but for a world-readable checkout"),
    "borrow_harness_paths": ("borrow", "0: the paths lead nowhere",
                             "0: the lesson's files unreadable"),
    "borrow_site_packages": ("borrow anywhere", "0: the package hidden",
                             "0, but for a world-readable copy"),
    "borrow_watch_removed": ("borrow", "0: nothing to import", "0: the lesson's files unreadable"),
    "borrow_wheel_on_disk": ("borrow anywhere", "0: no wheel seen",
                             "0, but for a world-readable wheel"),
    "detach_process_chain": ("detach", "dies with the sandbox",
                             "killed with its user's processes"),
    "detach_rewrite_results": ("detach", "dies with the sandbox",
                               "killed with its user's processes"),
    "forge_checker_failure": ("forge", "its own line: garbled", "its own line: garbled"),
    "forge_outcome_shapes": ("forge", "its own line: garbled", "its own line: garbled"),
    "ns_user_namespace": ("namespace", "none of its own", "none of its own"),
    "proc_signals": ("proc", "no decoy seen", "decoys unreachable, argv only"),
    "read_beside_class": ("read", "nothing beside the class", "world-readable files only"),
    "read_dev_shm": ("read", "a fresh /dev/shm and /tmp", "world-readable files only"),
    "read_etc": ("read", "no shadow, no other /etc file", "no shadow; world-readable files only"),
    "read_inherited_fds": ("fds", "nothing inherited", "nothing inherited"),
    "read_inventory": ("read", "sees only Python's paths", "world-readable files only"),
    "read_keyrings": ("read", "no teacher's key", "no teacher's key"),
    "read_mountinfo": ("read", "no host path of the class", "world-readable files only"),
    "read_opt_srv": ("read", "no /opt, no /srv", "world-readable files only"),
    "read_other_repo": ("read", "no repository seen", "world-readable history only"),
    "read_proc_checker": ("proc", "no checker seen", "the checker's /proc closed"),
    "read_root_home": ("read", "no /root but Python's", "/root closed"),
    "sock_abstract": ("socket", "a network of its own", "may connect: every user may"),
    "sock_tcp_loopback": ("socket", "a network of its own", "may connect: every user may"),
    "sock_unix_paths": ("socket", "no /run, no socket file", "world-writable sockets only"),
    "tty_inject": ("terminal", "no terminal", "no teacher's terminal"),
    "write_plant_tmp": ("write", "nothing left", "nothing left: its files removed"),
    "write_site_packages_pth": ("write", "read-only", "not writable"),
}


def kind(name):
    return EXPECTED[name][0]


def available():
    """Why these tests cannot run here, or None."""
    if sys.platform != "linux":
        return "the confinement tests run on Linux"
    if os.geteuid() != 0:
        return "the confinement tests run as root (they switch to nobody, write in /opt, /etc)"
    if not os.path.exists(RUNUSER) or not os.path.exists(SYSTEM_PYTHON):
        return f"need {RUNUSER} and {SYSTEM_PYTHON}"
    return None


pytestmark = pytest.mark.skipif(available() is not None, reason=available() or "")


def has_bwrap():
    from lesson.grader import bubblewrap
    return bubblewrap.bwrap_starts()


# Each corpus run: (user, mode, where its course lives, the checker's Python).
# Mode "user" is reached with --no-sandbox, mode "none" with no bwrap on the
# checker's PATH.  The Pythons: "own", the one running these tests (root's
# may live in /root, as pyenv's do); "system", a venv of the system's python3
# that any user may run (a fresh user must run it: with a Python only root
# may run, root grades unprotected); "nobody", nobody's own venv.
CONFIGS = {"root-bwrap": ("root", "bwrap", "/opt", "own"),
           "root-user": ("root", "user", "/srv", "system"),
           "nobody-bwrap": ("nobody", "bwrap", "/srv", "nobody"),
           "nobody-none": ("nobody", "none", "/opt", "nobody")}
PLATFORM_RUNS = {"gradescope": ["solution", "detach_rewrite_results", "detach_process_chain",
                                "borrow_wheel_on_disk", "borrow_site_packages",
                                "borrow_watch_removed", "read_inventory"],
                 "exercism": ["solution", "detach_rewrite_results", "borrow_site_packages"],
                 "prairielearn": ["solution", "detach_rewrite_results", "borrow_site_packages",
                                  "read_inventory"]}


# --- Small helpers -------------------------------------------------------------------------

def uid(user):
    return pwd.getpwnam(user).pw_uid


def put(path, data, user="root", mode=0o644):
    """Write a file (its folders made), owned by user, with mode."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.write_bytes if isinstance(data, bytes) else path.write_text)(data)
    os.chown(path, uid(user), uid(user))
    os.chmod(path, mode)
    return path


def owned(path, user, mode=None):
    """chown -R user path (and chmod path)."""
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            os.lchown(os.path.join(root, name), uid(user), uid(user))
    os.lchown(path, uid(user), uid(user))
    if mode is not None:
        os.chmod(path, mode)


def git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=Teacher", "-c", "user.email=teacher@example.org",
                    "-c", "init.defaultBranch=main", "-c", "safe.directory=*", *args],
                   cwd=cwd, check=True, capture_output=True, timeout=60)


def world_readable(path):
    """Could a user who owns nothing, in no group, read path (every folder
    on the way searchable, the file or folder readable by others)?"""
    path = os.path.realpath(path)
    try:
        info = os.stat(path)
    except OSError:
        return False
    if not info.st_mode & stat.S_IROTH:
        return False
    folder = os.path.dirname(path) if not stat.S_ISDIR(info.st_mode) else path
    while True:
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            return False
        if folder == "/":
            return True
        folder = os.path.dirname(folder)


def no_bwrap_path():
    """The PATH, less every folder holding a bwrap: a teacher without bubblewrap."""
    folders = [d for d in os.environ["PATH"].split(os.pathsep)
               if d and not os.path.exists(os.path.join(d, "bwrap"))]
    return os.pathsep.join(folders) or "/nonexistent"


def lines_with(name, text):
    """The lines of text that name a file (its name not inside a longer one)."""
    pattern = re.compile(rf"(^|[^\w.-]){re.escape(name)}($|[^\w.-])")
    return [line for line in text.splitlines() if pattern.search(line)]


def said(result, word):
    """The words after ``word`` on each of an attack's stdout lines starting with
    it; a line the checker cut off (its output kept only so much, and says how
    much more there was) is not one of them."""
    lines = result["stdout"].splitlines()
    if lines and lines[-1].endswith("more characters not shown)"):
        lines = lines[:-2]                       # the line cut short, and the note
    return [line.split(" ", 1)[1] if " " in line else ""
            for line in lines if line.split(" ", 1)[0] == word]


# --- The world around the class folders ----------------------------------------------------

DECOY = r'''
import signal, sys, time
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
end = time.time() + 1800
while time.time() < end:
    info = signal.sigtimedwait({signal.SIGUSR1}, 1.0)
    if info is not None:
        with open(sys.argv[1], "a") as log:
            log.write(f"{info.si_pid} {info.si_uid}\n")
'''

KEYS = r'''
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
if sys.argv[1] == "add":
    payload = sys.argv[3].encode()
    print(libc.syscall(248, b"user", sys.argv[2].encode(), payload, len(payload),
                       ctypes.c_int(-4)))              # add_key to the user's keyring
else:
    libc.syscall(250, 21, ctypes.c_int(int(sys.argv[2])))        # KEYCTL_INVALIDATE
'''


class Listeners:
    """The tests' listening sockets: each says BANNER to whoever connects and
    records (its label, the line sent back: the attacker's nonce)."""

    def __init__(self):
        self.sockets, self.heard, self.stop = {}, [], threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def add(self, sock, label):
        sock.listen(16)
        sock.setblocking(False)
        self.sockets[sock] = label

    def _serve(self):
        while not self.stop.is_set():
            ready, _, _ = select.select(list(self.sockets), [], [], 0.2)
            for sock in ready:
                try:
                    connection, _ = sock.accept()
                except OSError:
                    continue
                threading.Thread(target=self._talk, args=(connection, self.sockets[sock]),
                                 daemon=True).start()

    def _talk(self, connection, label):
        with connection:
            connection.setblocking(True)
            connection.settimeout(3)
            line = b""
            try:
                connection.sendall(BANNER + b"\n")
                while not line.endswith(b"\n") and len(line) < 200:
                    data = connection.recv(200)
                    if not data:
                        break
                    line += data
            except OSError:
                pass
            self.heard.append((label, line.decode(errors="replace").strip()))

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


class World:
    """Everything placed around the class folders, and the way to remove it.

    ``places`` maps each canary's place to whether every user may read it;
    ``secret`` is in every canary and nowhere else."""

    def __init__(self):
        self.id = secrets.token_hex(5)
        self.secret = secrets.token_hex(12)
        self.places, self.undo, self.fifos, self.roots = {}, [], [], []
        self.base = pathlib.Path(tempfile.mkdtemp(prefix=f"{MARK}-{self.id}-", dir="/tmp"))
        os.chmod(self.base, 0o711)
        self.undo.append(lambda: shutil.rmtree(self.base, ignore_errors=True))

    def canary(self, place, world):
        place = place.replace("-", "_")
        self.places[place] = world
        return f"CANARY-{self.secret}-{place}\n"

    def folder(self, path, user="root", mode=0o755):
        path = pathlib.Path(path)
        path.mkdir(parents=True)
        self.roots.append(path)
        owned(path, user, mode)
        self.undo.append(lambda: shutil.rmtree(path, ignore_errors=True))
        return path

    def file(self, path, place, user="root", mode=0o644, remove=True):
        put(path, self.canary(place, bool(mode & 0o004)), user, mode)
        if remove:
            self.undo.append(lambda: os.path.exists(path) and os.remove(path))
        return path

    def cleanup(self):
        for undo in reversed(self.undo):
            try:
                undo()
            except Exception:                   # one left is no reason to leave the rest
                pass

    # -- what is set up ------------------------------------------------------------------

    def set_up(self):
        self.wheel = pathlib.Path(wheel_build(self.folder(self.base / "wheel", mode=0o700)))
        self.venvs = {"system": self.venv("system", "root", 0o755),
                      "nobody": self.venv("nobody", "nobody", 0o700)}
        self.shared_places()
        self.repositories()
        self.listeners()
        self.decoys()
        self.terminals()
        self.keys()
        self.shadow_root = shadow_root_line()

    def venv(self, name, user, mode):
        """A checker as a teacher installs it: a venv made with the system's
        python3, the wheel installed, owned by user, with mode (nobody's: no
        other user may read it; root's: every user may run it)."""
        venv = self.base / f"{name}-venv"
        subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True,
                       timeout=120)
        pip = subprocess.run([sys.executable, "-m", "pip", "--python",
                              str(venv / "bin" / "python"), "install", "--quiet", "--no-index",
                              "--no-deps", "--disable-pip-version-check", str(self.wheel)],
                             capture_output=True, text=True, timeout=300)
        assert pip.returncode == 0, pip.stderr
        owned(venv, user, mode)
        return venv

    def shared_places(self):
        opt, srv = (self.folder(f"{p}/{MARK}-{self.id}") for p in ("/opt", "/srv"))
        self.file(opt / "notes.txt", "opt_world")
        self.file(srv / "notes.txt", "srv_world")
        self.file(f"/etc/{MARK}-{self.id}.conf", "etc_world")
        home = self.folder(f"/home/{MARK}-{self.id}")
        self.file(home / "notes.txt", "home_world")
        tmp = self.folder(f"/tmp/{MARK}-{self.id}-world")
        self.file(tmp / "notes.txt", "tmp_world")
        self.file(f"/var/tmp/{MARK}-{self.id}.txt", "vartmp_world")
        self.file(f"/dev/shm/{MARK}-{self.id}-world.txt", "shm_world")
        self.folder(f"/tmp/{MARK}-{self.id}-scratch", mode=0o1777)   # a class's shared scratch
        for user in ("root", "nobody"):
            self.file(f"/dev/shm/{MARK}-{self.id}-{user}.txt", f"shm_private_{user}", user, 0o600)
            private = self.folder(srv / f"private-{user}", user, 0o700)
            self.file(private / "notes.py", f"link_private_{user}", user, 0o600, remove=False)
            self.file(private / "student.py", f"link_student_{user}", user, 0o600, remove=False)
        self.file(srv / "shared.py", "link_world")
        self.file(f"/root/{MARK}-{self.id}.txt", "root_private", mode=0o600)
        self.srv = srv

    def repositories(self):
        """Another repository every user may read: its history alone holds a canary."""
        repo = self.srv / "other-repo"
        repo.mkdir()
        git("init", "--quiet", cwd=repo)
        (repo / "notes.md").write_text(self.canary("other_repo", True))
        git("add", "notes.md", cwd=repo)
        git("commit", "--quiet", "-m", "the course's notes", cwd=repo)
        (repo / "notes.md").unlink()

    def course(self, label, user, where):
        """A course's folder for one run: the class, and beside it the grades
        (private), the roster (every user's), a git checkout of the lesson
        and its wheel (private), a socket (private) and the results."""
        course = self.folder(f"{where}/course-{self.id}-{label}", user)
        self.file(course / "grades.csv", f"grades_{label}", user, 0o600)
        self.file(course / "roster.csv", f"roster_{label}", user, 0o644)
        checkout = course / "lesson-checkout"
        checkout.mkdir()
        os.chmod(checkout, 0o700)           # closed while it is filled: other runs walk /opt now
        (checkout / "lesson").mkdir()
        for source in (pathlib.Path(CHECKER) / "lesson").glob("*.py"):
            shutil.copy(source, checkout / "lesson" / source.name)
        (checkout / "notes.md").write_text(self.canary(f"checkout_{label}", False))
        git("init", "--quiet", cwd=checkout)
        git("add", "-A", cwd=checkout)
        git("commit", "--quiet", "-m", "the lesson, and my notes", cwd=checkout)
        shutil.rmtree(checkout / "lesson")                  # its history alone holds them
        (checkout / "notes.md").unlink()
        owned(checkout, user, 0o700)
        downloads = course / "downloads"
        downloads.mkdir()
        put(downloads / self.wheel.name, self.wheel.read_bytes(), user, 0o600)
        owned(downloads, user, 0o700)
        self.unix_socket(course / f"{MARK}-teacher.sock", f"teacher_{label}", user, 0o600)
        for folder, mode in (("results", 0o700), ("class", 0o755)):
            (course / folder).mkdir()
            owned(course / folder, user, mode)
        return course

    def listeners(self):
        self.listen = Listeners()
        self.sockets = {}                           # label: may every user connect?
        self.unix_socket(f"/run/{MARK}-{self.id}-world.sock", "run_world", "root", 0o666)
        for user in ("root", "nobody"):
            self.unix_socket(f"/run/{MARK}-{self.id}-{user}.sock", f"run_private_{user}", user,
                             0o600)
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        abstract.bind(f"\0{MARK}-{self.id}")
        self.listen.add(abstract, "abstract")
        self.sockets["abstract"] = True
        for port in TCP_PORTS:
            tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                tcp.bind(("127.0.0.1", port))
            except OSError:
                tcp.close()
                continue
            self.listen.add(tcp, "tcp")
            self.sockets["tcp"] = True
            break
        self.listen.thread.start()
        self.undo.append(self.listen.close)

    def unix_socket(self, path, label, user, mode):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(path))
        os.chown(path, uid(user), uid(user))
        os.chmod(path, mode)
        self.listen.add(sock, label)
        self.sockets[label] = bool(mode & 0o002)
        self.undo.append(lambda: os.path.exists(path) and os.remove(path))

    def decoys(self):
        """A process per user, its command line and environment holding
        canaries; it records the pid and uid of each SIGUSR1 it gets."""
        self.decoy = {}
        argv_canary = self.canary("decoy_argv", True).strip()
        for user in ("root", "nobody"):
            log = put(self.base / f"decoy-{user}.log", "", user, 0o600)
            command = [SYSTEM_PYTHON, "-c", DECOY, str(log), f"{MARK}-decoy", argv_canary]
            if user != "root":
                command = [RUNUSER, "-u", user, "--"] + command
            env = {"PATH": "/usr/bin:/bin",
                   "LESSON_CONFINEMENT": self.canary(f"decoy_environ_{user}", False).strip()}
            decoy = subprocess.Popen(command, env=env, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.decoy[user] = (decoy, log)
            self.undo.append(lambda d=decoy: (os.killpg(d.pid, signal.SIGKILL), d.wait()))

    def terminals(self):
        """A terminal per user, as a teacher has one open: its path."""
        self.pty = {}
        for user in ("root", "nobody"):
            master, slave = os.openpty()
            path = os.ttyname(slave)
            os.chown(path, uid(user), -1)
            self.pty[user] = path
            self.undo.append(lambda m=master, s=slave: (os.close(m), os.close(s)))

    def keys(self):
        """A key in each user's keyring (a teacher's tool keeps its token there)."""
        self.key = {}
        if platform.machine() != "x86_64":
            return
        for user in ("root", "nobody"):
            payload = self.canary(f"keyring_{user}", False).strip()
            done = subprocess.run([RUNUSER, "-u", user, "--", SYSTEM_PYTHON, "-c", KEYS, "add",
                                   f"{MARK}-{self.id}", payload], capture_output=True, text=True,
                                  timeout=30)
            serial = int(done.stdout.strip() or -1)
            if serial > 0:
                self.key[user] = serial
                self.undo.append(lambda u=user, s=serial: subprocess.run(
                    [RUNUSER, "-u", u, "--", SYSTEM_PYTHON, "-c", KEYS, "drop", str(s)],
                    capture_output=True, timeout=30))

    def odd_class(self, label, user, where):
        """A class of odd files: FIFOs (one alone, one a student's file), a
        device and links to devices, links out of the folder to /etc/shadow
        and to canaries whose first line a syntax error would quote, and the
        site's solution."""
        course = self.folder(f"{where}/course-{self.id}-odd-{label}", user)
        folder = course / "class"
        folder.mkdir()
        shutil.copy(SOLUTION, folder / "solution.py")
        os.mkfifo(folder / "x.py")
        (folder / "zz_fifo_student").mkdir()
        os.mkfifo(folder / "zz_fifo_student" / "softmax_exercise.py")
        self.fifos += [folder / "x.py", folder / "zz_fifo_student" / "softmax_exercise.py"]
        os.mknod(folder / "dev_node.py", 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's
        os.symlink("/dev/zero", folder / "dev_zero_link.py")
        os.symlink("/dev/stdin", folder / "dev_stdin_link.py")
        os.symlink("/etc/shadow", folder / "shadow_link.py")
        os.symlink(self.srv / f"private-{user}" / "notes.py", folder / "link_private.py")
        os.symlink(self.srv / "shared.py", folder / "link_world.py")
        (folder / "zz_link_student").mkdir()
        os.symlink(self.srv / f"private-{user}" / "student.py",
                   folder / "zz_link_student" / "softmax_exercise.py")
        owned(course, user, 0o755)
        return folder


def wheel_build(folder):
    """The lesson's wheel, as the site offers it (lesson.grader.wheel)."""
    done = subprocess.run([sys.executable, "-c", "import sys; from lesson.grader import wheel; "
                           "print(wheel.build(sys.argv[1]))", str(folder)], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=CHECKER))
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def shadow_root_line():
    try:
        with open("/etc/shadow") as file:
            return next((line.strip() for line in file if line.startswith("root:")), None)
    except OSError:
        return None


# --- The checker runs ----------------------------------------------------------------------

class CheckerRun(Run):
    """One checker command line as a teacher runs it (tests/corpus.py's Run):
    as ``user``, in ``mode``, then WAIT seconds, then its --results files read."""

    def __init__(self, label, user, mode, paths, cwd, world, options=(), human=False,
                 results=None, python="own", hard_cap=HARD_CAP, path=None):
        self.user, self.mode, self.results, self.python = user, mode, results, python
        secret = world.canary(f"checker_environ_{label}", False).strip()
        env = {"LESSON_CONFINEMENT_TEACHER": secret}
        if path is not None:
            env["PATH"] = path
        options = list(options) + (["--results", str(results)] if results else [])
        super().__init__(label, paths, cwd, TIME_LIMIT, human=human, options=options, env=env,
                         hard_cap=hard_cap)
        if python != "own":
            self.argv[0] = str(world.venvs[python] / "bin" / "python")
        if user != "root":
            self.argv = [RUNUSER, "-u", user, "--"] + self.argv
        self.documents = {}

    def environment(self):
        env = super().environment()
        if self.python != "own":
            env.pop("PYTHONPATH", None)        # the venv's checker, not this checkout's
        return env

    def __call__(self):
        super().__call__()
        self.ended = time.monotonic()
        time.sleep(WAIT)
        if self.results is not None:
            for path in sorted(pathlib.Path(self.results).glob("*.json")):
                self.documents[path.name] = path.read_text(errors="replace")
        self.files = {f["file"]: f for f in (self.report or {}).get("files", [])}
        return self

    def texts(self):
        """Everything a teacher reads of this run."""
        return [self.stdout, self.stderr] + list(self.documents.values())


class Everything:
    """The world, and every run, started together at first use."""

    def __init__(self):
        self.lock, self.started = threading.Lock(), False
        self.world, self.runs, self.futures, self.platform = None, {}, {}, {}
        self.pool = self.platform_setup = self.failure = None

    def start(self):
        with self.lock:
            if self.failure is not None:
                pytest.fail(f"the world or the runs could not be set up: {self.failure!r}")
            if self.started:
                return
            self.started = True
            try:
                self._start()
            except BaseException as error:
                self.failure = error
                raise

    def _start(self):
        self.world = World()                # removed by _cleanup, whatever fails after
        self.world.set_up()
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=5)
        self.bwrap = has_bwrap()
        self.platform_setup = self.pool.submit(self._platform_setup)
        configs = {label: c for label, c in CONFIGS.items() if c[1] != "bwrap" or self.bwrap}
        for label, config in configs.items():
            self._submit(label, self._corpus_run(label, *config))
        for label, config in configs.items():
            self._submit(f"odd-{label}", self._odd_run(label, *config))
        self._submit("fifo-alone", self._fifo_alone())
        self._submit("two", TwoRuns(self._two_runs()))
        for label, run in self._mode_runs().items():
            self._submit(label, run)

    def _submit(self, label, run):
        self.runs[label] = run
        self.futures[label] = self.pool.submit(run)

    def get(self, label):
        self.start()
        if label not in self.futures:
            pytest.skip("bubblewrap (bwrap) is not installed or cannot run here")
        self.futures[label].result()
        return self.runs[label]

    @staticmethod
    def flag(mode):
        return {"bwrap": ["--sandbox"], "user": ["--no-sandbox"], "none": []}[mode]

    def _corpus_run(self, label, user, mode, where, python):
        world = self.world
        course = world.course(label, user, where)
        folder = course / "class"
        for name in ATTACKS:
            shutil.copy(CORPUS / f"{name}.py", folder / f"{name}.py")
        for name in SOLUTIONS:
            (folder / name).parent.mkdir(exist_ok=True)
            shutil.copy(SOLUTION, folder / name)
        owned(folder, user, 0o755)
        return CheckerRun(label, user, mode, ["."], folder, world,
                          self.flag(mode) + ["--seed", str(SEED), "--jobs", "2"],
                          results=course / "results", python=python,
                          path=no_bwrap_path() if mode == "none" else None)

    def _odd_run(self, label, user, mode, where, python):
        folder = self.world.odd_class(label, user, where)
        return CheckerRun(f"odd-{label}", user, mode, ["."], folder, self.world, self.flag(mode),
                          human=True, hard_cap=ODD_CAP, python=python,
                          path=no_bwrap_path() if mode == "none" else None)

    def _fifo_alone(self):
        folder = self.world.folder(self.world.base / "fifo-alone")
        os.mkfifo(folder / "x.py")
        self.world.fifos.append(folder / "x.py")
        return CheckerRun("fifo-alone", "root", "default", ["x.py"], folder, self.world,
                          human=True, hard_cap=ODD_CAP)

    def _two_runs(self):
        """Two runs into one --results folder at once: each class holds a.py
        and b.py, one quick, one that sleeps, in opposite order, so that
        without care the folder ends up with a.py's result from one run and
        b.py's from the other."""
        results = self.world.folder(self.world.base / "two-results")
        runs = {}
        for label, seed, sleeps in (("two-1", 11, {"b.py": 2.5}), ("two-2", 22, {"a.py": 1.2})):
            folder = self.world.folder(self.world.base / label)
            for name in ("a.py", "b.py"):
                nap = f"import time\ntime.sleep({sleeps[name]})\n" if name in sleeps else ""
                (folder / name).write_text(nap + SOLUTION.read_text())
            runs[label] = CheckerRun(label, "root", "default", ["."], folder, self.world,
                                     ["--seed", str(seed), "--jobs", "1"], results=results)
        return runs

    def _mode_runs(self):
        """Small runs that name the mode: root without bwrap on PATH; nobody
        with --no-sandbox; nobody without bwrap, the text a teacher reads."""
        runs = {}
        for label, user, python, options, human, path in (
                ("mode-root-no-bwrap", "root", "system", [], False, no_bwrap_path()),
                ("mode-nobody-no-sandbox", "nobody", "nobody", ["--no-sandbox"], False, None),
                ("mode-nobody-text", "nobody", "nobody", [], True, no_bwrap_path())):
            folder = self.world.folder(self.world.base / label, user)
            for name in ("ann.py", "bob.py"):
                put(folder / name, SOLUTION.read_text(), user)
            runs[label] = CheckerRun(label, user, "", ["."], folder, self.world, options,
                                     human=human, python=python, path=path)
        return runs

    # -- the platforms ---------------------------------------------------------------------

    def _platform_setup(self):
        """The container, Gradescope's zip set up in it, and each platform's runs
        submitted; or the reason it could not be made (skipped then)."""
        if not self.bwrap:
            return "bubblewrap (bwrap) is not installed or cannot run here"
        base = self.world.base / "platforms"
        base.mkdir(mode=0o700)
        numpy = base / "numpy"
        version = subprocess.run([SYSTEM_PYTHON, "-c",
                                  "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True).stdout.strip()
        from lesson.grader import bundle
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                               "--only-binary=:all:", "--implementation", "cp", "--python-version",
                               version, "--platform", "manylinux2014_x86_64", bundle.NUMPY,
                               "--dest", str(numpy)], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            return f"pip could not fetch {bundle.NUMPY} for Python {version}: {done.stderr[-300:]}"
        zip_path = base / "autograder.zip"
        made = subprocess.run([sys.executable, "-m", "lesson", "autograder", "gradescope",
                               str(zip_path), "--numpy-wheels", str(numpy)], capture_output=True,
                              text=True, timeout=120, env=dict(os.environ, PYTHONPATH=CHECKER))
        assert made.returncode == 0, made.stderr
        import pip
        lent = base / "lent"
        shutil.copytree(os.path.dirname(pip.__file__), lent / "pip")
        container = platform_roots.Container(base / "container")
        source = platform_roots.set_up_gradescope(container, zip_path, lent)
        for name, submissions in PLATFORM_RUNS.items():
            for submission in submissions:
                key = f"{name}-{submission}"
                self.platform[key] = self.pool.submit(self._platform_run, container, source,
                                                      base / key, name, submission)
        return None

    def _platform_run(self, container, source, run_dir, name, submission):
        run_dir.mkdir()
        data = (SOLUTION if submission == "solution" else CORPUS / f"{submission}.py").read_bytes()
        if name == "gradescope":
            hidden = {"hidden_notes.md": self.world.canary("gradescope_source", False)}
            return platform_roots.run_gradescope(container, source, run_dir,
                                                 {"softmax_exercise.py": data}, hidden)
        if name == "exercism":
            return platform_roots.run_exercism(container, run_dir, {"softmax_weights.py": data})
        hidden = {"notes.md": self.world.canary("prairielearn_tests", False)}
        return platform_roots.run_prairielearn(container, run_dir,
                                               {"softmax_exercise.py": data}, hidden)

    def platform_report(self, key):
        self.start()
        if self.platform_setup is None:
            pytest.skip("the runs could not start (see the first failure)")
        why = self.platform_setup.result()
        if why is not None:
            pytest.skip(why)
        return self.platform[key].result()

    def all_done(self):
        """Wait for every run (the platforms' last: their setup submits them)."""
        for future in list(self.futures.values()) + [self.platform_setup]:
            try:
                future is None or future.result()
            except Exception:
                pass
        for future in list(self.platform.values()):
            try:
                future.result()
            except Exception:
                pass
        if self.pool is not None:
            self.pool.shutdown(wait=True)


class TwoRuns:
    """Two checker runs started at the same moment, each in a thread."""

    def __init__(self, runs):
        self.runs = list(runs.values())

    def __call__(self):
        threads = [threading.Thread(target=run) for run in self.runs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return self


EVERYTHING = Everything()


@pytest.fixture(scope="module", autouse=True)
def _cleanup():
    """After the module: every run waited for, what the corpus left killed or
    removed, and the world taken down, whatever failed on the way."""
    yield
    if EVERYTHING.world is None:
        return
    try:
        EVERYTHING.all_done()
        keep(os.environ.get("LESSON_CONFINEMENT_KEEP"))
        kill_detached()
        release_strays(EVERYTHING.world)
        for path in left_behind():
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)
    finally:
        EVERYTHING.world.cleanup()


def keep(folder):
    """LESSON_CONFINEMENT_KEEP=DIR: what each run printed, kept in DIR to read
    after the tests (their folders are removed)."""
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    for label, run in EVERYTHING.runs.items():
        for one in getattr(run, "runs", [run]):
            with open(os.path.join(folder, f"{one.label}.txt"), "w") as file:
                file.write(f"$ {' '.join(one.argv)}\n# exit {one.returncode}, "
                           f"{one.seconds:.1f} s, left running: {one.survivors}\n"
                           f"{one.stdout}\n--- stderr\n{one.stderr}\n")
                for name, text in one.documents.items():
                    file.write(f"--- {name}\n{text}\n")
    for key, future in EVERYTHING.platform.items():
        try:
            report = future.result()
        except Exception as error:
            report = error
        with open(os.path.join(folder, f"platform-{key}.txt"), "w") as file:
            if isinstance(report, Exception):
                file.write(repr(report))
            else:
                file.write(f"# exit {report.code}, left {report.left}\n")
                file.write("\n---\n".join(report.texts()))


def kill_detached():
    """Whatever the corpus's detached processes left running, by process group."""
    for _ in range(20):
        found = [pid for pid, command in processes() if f"{MARK}-detached" in command]
        if not found:
            return
        for pid in found:
            try:
                os.killpg(os.getpgid(pid), signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.1)


def release_strays(world):
    """A checker still waiting on a FIFO of the tests (a run the harness gave
    up on) is let go, and any process working in the tests' folders is killed."""
    for fifo in world.fifos:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    roots = [str(p) for p in world.roots]
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{name}/cwd")
        except OSError:
            continue
        if any(cwd == root or cwd.startswith(root + "/") for root in roots):
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass


def nonces():
    """The nonce each attack of every run printed: {nonce: (run label, attack)}."""
    found = {}
    for label, run in EVERYTHING.runs.items():
        for name, result in getattr(run, "files", {}).items():
            for nonce in said(result, "NONCE"):
                found[nonce] = (label, name)
    return found


def site_folders():
    """Every site-packages a checker of these tests runs with, and the system's."""
    prefixes = [sys.prefix, sys.base_prefix, *EVERYTHING.world.venvs.values(), "/usr",
                "/usr/local", "/root/.local"]
    return [f for prefix in prefixes for f in glob.glob(f"{prefix}/lib/python3*/*-packages")]


def left_behind(nonce=None):
    """Files the corpus's write_* attacks left on the machine (this run's, or one nonce's)."""
    wanted = [nonce] if nonce else list(nonces())
    found = []
    for nonce in wanted:
        for place in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", f"/tmp/{MARK}-*-scratch"):
            found += glob.glob(f"{place}/{MARK}-planted-{nonce}")
        for folder in site_folders():
            found += glob.glob(f"{folder}/lesson_confinement_corpus_{nonce}.pth")
    return found


# --- The runs -----------------------------------------------------------------------------

def corpus_run(label):
    run = EVERYTHING.get(label)
    assert run.report is not None, (run.returncode, run.json_error, run.stderr[-1500:])
    return run


def leaks(texts):
    """The canary places named in texts."""
    pattern = re.compile(rf"CANARY-{EVERYTHING.world.secret}-([a-z0-9_]+)")
    return {match for text in texts for match in pattern.findall(text)}


def installed_lesson(label):
    """The real path of the lesson package the run's checker imports."""
    python = CONFIGS[label][3]
    if python == "own":
        return os.path.realpath(os.path.join(CHECKER, "lesson"))
    venv = EVERYTHING.world.venvs[python]
    return os.path.realpath(glob.glob(f"{venv}/lib/python3*/site-packages/lesson")[0])


def python_paths(label):
    """The folders the run's Python lives in: the sandbox shows these, and what leads to them."""
    python = CONFIGS[label][3]
    if python == "own":
        paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.realpath(sys.executable)}
    else:
        paths = {str(EVERYTHING.world.venvs[python]), "/usr"}
    return {os.path.realpath(p) for p in paths} | paths


RUN_LABELS = list(CONFIGS)
# The runs whose mode promises confinement: mode none (nobody, no bubblewrap)
# promises only what test_mode_none_is_named_and_said checks.
CONFINED_LABELS = [label for label in RUN_LABELS if CONFIGS[label][1] != "none"]


# --- The tests: the modes, the classmates --------------------------------------------------

def test_every_attack_says_what_it_tries_and_has_an_expected_outcome():
    assert set(EXPECTED) == set(ATTACKS)
    for name in ATTACKS:
        source = (CORPUS / f"{name}.py").read_text()
        assert source.startswith("# ") and len(source.split("\n", 1)[0]) > 30, name
        defined = {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
        assert {"softmax", "naive_softmax", "rows_normalised", "entropy"} <= defined, name


@pytest.mark.parametrize("label", RUN_LABELS)
def test_the_checkers_json_names_its_mode(label):
    run = corpus_run(label)
    assert run.report["sandbox"] == CONFIGS[label][1], run.report["sandbox"]


@pytest.mark.parametrize("label", RUN_LABELS)
def test_the_solutions_score_20_beside_the_attackers(label):
    run = corpus_run(label)
    assert sorted(run.files) == sorted([f"./{n}.py" for n in ATTACKS] +
                                       [f"./{n}" for n in SOLUTIONS]), sorted(run.files)
    for name in SOLUTIONS:
        result = run.files[f"./{name}"]
        failing = [c["message"] for c in result["checks"] if not c["passed"]]
        assert (result["passed"], result["failed"], result["problem"]) == (20, 0, None), (
            name, result["problem"], failing[:3])


@pytest.mark.parametrize("label", RUN_LABELS)
def test_a_forged_reply_is_the_forgers_own_line(label):
    """A file that says what only the checker may say ("internal", "unstarted"),
    or answers in shapes the harness never writes, gets its own line, garbled
    and 0 points: the class is graded on, and the checker does not fail (3)."""
    run = corpus_run(label)
    assert run.returncode != 3, run.stderr[-1000:]
    for name in [n for n in ATTACKS if kind(n) == "forge"]:
        result = run.files[f"./{name}.py"]
        said = json.dumps([result["problem"]] + [c["message"] for c in result["checks"]])
        assert result["passed"] == 0 and "private pipe" in said, (name, said[:500])


def test_root_without_bwrap_grades_as_another_user():
    run = EVERYTHING.get("mode-root-no-bwrap")
    assert run.report is not None, run.stderr[-1000:]
    assert run.report["sandbox"] == "user", run.report["sandbox"]
    assert [f["passed"] for f in run.report["files"]] == [20, 20]


def test_mode_none_is_named_and_said():
    """A non-root teacher without bubblewrap is unprotected: the JSON says
    "none", and the report a teacher reads has a line saying so."""
    run = EVERYTHING.get("mode-nobody-no-sandbox")
    assert run.report is not None and run.report["sandbox"] == "none", run.stdout[:500]
    text = EVERYTHING.get("mode-nobody-text")
    lines = (text.stdout + text.stderr).lower().splitlines()
    assert any(re.search(r"no sandbox|not sandboxed|unprotected|without (a |any )?sandbox", line)
               for line in lines), text.stdout[:800] + text.stderr[:800]
    assert text.stdout.splitlines()[-1] == "40 passed, 0 failed", text.stdout[-300:]


# --- Reads ---------------------------------------------------------------------------------

@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_no_canary_reaches_any_output(label):
    """bwrap: no canary at all; user: only those every user may read."""
    run = corpus_run(label)
    found = leaks(run.texts())
    world = EVERYTHING.world
    allowed = set() if CONFIGS[label][1] == "bwrap" else {p for p, w in world.places.items() if w}
    assert found <= allowed, f"leaked: {sorted(found - allowed)}"
    for name in ATTACKS:
        result = run.files[f"./{name}.py"]
        if kind(name) in ("read", "proc") and CONFIGS[label][1] == "bwrap":
            assert result["passed"] == 0, (name, result["stdout"][:300])


@pytest.mark.parametrize("label", [l for l in RUN_LABELS if CONFIGS[l][0] == "root"])
def test_the_root_line_of_etc_shadow_never_appears(label):
    """As root (as nobody, the system refuses it anyway)."""
    run = corpus_run(label)
    line = EVERYTHING.world.shadow_root
    if line is None:
        pytest.skip("no /etc/shadow with a root: line here")
    assert not any(line in text for text in run.texts()), "the root: line of /etc/shadow was shown"
    assert said(run.files["./read_etc.py"], "SHADOW") in (
        [], ["unreadable: No such file or directory"], ["unreadable: Permission denied"])


@pytest.mark.parametrize("label", [l for l in RUN_LABELS if CONFIGS[l][1] == "bwrap"])
def test_the_sandbox_shows_only_what_python_needs(label):
    """The sandbox is built from nothing: / holds the system, Python's paths,
    /etc the loader's files, and each folder on the way to Python only that way."""
    run = corpus_run(label)
    inventory = run.files["./read_inventory.py"]
    assert said(inventory, "TOP"), inventory["stdout"][:600]
    top = set(said(inventory, "TOP")[0].split())
    pythons = python_paths(label)
    allowed = {"usr", "bin", "lib", "lib32", "lib64", "libx32", "sbin", "etc", "proc", "dev",
               "tmp", "home"} | {p.split("/")[1] for p in pythons}
    assert top <= allowed, f"/ shows {sorted(top - allowed)}"
    for line in said(inventory, "LS"):
        folder, names = line.split(":", 1)
        toward = {p[len(folder) + 1:].split("/")[0] for p in pythons if p.startswith(folder + "/")}
        shown = set(names.split())
        assert shown <= toward, f"{folder} shows {sorted(shown - toward)}"
    etc = said(run.files["./read_etc.py"], "ETC")
    assert etc, run.files["./read_etc.py"]["stdout"][:600]
    count, *names = etc[0].split()
    needed = {"ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group"}
    if count.isdigit():                                 # else "unreadable: ...": nothing there
        assert set(names) <= needed and int(count) <= len(needed), \
            f"/etc holds {count} entries: {sorted(set(names) - needed)[:20]}"
    course = str(run.cwd.parent)                        # the class folder's, and the grades'
    assert course not in run.files["./read_mountinfo.py"]["stdout"], \
        run.files["./read_mountinfo.py"]["stdout"][:600]


# --- Borrowing the lesson ------------------------------------------------------------------

@pytest.mark.parametrize("name", [n for n in ATTACKS if kind(n).startswith("borrow")])
@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_borrowing_the_lesson_scores_nothing(label, name):
    """0 points; no copy of the lesson readable.  In mode user, an attack
    that searches the machine may read a copy every user may read (a
    checkout in a world-readable folder): that one is allowed, never the
    checker's own, nor the teacher's private checkout or wheel."""
    result = corpus_run(label).files[f"./{name}.py"]
    readable = said(result, "READABLE") + [b.split()[0] for b in said(result, "BORROWED")]
    installed = installed_lesson(label)
    if CONFIGS[label][1] == "bwrap" or kind(name) == "borrow":
        assert result["passed"] == 0 and readable == [], (result["passed"], result["stdout"][:600])
        return
    for path in [p for p in readable if p.startswith("/")]:    # mode user, a search
        real = os.path.realpath(path)
        assert real != installed and not real.startswith(installed + os.sep), \
            f"read the checker's own: {path}"
        assert world_readable(path), f"read {path}, which only its owner may read"
    if result["passed"]:
        assert said(result, "BORROWED"), result["stdout"][:600]


# --- Sockets -------------------------------------------------------------------------------

@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_no_listener_of_the_tests_hears_from_the_run(label):
    """bwrap: no connection; user: only to sockets every user may reach."""
    run = corpus_run(label)
    mine = {nonce for name in ATTACKS if kind(name) == "socket"
            for nonce in said(run.files[f"./{name}.py"], "NONCE")}
    assert len(mine) == 3, "each socket attack prints its nonce first"
    world = EVERYTHING.world
    heard = [label_ for label_, line in world.listen.heard if line.split()[-1:] and
             line.split()[-1] in mine]
    allowed = set() if CONFIGS[label][1] == "bwrap" else {s for s, w in world.sockets.items() if w}
    assert set(heard) <= allowed, f"connected to {sorted(set(heard) - allowed)}"


# --- Namespaces ----------------------------------------------------------------------------

@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_no_namespace_of_its_own(label):
    """seccomp refuses unshare() and a clone() that makes a namespace, in both modes."""
    run = corpus_run(label)
    result = run.files["./ns_user_namespace.py"]
    assert said(result, "MADE") == [] and result["passed"] == 0, result["stdout"][:400]
    assert len(said(result, "REFUSED")) >= 3, result["stdout"][:400]


# --- Other processes -----------------------------------------------------------------------

@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_no_other_process_is_reached(label):
    """No decoy signalled (its own record, and the attack's), no checker's
    /proc read, no classmate copied; the decoys still run."""
    run = corpus_run(label)
    signals = run.files["./proc_signals.py"]
    assert said(signals, "SIGNALLED") == [], signals["stdout"][:400]
    pids = set(said(signals, "PID"))
    for user, (decoy, log) in EVERYTHING.world.decoy.items():
        senders = {line.split()[0] for line in pathlib.Path(log).read_text().splitlines()}
        assert not senders & pids, f"the {user} decoy got SIGUSR1 from this run"
        assert decoy.poll() is None, f"the {user} decoy was killed"
    checker = run.files["./read_proc_checker.py"]
    assert checker["passed"] == 0 and said(checker, "BORROWED") == [], checker["stdout"][:600]
    for line in said(checker, "PROC"):
        assert "cwd=" not in line and "environ read" not in line and "mem read" not in line, line


@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_no_terminal_and_no_inherited_file_is_reached(label):
    run = corpus_run(label)
    tty = run.files["./tty_inject.py"]
    assert said(tty, "INJECTED") == [], tty["stdout"][:400]
    opened = said(tty, "PTS-OPEN")
    assert not set(opened) & set(EVERYTHING.world.pty.values()), opened
    if CONFIGS[label][1] == "bwrap":
        assert opened == [], opened
    fds = run.files["./read_inherited_fds.py"]
    assert said(fds, "FD-DIR") == [] and said(fds, "FD-FILE") == [], fds["stdout"][:400]
    assert tty["passed"] == 0 and fds["passed"] == 0


# --- Detached processes, the results, what is left -----------------------------------------

@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_the_results_files_are_the_graders_after_a_wait(label):
    run = corpus_run(label)
    facts = {k: v for k, v in run.report.items() if k not in ("files", "skipped")}
    assert len(run.documents) == len(run.files), sorted(run.documents)
    for name, text in run.documents.items():
        assert "forged" not in text, f"{name} was rewritten after the grader wrote it"
        document = json.loads(text)
        assert document == dict(facts, file=run.files[document["file"]["file"]]), name


@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_no_process_outlives_the_run(label):
    run = corpus_run(label)
    assert not run.hard_capped, run.stderr[-1000:]
    assert run.survivors == [], f"left running: {run.survivors[:5]}"


@pytest.mark.parametrize("label", CONFINED_LABELS)
def test_nothing_is_left_in_site_packages_or_shared_folders(label):
    run = corpus_run(label)
    names = ["write_site_packages_pth"]
    if CONFIGS[label][1] != "none":         # a user of its own: its files there removed after
        names.append("write_plant_tmp")
    for name in names:
        nonce = said(run.files[f"./{name}.py"], "NONCE")
        assert len(nonce) == 1, run.files[f"./{name}.py"]["stdout"][:300]
        assert left_behind(nonce[0]) == [], f"{name} left {left_behind(nonce[0])}"


# --- How the checker reads a class folder (every mode) -------------------------------------

# Each odd file: what it is, and the words a line refusing it names it with.
ODD = {"x.py": ("a FIFO", "fifo|pipe"), "zz_fifo_student": ("a student's FIFO", "fifo|pipe"),
       "dev_node.py": ("a character device", "device"),
       "dev_zero_link.py": ("a link to /dev/zero", "link|device"),
       "dev_stdin_link.py": ("a link to /dev/stdin", "link|device|pipe")}
REFUSED = r"\bnot\b|refus|skip|cannot"


def refusals(name, text, what="fifo|pipe"):
    """The lines of text that name a file, say what it is and refuse it."""
    said = [line.replace(name, "") for line in lines_with(name, text)]   # not its name's words
    return [line for line in said
            if re.search(what, line, re.I) and re.search(REFUSED, line, re.I)]


@pytest.mark.parametrize("label", RUN_LABELS)
def test_odd_files_are_refused_in_one_line_and_links_never_quoted(label):
    """The checker reads every file before any runs, as itself: a FIFO or a
    device is refused, in one line saying why (never waited on, no
    traceback), a link out of the folder is not read with the teacher's
    rights, no line of its target is quoted, and the solution beside them
    still scores 20.  A promise of the checker's own, so in every mode."""
    run = EVERYTHING.get(f"odd-{label}")
    assert not run.hard_capped and run.seconds < ODD_CAP, f"it hung ({run.seconds:.0f} s)"
    text = run.stdout + run.stderr
    assert "Traceback" not in text, run.stderr[-1500:]
    for name, (what, words) in ODD.items():
        assert len(refusals(name, text, words)) == 1, (what, lines_with(name, text))
    assert leaks([text]) == set(), f"quoted: {sorted(leaks([text]))}"
    shadow = EVERYTHING.world.shadow_root
    assert shadow is None or shadow not in text, "the root: line of /etc/shadow was quoted"
    assert re.search(r"^\./solution\.py\s+20\s+0\s*$", run.stdout, re.M), run.stdout[-800:]


def test_a_fifo_given_alone_is_refused_in_one_line():
    run = EVERYTHING.get("fifo-alone")
    assert not run.hard_capped and run.seconds < ODD_CAP, f"it hung ({run.seconds:.0f} s)"
    text = run.stdout + run.stderr
    assert "Traceback" not in text and len(refusals("x.py", text)) == 1, text[-1000:]


def test_two_runs_into_one_results_folder_never_mix():
    """Started together: no traceback; one line says what happened; no
    folder holds results of both runs (two seeds), nor a half-written file."""
    runs = EVERYTHING.get("two").runs
    folder = runs[0].results
    seeds = {}
    for path in sorted(folder.rglob("*")):
        assert not path.name.endswith(".part"), f"half-written: {path}"
        if path.suffix == ".json":
            seeds.setdefault(path.parent, {})[path.name] = json.loads(path.read_text())["seed"]
    assert seeds, "neither run wrote a result"
    for where, found in seeds.items():
        assert len(set(found.values())) == 1, f"{where} mixes two runs: {found}"
    for run in runs:
        assert "Traceback" not in run.stderr, run.stderr[-1500:]
    told = [line for run in runs for line in run.stderr.splitlines()
            if str(folder) in line or "--results" in line]
    assert len(told) == 1, told


# --- The platforms, as they run ------------------------------------------------------------

def platform_cases():
    for name, submissions in PLATFORM_RUNS.items():
        for submission in submissions:
            yield pytest.param(name, submission, id=f"{name}-{submission}")


def score(name, document):
    """The document's score: Gradescope's points, PrairieLearn's fraction,
    Exercism's pass (1) or fail (0)."""
    if name == "exercism":
        return 1 if document["status"] == "pass" else 0
    return document["score"]


@pytest.mark.parametrize("name, submission", list(platform_cases()))
def test_the_platforms_results_are_the_graders_and_nothing_is_left(name, submission):
    """Run as the platform runs it, as root, without bubblewrap: the
    entrypoint exits 0; when it ends, none of the learner's processes is
    left; the results are the same bytes after a wait, never forged; the
    solution gets every point and an attack none; no canary is shown."""
    report = EVERYTHING.platform_report(f"{name}-{submission}")
    assert report.code == 0, report.stderr[-1500:]
    assert report.first is not None, report.stderr[-1500:]
    assert report.after == report.first, "the results changed after the grader wrote them"
    document = json.loads(report.first)
    assert "forged" not in document
    assert leaks(report.texts()) == set(), f"leaked: {sorted(leaks(report.texts()))}"
    assert report.left == [], f"left running when the grader ended: {[p for p, _ in report.left]}"
    full = {"gradescope": 20, "prairielearn": 1, "exercism": 1}[name]
    assert score(name, document) == (full if submission == "solution" else 0), (
        score(name, document), report.stdout[-800:])
