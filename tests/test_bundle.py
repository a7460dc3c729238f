"""The autograders run as the platforms run them, and what they write read
against each platform's published rules (platform_rules.py).

Gradescope: the zip unpacked into a fresh root's source/, setup.sh run with a
fresh venv's python3 first on PATH (its pip lent from this one, so nothing is
fetched), a submission put in place, run_autograder run from the root,
results.json read; a grader that fails writes none.  Exercism: a run.sh that
calls the contract, given a slug, an input folder and an output folder, timed
against Exercism's budget.  PrairieLearn: the entrypoint on a root laid out
as /grade is.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import zipfile

import pip
import pytest

from lesson.grader import bundle, formats
from lesson.grader.contract import CHECKS, TIME_LIMIT, time_limits
from platform_rules import (EXERCISM, exercism_problems,   # the published rules
                            gradescope_problems, prairielearn_problems)

from helpers import SAMPLES      # tests/learner_corpus and the site's samples
ROOT = pathlib.Path(__file__).resolve().parent.parent


def lesson(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "lesson", *args], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          **kwargs)


def numpy_wheel(folder):
    """NumPy's wheel for this Python, as the zip carries it for Gradescope's
    (the version installed here: pip finds it in its cache)."""
    import numpy
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                           "--only-binary=:all:", f"numpy=={numpy.__version__}", "--dest",
                           str(folder)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"pip could not fetch NumPy's wheel for this Python: {done.stderr[-300:]}")
    return folder


@pytest.fixture(scope="module")
def gradescope(tmp_path_factory):
    """A Gradescope root with the zip's autograder set up in a fresh venv:
    (root, environment to run run_autograder with)."""
    work = tmp_path_factory.mktemp("gradescope")
    made = lesson("autograder", "gradescope", str(work / "autograder.zip"),
                  "--numpy-wheels", str(numpy_wheel(work / "numpy")))
    assert made.returncode == 0, made.stderr
    root = work / "autograder"
    with zipfile.ZipFile(work / "autograder.zip") as archive:
        archive.extractall(root / "source")
        for info in archive.infolist():                 # extractall drops the modes
            os.chmod(root / "source" / info.filename, info.external_attr >> 16 & 0o777)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")],
                   check=True, timeout=60)
    lent = work / "lent"                                  # this pip alone, for setup.sh
    shutil.copytree(os.path.dirname(pip.__file__), lent / "pip")
    path = f"{work / 'venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root / "source",
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, PATH=path, PYTHONPATH=str(lent),
                                    PIP_INDEX_URL="http://nothing.invalid/"))
    assert setup.returncode == 0, setup.stderr
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return root, dict(environment, PATH=path, LESSON_AUTOGRADER_ROOT=str(root))


def run_autograder(gradescope, *files):
    root, environment = gradescope
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    (root / "submission").mkdir()
    for file in files:
        shutil.copy(SAMPLES / file, root / "submission")
    done = subprocess.run([str(root / "run_autograder")], cwd=root, capture_output=True,
                          text=True, timeout=120, env=environment)
    assert done.returncode == 0, done.stderr
    return (root / "results" / "results.json").read_text()


def test_the_zip_holds_setup_and_run_autograder_at_its_root(gradescope):
    root, _ = gradescope
    names = sorted(p.name for p in (root / "source").iterdir())
    assert names[:4] == ["README.md", "numpy", "run_autograder", "setup.sh"]
    assert names[4].endswith("-py3-none-any.whl") and len(names) == 5
    readme = (root / "source" / "README.md").read_text()
    assert "Configure Autograder" in readme and "What you and the students see" in readme


def test_setup_installed_the_lesson_from_the_wheel_into_the_venv(gradescope):
    root, environment = gradescope
    where = subprocess.run(["python3", "-c", "import lesson.grader.bundle as b; print(b.__file__)"],
                           cwd=root, capture_output=True, text=True, env=environment)
    assert "site-packages" in where.stdout and str(ROOT) not in where.stdout


def test_gradescope_grades_a_wrong_submission(gradescope):
    text = run_autograder(gradescope, "forgot_max.py")
    assert gradescope_problems(text) == []
    document = json.loads(text)
    assert document["score"] == 17 and len(document["tests"]) == 20


def test_gradescope_grades_a_numpy_solution_with_the_numpy_in_the_zip(gradescope):
    """setup.sh installed NumPy from the zip, with no index to fetch from."""
    document = json.loads(run_autograder(gradescope, "correct_numpy.py"))
    assert document["score"] == 20, document["output"]


def test_setup_stops_in_one_line_on_a_python_older_than_3_9(gradescope, tmp_path):
    root, _ = gradescope
    old = sorted(pathlib.Path(os.path.expanduser("~/.pyenv/versions")).glob("3.8.*"))
    if not old:
        pytest.skip("no Python 3.8 (pyenv) to set up with")
    (tmp_path / "python3").symlink_to(old[-1] / "bin" / "python3.8")
    setup = set_up(root, tmp_path, [tmp_path])
    assert setup.returncode == 1 and setup.stdout == ""
    assert setup.stderr.count("\n") == 1 and "needs Python 3.9 or newer" in setup.stderr
    assert "Python 3.8" in setup.stderr and "Ubuntu 22.04 or 24.04" in setup.stderr


APT_GET = """\
#!/bin/sh
# apt-get as an image without pip has it: it logs what it was asked, and
# "installs" python3 with pip (a venv that has it) where PATH finds it first.
echo "$*" >> {log}
case "$1" in install) ln -sf {python} {bin}/python3 ;; esac
"""


def test_setup_gets_pip_with_apt_get_where_the_image_has_none(gradescope, tmp_path):
    """An image whose python3 has no pip: setup.sh asks apt-get for python3
    and python3-pip, as Gradescope's own samples do, then installs the
    checker with the pip it got."""
    root, _ = gradescope
    given = tmp_path / "given"
    subprocess.run([sys.executable, "-m", "venv", str(given)], check=True, timeout=120)
    stubs, log = tmp_path / "stubs", tmp_path / "apt.log"
    stubs.mkdir()
    (stubs / "apt-get").write_text(APT_GET.format(log=log, python=given / "bin" / "python3",
                                                  bin=stubs))
    (stubs / "apt-get").chmod(0o755)
    setup = set_up(root, tmp_path, [stubs, without_pip(tmp_path)], tools=("dirname", "ln"),
                   timeout=180, PIP_INDEX_URL="http://nothing.invalid/")
    assert setup.returncode == 0, setup.stderr
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq python3 python3-pip"]
    assert "installing python3 and pip with apt-get" in setup.stdout
    assert "the lesson's checker is installed" in setup.stdout
    done = subprocess.run([str(given / "bin" / "python3"), "-c", "import lesson.grader"],
                          timeout=60)
    assert done.returncode == 0


def set_up(root, tmp_path, folders, tools=("dirname",), timeout=60, **environment):
    """The zip's setup.sh run with PATH the ``folders``, then a folder of only
    these ``tools`` of this machine's (so no apt-get of the machine's own is
    ever run by a test)."""
    only = tmp_path / "tools"
    only.mkdir()
    for tool in tools:
        (only / tool).symlink_to(shutil.which(tool))
    path = os.pathsep.join(str(folder) for folder in [*folders, only])
    return subprocess.run([shutil.which("bash"), str(root / "source" / "setup.sh")],
                          cwd=root / "source", capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, PATH=path, **environment))


def without_pip(tmp_path):
    """The bin folder of a venv whose python3 has no pip."""
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True,
                   timeout=60)
    return bare / "bin"


def test_setup_without_pip_or_apt_get_stops_in_one_line(gradescope, tmp_path):
    root, _ = gradescope
    setup = set_up(root, tmp_path, [without_pip(tmp_path)])
    assert setup.returncode == 1 and setup.stdout == ""
    assert setup.stderr.count("\n") == 1 and "needs python3 with pip" in setup.stderr


def test_the_readme_gives_the_points_and_their_total(tmp_path):
    zip_path = tmp_path / "made" / "here" / "autograder.zip"      # its folders are made
    bundle.write_gradescope_zip(str(zip_path), points={"softmax": 2, "entropy": 0.5})
    readme = zipfile.ZipFile(zip_path).read("README.md").decode()
    softmax = sum(c.function == "softmax" for c in CHECKS)
    entropy = sum(c.function == "entropy" for c in CHECKS)
    total = 20 + softmax - entropy / 2
    assert f"Give it\n   {total:g} points" in readme and f"A score out of {total:g}" in readme
    assert "softmax 2, naive_softmax 1, rows_normalised 1, entropy 0.5" in readme


def test_gradescope_grades_a_notebook_and_names_the_file_among_helpers(gradescope):
    document = json.loads(run_autograder(gradescope, "notebook.ipynb"))
    assert document["score"] > 0
    document = json.loads(run_autograder(gradescope, "notebook_correct.ipynb", "forgot_max.py"))
    assert document["score"] == 20, document["output"]        # the only notebook; a helper
    document = json.loads(run_autograder(gradescope, "correct_lists.py", "forgot_max.py"))
    assert document["score"] == 0 and "none is named softmax_exercise.py" in document["output"]


def test_a_grader_that_fails_on_gradescope_writes_no_results_and_says_why(
        tmp_path, monkeypatch, capsys):
    """No results.json is Gradescope's failed autograder run: no 0 to dispute."""
    problem = "The checker failed, not your file: the sandbox could not start."
    monkeypatch.setattr(bundle, "_grade", lambda *args, **kwargs: dict(
        formats._example(), load={"status": "unstarted"}, problem=problem))
    (tmp_path / "submission").mkdir()
    assert bundle.run_gradescope(str(tmp_path)) == 1
    assert not (tmp_path / "results" / "results.json").exists()   # GRADESCOPE["failed run"]
    said = capsys.readouterr().out
    assert said.startswith("run_autograder: the grader failed, not the submission") and problem in said


def test_gradescope_scores_an_empty_submission_zero_and_says_why(gradescope):
    document = json.loads(run_autograder(gradescope))
    assert gradescope_problems(json.dumps(document)) == []
    assert document["score"] == 0 and "holds no .py file" in document["output"]


def test_the_exercism_contract_writes_results_and_exits_0(tmp_path):
    run_sh = tmp_path / "run.sh"
    run_sh.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m lesson autograder exercism "$@"\n')
    run_sh.chmod(0o755)
    solution, output = tmp_path / "solution", tmp_path / "output"
    (solution / ".meta").mkdir(parents=True)
    output.mkdir()
    (solution / ".meta" / "config.json").write_text(
        json.dumps({"files": {"solution": ["softmax.py"], "test": ["softmax_test.py"]}}))
    shutil.copy(SAMPLES / "forgot_max.py", solution / "softmax.py")
    (solution / "softmax_test.py").write_text("import softmax\n")
    done = subprocess.run([str(run_sh), "softmax-weights", f"{solution}/", f"{output}/"],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    text = (output / "results.json").read_text()
    assert exercism_problems(text, ran=True, solution=solution) == []
    document = json.loads(text)
    assert document["status"] == "fail"
    assert [t["status"] for t in document["tests"]].count("fail") == 3


def test_the_exercism_runner_reports_a_file_that_does_not_load_as_an_error(tmp_path):
    """No test ran: the status is error, the message says why, and names the
    file as it is in the solution's folder, not by its full path."""
    solution, output = tmp_path / "solution", tmp_path / "output"
    solution.mkdir()
    output.mkdir()
    shutil.copy(SAMPLES / "syntax_error.py", solution / "softmax_weights.py")
    assert bundle.run_exercism("softmax-weights", f"{solution}/", f"{output}/") == 0
    text = (output / "results.json").read_text()
    assert exercism_problems(text, ran=False, solution=solution) == []
    document = json.loads(text)
    assert document["status"] == "error" and "syntax error" in document["message"]
    assert document["tests"] == []


SLOW_LOAD = """\
import math
import time

time.sleep({seconds})         # every load of this file takes that long


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            return [list(r) for r in zip(*[softmax(list(c)) for c in zip(*x)])]
        return [softmax(r) for r in x]
    m = max(x)
    if m == -math.inf:
        raise ValueError("softmax: all -inf")
    e = [math.exp(v - m) for v in x]
    return [v / math.fsum(e) for v in e]


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(w, tol=1e-9):
    while True:
        pass


entropy = rows_normalised
"""


def exercism_run(tmp_path, source):
    """Exercism's runner on a solution of this source, with the real budget:
    (results.json's text, the solution's folder, seconds the whole run took,
    Python's start included)."""
    solution, output = tmp_path / "solution", tmp_path / "output"
    solution.mkdir()
    output.mkdir()
    (solution / "softmax_weights.py").write_text(source)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "lesson", "autograder", "exercism",
                           "softmax-weights", f"{solution}/", f"{output}/"],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.encode() + done.stderr.encode()) < EXERCISM["most printed"]
    return (output / "results.json").read_text(), solution, took


def test_a_file_that_uses_up_its_time_fits_exercisms_budget_and_fails(tmp_path):
    """The runner with the real budget, on the worst file: it loads slowly
    and, after 12 checks that pass, two functions hang, so it reloads slowly
    and uses up all the time a file may take.  The whole run, Python's start
    and results.json included, stays inside Exercism's window; the status is
    fail (12 tests ran and passed), with each check not run saying why."""
    limit = formats.exercism_time_limit(TIME_LIMIT)
    _, load, whole = time_limits(limit)
    seconds = (whole - 2 * limit) / 2                      # two loads and two hangs: all of it
    assert seconds < load
    text, solution, took = exercism_run(tmp_path, SLOW_LOAD.format(seconds=seconds))
    assert whole - 1 < took < EXERCISM["budget"], took            # it used its time, and fits
    assert exercism_problems(text, ran=True, solution=solution) == []
    document = json.loads(text)
    statuses = [t["status"] for t in document["tests"]]
    assert (document["status"], document["message"]) == ("fail", None)
    assert statuses.count("pass") == 12 and set(statuses[12:]) == {"error"}
    assert all(t["message"] for t in document["tests"][12:])


SLOW_AND_WRONG = """\
import time

time.sleep({load})            # a load that takes most of what a load may


def _slowly(*args, **kwargs):
    time.sleep({call})        # each call most of what a check may, then a wrong answer
    return [0.0]


softmax = naive_softmax = rows_normalised = entropy = _slowly
"""


def test_a_slow_wrong_file_and_its_traces_fit_exercisms_window(tmp_path):
    """Found by a spec review: a file that loads in nearly all its load
    time and answers wrong in nearly all a check's time.  The time runs out
    mid-checks, the worker is stopped, and each function has a wrong answer
    to trace; the traces (a reload and four traced calls) once came on top
    of the file's time: 26 s, past Exercism's 20 s, so no results.json.
    Now they get only what is left of it, and the run fits."""
    limit = formats.exercism_time_limit(TIME_LIMIT)
    _, load, whole = time_limits(limit)
    slow = SLOW_AND_WRONG.format(load=load - 1.0, call=limit - 0.3)   # room for a busy machine
    text, solution, took = exercism_run(tmp_path, slow)
    assert took < whole + formats.EXERCISM_MARGIN <= EXERCISM["budget"], took
    assert exercism_problems(text, ran=True, solution=solution) == []
    assert json.loads(text)["status"] == "fail"


def test_the_prairielearn_entrypoint_reads_student_and_writes_results(tmp_path):
    (tmp_path / "student").mkdir()
    shutil.copy(SAMPLES / "forgot_max.py", tmp_path / "student" / "softmax_exercise.py")
    done = subprocess.run([sys.executable, "-m", "lesson", "autograder", "prairielearn"],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT),
                                   **{bundle.ROOT_VARIABLE: str(tmp_path)}))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "results" / "results.json").read_text()
    assert prairielearn_problems(text) == []
    assert json.loads(text)["score"] == pytest.approx(17 / 20)


def test_the_grader_modules_import_only_the_standard_library_and_the_lesson():
    """So the zip's wheel needs nothing installed: the standard library and the
    lesson's own modules (its functions give the judge's right answers and the
    steps beside a trace, its tables format them, its checks compare them)."""
    import ast
    stdlib = getattr(sys, "stdlib_module_names", None)
    if stdlib is None:
        pytest.skip("sys.stdlib_module_names needs Python 3.10+")
    for path in (ROOT / "lesson" / "grader").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in stdlib or name.split(".")[0] == "lesson", (
                    f"{path.name} imports {name}")
