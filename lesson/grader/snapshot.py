"""A submission read once, before anything of it runs: its files' bytes, and which one is graded.

snapshot(path, ...)        one submission -> (Submission, None), or (None, load) saying why not
read_file(path, within)    a regular file's bytes, or why it is not read

Every submission of a class is read before the first one runs, and each
worker gets a private copy of it, never the files themselves: a classmate
who rewrites a file while the class is graded changes nothing.

The checker reads with the rights of whoever runs it (a teacher, root),
so it reads nothing a submission could point it at:

- only regular files: a FIFO named ``x.py`` would make a plain ``open()``
  wait for ever, and a device can do worse; each is refused in one line;
- no link out of the submission: a link is read only when the file it
  leads to is inside the folder the submission may use (``within``), so a
  student's ``softmax_exercise.py -> /etc/shadow`` is refused, and no line
  of the file it points at can reach a report.
"""

import os
import stat

from lesson.grader.contract import SOURCE_KINDS
from lesson.grader.harness import Load, load_record
from lesson.grader.places import inside

MOST_FILES = 200                # files of one submission copied for it
MOST_BYTES = 16 << 20           # bytes of one submission copied for it


class Submission:
    """One learner's work, read once: its files' bytes, and which one is graded.

    ``files`` maps a path relative to the submission's folder to its bytes;
    ``main`` is the file graded; ``shown_as`` names it in the report;
    ``hide`` lists folders the worker must not see (the class folder).
    """

    def __init__(self, files, main, shown_as, hide=()):
        self.files, self.main, self.shown_as, self.hide = files, main, shown_as, tuple(hide)


def snapshot(path, shown_as=None, folder=None, hide=(), inside=True, within=None):
    """Read a submission now: the file at ``path``, with the other files of
    ``folder`` (a student's own folder; with ``inside``, the folders in it
    too) beside it.  (Submission, None), or (None, load) saying why it
    cannot be graded.

    ``within`` is where a link may lead: the student's folder, else the
    folder that holds ``path``; "" allows no link at all (a file per
    student in a class folder: a link there leads to a classmate, or out).
    """
    shown_as = path if shown_as is None else shown_as
    kind = os.path.splitext(path)[1].lower()
    if kind not in SOURCE_KINDS:
        return None, load_record(Load.NOT_PYTHON, kind=kind)
    if within is None:
        within = folder if folder is not None else os.path.dirname(os.path.abspath(path))
    data, why = read_file(path, within, MOST_BYTES)
    if data is None:
        return None, why
    main = os.path.basename(path)
    files = {main: data}
    if folder is not None:
        main = os.path.relpath(path, folder)
        files = {main: data}
        _add_folder(files, folder, inside)
    return Submission(files, main, shown_as, hide), None


def _add_folder(files, folder, inside):
    """The other regular files of ``folder`` (and of the folders in it, with
    ``inside``), hidden ones and links left out, up to MOST_FILES and MOST_BYTES."""
    size = sum(len(data) for data in files.values())
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if inside else []
        for name in sorted(names):
            full = os.path.join(root, name)
            relative = os.path.relpath(full, folder)
            if relative in files or len(files) >= MOST_FILES:
                continue
            data, _ = read_file(full, "", MOST_BYTES - size)
            if data is not None:
                files[relative] = data
                size += len(data)


def read_file(path, within, most=MOST_BYTES):
    """(bytes, None) for a regular file of at most ``most`` bytes; else
    (None, load) saying why it is not read.  A link is followed only where
    the file it leads to lies inside ``within`` ("" or None: nowhere).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> os.mkfifo(os.path.join(folder, "pipe.py"))
    >>> read_file(os.path.join(folder, "pipe.py"), folder)[1]["message"]
    'it is a named pipe (FIFO), not a file: the checker reads only regular files'
    >>> os.symlink("/etc/hostname", os.path.join(folder, "out.py"))
    >>> read_file(os.path.join(folder, "out.py"), folder)[1]["message"]
    'it is a link to a file outside the submission: the checker does not follow it'
    """
    try:
        if os.path.islink(path):
            target = os.path.realpath(path)
            if not within or not inside(target, [os.path.realpath(within)]):
                return None, load_record(Load.UNREADABLE, message=(
                    "it is a link to a file outside the submission: the checker does not "
                    "follow it"))
            path = target
        kind = _kind(os.stat(path).st_mode)
        if kind:
            return None, load_record(Load.UNREADABLE, message=(
                f"it is {kind}, not a file: the checker reads only regular files"))
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                             | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None, load_record(Load.MISSING)
    except OSError as error:
        return None, load_record(Load.UNREADABLE, message=error.strerror or str(error))
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):    # changed since: refuse
            return None, load_record(Load.UNREADABLE, message="it is not a regular file")
        data = file.read(most + 1)
    if len(data) > most:
        return None, load_record(Load.UNREADABLE, message=f"it is larger than "
                                                       f"{MOST_BYTES >> 20} MiB")
    return data, None


def _kind(mode):
    """What a file that is not a regular file is, in words; "" for a regular file."""
    if stat.S_ISREG(mode):
        return ""
    return ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else
            "a folder" if stat.S_ISDIR(mode) else "a special file")
