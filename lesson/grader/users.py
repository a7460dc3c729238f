"""A user of its own, where bubblewrap cannot run and the checker is root.

Learner()                a user of its own for one worker, and what it leaves, removed
may_switch_user()        may the checker run a learner's code so, here?
learners_group()         the group every learner's code runs in, this checker
lesson_hidden(mode)      while it lasts, no copy of the lesson this group may read
end_learners()           no process of any of them left
lock_away(paths)         a platform's own files, readable by their owner alone
"""

import contextlib
import functools
import os
import pwd
import random
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

from lesson.grader.places import HARNESS, LESSON_HOME, inside, lesson_copies, site_places

# Where every user may write on a Linux system: a learner's files left there
# (and in any folder inside them that every user may write to and reach:
# ``shared_folders``) are removed when its worker stops.
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock",
          "/var/crash")


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


@functools.lru_cache(maxsize=None)
def becomes_learner_in_sandbox():
    """Run by root, may a worker in bubblewrap's sandbox become a user of its
    own (``bubblewrap.command``'s ``learner``) and still run the checker's
    Python there?  Not where that Python is closed to other users."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    from lesson.grader import bubblewrap
    learner = Learner(in_sandbox=True)
    user = (learner.uid, learner.gid)
    code = (f"import os; os.setgroups([]); os.setgid({user[1]}); os.setuid({user[0]}); "
            f"import json, decimal, tempfile; tempfile.mkstemp(); open('x', 'w')")
    try:
        done = subprocess.run(bubblewrap.command([sys.executable, "-E", "-c", code],
                                                 learner=user), capture_output=True, timeout=20)
        return done.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        learner.remove()


class Learner:
    """A user of its own for one worker's learner code (mode "user"): a user
    id that no account names and no process uses, in the learners' group
    (``learners_group``) and no other, and a folder it owns (its home, where
    its private copy goes) inside one only the checker may list, beside a
    copy of the harness it may read.  ``remove()`` kills every process of
    that user and removes what it left in the shared temporary folders, then
    its folders.  ``in_sandbox``: the id alone, for a worker in bubblewrap's
    sandbox run by root, whose home and /tmp go with the sandbox.

    Ids are drawn at random from the top of the ids this system maps, so
    two checkers running at once do not draw the same one.
    """

    _taken = set()              # the ids in use now, in this checker
    used = set()                # every id this checker has run a learner's code as
    _lock = threading.Lock()

    def __init__(self, in_sandbox=False):
        import tempfile
        self.uid, self.gid = _free_id(self._taken, self._lock), learners_group()
        Learner.used.add(self.uid)
        self.folder, self.in_sandbox = None, in_sandbox
        if in_sandbox:              # its home and /tmp are the sandbox's, gone with it
            return
        try:
            self.folder = tempfile.mkdtemp(prefix="lesson-check-", dir=_passable_temp())
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
        for place in () if self.in_sandbox else shared_folders():   # none it could reach
            _remove_owned(place, self.uid)
        if self.folder is not None:
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
    group of the system names, drawn once (``lesson_hidden`` denies it the
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


@functools.lru_cache(maxsize=None)
def shared_folders():
    """The folders of SHARED, and every folder inside them that every user
    may write to and reach (a class's /tmp/scratch, say), as found once per
    checker run: where a learner's code could leave a file."""
    found = set()

    def walk(folder, depth):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            try:
                if not entry.is_dir(follow_symlinks=False):
                    continue
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if mode & stat.S_IWOTH:
                found.add(entry.path)
            if mode & stat.S_IXOTH and depth < 6:
                walk(entry.path, depth + 1)
    for place in {os.path.realpath(p) for p in SHARED if os.path.isdir(p)}:
        found.add(place)
        walk(place, 0)
    return tuple(sorted(found))


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
    container: the autograder's own files, a copy of the lesson whose file
    system holds no access list), so a learner's code running as a user of
    its own cannot read them.
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
# runs from, with its history and its built copies).  Each copy gets, while
# the checker runs, one entry in its POSIX access control list that denies
# the learners' group everything: no other
# user loses anything, and an entry left behind by a checker that was killed
# names a group no one is in.


ACL = "system.posix_acl_access"
ACL_VERSION, UNDEFINED = 2, 0xFFFFFFFF
ACL_USER_OBJ, ACL_USER, ACL_GROUP_OBJ, ACL_GROUP, ACL_MASK, ACL_OTHER = 1, 2, 4, 8, 16, 32


@contextlib.contextmanager
def lesson_hidden(mode, platform=False):
    """While it lasts, in mode "user", no copy of the lesson this checker
    knows of is readable by the learners' group (``lesson_copies`` of the
    places Python keeps packages, and the checkout it runs from:
    ``checkout_entries``);
    on a platform (``platform``), a copy the list cannot hold is made
    readable by its owner alone (``lock_away``).  Yields what it could not
    hide (a file system without access control lists, say)."""
    if mode != "user":
        yield []
        return
    places = sorted(set(lesson_copies(site_places())) | set(checkout_entries()))
    hidden, left = [], []
    for path in places:
        try:
            _set_group(path, learners_group(), deny=True)
            hidden.append(path)
        except OSError:
            left.append(path)
    if platform:
        left = lock_away(left)
    try:
        yield left
    finally:
        for path in hidden:           # only this checker's entry: another may be running
            try:
                _set_group(path, learners_group(), deny=False)
            except OSError:
                pass


def checkout_entries():
    """When the lesson runs from a folder of its own (a checkout, an editable
    install), every entry of that folder but what holds the Python running
    the checker: its history, its built copies (build/lib/lesson), its docs
    and tests.  None when it runs from a site-packages."""
    home = os.path.dirname(os.path.realpath(LESSON_HOME))
    if os.path.basename(home).endswith("-packages"):
        return []
    pythons = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    entries = [os.path.join(home, name) for name in sorted(os.listdir(home))]
    return [path for path in entries if not os.path.islink(path)
            and not any(inside(python, [path]) for python in pythons)]


def _set_group(path, gid, deny):
    """Add (``deny``) or take away the entry "group ``gid``: nothing" in
    ``path``'s access list (made from its mode where it has none), with the
    mask its group class then needs, so no one else's rights change.  What
    other entries the list holds (another checker's, running at once) stay.

    >>> entries = _acl_entries(0o755, None) + [(ACL_GROUP, 0, 7)]
    >>> [(tag, permissions) for tag, permissions, _ in entries], _mask(entries)
    ([(1, 7), (4, 5), (32, 5), (8, 0)], 5)
    """
    import errno
    import struct
    try:
        data = os.getxattr(path, ACL, follow_symlinks=False)
    except OSError as error:
        if error.errno != errno.ENODATA:                         # none yet: made from the mode
            raise
        data = None
    entries = [e for e in _acl_entries(os.lstat(path).st_mode, data)
               if e[0] != ACL_MASK and not (e[0] == ACL_GROUP and e[2] == gid)]
    entries += [(ACL_GROUP, 0, gid)] if deny else []
    if not any(tag in (ACL_USER, ACL_GROUP) for tag, _, _ in entries):
        if data is not None:                                     # the mode says it all again
            os.removexattr(path, ACL, follow_symlinks=False)
        return
    entries += [(ACL_MASK, _mask(entries), UNDEFINED)]
    os.setxattr(path, ACL, struct.pack("<I", ACL_VERSION) + b"".join(
        struct.pack("<HHI", *entry) for entry in sorted(entries)), follow_symlinks=False)


def _acl_entries(mode, data):
    """An access list's entries as (tag, permissions, id): ``data`` read, or
    the three of ``mode`` where there is none."""
    import struct
    if data is None:
        return [(ACL_USER_OBJ, mode >> 6 & 7, UNDEFINED),
                (ACL_GROUP_OBJ, mode >> 3 & 7, UNDEFINED), (ACL_OTHER, mode & 7, UNDEFINED)]
    return [struct.unpack_from("<HHI", data, offset) for offset in range(4, len(data), 8)]


def _mask(entries):
    """The mask an access list needs: what its group class may do, at most."""
    out = 0
    for tag, permissions, _ in entries:
        if tag in (ACL_USER, ACL_GROUP_OBJ, ACL_GROUP):
            out |= permissions
    return out
