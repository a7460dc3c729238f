"""The checker as learners install it: the site's wheel, in fresh venvs, in
the folders learners and teachers really use.

The wheel is the one the site offers (``lesson_wheel.wheel()``, built once
and cached); each layout gets one Python with the wheel installed as a
learner installs it (a venv and pip, or ``pip install --user``), made
once per run and shared by its tests.  Each layout then grades the site's
solution (20 passed, 0 failed) and a wrong file, with the sandbox and
without, as root and as ``nobody``.  The layouts live in one folder under
/tmp that ``nobody`` may read; pyenv's Pythons live in /root, which
``nobody`` may not enter, so for ``nobody`` /root holds pyenv and nothing
else (a mount namespace of its own).

Also here: a bwrap that cannot start, and a memory limit too small for
Python, are the checker's failure (its own line, exit code 3, each
platform's error document), and the checker leaves no process behind.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

from helpers import ROOT, SAMPLES
from lesson_docs import lesson_wheel

CORRECT = ROOT / "docs" / "assets" / "solution" / "softmax_exercise.py"   # the site's solution
WRONG = SAMPLES / "forgot_max.py"
SYSTEM_PYTHON = "/usr/bin/python3"        # a learner's python3, which nobody may run too
PYENV_VERSIONS = ["3.9", "3.10", "3.11", "3.12", "3.13"]
CHECKER_FAILED = 3


def nobody_may_run():
    """Can this run switch to the user nobody (root, with runuser)?"""
    return os.geteuid() == 0 and shutil.which("runuser") is not None


USERS = ["root", "nobody"] if nobody_may_run() else ["root"]
SANDBOXES = ["--sandbox", "--no-sandbox"]


def has_bwrap():
    from lesson.grader import bubblewrap
    return bubblewrap.bwrap_starts()


# --- The folders, each made once per run ------------------------------------------

@pytest.fixture(scope="session")
def base():
    """One folder under /tmp that nobody may read, for every layout; removed after."""
    if sys.platform != "linux":
        pytest.skip("the layouts are Linux folders")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="lesson-layouts-", dir="/tmp"))
    folder.chmod(0o755)
    (folder / "home").mkdir(mode=0o777)
    (folder / "home").chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def wheel():
    return lesson_wheel.wheel()


def make_venv(python, folder, wheel, *options):
    """A venv as a learner makes one, with the wheel pip-installed into it
    (this run's pip, lent with --python: nothing is fetched)."""
    subprocess.run([python, "-m", "venv", "--without-pip", *options, str(folder)],
                   check=True, timeout=120)
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(folder / "bin" / "python"),
                          "install", "--quiet", "--no-index", "--no-deps",
                          "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    return folder


BORROW = ROOT / "tests" / "confinement" / "borrow_site_packages.py"   # the lesson by its path


def two_files(folder, correct="softmax_exercise.py", wrong="wrong.py"):
    """The site's solution and a wrong file, put in folder, and a file whose
    functions only call the lesson it finds installed, read by its path
    (tests/confinement/): in the sandbox, wherever its Python lives, it
    finds nothing to call."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(CORRECT, folder / correct)
    shutil.copy(WRONG, folder / wrong)
    shutil.copy(BORROW, folder / "borrow.py")
    return [correct, wrong, "borrow.py"]


class Layout:
    """Where the checker is and where the files are: run ``command`` + check's
    arguments + ``files`` in ``cwd``, with ``env`` added.  ``view`` is
    (folder, spare): a folder under /root, which nobody may not enter, and a
    spare folder to keep it in while /root becomes one that holds only it."""

    def __init__(self, command, cwd, files, env=None, view=None):
        self.command, self.cwd, self.files = [str(c) for c in command], cwd, files
        self.env, self.view = env or {}, view


def system_python():
    if not os.path.exists(SYSTEM_PYTHON):
        pytest.skip(f"no {SYSTEM_PYTHON} to make a learner's venv with")
    return SYSTEM_PYTHON


def inside(base, wheel):
    """mkdir exercise && cd exercise && python3 -m venv .venv: the site's steps."""
    folder = base / "inside" / "exercise"
    files = two_files(folder)
    make_venv(system_python(), folder / ".venv", wheel)
    return Layout([".venv/bin/softmax-lesson"], folder, files)


def tmp_venv(base, wheel):
    """The venv under /tmp that two layouts reach, one by a link: made once."""
    venv = base / "tmp-venv"
    return venv if (venv / "bin" / "softmax-lesson").exists() else \
        make_venv(system_python(), venv, wheel)


def under_tmp(base, wheel):
    """A venv under /tmp, and the files in /tmp."""
    venv = tmp_venv(base, wheel)
    files = [str(base / "tmp-files" / f) for f in two_files(base / "tmp-files")]
    return Layout([venv / "bin" / "softmax-lesson"], base, files)


def class_folder(base, wheel):
    """A teacher's class folder that also holds the teacher's venv."""
    folder = base / "class"
    two_files(folder, "ann.py", "bob.py")
    make_venv(system_python(), folder / ".venv", wheel)
    return Layout([folder / ".venv" / "bin" / "softmax-lesson"], base, ["class"])


def through_a_link(base, wheel):
    """A venv reached through a symlink (the /tmp one): its python run by the
    link's path."""
    (base / "linked").symlink_to(tmp_venv(base, wheel))
    files = two_files(base / "linked-work")
    return Layout([base / "linked" / "bin" / "python", "-m", "lesson"], base / "linked-work",
                  files)


def system_site(base, wheel):
    """python3 -m venv --system-site-packages."""
    venv = make_venv(system_python(), base / "system-site" / "venv", wheel,
                     "--system-site-packages")
    files = two_files(base / "system-site" / "work")
    return Layout([venv / "bin" / "softmax-lesson"], base / "system-site" / "work", files)


def spaces(base, wheel):
    """Spaces in every folder and file name."""
    folder = base / "my lessons" / "exercise 1"
    files = two_files(folder, "softmax exercise.py", "wrong one.py")
    make_venv(system_python(), folder / "my venv", wheel)
    return Layout([folder / "my venv" / "bin" / "softmax-lesson"], folder, files)


def pyenv_python(version):
    """pyenv's Python 3.X (the newest installed), or a skip."""
    root = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip() \
        if shutil.which("pyenv") else ""
    found = sorted(pathlib.Path(root or "/nonexistent", "versions").glob(f"{version}.*"),
                   key=lambda p: [int(n) for n in p.name.split(".") if n.isdigit()])
    if not found:
        pytest.skip(f"no pyenv Python {version} installed")
    return found[-1] / "bin" / f"python{version}"


def pyenv_user(base, wheel, version):
    """pyenv's Python used directly, no venv: pip install --user, as a learner
    with no venv does (into a user base of its own).  nobody may not enter
    /root: for nobody, /root holds pyenv's folder and nothing else (a mount
    namespace of its own), as a pyenv in a home of its own."""
    python = pyenv_python(version)
    userbase = base / f"user-{version}"
    env = {"PYTHONUSERBASE": str(userbase), "HOME": str(base / "home")}
    pip = subprocess.run([str(python), "-m", "pip", "install", "--user", "--quiet", "--no-index",
                          "--no-deps", "--disable-pip-version-check", str(wheel)],
                         capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, **env))
    assert pip.returncode == 0, pip.stderr
    files = two_files(base / f"work-{version}")
    (base / "spare").mkdir(exist_ok=True)
    return Layout([userbase / "bin" / "softmax-lesson"], base / f"work-{version}", files, env,
                  view=(python.parents[3], base / "spare"))


LAYOUTS = {"venv inside the exercise folder": inside, "venv and file under /tmp": under_tmp,
           "class folder holding the teacher's venv": class_folder,
           "venv through a symlink": through_a_link, "--system-site-packages": system_site,
           "paths with spaces": spaces,
           **{f"pyenv {v}, no venv": (lambda v: lambda base, wheel: pyenv_user(base, wheel, v))(v)
              for v in PYENV_VERSIONS}}


@pytest.fixture(scope="session")
def layouts(base, wheel):
    """Each layout, made the first time a test asks for it."""
    made = {}

    def layout(name):
        if name not in made:
            made[name] = LAYOUTS[name](base, wheel)
        return made[name]
    return layout


ONLY_IN_ROOT = ('mount --bind "$1" "$2" && mount -t tmpfs -o mode=755 tmpfs /root && '
                'mkdir -p "$1" && mount --bind "$2" "$1" && shift 2 && exec "$@"')


def run(layout, *args, user="root", env=None):
    """The layout's checker run with args, as user."""
    command = layout.command + list(args)
    if user != "root" and layout.view:
        folder, spare = layout.view
        command = ["unshare", "--mount", "sh", "-c", ONLY_IN_ROOT, "sh", str(folder), str(spare),
                   "runuser", "-u", user, "--"] + command
    elif user != "root":
        command = ["runuser", "-u", user, "--"] + command
    environment = {"PATH": os.environ["PATH"], "LANG": "C.UTF-8",
                   "HOME": str(layout.cwd), **layout.env, **(env or {})}
    return subprocess.run(command, cwd=layout.cwd, capture_output=True, text=True, timeout=120,
                          env=environment)


# --- Every layout: the solution passes, the wrong file fails -------------------------

def expected_mode(layout, user, sandbox):
    """The mode a layout's checker grades in: bwrap with --sandbox; without,
    as root, a user of its own, unless that user may not run the layout's
    Python (pyenv's, in /root), which leaves none; as nobody, none."""
    if sandbox == "--sandbox":
        return "bwrap"
    return "user" if user == "root" and not layout.view else "none"


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("user", USERS)
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_the_solution_passes_and_a_wrong_file_fails(layouts, name, user, sandbox):
    if sandbox == "--sandbox" and not has_bwrap():
        pytest.skip("bubblewrap (bwrap) is not installed or cannot run here")
    layout = layouts(name)
    done = run(layout, "check", "--json", sandbox, *layout.files, user=user)
    assert done.returncode == 1, done.stderr             # some check failed: the wrong file's
    files = json.loads(done.stdout)["files"]
    assert json.loads(done.stdout)["sandbox"] == expected_mode(layout, user, sandbox)
    counts = [(f["passed"], f["failed"], f["problem"]) for f in files]
    assert counts[0] == (20, 0, None), (counts, done.stderr)
    assert counts[1][2] is None and counts[1][1] > 0 and counts[1][0] > 0, counts
    if sandbox == "--sandbox":                 # no copy of the lesson there to borrow
        assert counts[2][0] == 0, (files[2]["stdout"][-600:], counts)


def test_the_learners_own_command_passes_in_the_sandbox(layouts):
    """The issue's steps, word for word: one file, beside its .venv, the text report."""
    layout = layouts("venv inside the exercise folder")
    done = run(layout, "check", "softmax_exercise.py")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1] == "20 passed, 0 failed", done.stdout
    assert "sandboxed with bubblewrap" in lines[0] or not has_bwrap()


# --- The checker's own failures -------------------------------------------------------

FAKE_BWRAP = "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n"


@pytest.fixture(scope="session")
def broken_bwrap(base):
    """A folder whose bwrap prints bwrap's message and exits 1: PATH puts it first."""
    folder = base / "broken-bwrap"
    folder.mkdir()
    (folder / "bwrap").write_text(FAKE_BWRAP)
    (folder / "bwrap").chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def test_a_bwrap_that_cannot_start_is_the_checkers_error(layouts, broken_bwrap):
    layout = layouts("venv inside the exercise folder")
    done = run(layout, "check", "softmax_exercise.py", env=broken_bwrap)
    assert done.returncode == CHECKER_FAILED
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1 and "bwrap: Creating new namespace failed" in errors[0]
    assert "--no-sandbox" in errors[0] and "not your file" in errors[0]
    assert "passed" not in done.stdout and "Your file" not in done.stdout   # no grade
    bypass = run(layout, "check", "--no-sandbox", "softmax_exercise.py", env=broken_bwrap)
    assert bypass.returncode == 0 and bypass.stdout.splitlines()[-1] == "20 passed, 0 failed"


@pytest.mark.parametrize("form", ["gradescope", "prairielearn", "exercism", "junit", "json"])
def test_each_format_reports_a_bwrap_that_cannot_start_as_the_graders_error(
        layouts, broken_bwrap, form):
    layout = layouts("venv inside the exercise folder")
    done = run(layout, "check", "--format", form, "softmax_exercise.py", env=broken_bwrap)
    assert done.returncode == CHECKER_FAILED and "bwrap: Creating" in done.stderr
    if form == "junit":
        assert done.stdout.count("<error ") == 20 and "<failure" not in done.stdout
        assert "bwrap: Creating new namespace failed" in done.stdout
        return
    if form == "gradescope":          # no document: Gradescope's failed run, not a 0
        assert done.stdout == ""
        return
    document = json.loads(done.stdout)
    if form == "prairielearn":
        assert document["gradable"] is False and "bwrap: Creating" in document["format_errors"][0]
    elif form == "exercism":
        assert document["status"] == "error" and "bwrap: Creating" in document["message"]
    else:
        assert document["files"] == [] and "bwrap: Creating" in document["error"]


def test_a_memory_limit_too_small_for_python_is_the_checkers_error(layouts):
    layout = layouts("venv inside the exercise folder")
    for sandbox in ["--no-sandbox"] + (["--sandbox"] if has_bwrap() else []):
        done = run(layout, "check", sandbox, "--memory-limit", "1", "softmax_exercise.py")
        assert done.returncode == CHECKER_FAILED, done.stdout + done.stderr
        assert "--memory-limit 1 MiB" in done.stderr and "not your file" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("limit", [12, 17, 18, 19, 20, 24, 32, 33, 34, 40, 48])
def test_a_memory_limit_near_what_python_needs_grades_or_says_so(layouts, limit):
    """Around what Python needs to start (Debian's python3: 17 MiB, and the
    harness's HEADROOM), every limit grades the file or says at once, in one
    line, that it is too small: never the sandbox's failure, never a hang
    (Python may spin where it has no memory left to raise an error)."""
    layout = layouts("venv inside the exercise folder")
    for sandbox in ["--no-sandbox"] + (["--sandbox"] if has_bwrap() else []):
        done = run(layout, "check", sandbox, "--memory-limit", str(limit), "softmax_exercise.py")
        if done.returncode == 0:
            assert done.stdout.splitlines()[-1] == "20 passed, 0 failed", done.stdout
        else:
            assert done.returncode == CHECKER_FAILED, done.stdout + done.stderr
            assert f"Python could not start within --memory-limit {limit} MiB" in done.stderr
            assert "did not start within" not in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1


# --- Nothing left behind ----------------------------------------------------------------

SUBREAPER = """\
import ctypes, os, subprocess, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)          # PR_SET_CHILD_SUBREAPER
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
left = 0
while True:                                       # orphans came here: the checker left them
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    left += 1
    if pid == 0:                                  # one still running
        break
print(code, left)
"""


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_the_checker_waits_for_every_process_it_starts(layouts, sandbox):
    """Run by a subreaper, the checker hands it nothing: every process it
    started has ended and been waited for, bubblewrap's own included."""
    if sandbox == "--sandbox" and not has_bwrap():
        pytest.skip("bubblewrap (bwrap) is not installed or cannot run here")
    layout = layouts("venv inside the exercise folder")
    done = subprocess.run([sys.executable, "-c", SUBREAPER, *layout.command, "check", sandbox,
                           *layout.files], cwd=layout.cwd, capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["1", "0"], done.stdout + done.stderr


def test_numpy_installed_with_pip_user_is_seen_in_the_sandbox(layouts):
    """A learner with no venv installs NumPy with --user: the worker runs with
    a home of its own, in a sandbox that hides /tmp, and still imports it."""
    layout = layouts("pyenv 3.12, no venv")
    import numpy
    pip = subprocess.run([str(pyenv_python("3.12")), "-m", "pip", "install", "--user", "--quiet",
                          "--no-deps", "--disable-pip-version-check", "--only-binary=:all:",
                          f"numpy=={numpy.__version__}"],
                         capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, **layout.env))
    if pip.returncode != 0:
        pytest.skip(f"pip could not install NumPy: {pip.stderr[-300:]}")
    shutil.copy(SAMPLES / "correct_numpy.py", layout.cwd / "with_numpy.py")
    for sandbox in ["--no-sandbox"] + (["--sandbox"] if has_bwrap() else []):
        done = run(layout, "check", sandbox, "with_numpy.py")
        assert done.stdout.splitlines()[-1] == "20 passed, 0 failed", done.stdout


SEEKER = """\
import glob, sys
print(sorted(set(glob.glob("/tmp/**/lesson/grader", recursive=True)
                 + [p + "/lesson" for p in sys.path if glob.glob(p + "/lesson/grader")])))
"""


@pytest.mark.parametrize("name", ["venv through a symlink", "venv inside the exercise folder",
                                  "pyenv 3.12, no venv"])
def test_the_lesson_stays_hidden_at_every_path_the_sandbox_shows_python(layouts, name):
    """The learner's Python is seen at its own path and its real one; the
    lesson's package inside it is hidden at both."""
    if not has_bwrap():
        pytest.skip("bubblewrap (bwrap) is not installed or cannot run here")
    layout = layouts(name)
    (layout.cwd / "seeker.py").write_text(SEEKER)
    done = run(layout, "check", "--json", "--sandbox", "seeker.py")
    assert json.loads(done.stdout)["files"][0]["stdout"] == "[]\n", done.stdout
