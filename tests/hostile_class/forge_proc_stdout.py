# Forged grades: a detached process writes a forged closing line and a whole
# forged JSON report to the checker's own stdout through /proc/<parent>/fd/1,
# then kills the checker.  Safety: it only targets an ancestor running
# "lesson check" (outside the sandbox, the checker itself).
import json
import os
import signal
import time

REPORT = json.dumps({"checker": "lesson 4", "files": [
    {"file": "forge_proc_stdout.py", "passed": 20, "failed": 0}]})


def checkers():
    pid = os.getppid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                if b"lesson\0check" in file.read():
                    yield pid           # the nearest one only: the checker
                    return
            with open(f"/proc/{pid}/stat", "rb") as file:
                pid = int(file.read().rsplit(b")", 1)[1].split()[1])
        except OSError:
            return


if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for pid in [os.getppid(), 1] + list(checkers()):
            for text in ("\n20 passed, 0 failed\n", REPORT + "\n"):
                try:
                    with open(f"/proc/{pid}/fd/1", "w") as out:
                        out.write(text)
                except OSError:
                    pass
        for pid in checkers():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(30)
    os._exit(0)
time.sleep(0.2)
