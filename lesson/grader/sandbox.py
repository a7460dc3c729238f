"""Where a learner's code runs: given nothing it was not given.

A submission is graded in one of three modes, the strongest this machine
allows (``THREAT_MODEL`` says what each protects, and what it cannot):

bwrap   bubblewrap's sandbox, built up from nothing (``command``): only the
        system's programs and libraries, the Python running the checker,
        the submission's private copy, and empty size-capped /tmp and home
user    where bubblewrap cannot run and the checker is root (a grading
        platform's container, or --no-sandbox as root): the learner's code
        runs as a user of its own, who owns nothing (``Learner``)
none    neither: the learner's code runs with the rights of whoever runs
        the checker, and every document says so

mode(wanted)             the mode, for --sandbox (True), --no-sandbox (False) or neither
command(argv, hide)      argv, run in bubblewrap's sandbox
shown()                  what the sandbox shows of this machine: (source, where seen) pairs
lesson_copies(places)    every copy of the lesson in those places, to hide
Learner()                a user of its own for one worker, and what it leaves, removed

The sandbox starts from an empty root and adds, read-only, only what a
Python process needs, each found by rule, never by a list of places to
hide: /usr and the /bin, /lib* links (or their real folders where /usr is
not merged); of /etc, the loader's cache and the time zone, and a passwd
and group naming only the learner; the Python running the checker (its
executable and every link to it, its standard library, its site-packages,
the user's site-packages where it reads them); every shared library that
Python, its standard library's extension modules and NumPy map, wherever
it lies (``mapped_libraries``).  Then a fresh /proc and /dev, and /tmp and
the home, empty and size-capped.  Nothing else: no /run, /var, /srv, /opt,
/mnt, /media, no other /etc file, no socket, no other folder of any home.
Every copy of the lesson in what is shown (its installed package, its
metadata) is hidden again, so a learner's code cannot borrow the lesson's
answers, whatever it imports or reads.
"""

import contextlib
import functools
import glob
import os
import pwd
import random
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
LESSON_HOME = os.path.dirname(os.path.dirname(HARNESS))    # the lesson's own package
SANDBOX_HOME = "/home/learner"  # the worker's home and working folder, in the sandbox
SANDBOX_HARNESS = "/tmp/.lesson-harness.py"   # where the sandbox shows the harness
WORK_SIZE = 128 << 20           # bytes of the sandbox's writable folders, each
SHM_SIZE = 16 << 20             # bytes of its /dev/shm (multiprocessing's semaphores)
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime")   # what the loader and Python read
DISTRIBUTION = "softmax_weights_lesson"              # the lesson's name on PyPI, as pip files it


# What each mode protects, and what it cannot: one source for ``check
# --help``, the teacher's header and warnings, and the site's "For teachers".
THREAT_MODEL = {
    "bwrap": {
        "title": "each submission sandboxed with bubblewrap",
        "when": "where bubblewrap (bwrap) is installed: the default, or --sandbox",
        "protects": "the learner's code sees only the system's programs and libraries, the "
                    "Python running the checker (the lesson's own package hidden) and its "
                    "private copy: no other file of this machine (the class folder, grades, "
                    "homes, /etc, /run, /srv, /opt), no socket, no network, no other "
                    "process, no kernel keyring, no copy of the lesson to borrow; its "
                    "memory, files and "
                    "processes are capped, and nothing it starts outlives its check",
        "cannot": "it can still read what the system and that Python hold (installed "
                  "programs and packages), use the processor for its time limit, and hand "
                  "in a copy of the published solution"},
    "user": {
        "title": "no sandbox: each submission runs as a user of its own",
        "when": "as root, where bubblewrap is not installed or cannot run (a grading "
                "platform's container), or with --no-sandbox",
        "protects": "the learner's code runs as a user who owns nothing and belongs to no "
                    "group: it cannot read or change what only you can (your files, "
                    "root's, the results), nor signal the checker or another submission; "
                    "a seccomp filter denies it the network and every socket of the "
                    "machine; nothing it starts outlives its check; the copies of the "
                    "lesson the checker knows (its installed package, the checkout it "
                    "runs from) and, on a grading platform, the autograder's own files "
                    "are unreadable to it",
        "cannot": "it can read whatever every user may read on this machine (a class "
                  "folder others can read, a copy of the lesson the checker does not "
                  "know of), see other processes' command lines, and write to /tmp "
                  "(cleaned after)"},
    "none": {
        "title": "no sandbox: each submission runs with your rights",
        "when": "otherwise: without bubblewrap, or with --no-sandbox, as any user but "
                "root (or as root, when the Python running the checker is one another "
                "user may not run, such as a pyenv under /root)",
        "protects": "nothing but what the checker does itself: each file is read before "
                    "any runs, graded from a private copy, limited in memory, file size "
                    "and processes, and what it starts is stopped",
        "cannot": "the learner's code runs with your rights: it can read, change or "
                  "delete your files, read the lesson's code, reach the network and other "
                  "processes of yours; grade untrusted files only with bubblewrap, or as "
                  "root"},
}


# --- The mode ------------------------------------------------------------------

def mode(wanted=None):
    """"bwrap", "user" or "none": for --sandbox (``wanted`` True: bwrap, or a
    ValueError where it is not installed), --no-sandbox (False) or neither.

    Whether bwrap starts here is known when each worker says hello, or does
    not: one that cannot start is the checker's failure, never a grade.
    """
    if wanted is not False and sys.platform.startswith("linux") and bwrap():
        return "bwrap"
    if wanted is True:
        raise ValueError("--sandbox needs bubblewrap (bwrap), which is not installed "
                         "(Debian, Ubuntu: apt-get install bubblewrap)")
    return "user" if may_switch_user() else "none"


def platform_mode():
    """The mode on a grading platform, whose container is a sandbox of its own
    and usually forbids the namespaces bwrap makes: bwrap where it starts,
    else a user of its own (the platforms run the grader as root), else none."""
    if bwrap_starts():
        return "bwrap"
    return "user" if may_switch_user() else "none"


def bwrap():
    """bubblewrap's path, found on the checker's PATH, or None."""
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=None)
def bwrap_starts():
    """Does bubblewrap start here, with the namespaces the sandbox uses?"""
    if not (sys.platform.startswith("linux") and bwrap()):
        return False
    try:
        done = subprocess.run(command([sys.executable, "-E", "-S", "-c", ""]),
                              capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@functools.lru_cache(maxsize=None)
def may_switch_user():
    """Can the checker run a learner's code as a user of its own: is it root
    (with the right to change user), on a system with users and groups, and
    may such a user run the Python running the checker?"""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    try:
        learner = Learner()
    except OSError:
        return False
    try:
        done = subprocess.run([sys.executable, "-E", "-S", "-c", ""], capture_output=True,
                              timeout=20, cwd="/", **learner.popen())
        return done.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        learner.remove()


# --- What the sandbox shows -------------------------------------------------------

def command(argv, hide=(), data=()):
    """``argv`` run in bubblewrap's sandbox (see the module's docstring).

    bwrap sets the sandbox up in the order of its arguments, each on top of
    the last: namespaces; the system; /etc's few files; /proc, /dev; the
    empty /tmp and home; the Python running the checker; then every copy
    of the lesson, and each folder of ``hide`` (the class folder, the
    submission's own), hidden where what is shown holds them.  The harness
    (argv's path to it) is shown at SANDBOX_HARNESS.  ``data`` is pairs
    (file descriptor, path): each file's bytes, read from the descriptor,
    shown read-only at the path (the passwd and group of ``identity``).
    """
    out = [bwrap() or "bwrap", "--cap-drop", "ALL",   # as root, bwrap keeps root's powers
           "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session",
           "--ro-bind", "/usr", "/usr"]
    for path in SYSTEM_LINKS:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    for path in ETC_FILES:
        out += ["--ro-bind-try", path, path]
    for descriptor, path in data:
        out += ["--ro-bind-data", str(descriptor), path]
    out += ["--proc", "/proc",
            "--ro-bind-try", "/proc/sys", "/proc/sys",      # the machine's kernel settings
            "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
            "--dev", "/dev", "--perms", "1777", "--size", str(SHM_SIZE), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev",                 # else root fills it: RAM, no cap
            "--size", str(WORK_SIZE), "--tmpfs", "/tmp",
            "--size", str(WORK_SIZE), "--tmpfs", SANDBOX_HOME]
    places = shown()
    for source, seen in places:
        out += ["--ro-bind", source, seen]
    for path in hidden(places, hide):
        out += (["--ro-bind", os.devnull, path] if os.path.isfile(path) else
                ["--tmpfs", path, "--remount-ro", path])
    out += ["--chdir", SANDBOX_HOME, "--ro-bind", HARNESS, SANDBOX_HARNESS, "--"]
    return out + [arg if arg != HARNESS else SANDBOX_HARNESS for arg in argv]


def identity(uid=None, gid=None):
    """The sandbox's /etc/passwd and /etc/group, naming only the learner, as
    bytes: ``getpass.getuser()`` and ``~`` work, and no account of this
    machine is named."""
    uid = os.getuid() if uid is None else uid
    gid = os.getgid() if gid is None else gid
    return (f"learner:x:{uid}:{gid}:learner:{SANDBOX_HOME}:/bin/sh\n".encode(),
            f"learner:x:{gid}:\n".encode())


@functools.lru_cache(maxsize=None)
def shown():
    """What the sandbox shows beyond /usr and /etc's few files, read-only, as
    sorted (source, where seen) pairs: the Python running the checker
    (``python_paths``) and the shared libraries it maps that lie elsewhere.
    A place inside another one shown is left out (that one shows it)."""
    pairs = set(python_paths())
    pairs |= {(path, path) for path in mapped_libraries()}
    system = ["/usr"] + [p for p in SYSTEM_LINKS if os.path.islink(p)]
    pairs = {(s, w) for s, w in pairs if not (_inside(w, system) and _inside(s, system))}
    seen = sorted({w for _, w in pairs})
    return sorted({(s, w) for s, w in pairs if not _inside(w, seen, strictly=True)},
                  key=lambda pair: pair[1])


def python_paths(executable=None):
    """What the Python running the checker needs, as (source, where seen)
    pairs: every link on the way from ``sys.executable`` to the real
    interpreter, a venv's pyvenv.cfg, its standard library and its
    site-packages (the user's too, where it reads them).  Not its whole
    prefix: a Python installed in a home would show the home.

    Each is seen at the path Python knows it by and at its real path, so a
    venv reached through a symlink works; its source is always its real path.

    >>> all(source == os.path.realpath(source) for source, seen in python_paths())
    True
    """
    executable = executable or sys.executable
    paths = sysconfig.get_paths()
    wanted = [paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    wanted += site_folders()
    wanted += [os.path.join(p, "pyvenv.cfg") for p in (sys.prefix, os.path.dirname(
        os.path.dirname(executable)))]
    link, steps = executable, 0
    while steps < 40:                              # the chain of links to the binary
        wanted.append(link)
        if not os.path.islink(link):
            break
        link = os.path.join(os.path.dirname(link), os.readlink(link))
        steps += 1
    pairs = set()
    for path in wanted:
        path = os.path.abspath(path)
        real = os.path.realpath(path)
        if os.path.exists(real):
            pairs |= {(real, real), (real, path)}
    return sorted(pairs, key=lambda pair: pair[1])


def site_folders():
    """The site-packages this Python reads: its own, and the user's where it
    reads those (the harness is told to add them, as the worker's home is
    its own)."""
    import site
    folders = list(getattr(site, "getsitepackages", lambda: [])())
    return folders + user_site()


def user_site():
    """The user's site-packages (``pip install --user``), as a list: empty
    where this Python does not read it (a venv) or it does not exist."""
    import site
    folder = site.getusersitepackages() if hasattr(site, "getusersitepackages") else ""
    if site.ENABLE_USER_SITE and folder in sys.path and os.path.isdir(folder):
        return [folder]
    return []


_PROBE = r"""
import ctypes, glob, importlib.util, os, sys
sys.path += sys.argv[1:]
folders = [p for p in sys.path if p.endswith("lib-dynload")]
numpy = importlib.util.find_spec("numpy")
if numpy is not None and numpy.submodule_search_locations:
    folders += list(numpy.submodule_search_locations)
for folder in folders:
    for path in glob.glob(os.path.join(glob.escape(folder), "**", "*.so"), recursive=True):
        try:
            ctypes.CDLL(path, os.RTLD_LAZY | os.RTLD_LOCAL)
        except OSError:
            pass
with open("/proc/self/maps") as maps:
    found = "".join(line.split(None, 5)[5] for line in maps if line.count("/"))
sys.stdout.write(found)
sys.stdout.flush()
os._exit(0)         # before any library's own ending runs: some crash at exit
"""


@functools.lru_cache(maxsize=None)
def mapped_libraries():
    """Every file that the Python running the checker maps once the dynamic
    loader has loaded its standard library's extension modules and NumPy's
    (each .so, with what it needs, as an import would, without running
    them), at its real path: what that Python may load, wherever it lies
    (a Python built with its own OpenSSL, Nix's store, conda's lib/).
    Found by asking the loader, once per checker; empty off Linux."""
    if not os.path.exists("/proc/self/maps"):
        return ()
    with open("/proc/self/maps") as maps:            # this process's own, to begin with
        lines = [line.split(None, 5)[5] for line in maps if line.count("/")]
    try:
        done = subprocess.run([sys.executable, "-E", "-c", _PROBE, *user_site()],
                              capture_output=True, text=True, timeout=60, cwd="/")
        lines += done.stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        pass
    files = {os.path.realpath(line.strip()) for line in lines if line.startswith("/")}
    return tuple(sorted(path for path in files if os.path.isfile(path)))


def hidden(places, hide=()):
    """What the sandbox hides again inside what it shows: every copy of the
    lesson there (``lesson_copies``), and each folder of ``hide`` (the
    class folder, the submission's own) that lies inside a place shown, at
    every path where the sandbox shows it."""
    shown_folders = ["/usr"] + [seen for _, seen in places]
    inner = [os.path.realpath(p) for p in hide if p and os.path.isdir(p)]
    inner = [p for p in inner if _inside(p, [os.path.realpath(s) for s in shown_folders])]
    copies = lesson_copies(tuple(["/usr"] + [s for s, _ in places]))
    return _aliases(list(copies) + inner, places)


@functools.lru_cache(maxsize=None)
def lesson_copies(places):
    """Every copy of the lesson in ``places`` (folders and files shown), as
    real paths: the package the checker runs from, and in every
    site-packages there (each Python's, the system's, the user's), a
    ``lesson`` package or module, the lesson's metadata and an editable
    install's finder.  ``places`` is a tuple (the answer is kept for the
    checker's run)."""
    folders = {os.path.realpath(p) for p in places if os.path.isdir(p)}
    sites = set()
    for place in folders:
        for pattern in ("lib*/python3*/*-packages", "local/lib*/python3*/*-packages",
                        "lib/python3/dist-packages", "python3*/*-packages", "*-packages"):
            sites |= {os.path.realpath(p) for p in glob.glob(os.path.join(
                glob.escape(place), pattern))}
    sites |= {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)
              and _inside(os.path.realpath(p), list(folders))}
    found = {os.path.realpath(LESSON_HOME)}
    for site in sorted(sites):
        for pattern in ("lesson", "lesson.py", f"{DISTRIBUTION}-*",
                        f"__editable__*{DISTRIBUTION}*"):
            found |= {os.path.realpath(p) for p in glob.glob(os.path.join(
                glob.escape(site), pattern))}
    return tuple(sorted(p for p in found if _inside(p, list(folders)) and os.path.lexists(p)))


def site_places():
    """Where the Python running the checker, and the system's, keep packages:
    the places ``lesson_copies`` looks in for a grading platform's lesson."""
    return tuple(sorted({"/usr", sys.prefix, sys.base_prefix, *site_folders()}))


def _aliases(paths, places):
    """Each path, at its real path, and wherever a bind shows it again.

    >>> _aliases(["/real/v/lib/lesson"], [("/real/v", "/v"), ("/real/v", "/real/v")])
    ['/real/v/lib/lesson', '/v/lib/lesson']
    """
    out = set()
    for path in paths:
        real = os.path.realpath(path)
        out |= {path, real}
        for source, seen in places:
            if _inside(real, [source]):
                out.add(os.path.normpath(os.path.join(seen, os.path.relpath(real, source))))
    return sorted(out)


def _inside(path, folders, strictly=False):
    """Is ``path`` one of ``folders``, or inside one (``strictly``: inside only)?"""
    return any((path == folder and not strictly) or path.startswith(folder.rstrip(os.sep)
                                                                    + os.sep)
               for folder in folders)


# --- A user of its own --------------------------------------------------------------

class Learner:
    """A user of its own for one worker's learner code (mode "user"): a user
    id that no account names and no process uses, in the learners' group
    (``learners_group``) and no other, and a folder it owns (its home, where
    its private copy goes) inside one only the checker may list, beside a
    copy of the harness it may read.  ``remove()`` kills every process of that user and
    removes what it left in the shared temporary folders, then its folders.

    Ids are drawn at random from the top of the ids this system maps, so
    two checkers running at once do not draw the same one.
    """

    _taken = set()              # the ids in use now, in this checker
    used = set()                # every id this checker has run a learner's code as
    _lock = threading.Lock()

    def __init__(self):
        import tempfile
        self.uid, self.gid = _free_id(self._taken, self._lock), learners_group()
        Learner.used.add(self.uid)
        self.folder = tempfile.mkdtemp(prefix="lesson-check-", dir=_passable_temp())
        try:
            os.chmod(self.folder, 0o711)           # it may pass, not list
            self.home = os.path.join(self.folder, "home")
            os.mkdir(self.home, 0o700)
            os.chown(self.home, self.uid, self.gid)
            self.harness = os.path.join(self.folder, "harness.py")
            shutil.copyfile(HARNESS, self.harness)
            os.chmod(self.harness, 0o644)
        except OSError:
            self.remove()
            raise

    def popen(self):
        """Popen's keywords that start a process as this user."""
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def remove(self):
        """Kill every process of this user (the ones that left the worker's
        group too), remove its files from the shared temporary folders, and
        its own folders; give its id back."""
        _end_processes([self.uid])
        for place in ("/tmp", "/var/tmp", "/dev/shm"):
            _remove_owned(place, self.uid)
        shutil.rmtree(self.folder, ignore_errors=True)
        with self._lock:
            self._taken.discard(self.uid)


def end_learners():
    """Before a platform's runner writes its results: no process of any user
    this checker ran a learner's code as is left (each is killed, and then
    looked for again).  Returns the pids that would not end (none, unless
    the kernel holds one in an uninterruptible wait)."""
    return _end_processes(sorted(Learner.used))


def _end_processes(uids, tries=50):
    """Kill every live process of ``uids`` until none is left; the pids left."""
    import time
    pids = []
    for _ in range(tries):
        pids = [pid for uid in uids for pid in _processes_of(uid)]
        if not pids:
            return []
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)
    return pids


@functools.lru_cache(maxsize=None)
def learners_group():
    """The group every learner's code runs in, for this checker: an id no
    group of the system names, drawn once (``hide_lesson`` denies it the
    lesson's files, whoever else may read them)."""
    import grp
    ids = set()
    while True:
        gid = _free_id(ids, threading.Lock())
        try:
            grp.getgrgid(gid)
        except KeyError:
            return gid


def _passable_temp():
    """A temporary folder a user who owns nothing may pass through: the
    checker's own (TMPDIR), else /tmp; an OSError where there is none."""
    import tempfile
    for folder in (tempfile.gettempdir(), "/tmp"):
        if os.path.isdir(folder) and _others_may_pass(folder):
            return folder
    raise OSError(f"no temporary folder another user may pass through (TMPDIR is "
                  f"{tempfile.gettempdir()})")


def _free_id(taken, lock):
    """A user id no account names, no process uses and this checker has not
    drawn, from the top of the ids this system maps (below 2**31)."""
    low, high = 100000, 2 ** 31 - 2
    try:
        with open("/proc/self/uid_map") as file:
            ranges = [tuple(map(int, line.split())) for line in file if line.strip()]
        high = min(high, max(inside + count - 1 for inside, _, count in ranges))
        low = min(low, high // 2)
    except (OSError, ValueError):
        pass
    chance = random.SystemRandom()
    for _ in range(100):
        uid = chance.randint(max(low, 1000), max(high - 2, 1001))
        with lock:
            if uid in taken:
                continue
            try:
                pwd.getpwuid(uid)
                continue                            # an account has it
            except KeyError:
                pass
            if _processes_of(uid):
                continue
            taken.add(uid)
            return uid
    raise OSError("no free user id to run a learner's code as")


def _processes_of(uid):
    """The pids of the live processes (not zombies, which can do nothing
    more) whose real, effective or saved user is ``uid``."""
    pids = []
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as file:
                fields = dict(line.split(":", 1) for line in file if ":" in line)
        except OSError:
            continue
        if (str(uid) in fields.get("Uid", "").split()[:3]
                and not fields.get("State", "").strip().startswith(("Z", "X"))):
            pids.append(int(name))
    return pids


def _remove_owned(folder, uid):
    """Remove what ``uid`` owns at the top of a shared folder (/tmp, say)."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for name in entries:
        path = os.path.join(folder, name)
        try:
            if os.lstat(path).st_uid != uid:
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            continue


def lock_away(paths):
    """Make each path readable by its owner alone (a grading platform's
    container: the lesson's installed code, the autograder's own files),
    so a learner's code running as a user of its own cannot read them.
    Returns the paths still readable by others (a read-only container)."""
    left = []
    for path in paths:
        try:
            mode = os.stat(path).st_mode
            os.chmod(path, mode & 0o700)
        except OSError:
            pass
        if _others_may_enter(path):
            left.append(path)
    return left


def _others_may_enter(path):
    """May a user who owns nothing read (or, for a folder, enter) ``path``:
    may others pass every folder on its way, and read it?"""
    try:
        return bool(os.stat(path).st_mode & 0o004) and _others_may_pass(
            os.path.dirname(os.path.realpath(path)))
    except OSError:
        return False


def _others_may_pass(folder):
    """May a user who owns nothing pass through ``folder`` and every folder above it?"""
    folder = os.path.realpath(folder)
    try:
        while True:
            if not os.stat(folder).st_mode & 0o001:
                return False
            if folder == os.path.dirname(folder):
                return True
            folder = os.path.dirname(folder)
    except OSError:
        return False


# --- The lesson, hidden from the learners' group ----------------------------------
#
# As a user of its own, a learner's code could still read a copy of the lesson
# that every user may read (a venv's site-packages, the checkout the checker
# runs from).  Each copy gets, while the checker runs, one entry in its POSIX
# access control list that denies the learners' group everything: no other
# user loses anything, and an entry left behind by a checker that was killed
# names a group no one is in.

ACL = "system.posix_acl_access"
ACL_VERSION, UNDEFINED = 2, 0xFFFFFFFF
ACL_USER_OBJ, ACL_USER, ACL_GROUP_OBJ, ACL_GROUP, ACL_MASK, ACL_OTHER = 1, 2, 4, 8, 16, 32


@contextlib.contextmanager
def lesson_hidden(mode, platform=False):
    """While it lasts, in mode "user", no copy of the lesson this checker
    knows of is readable by the learners' group (``lesson_copies`` of the
    places Python keeps packages, and the git checkout the lesson runs from);
    on a platform (``platform``), a copy the list cannot hold is made
    readable by its owner alone (``lock_away``).  Yields what it could not
    hide (a file system without access control lists, say)."""
    if mode != "user":
        yield []
        return
    places = list(lesson_copies(site_places()))
    checkout = os.path.join(os.path.dirname(os.path.realpath(LESSON_HOME)), ".git")
    places += [checkout] if os.path.isdir(checkout) else []
    undo, left = {}, []
    for path in places:
        try:
            undo[path] = _deny_group(path, learners_group())
        except OSError:
            left.append(path)
    if platform:
        left = lock_away(left)
    try:
        yield left
    finally:
        for path, before in undo.items():
            try:
                if before is None:
                    os.removexattr(path, ACL, follow_symlinks=False)
                else:
                    os.setxattr(path, ACL, before, follow_symlinks=False)
            except OSError:
                pass


def _deny_group(path, gid):
    """Add "group ``gid``: nothing" to ``path``'s access list (made from its
    mode where it has none), with the mask its group class then needs, so
    no one else's rights change; return the list it had (None for none).

    >>> entries = _acl_entries(0o755, None) + [(ACL_GROUP, 0, 7)]
    >>> [(tag, permissions) for tag, permissions, _ in entries], _mask(entries)
    ([(1, 7), (4, 5), (32, 5), (8, 0)], 5)
    """
    import errno
    import struct
    try:
        before = os.getxattr(path, ACL, follow_symlinks=False)
    except OSError as error:
        if error.errno != errno.ENODATA:                         # none yet: made from the mode
            raise
        before = None
    entries = [e for e in _acl_entries(os.lstat(path).st_mode, before)
               if e[0] not in (ACL_MASK,) and not (e[0] == ACL_GROUP and e[2] == gid)]
    entries += [(ACL_GROUP, 0, gid)]
    entries += [(ACL_MASK, _mask(entries), UNDEFINED)]
    data = struct.pack("<I", ACL_VERSION) + b"".join(
        struct.pack("<HHI", *entry) for entry in sorted(entries))
    os.setxattr(path, ACL, data, follow_symlinks=False)
    return before


def _acl_entries(mode, data):
    """An access list's entries as (tag, permissions, id): ``data`` read, or
    the three of ``mode`` where there is none."""
    import struct
    if data is None:
        return [(ACL_USER_OBJ, mode >> 6 & 7, UNDEFINED), (ACL_GROUP_OBJ, mode >> 3 & 7, UNDEFINED),
                (ACL_OTHER, mode & 7, UNDEFINED)]
    return [struct.unpack_from("<HHI", data, offset) for offset in range(4, len(data), 8)]


def _mask(entries):
    """The mask an access list needs: what its group class may do, at most."""
    out = 0
    for tag, permissions, _ in entries:
        if tag in (ACL_USER, ACL_GROUP_OBJ, ACL_GROUP):
            out |= permissions
    return out
