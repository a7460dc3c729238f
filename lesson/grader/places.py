"""Where the Python running the checker lives, and every copy of the lesson near it.

python_paths()           what that Python needs: (source, where seen) pairs
mapped_libraries()       the shared libraries it, its standard library and NumPy map
site_folders(), user_site()   the site-packages it reads
lesson_copies(places)    every copy of the lesson in those places
site_places()            where this Python and the system's keep packages

The sandbox shows the first two and hides the copies (``bubblewrap``); a
user of its own is denied the copies (``users``).
"""

import functools
import glob
import os
import subprocess
import sys
import sysconfig

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
LESSON_HOME = os.path.dirname(os.path.dirname(HARNESS))    # the lesson's own package
DISTRIBUTION = "softmax_weights_lesson"              # the lesson's name on PyPI, as pip files it


def python_paths(executable=None):
    """What the Python running the checker needs, as (source, where seen)
    pairs: every link on the way from ``sys.executable`` to the real
    interpreter, a venv's pyvenv.cfg, its standard library and its
    site-packages (the user's too, where it reads them).  Not its whole
    prefix: a Python installed in a home would show the home.

    Each is seen at the path Python knows it by and at its real path, so a
    venv reached through a symlink works; its source is always its real path.

    >>> all(source == os.path.realpath(source) for source, seen in python_paths())
    True
    """
    executable = executable or sys.executable
    paths = sysconfig.get_paths()
    wanted = [paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    wanted += site_folders()
    wanted += [os.path.join(p, "pyvenv.cfg") for p in (sys.prefix, os.path.dirname(
        os.path.dirname(executable)))]
    link, steps = executable, 0
    while steps < 40:                              # the chain of links to the binary
        wanted.append(link)
        if not os.path.islink(link):
            break
        link = os.path.join(os.path.dirname(link), os.readlink(link))
        steps += 1
    pairs = set()
    for path in wanted:
        path = os.path.abspath(path)
        real = os.path.realpath(path)
        if os.path.exists(real):
            pairs |= {(real, real), (real, path)}
    return sorted(pairs, key=lambda pair: pair[1])


def site_folders():
    """The site-packages this Python reads: its own, and the user's where it
    reads those (the harness is told to add them, as the worker's home is
    its own)."""
    import site
    folders = list(getattr(site, "getsitepackages", lambda: [])())
    return folders + user_site()


def user_site():
    """The user's site-packages (``pip install --user``), as a list: empty
    where this Python does not read it (a venv) or it does not exist."""
    import site
    folder = site.getusersitepackages() if hasattr(site, "getusersitepackages") else ""
    if site.ENABLE_USER_SITE and folder in sys.path and os.path.isdir(folder):
        return [folder]
    return []


_PROBE = r"""
import ctypes, glob, importlib.util, os, sys
sys.path += sys.argv[1:]
folders = [p for p in sys.path if p.endswith("lib-dynload")]
numpy = importlib.util.find_spec("numpy")
if numpy is not None and numpy.submodule_search_locations:
    folders += list(numpy.submodule_search_locations)
for folder in folders:
    for path in glob.glob(os.path.join(glob.escape(folder), "**", "*.so"), recursive=True):
        try:
            ctypes.CDLL(path, os.RTLD_LAZY | os.RTLD_LOCAL)
        except OSError:
            pass
with open("/proc/self/maps") as maps:
    found = "".join(line.split(None, 5)[5] for line in maps if line.count("/"))
sys.stdout.write(found)
sys.stdout.flush()
os._exit(0)         # before any library's own ending runs: some crash at exit
"""


@functools.lru_cache(maxsize=None)
def mapped_libraries():
    """Every file that the Python running the checker maps once the dynamic
    loader has loaded its standard library's extension modules and NumPy's
    (each .so, with what it needs, as an import would, without running
    them), at its real path: what that Python may load, wherever it lies
    (a Python built with its own OpenSSL, Nix's store, conda's lib/).
    Found by asking the loader, once per checker; empty off Linux."""
    if not os.path.exists("/proc/self/maps"):
        return ()
    with open("/proc/self/maps") as maps:            # this process's own, to begin with
        lines = [line.split(None, 5)[5] for line in maps if line.count("/")]
    try:
        done = subprocess.run([sys.executable, "-E", "-c", _PROBE, *user_site()],
                              capture_output=True, text=True, timeout=60, cwd="/")
        lines += done.stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        pass
    files = {os.path.realpath(line.strip()) for line in lines if line.startswith("/")}
    return tuple(sorted(path for path in files if os.path.isfile(path)))


@functools.lru_cache(maxsize=None)
def lesson_copies(places):
    """Every copy of the lesson in ``places`` (folders and files shown), as
    real paths: the package the checker runs from, and in every
    site-packages there (each Python's, the system's, the user's), a
    ``lesson`` package or module, the lesson's metadata and an editable
    install's finder.  ``places`` is a tuple (the answer is kept for the
    checker's run)."""
    folders = {os.path.realpath(p) for p in places if os.path.isdir(p)}
    sites = set()
    for place in folders:
        for pattern in ("lib*/python3*/*-packages", "local/lib*/python3*/*-packages",
                        "lib/python3/dist-packages", "python3*/*-packages", "*-packages"):
            sites |= {os.path.realpath(p) for p in glob.glob(os.path.join(
                glob.escape(place), pattern))}
    sites |= {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)
              and inside(os.path.realpath(p), list(folders))}
    found = {os.path.realpath(LESSON_HOME)}
    for site in sorted(sites):
        for pattern in ("lesson", "lesson.py", f"{DISTRIBUTION}-*",
                        f"__editable__*{DISTRIBUTION}*"):
            found |= {os.path.realpath(p) for p in glob.glob(os.path.join(
                glob.escape(site), pattern))}
    return tuple(sorted(p for p in found if inside(p, list(folders)) and os.path.lexists(p)))


def site_places():
    """Where the Python running the checker, and the system's, keep packages:
    the places ``lesson_copies`` looks in for a grading platform's lesson."""
    return tuple(sorted({"/usr", sys.prefix, sys.base_prefix, *site_folders()}))


def inside(path, folders, strictly=False):
    """Is ``path`` one of ``folders``, or inside one (``strictly``: inside only)?"""
    return any((path == folder and not strictly) or path.startswith(folder.rstrip(os.sep)
                                                                    + os.sep)
               for folder in folders)
