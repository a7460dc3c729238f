"""Figures a build computes from the code, kept for the next build of the same code.

The site shows numbers computed as each page is built: the scaling
experiment, the accuracy benchmark, the checker's reports on the samples.
They take seconds of CPU and depend on nothing but the code of ``lesson/``
and of this package (its samples and speed.json included).  With
``LESSON_DOCS_CACHE=DIR`` set, a build keeps each result in DIR under a
fingerprint of that code, and a later build of the same code reads it
there instead of computing it again; two builds at once compute each
result once, the second waiting for the first.  The tests set it: they
build the site three times a run (MkDocs, Zensical, and without npm ci's
files).  Unset, as for ``mkdocs build`` and ``mkdocs serve``, every build
computes everything.
"""

import hashlib
import os
import pathlib
import pickle
import sys

try:
    import fcntl
except ImportError:                  # Windows: builds side by side each compute
    fcntl = None

import lesson

VARIABLE = "LESSON_DOCS_CACHE"
CODE = (pathlib.Path(lesson.__file__).resolve().parent, pathlib.Path(__file__).resolve().parent)


def fingerprint():
    """A digest of every file of lesson/ and of this package, but bytecode."""
    digest = hashlib.sha256()
    for folder in CODE:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(folder).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def kept(name, compute):
    """``compute()``, or what it returned in an earlier build of the same code
    by the same Python."""
    folder = os.environ.get(VARIABLE)
    if not folder:
        return compute()
    os.makedirs(folder, exist_ok=True)
    key = hashlib.sha256(f"{name}\0{sys.executable}\0{sys.version}\0{fingerprint()}".encode())
    key = key.hexdigest()[:40]
    path = os.path.join(folder, f"{key}.pickle")
    with open(f"{path}.lock", "w") as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path):
            with open(path, "rb") as file:
                return pickle.load(file)
        value = compute()
        with open(f"{path}.part", "wb") as file:
            pickle.dump(value, file)
        os.replace(f"{path}.part", path)
        return value
