# No resource limits: tries to leave 1 GiB on disk after grading, in its own
# folder, its home and the temporary folder (and, inside the checker's
# sandbox only, in /tmp, /var/tmp, /dev/shm and /dev).
import os
import tempfile

places = [os.getcwd(), os.path.expanduser("~"), tempfile.gettempdir()]
if os.path.exists("/tmp/.lesson-harness.py"):
    places += ["/tmp", "/var/tmp", "/dev/shm", "/dev"]
CHUNK = b"\0" * (16 << 20)
for number, folder in enumerate(places):
    try:
        with open(os.path.join(folder, f"hostile18-disk-{number}"), "wb") as file:
            for _ in range(64):                 # 1 GiB
                file.write(CHUNK)
    except OSError:
        pass
