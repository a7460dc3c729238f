"""Where a learner's code runs: given nothing it was not given.

A submission is graded in one of three modes, the strongest this machine
allows (``THREAT_MODEL`` says what each protects, and what it cannot):

bwrap   bubblewrap's sandbox, built up from nothing (``lesson.grader.bubblewrap``):
        only the system's programs and libraries, the Python running the
        checker, the submission's private copy, and empty size-capped /tmp
        and home
user    where bubblewrap cannot run and the checker is root (a grading
        platform's container, or --no-sandbox as root): the learner's code
        runs as a user of its own, who owns nothing (``lesson.grader.users``)
none    neither: the learner's code runs with the rights of whoever runs
        the checker, and every document says so

mode(wanted)             the mode, for --sandbox (True), --no-sandbox (False) or neither
platform_mode()          the mode in a grading platform's container
THREAT_MODEL             what each mode protects, and what it cannot
"""

import sys

from lesson.grader.bubblewrap import bwrap, bwrap_starts
from lesson.grader.users import may_switch_user


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
                    "process, no kernel keyring, no namespace of its own, no copy of the "
                    "lesson to borrow; each of its processes is capped in memory and file "
                    "size, and their number is capped (run by root, the checker runs it "
                    "as a user of its own inside, whose processes the kernel counts); "
                    "nothing it starts outlives its check",
        "cannot": "it can still read what the system and that Python hold (its programs, "
                  "libraries and installed packages), use the processor for its time "
                  "limit and its memory cap in each of its processes (and, run by root "
                  "with a Python closed to other users, start processes without "
                  "number), and hand in a copy of the published solution"},
    "user": {
        "title": "no sandbox: each submission runs as a user of its own",
        "when": "as root, where bubblewrap is not installed or cannot run (a grading "
                "platform's container), or with --no-sandbox",
        "protects": "the learner's code runs as a user who owns nothing and belongs to no "
                    "group: it cannot read or change what only you can (your files, "
                    "root's, the results), nor signal the checker or another submission; "
                    "a seccomp filter denies it the network, every socket of the "
                    "machine, the kernel's keyrings and namespaces of its own; nothing it "
                    "starts outlives its check; the copies of the "
                    "lesson the checker knows (its installed package, the checkout it "
                    "runs from) and, on a grading platform, the autograder's own files "
                    "are unreadable to it",
        "cannot": "it can read whatever every user may read on this machine (a class "
                  "folder others can read, a copy of the lesson the checker does not "
                  "know of), see other processes' command lines, use its memory cap in "
                  "each of its processes, and write where every user may (/tmp, "
                  "/var/tmp, /dev/shm, /run/lock: what it leaves there is removed when "
                  "its check ends)"},
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
