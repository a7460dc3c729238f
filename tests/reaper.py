"""Run a command as a subreaper, then report and kill what it left running.

    python tests/reaper.py REPORT -- COMMAND [ARG ...]

Every process the command starts, and every process those start, is a
descendant of this one; one that loses its parent (a double fork, a
setsid()) comes back to this one as its child (Linux's child subreaper).
So when the command has ended, whatever is still running is a leftover,
whatever it did to hide.  REPORT gets a JSON list of [pid, command line]
of the leftovers, which are then killed.  The exit code is the command's.

The tests' one scanner of processes: ``Run`` runs the checker
through it (tests/helpers.py), for every test that runs ``python -m lesson check``.
"""

import ctypes
import json
import os
import signal
import subprocess
import sys
import time

GRACE = 2.0             # seconds the leftovers may take to end by themselves


def processes(parent=None):
    """Live processes, [pid, command line] each: all of them, or the children
    of ``parent`` (whose zombies are reaped).  The tests' one /proc scanner."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
            if parent is not None and fields[1].decode() != str(parent):
                continue
            if fields[0] == b"Z":
                if parent is not None:
                    os.waitpid(int(name), os.WNOHANG)
                continue
            with open(f"/proc/{name}/cmdline", "rb") as file:
                command = file.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, ChildProcessError):
            continue
        found.append([int(name), command])
    return found


def children():
    """Live children of this process."""
    return processes(parent=os.getpid())


def main(report, command):
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)        # PR_SET_CHILD_SUBREAPER
    process = subprocess.Popen(command)
    signal.signal(signal.SIGINT, lambda *_: process.send_signal(signal.SIGINT))
    code = process.wait()
    deadline = time.monotonic() + GRACE
    left = children()
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = children()
    with open(report, "w") as file:
        json.dump(left, file)
    while left:             # a chain: each killed one hands its children to this one
        for pid, _ in left:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (OSError, ChildProcessError):
                pass
        left = children()
    return code


if __name__ == "__main__":
    split = sys.argv.index("--")
    sys.exit(main(sys.argv[1], sys.argv[split + 1:]))
