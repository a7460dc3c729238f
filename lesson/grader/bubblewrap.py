"""bubblewrap's sandbox, built up from nothing: what it shows, and how it starts.

bwrap(), bwrap_starts()  bubblewrap's path; does it start here?
command(argv, hide)      argv, run in the sandbox
identity()               the sandbox's passwd and group, naming only the learner
shown()                  what it shows of this machine: (source, where seen) pairs
hidden(places, hide)     what it hides again inside what it shows

The sandbox starts from an empty root and adds, read-only, only what a
Python process needs, each found by rule, never by a list of places to
hide: of /usr, its programs and libraries (bin, sbin, lib*, libexec) and
the time zones, not /usr/local, /usr/src or the rest of /usr/share, where
people keep their own things; the /bin, /lib* links (or their real
folders where /usr is not merged); of /etc, the loader's cache and the
time zone, and a passwd
and group naming only the learner; the Python running the checker (its
executable and every link to it, its standard library, its site-packages,
the user's site-packages where it reads them); every shared library that
Python, its standard library's extension modules and NumPy map, wherever
it lies (``places.mapped_libraries``).  Then a fresh /proc and /dev, and
/tmp and the home, empty and size-capped.  Nothing else: no /run, /var,
/srv, /opt, /mnt, /media, no other /etc file, no socket, no other folder
of any home.  Every copy of the lesson in what is shown (its installed
package, its metadata) is hidden again, so a learner's code cannot borrow
the lesson's answers, whatever it imports or reads; and so is the class
folder, and the folder that holds it (the grades beside it), where what
is shown would hold them.  The worker is the
sandbox's first process (``--as-pid-1``): no process of bubblewrap's is
there for the learner's code to read or reach through /proc: the
harness's ``stand_guard`` stays there, undumpable, and forks the worker.
"""

import functools
import os
import shutil
import subprocess
import sys

from lesson.grader.places import (HARNESS, inside, lesson_copies, mapped_libraries,
                                  python_paths)

SANDBOX_HOME = "/home/learner"  # the worker's home and working folder, in the sandbox
SANDBOX_HARNESS = "/tmp/.lesson-harness.py"   # where the sandbox shows the harness
WORK_SIZE = 128 << 20           # bytes of the sandbox's writable folders, each
SHM_SIZE = 16 << 20             # bytes of its /dev/shm (multiprocessing's semaphores)
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM = ("/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32",
          "/usr/libexec", "/usr/share/zoneinfo")     # what is shown of /usr, where it is
ETC_FILES = ("/etc/ld.so.cache", "/etc/localtime")   # what the loader and Python read


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


def command(argv, hide=(), data=(), learner=None):
    """``argv`` run in bubblewrap's sandbox (see the module's docstring).

    bwrap sets the sandbox up in the order of its arguments, each on top of
    the last: namespaces; the system; /etc's few files; /proc, /dev; the
    empty /tmp and home; the Python running the checker; then every copy
    of the lesson, and each folder of ``hide`` (the class folder, the
    submission's own), hidden where what is shown holds them.  The harness
    (argv's path to it) is shown at SANDBOX_HARNESS.  ``data`` is pairs
    (file descriptor, path): each file's bytes, read from the descriptor,
    shown read-only at the path (the passwd and group of ``identity``).
    ``learner`` (uid, gid): run by root, the worker becomes that user of its
    own (``harness.set_limits``) before any learner code runs, so the
    kernel caps its processes and no file of root's is its own: the powers
    to change user are kept for that, the sandbox's /tmp and home made
    writable by it.
    """
    out = [bwrap() or "bwrap", "--cap-drop", "ALL",   # as root, bwrap keeps root's powers
           *(["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"] if learner else []),
           "--unshare-pid", "--as-pid-1",           # no process of bwrap's in the sandbox
           "--unshare-ipc", "--unshare-uts", "--unshare-net",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    for path in system_folders():
        out += ["--ro-bind", path, path]
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
            "--perms", "1777", "--size", str(WORK_SIZE), "--tmpfs", "/tmp",
            *(["--perms", "0777"] if learner else []),
            "--size", str(WORK_SIZE), "--tmpfs", SANDBOX_HOME]
    places = shown()
    for source, seen in places:
        out += ["--ro-bind", source, seen]
    for path in hidden(places, hide):
        out += (["--ro-bind", os.devnull, path] if os.path.isfile(path) else
                ["--tmpfs", path, "--remount-ro", path])
    out += ["--chdir", SANDBOX_HOME, "--ro-bind", HARNESS, SANDBOX_HARNESS]
    if learner:                     # run by root, bwrap makes the folders on the way 0700
        out = _open_ways(out)
    return out + ["--"] + [arg if arg != HARNESS else SANDBOX_HARNESS for arg in argv]


# How many arguments each of bwrap's options takes, for those that make a place.
_PLACES = {"--ro-bind": 2, "--ro-bind-try": 2, "--ro-bind-data": 2, "--symlink": 2,
           "--proc": 1, "--dev": 1, "--tmpfs": 1}


def _open_ways(options):
    """The options, each place they make preceded by every folder on the way
    to it, made 0755 if it is not there yet: a user of its own may pass
    where root made the way (an earlier mount, such as /tmp's, may have
    covered a folder made before it, so each place gets its own).

    >>> _open_ways(["--unshare-pid", "--ro-bind", "/r/py", "/r/py", "--tmpfs", "/h/x"])
    ['--unshare-pid', '--perms', '0755', '--dir', '/r', '--ro-bind', '/r/py', '/r/py', \
'--perms', '0755', '--dir', '/h', '--tmpfs', '/h/x']
    """
    out, index = [], 0
    while index < len(options):
        option = options[index]
        taken = 1 + _PLACES.get(option, 0)
        if option in _PLACES:
            ways, path = [], os.path.dirname(options[index + taken - 1])
            while path not in ("/", ""):
                ways.insert(0, path)
                path = os.path.dirname(path)
            modifiers = []                  # --perms, --size: they go with the place
            while len(out) >= 2 and out[-2] in ("--perms", "--size"):
                modifiers = out[-2:] + modifiers
                del out[-2:]
            out += [arg for way in ways for arg in ("--perms", "0755", "--dir", way)]
            out += modifiers
        out += options[index:index + taken]
        index += taken
    return out


def system_folders():
    """The folders of SYSTEM this machine has (a link among them shown as one)."""
    return [path for path in SYSTEM if os.path.isdir(path)]


def identity(learner=None):
    """The sandbox's /etc/passwd and /etc/group, naming only the learner (the
    ids of ``learner``, or the checker's own, which the sandbox keeps), as
    bytes: ``getpass.getuser()`` and ``~`` work, and no account of this
    machine is named."""
    uid, gid = learner or (os.getuid(), os.getgid())
    return (f"learner:x:{uid}:{gid}:learner:{SANDBOX_HOME}:/bin/sh\n".encode(),
            f"learner:x:{gid}:\n".encode())


@functools.lru_cache(maxsize=None)
def shown():
    """What the sandbox shows beyond the system and /etc's few files, read-only, as
    sorted (source, where seen) pairs: the Python running the checker
    (``python_paths``) and the shared libraries it maps that lie elsewhere.
    A place inside another one shown is left out (that one shows it)."""
    pairs = set(python_paths())
    pairs |= {(path, path) for path in mapped_libraries()}
    system = system_folders() + [p for p in SYSTEM_LINKS if os.path.islink(p)]
    pairs = {(s, w) for s, w in pairs if not (inside(w, system) and inside(s, system))}
    seen = sorted({w for _, w in pairs})
    return sorted({(s, w) for s, w in pairs if not inside(w, seen, strictly=True)},
                  key=lambda pair: pair[1])


def hidden(places, hide=()):
    """What the sandbox hides again inside what it shows: every copy of the
    lesson there (``lesson_copies``), and each folder of ``hide`` (the
    class folder, the submission's own) that lies inside a place shown,
    with the folder that holds it unless that holds a place shown, at
    every path where the sandbox shows it."""
    roots = system_folders() + [seen for _, seen in places]
    folders = [os.path.realpath(seen) for seen in roots]
    inner = [os.path.realpath(p) for p in hide if p and os.path.isdir(p)]
    inner = [p for p in inner if inside(p, folders)]
    inner += [os.path.dirname(p) for p in inner
              if inside(os.path.dirname(p), folders, strictly=True)
              and not any(inside(f, [os.path.dirname(p)]) for f in folders)]
    copies = lesson_copies(tuple(system_folders() + [s for s, _ in places]))
    return _aliases(list(copies) + inner, places)


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
            if inside(real, [source]):
                out.add(os.path.normpath(os.path.join(seen, os.path.relpath(real, source))))
    return sorted(out)
