"""What the grading platforms run: Gradescope's autograder zip, Exercism's
run.sh contract and PrairieLearn's entrypoint.

make_gradescope_zip(path)           NumPy's wheels fetched, then the zip written
write_gradescope_zip(path)          the zip a teacher uploads to Gradescope
run_gradescope(root)                what the zip's run_autograder runs, per submission
run_exercism(slug, input_dir, output_dir)   Exercism's run.sh: results.json, exit 0
run_prairielearn(root)              PrairieLearn's entrypoint: /grade/student in,
                                    /grade/results/results.json out

Each platform gives the grader a folder: Gradescope ``/autograder``,
PrairieLearn ``/grade``; the environment variable LESSON_AUTOGRADER_ROOT
moves it (for tests, or a trial run on a laptop).  Every runner exits 0
once its results.json is written, whatever the grade: the grade is in the
document, and a platform reads a non-zero exit as the grader's own failure.
When the checker itself fails on Gradescope (its sandbox does not start),
run_autograder writes no results.json, says why and exits 1: Gradescope
shows a failed autograder run, not a 0 the student must dispute.
The learner's file in a submission's folder is found as for a class folder
(``lesson.grader.classroom.find_submission``):

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name in ("helper.py", "softmax_exercise.py", "notes.txt"):
    ...     open(os.path.join(folder, name), "w").close()
    >>> path, problem = find_submission(folder, ["softmax_exercise.py"])
    >>> os.path.basename(path), problem
    ('softmax_exercise.py', None)
"""

import json
import os
import zipfile

from lesson.grader import formats, wheel
from lesson.grader.classroom import STARTER_NAMES, find_submission
from lesson.grader.snapshot import snapshot

ROOT_VARIABLE = "LESSON_AUTOGRADER_ROOT"

# The starter allows NumPy, so the zip carries it: the newest NumPy with
# wheels for the python3 of both of Gradescope's current Ubuntu base images.
NUMPY = "numpy==2.2.6"
GRADESCOPE_IMAGES = {"22.04": "3.10", "24.04": "3.12"}   # Ubuntu version: its python3
NUMPY_FOLDER = "numpy"          # in the zip: NumPy's wheels


# --- Gradescope -----------------------------------------------------------------

def write_gradescope_zip(path, time_limit=None, points=None, numpy=()):
    """Write Gradescope's autograder zip: setup.sh and run_autograder at its
    root, the lesson as a wheel beside them, NumPy's wheels (the paths in
    ``numpy``, see ``numpy_wheels``) in numpy/, and a README for the teacher.
    Its folder is made if need be.

    ``time_limit`` and ``points`` (see ``formats.points``) are written into
    run_autograder, and the points into the README.

    >>> import tempfile, zipfile
    >>> path = os.path.join(tempfile.mkdtemp(), "new", "autograder.zip")
    >>> write_gradescope_zip(path, points={"softmax": 2})
    >>> names = zipfile.ZipFile(path).namelist()
    >>> names[:3], names[3].endswith("-py3-none-any.whl")
    (['setup.sh', 'run_autograder', 'README.md'], True)
    >>> "A score out of 29," in zipfile.ZipFile(path).read("README.md").decode()
    True
    """
    wheel_name, wheel_data = wheel.name(), wheel.archive()
    options = f"time_limit={time_limit!r}, points={points or {}!r}"
    numpy_files = []
    for wheel_path in numpy:
        with open(wheel_path, "rb") as file:
            numpy_files.append((f"{NUMPY_FOLDER}/{os.path.basename(wheel_path)}",
                                file.read(), 0o644))
    files = [("setup.sh", SETUP_SH.format(wheel=wheel_name, numpy=NUMPY,
                                          folder=NUMPY_FOLDER), 0o755),
             ("run_autograder", RUN_AUTOGRADER.format(options=options), 0o755),
             ("README.md", _readme(wheel_name, points, [n for n, _, _ in numpy_files]), 0o644),
             (wheel_name, wheel_data, 0o644)] + numpy_files
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=wheel.EPOCH)
            info.external_attr = (0o100000 | mode) << 16      # a regular file, its mode
            info.compress_type = (zipfile.ZIP_STORED if name.endswith(".whl")  # zipped already
                                  else zipfile.ZIP_DEFLATED)
            archive.writestr(info, data)


def make_gradescope_zip(path, time_limit=None, points=None, numpy_folder=None):
    """``autograder gradescope OUT.zip``: NumPy's wheels downloaded (or taken
    from ``numpy_folder``, --numpy-wheels DIR), then the zip written; the
    Pythons its NumPy is for.  A ValueError in one line when it cannot."""
    import glob
    import tempfile
    from lesson.grader.report import printable
    with tempfile.TemporaryDirectory() as scratch:
        if numpy_folder is None:
            try:
                wheels = numpy_wheels(scratch)
            except RuntimeError as error:
                raise ValueError(f"{error}: connect to the network once (pip keeps them), "
                                 f"or give --numpy-wheels DIR") from None
        else:
            wheels = sorted(glob.glob(os.path.join(glob.escape(numpy_folder), "numpy-*.whl")))
            if not wheels:
                raise ValueError(f"--numpy-wheels {printable(numpy_folder)}: no numpy-*.whl there")
        try:
            write_gradescope_zip(path, time_limit, points, wheels)
        except OSError as error:
            raise ValueError(f"cannot write {printable(path)}: {error.strerror}") from None
    return _wheel_pythons(wheels)


def run_gradescope(root=None, time_limit=None, points=None):
    """Grade ROOT/submission (ROOT: /autograder); write ROOT/results/results.json
    and return 0, or, when the checker itself failed, say why and return 1
    with no results.json (Gradescope's failed autograder run).

    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> os.mkdir(os.path.join(root, "submission"))
    >>> run_gradescope(root)
    0
    >>> with open(os.path.join(root, "results", "results.json")) as file:
    ...     print(json.load(file)["output"].splitlines()[0])
    Your submission holds no .py file or Jupyter notebook: submit the file with your four functions, softmax_exercise.py.
    """
    root = root or os.environ.get(ROOT_VARIABLE) or "/autograder"
    result = _grade(os.path.join(root, "submission"), STARTER_NAMES, time_limit,
                    private=[os.path.join(root, "source")])
    document = formats.gradescope(result, points)
    if document is None:                    # the checker failed: no grade, a failed run
        print(f"run_autograder: the grader failed, not the submission, so it wrote no "
              f"results.json and Gradescope shows a failed run: {result['problem']}")
        return 1
    _write(os.path.join(root, "results", "results.json"), document)
    return 0


def numpy_wheels(folder, pythons=tuple(GRADESCOPE_IMAGES.values())):
    """Download NumPy's wheels (``NUMPY``) for Linux x86-64 and each Python
    in ``pythons`` into folder, with pip; return their paths.  pip keeps what
    it fetched in its cache, so a second zip fetches nothing.  A RuntimeError
    in one line when pip cannot (no network, say)."""
    import subprocess
    import sys
    for version in pythons:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", NUMPY,
                               "--no-deps", "--only-binary=:all:", "--implementation", "cp",
                               "--platform", "manylinux2014_x86_64", "--python-version",
                               version, "--dest", folder],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
            raise RuntimeError(f"could not download {NUMPY} for Python {version} ({said})")
    return sorted(os.path.join(folder, name) for name in os.listdir(folder)
                  if name.startswith("numpy-") and name.endswith(".whl"))


def _wheel_pythons(wheels):
    """The Pythons NumPy's wheels are for: 'numpy-2.2.6-cp310-...' -> '3.10'."""
    tags = [os.path.basename(w).split("-")[2] for w in wheels]
    return [f"{t[2]}.{t[3:]}" if t.startswith("cp") else t for t in tags]


def _readme(wheel_name, points, numpy):
    """The zip's README, with its points and the NumPy it carries."""
    from lesson.grader.contract import CHECKS
    total = _shown(sum((points or {}).get(c.function, 1.0) for c in CHECKS))
    worth = ("one point a check" if not points else "points a check: " + ", ".join(
        f"{f} {_shown(points.get(f, 1.0))}" for f in dict.fromkeys(c.function for c in CHECKS)))
    images = " or ".join(f"Ubuntu {u} (Python {v})" for u, v in GRADESCOPE_IMAGES.items())
    carried = ", ".join(f"`{n}`" for n in numpy) or "none: setup.sh downloads it"
    return README.format(wheel=wheel_name, total=total, worth=worth, images=images,
                         numpy=NUMPY, carried=carried)


# --- Exercism -------------------------------------------------------------------

def run_exercism(slug, input_dir, output_dir):
    """Exercism's test runner contract: grade the solution in input_dir, write
    output_dir/results.json (version 3), return 0 whatever the result.

    The solution is the file .meta/config.json names (files.solution), else
    SLUG.py (dashes as underscores), else the starter's name, else the only
    notebook, else the only Python file there.  Each check gets the time
    that fits the whole file into Exercism's 20 s, with room for Python to
    start (``formats.exercism_time_limit``).

    >>> import tempfile
    >>> folder, out = tempfile.mkdtemp(), tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "softmax_weights.py"), "w") as file:
    ...     _ = file.write("def entropy(w):\\n    return 0.0\\n")
    >>> run_exercism("softmax-weights", folder, out)
    0
    >>> with open(os.path.join(out, "results.json")) as file:
    ...     document = json.load(file)
    >>> document["version"], document["status"], document["tests"][0]["status"]
    (3, 'fail', 'fail')
    """
    names = _solution_names(input_dir) + [slug.replace("-", "_") + ".py"] + STARTER_NAMES
    time_limit = formats.exercism_time_limit(_checker().TIME_LIMIT)
    result = _grade(input_dir, names, time_limit)
    _write(os.path.join(output_dir, "results.json"), formats.exercism(result, time_limit))
    return 0


# --- PrairieLearn ---------------------------------------------------------------

def run_prairielearn(root=None, time_limit=None, points=None):
    """PrairieLearn's entrypoint: grade ROOT/student (ROOT: /grade) and write
    ROOT/results/results.json.

    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> os.mkdir(os.path.join(root, "student"))
    >>> run_prairielearn(root)
    0
    >>> with open(os.path.join(root, "results", "results.json")) as file:
    ...     json.load(file)["gradable"]
    False
    """
    root = root or os.environ.get(ROOT_VARIABLE) or "/grade"
    result = _grade(os.path.join(root, "student"), STARTER_NAMES, time_limit)
    _write(os.path.join(root, "results", "results.json"),
           formats.prairielearn(result, points))
    return 0


# --- Private utilities ----------------------------------------------------------

def _checker():
    """The grader's contract (its time limit, its starter), imported when needed."""
    from lesson.grader import contract
    return contract


def _grade(folder, names, time_limit, private=()):
    """The checker's result for the submission in folder (its problem if
    there is none), graded as a platform must: confined as strongly as the
    container allows (``sandbox.platform_mode``); as a user of its own, with
    the lesson's installed code and the autograder's ``private`` folders
    made unreadable to it first; and, before anything is written, every
    process the learner's code started ended, none of its user's left (a
    platform's runner is a program: ``workers.as_program`` makes it adopt
    and reap what they leave, as ``softmax-lesson check`` does)."""
    from lesson.grader import sandbox, users
    time_limit = time_limit or _checker().TIME_LIMIT
    mode = sandbox.platform_mode()
    if mode == "user":
        users.lock_away(private)
    with users.lesson_hidden(mode, platform=True):
        return _graded(folder, names, time_limit, mode)


def _graded(folder, names, time_limit, mode):
    """``_grade``'s work, the lesson hidden: the result, every learner's process ended."""
    from lesson.grader import process, users, workers
    try:
        path, problem = find_submission(folder, names)
        if path is None:
            result = process.run(os.path.join(folder, names[0]), time_limit,
                                 shown_as=names[0], sandbox=mode)
            result["problem"] = problem
            return result
        return process.run(path, time_limit, shown_as=os.path.relpath(path, folder),
                           sandbox=mode, snapshot=snapshot(path, folder=folder,
                                                           shown_as=os.path.relpath(path, folder)))
    finally:
        workers.reap_all()
        users.end_learners()


def _solution_names(folder):
    """The solution files an Exercism exercise's .meta/config.json names."""
    try:
        with open(os.path.join(folder, ".meta", "config.json"), encoding="utf-8") as file:
            solution = json.load(file)["files"]["solution"]
        return [os.path.basename(name) for name in solution if isinstance(name, str)]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _write(path, document):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(document + "\n")


def _shown(points):
    """Points as a teacher writes them: 2, not 2.0."""
    return int(points) if float(points).is_integer() else points


SETUP_SH = """\
#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder: it installs the
# lesson's checker from the wheel beside it, and NumPy from {folder}/ (a
# learner may use it), fetching nothing when this Python's NumPy is there.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
# An image with no python3 or no pip gets them as Gradescope's own samples do.
if ! python3 -m pip --version >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    echo "setup.sh: installing python3 and pip with apt-get"
    {{ apt-get update -qq && apt-get install -y -qq python3 python3-pip; }} >/dev/null || true
    hash -r
fi
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    echo "setup.sh: this autograder needs Python 3.9 or newer, and this image's python3 is" \
         "$(python3 -V 2>&1 || echo missing): choose the base image Ubuntu 22.04 or 24.04" >&2
    exit 1
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
    echo "setup.sh: this autograder needs python3 with pip: choose the base image" \
         "Ubuntu 22.04 or 24.04" >&2
    exit 1
fi
# --no-index: only the wheels in this zip.  PIP_BREAK_SYSTEM_PACKAGES: newer
# images mark their Python as managed by apt; the container is the grader's own.
export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1
python3 -m pip install --quiet --no-index --no-deps --no-cache-dir ./{wheel}
if ! python3 -m pip install --quiet --no-index --no-deps --no-cache-dir \
        --find-links ./{folder} "{numpy}" 2>/dev/null; then
    echo "setup.sh: no NumPy wheel in this zip for $(python3 -V): downloading {numpy}"
    python3 -m pip install --quiet --no-deps --no-cache-dir --only-binary=:all: "{numpy}" || {{
        echo "setup.sh: NumPy could not be installed, so a learner's NumPy solution would" \
             "score 0: choose the base image Ubuntu 22.04 or 24.04" >&2
        exit 1
    }}
fi
python3 -c "import lesson.grader.bundle, numpy" && echo "setup.sh: the lesson's checker is installed"
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env python3
\"\"\"Gradescope runs this for each submission: it grades the .py file or
notebook in /autograder/submission/ against lesson 4's checks and writes
/autograder/results/results.json (LESSON_AUTOGRADER_ROOT moves /autograder).\"\"\"
import sys

from lesson.grader import bundle, workers

sys.exit(workers.as_program(bundle.run_gradescope, {options}))
"""

README = """\
# Lesson 4 (softmax weights): Gradescope autograder

Made by `python -m lesson autograder gradescope`.  It grades a learner's
four functions (`softmax`, `naive_softmax`, `rows_normalised`, `entropy`)
with the same 20 checks as `python -m lesson check`; {worth}; {total}
points in all.

## Upload it

1. In Gradescope, create a **Programming Assignment** (in the course:
   Assignments, Create Assignment, Programming Assignment).  Give it
   {total} points, what the checks are worth.
2. On **Configure Autograder**, choose *Zip file upload*, the base image
   {images}, and upload this zip.  Then **Update Autograder**: Gradescope
   runs `setup.sh`, which installs the checker from `{wheel}` and
   {numpy} from the wheel here for that Python, fetching nothing.  (On
   another image with Python 3.9 or newer, it downloads NumPy; on an
   image with no pip, it gets python3 and pip with apt-get first; on
   Ubuntu 20.04, whose python3 is 3.8, it stops and says why.)
3. **Test Autograder** with a learner's file (the starter with its stubs
   filled in, say) before the students submit.

Students upload one file: `softmax_exercise.py`, or a Jupyter notebook.
If they upload several files, the one named `softmax_exercise.py` (or
`softmax_exercise.ipynb`) is graded; else the only notebook; else, with no
notebook, the only `.py` file (the others may be helpers it imports).
Plain Python and NumPy solutions are both graded.

## What you and the students see

A score out of {total}, and one test per check, named like
`softmax: large scores`, passed or failed, each with its input, the
expected answer, what came back, a hint, and anything the code printed.
A file that does not load (a syntax error, a loop at the top level)
scores 0, and the text at the top of the results says why.  Everything
a student's code printed is shown as plain text, never as HTML.  If the
grader itself fails (its sandbox cannot start), it gives no grade: it
writes no results.json and exits 1, so Gradescope shows the run as a
failed autograder run (the student is told to contact the course staff),
and the run's output, which you see, says why.  All tests are visible to
the students at once.

## What is in the zip

- `setup.sh`: installs the wheels with `pip install --no-index` (and,
  where the image has no pip, python3 and pip with `apt-get` first).
- `run_autograder`: grades `/autograder/submission/` and writes
  `/autograder/results/results.json`, in Gradescope's format.  It exits 0
  once that file is written, whatever the grade (1, with no file, when
  the grader itself failed).
- `{wheel}`: the lesson's own Python package; standard library only.
- NumPy's wheels ({numpy}): {carried}.
"""
