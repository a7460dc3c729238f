# One student harms the others: with the capabilities a sandbox run as root
# keeps, remounts the read-only system writable and writes to the real disk
# (/hostile18-remount).  Safety: only inside the checker's sandbox.
import ctypes
import os

if os.path.exists("/tmp/.lesson-harness.py"):
    libc = ctypes.CDLL(None, use_errno=True)
    for flags in (32 | 4096, 32):                   # MS_REMOUNT | MS_BIND, MS_REMOUNT
        libc.mount(None, b"/", None, flags, None)
    try:
        with open("/hostile18-remount", "w") as file:
            file.write("the sandbox's root filesystem was writable\n")
    except OSError:
        pass
