# One student harms the others: SIGTERMs, SIGINTs and SIGKILLs the checker
# (its parent, and every process it can see).  Safety: outside the checker's
# sandbox it only targets its nearest ancestor running "lesson check".
import os
import signal

SANDBOXED = os.path.exists("/tmp/.lesson-harness.py")


def targets():
    if SANDBOXED:
        return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    found, pid = [], os.getppid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                if b"lesson\0check" in file.read():
                    return [pid]        # the nearest one only: the checker
            with open(f"/proc/{pid}/stat", "rb") as file:
                pid = int(file.read().rsplit(b")", 1)[1].split()[1])
        except OSError:
            break
    return found


found = targets()                       # once: never the checker's own parent after
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
    for pid in found:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
