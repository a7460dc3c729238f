"""A class's submissions: found as teachers keep them, read at once, graded side by side.

find(paths)                       the submissions in files and class folders, and
                                  what was skipped, each with why
find_submission(folder, names)    the learner's file in one student's folder
snapshots(entries, paths)         read every submission now, each with the files
                                  it may see, before any of them runs
grade_all(entries, grade, jobs)   grade them in parallel; results in their order

A class folder holds a file per student (``ann.py``), or a folder per student
(``ann/softmax_exercise.py``), graded as that student's submission and named
by its folder.  A link in a class folder is never followed: a link to a
file is that student's line in the table, saying so (it could lead to a
classmate's file, or to one the teacher may read and the student may not),
and a link to a folder, a dangling link, an archive or any other file is
skipped and named.

In a student's folder, one rule chooses the file graded (``find_submission``):
the starter's name (``softmax_exercise.py``, then ``softmax_exercise.ipynb``);
else the only notebook; else, when there is no notebook, the only ``.py``
file.  The other files may be helpers it imports.  A folder where the rule
chooses nothing among several files is still that student's line in the
table, saying why; a folder with no Python file or notebook is skipped.
"""

import concurrent.futures
import os

from lesson.grader.contract import SOURCE_KINDS
from lesson.grader.report import printable
from lesson.grader.snapshot import snapshot

STARTER_NAMES = ["softmax_exercise.py", "softmax_exercise.ipynb"]   # the starter's name


class Entry:
    """One submission to grade: ``path`` (the file graded), ``shown_as`` (its name
    in the results: the path exactly, a newline in it too; ``printable`` shows
    it on a terminal), ``folder`` (the student's own folder, copied whole, or
    None), ``relative`` (its path in the class folder given, or its file
    name), ``within`` (where a link may lead: see
    ``lesson.grader.snapshot.snapshot``; "" for nowhere), ``problem`` (why no
    file of the student's folder could be chosen: then ``path`` is the
    starter's name there, which is not a file, and the result's problem is
    this)."""

    def __init__(self, path, shown_as, folder=None, relative=None, within=None,
                 problem=None):
        self.path, self.shown_as, self.folder = path, shown_as, folder
        self.relative = relative or os.path.basename(path)
        self.within, self.problem = within, problem

    def __repr__(self):
        return f"<Entry {self.shown_as}>"


def find(paths):
    """(entries, skipped) for the command line's PATHs, in the order given,
    each folder's contents sorted.  ``skipped`` lists (name, why).

    A PATH that does not exist, or a folder with nothing to grade, is a
    ValueError: a usage error, said in one line.
    """
    entries, skipped = [], []
    for text in paths:
        if os.path.isdir(text):
            found, passed = _in_folder(text)
            if not found:
                raise ValueError(f"nothing to grade in the folder {printable(text)}: no .py "
                                 f"or .ipynb file, and no folder holding one"
                                 + (f" ({len(passed)} skipped: "
                                    + "; ".join(f"{n}: {w}" for n, w in passed) + ")"
                                    if passed else ""))
            entries += found
            skipped += passed
        elif os.path.lexists(text):
            entries.append(Entry(text, text))
        else:
            raise ValueError(f"no file {printable(text)}")
    return entries, skipped


def _in_folder(folder):
    entries, skipped = [], []
    for name in sorted(os.listdir(folder)):
        if name.startswith((".", "__")):
            continue                                  # .git, __pycache__, __MACOSX
        path = os.path.join(folder, name)
        shown = path
        if os.path.islink(path) and not os.path.exists(path):
            skipped.append((shown, "a link to nothing (it points at a file that is not there)"))
        elif os.path.islink(path) and os.path.isdir(path):
            skipped.append((shown, "a link to a folder: the checker follows no link in a "
                                   "class folder (copy the folder itself in)"))
        elif os.path.isdir(path):
            graded, why = find_submission(path, STARTER_NAMES)
            if graded is None and _sources(path):          # several, none chosen: a line
                entries.append(Entry(os.path.join(path, STARTER_NAMES[0]), shown + os.sep,
                                     folder=path, relative=name, problem=why))
            elif graded is None:
                skipped.append((shown + os.sep, why))
            else:
                inside = os.path.relpath(graded, path)
                entries.append(Entry(graded, os.path.join(path, inside), folder=path,
                                     relative=os.path.join(name, inside)))
        elif name.lower().endswith(SOURCE_KINDS):
            entries.append(Entry(path, shown, relative=name, within=""))   # its own file only
        elif name.lower().endswith((".zip", ".tar", ".gz", ".tgz", ".7z", ".rar")):
            skipped.append((shown, "an archive: unpack it, and grade what it holds"))
        else:
            skipped.append((shown, "not a .py file or a Jupyter notebook"))
    return entries, skipped


def document_names(entries):
    """One document name per submission, for --output-dir and --results: its
    path in the class folder given, folders joined by "-" (a file given
    alone: its name).  So a name never changes with the other files graded;
    only names that would be the same take the whole path as given, then a
    number.

    >>> document_names([Entry("c/ann lee/softmax_exercise.py", "", relative="ann lee/softmax_exercise.py"),
    ...                 Entry("c/bo.py", "", relative="bo.py"), Entry("new\\nline.py", "")])
    ['ann lee-softmax_exercise.py.json', 'bo.py.json', 'new_line.py.json']
    >>> document_names([Entry("a/x.py", "", relative="x.py"), Entry("b/x.py", "", relative="x.py")])
    ['a-x.py.json', 'b-x.py.json']
    """
    names = [_file_name(e.relative) for e in entries]
    names = [_file_name(e.path) if names.count(name) > 1 else name
             for e, name in zip(entries, names)]
    out, seen = [], {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name + (f"-{seen[name]}" if seen[name] > 1 else "") + ".json")
    return out


def _file_name(path):
    """A path as one file's name: its folders joined by "-", and a character no
    file system takes (a newline, a colon) as "_"."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return "".join(c if c.isprintable() and c not in '<>:"|?*' else "_"
                   for c in "-".join(parts)) or "submission"


def find_submission(folder, names=STARTER_NAMES):
    """The learner's file in a submission folder: (path, None) or (None, why not).

    Among the Python files and notebooks at the top of the folder (or, if
    there are none, in the first folder inside it that holds some: a
    submission from a repository): the first of ``names`` there; else the
    only notebook; else, when there is no notebook, the only ``.py`` file.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name in ("analysis.ipynb", "helpers.py"):
    ...     open(os.path.join(folder, name), "w").close()
    >>> os.path.basename(find_submission(folder)[0])
    'analysis.ipynb'
    >>> open(os.path.join(folder, "draft.ipynb"), "w").close()
    >>> print(find_submission(folder, ["softmax_exercise.py"])[1])
    Your submission holds several Python files and notebooks (analysis.ipynb, draft.ipynb, helpers.py) and none is named softmax_exercise.py: name the file with your four functions softmax_exercise.py.
    """
    found = _sources(folder)
    notebooks = [p for p in found if p.lower().endswith(".ipynb")]
    scripts = [p for p in found if p not in notebooks]
    chosen = ([p for name in names for p in found if os.path.basename(p) == name]
              or (notebooks if len(notebooks) == 1 else [])
              or (scripts if len(scripts) == 1 and not notebooks else []))
    if chosen:
        return chosen[0], None
    if not found:
        return None, (f"Your submission holds no .py file or Jupyter notebook: submit "
                      f"the file with your four functions, {names[0]}.")
    shown = ", ".join(os.path.relpath(p, folder) for p in found)
    return None, (f"Your submission holds several Python files and notebooks ({shown}) and "
                  f"none is named {names[0]}: name the file with your four functions "
                  f"{names[0]}.")


def _sources(folder):
    """The Python files and notebooks a submission folder offers, sorted: at its
    top, or in the first folder inside it that holds some."""
    for here, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith((".", "__")))
        found = sorted(os.path.join(here, f) for f in files
                       if f.lower().endswith(SOURCE_KINDS) and not f.startswith("."))
        if found:
            return found
    return []


def snapshots(entries, paths):
    """Every submission read now, before any runs: ``snapshot`` for each
    entry, with the files it may see, and the folders of ``paths`` (the
    class's) hidden from all of them."""
    hide = sorted({os.path.realpath(p if os.path.isdir(p) else os.path.dirname(p) or ".")
                   for p in paths})
    return [snapshot(entry.path, entry.shown_as, folder, hide, inside, entry.within)
            for entry, (folder, inside) in zip(entries, _copied_with(entries))]


def _copied_with(entries):
    """For each entry, (the folder copied with it, and the folders inside it?).

    A student's own folder comes whole.  A file alone in its folder brings
    the files beside it (a helper module it imports); files that share a
    folder (a class's, a file per student) never see each other."""
    folders = [os.path.dirname(os.path.abspath(e.path)) for e in entries]
    out = []
    for entry, folder in zip(entries, folders):
        if entry.folder is not None:
            out.append((entry.folder, True))
        elif folders.count(folder) == 1:
            out.append((os.path.dirname(entry.path) or ".", False))
        else:
            out.append((None, False))
    return out


def grade_all(items, grade, jobs=1, done=None):
    """``grade(item)`` for every item, ``jobs`` at a time; yield the results in
    the items' order.  ``done(index, result)`` is called as each one is
    known, in whatever order they finish (to save it at once)."""
    jobs = max(1, min(jobs, len(items) or 1))

    def one(index, item):
        result = grade(item)
        if done is not None:
            done(index, result)
        return result
    if jobs == 1:
        for index, item in enumerate(items):
            yield one(index, item)
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(one, index, item) for index, item in enumerate(items)]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()
