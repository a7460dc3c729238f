# One student harms the others: as root in the sandbox, writes the machine's
# kernel settings (/proc/sys), or asks for a reboot (/proc/sysrq-trigger).
# Safety: only inside the checker's sandbox, and it writes back the value
# already there (no change); where a write works, one check passes.
import os

if os.path.exists("/tmp/.lesson-harness.py"):
    try:
        with open("/proc/sys/vm/overcommit_memory") as file:
            value = file.read()
        with open("/proc/sys/vm/overcommit_memory", "w") as file:
            file.write(value)

        def entropy(w):                  # passes "one-hot is 0": the write worked
            return 0.0
    except OSError:
        pass
    print("sysrq-trigger writable:", os.access("/proc/sysrq-trigger", os.W_OK))
