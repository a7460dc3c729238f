"""The lesson as a wheel: the one builder, for the site's download and the platforms' bundles.

build(folder)      write the wheel into folder; its path
archive()          the wheel's bytes (for a zip that carries it)
files()            {name in the wheel: bytes}, RECORD last

The wheel is made from what is installed, with the standard library alone:
every file of the ``lesson`` package as it lies on disk, and the installed
distribution's own metadata (``METADATA``, ``entry_points.txt`` with the
``softmax-lesson`` script, the licence), read with ``importlib.metadata``.
So it is the same wheel whether it is made in this repository (an editable
install) or on a teacher's machine that installed the lesson from the
site's download, which holds no ``pyproject.toml`` and may have no
setuptools.  It needs no network and no build tools, and it is the same
byte for byte each time (every file dated 1980-01-01), so a cache can keep it.

    >>> import zipfile
    >>> names = sorted(files())
    >>> "lesson/grader/wheel.py" in names, "lesson/weights.py" in names
    (True, True)
    >>> [name.split("/")[-1] for name in names if ".dist-info/" in name
    ...  and "/licenses/" not in name]
    ['METADATA', 'RECORD', 'WHEEL', 'entry_points.txt', 'top_level.txt']
    >>> print(files()[info_folder() + "/entry_points.txt"].decode().strip())
    [console_scripts]
    softmax-lesson = lesson.cli:main
"""

import base64
import hashlib
import io
import os
import re
import zipfile

DISTRIBUTION = "softmax-weights-lesson"
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # lesson/
TAG = "py3-none-any"
EPOCH = (1980, 1, 1, 0, 0, 0)           # a zip's earliest date: the same bytes every build


def installed():
    """The installed distribution (``importlib.metadata``), or a ValueError
    saying how to install it."""
    from importlib import metadata
    found = list(metadata.distributions(name=DISTRIBUTION))
    for dist in sorted(found, key=lambda dist: dist.read_text("METADATA") is None):
        if _core_metadata(dist) is not None:    # a .dist-info first, else a source
            return dist                         # tree's .egg-info (its PKG-INFO)
    raise ValueError("the lesson is not installed, so its wheel has no metadata: "
                     "install it first (pip install -e . in its repository, or "
                     "pip install the wheel its site offers)")


def info_folder():
    """The wheel's ``.dist-info`` folder, named after the installed version."""
    return f"{DISTRIBUTION.replace('-', '_')}-{installed().version}.dist-info"


def name():
    """The wheel's file name (PEP 427)."""
    return f"{DISTRIBUTION.replace('-', '_')}-{installed().version}-{TAG}.whl"


def files():
    """{name in the wheel: bytes}: the package, its metadata, and RECORD last."""
    out = dict(_package_files())
    info = info_folder()
    out.update((f"{info}/{key}", data) for key, data in _metadata_files())
    out[f"{info}/RECORD"] = "".join(
        f"{key},sha256={_digest(data)},{len(data)}\n" for key, data in out.items()
    ).encode() + f"{info}/RECORD,,\n".encode()
    return out


def archive():
    """The wheel's bytes: ``files()`` zipped, each file dated 1980-01-01."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for key, data in files().items():
            info = zipfile.ZipInfo(key, date_time=EPOCH)
            info.external_attr = 0o100644 << 16            # a regular file, rw-r--r--
            out.writestr(info, data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def build(folder):
    """Write the wheel into ``folder`` (made if missing); return its path.

    The file lands whole (written beside, then renamed), so two processes
    that build the same wheel at once both leave a good one.
    """
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name())
    part = f"{path}.{os.getpid()}.part"
    with open(part, "wb") as file:
        file.write(archive())
    os.replace(part, path)
    return path


# --- Private utilities ----------------------------------------------------------

def _package_files():
    """(name in the wheel, bytes) for every file of lesson/, sorted; no caches."""
    root = os.path.dirname(PACKAGE)
    for here, folders, names in os.walk(PACKAGE):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        for file_name in sorted(n for n in names if not n.endswith((".pyc", ".pyo"))):
            path = os.path.join(here, file_name)
            with open(path, "rb") as file:
                yield os.path.relpath(path, root).replace(os.sep, "/"), file.read()


def _metadata_files():
    """(name in .dist-info, bytes): the installed METADATA, entry points and
    licences as they are; WHEEL and top_level.txt for a pure-Python wheel."""
    dist = installed()
    core = _core_metadata(dist)
    yield "METADATA", core.encode()
    yield "WHEEL", (f"Wheel-Version: 1.0\nGenerator: lesson.grader.wheel\n"
                    f"Root-Is-Purelib: true\nTag: {TAG}\n").encode()
    yield "top_level.txt", b"lesson\n"
    entry_points = dist.read_text("entry_points.txt")
    if entry_points:
        yield "entry_points.txt", entry_points.encode()
    for licence in re.findall(r"^License-File: *(.+?) *$", core.split("\n\n")[0], re.M):
        data = dist.read_text(f"licenses/{licence}")        # where a .dist-info keeps it
        if data is None and os.path.isfile(dist.locate_file(licence)):
            with open(dist.locate_file(licence), encoding="utf-8") as file:
                data = file.read()                          # a source tree's own
        if data is not None:
            yield f"licenses/{licence}", data.encode()


def _core_metadata(dist):
    """The distribution's core metadata (METADATA, or an .egg-info's PKG-INFO), or None."""
    return dist.read_text("METADATA") or dist.read_text("PKG-INFO")


def _digest(data):
    """RECORD's hash: urlsafe base64 of the SHA-256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
