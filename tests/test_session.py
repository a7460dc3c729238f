"""lesson/grader/session.py: one run of ``python -m lesson check``, as a teacher
names it on the command line.

Options that do not go together, and output folders that cannot be made,
are refused in one line before any file is graded; documents are named after
each submission's own path; each file is named exactly in the JSON (escaped
for display only in the text report); the exit code says whether every check
passed, and 3 when the checker itself failed (a real sandbox that does not
start is in test_layouts.py).  What each platform's document holds is
test_formats.py's.
"""

import json
import os
import shutil
import threading

import pytest

from lesson.grader import formats, process, sandbox, session, workers

from helpers import SAMPLES      # tests/learner_corpus and the site's samples
from helpers import check         # python -m lesson check, as a teacher runs it
from platform_rules import exercism_problems, gradescope_problems   # the published rules


# --- Refused before grading ------------------------------------------------------------

@pytest.mark.parametrize("form, options, message", [
    ("text", {"points": ["softmax=2"]},
     "--points is for gradescope and prairielearn, not --format text"),
    ("junit", {"output_dir": "out"}, "--output-dir is for gradescope"),
    ("exercism", {}, "--format exercism writes one document per submission: give --output-dir"),
])
def test_options_that_do_not_go_together_are_refused_before_anything_is_graded(
        form, options, message, tmp_path, monkeypatch):
    graded = []
    monkeypatch.setattr(process, "run", lambda *args, **kwargs: graded.append(args))
    files = [str(SAMPLES / "forgot_max.py"), str(SAMPLES / "correct_lists.py")]
    with pytest.raises(ValueError) as refused:
        session.check(files, form, results=str(tmp_path / "results"), **options)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)
    assert graded == [] and os.listdir(tmp_path) == []          # no file run, no folder made


@pytest.mark.parametrize("args, message", [
    (["--format", "junit", "--output-dir", "out"], "--output-dir is for gradescope"),
    (["--format", "junit", "--points", "softmax=2"], "--points is for gradescope"),
    (["--format", "gradescope", "--points", "soft=2"], "no function soft"),
    (["--format", "yaml"], "invalid choice: 'yaml'"),
])
def test_options_that_do_not_fit_the_format_are_a_one_line_usage_error(args, message):
    done = check(*args, str(SAMPLES / "forgot_max.py"))
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and len(done.stderr.splitlines()) == 1


# --- Output folders, documents and names -----------------------------------------------

@pytest.fixture
def mixed_class(tmp_path):
    """A class folder mixing flat files and a student's folder with a space."""
    folder = tmp_path / "class"
    (folder / "ann lee").mkdir(parents=True)
    shutil.copy(SAMPLES / "correct_lists.py", folder / "ann lee" / "softmax_exercise.py")
    shutil.copy(SAMPLES / "forgot_max.py", folder / "bo.py")
    return folder


@pytest.mark.parametrize("option", [["--format", "gradescope", "--output-dir"], ["--results"]])
def test_an_output_folder_that_is_a_file_fails_in_one_line_before_grading(mixed_class, option):
    (mixed_class.parent / "taken").write_text("a file")
    done = check("--no-sandbox", *option, "taken", "class", cwd=mixed_class.parent)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (f"python -m lesson check: error: {option[-1]} taken: that "
                                   f"is a file, not a folder")


def test_results_record_the_limits_the_files_were_graded_with(mixed_class):
    done = check("--no-sandbox", "--results", "out", "--time-limit", "1.5",
                 "--memory-limit", "512", "class", cwd=mixed_class.parent)
    assert done.returncode == 1, done.stderr
    saved = json.loads((mixed_class.parent / "out" / "bo.py.json").read_text())
    assert saved["time_limit"] == 1.5 and saved["memory_limit_mib"] == 512
    assert saved["file"]["file"] == os.path.join("class", "bo.py")


def test_results_and_documents_are_the_teachers_alone(mixed_class):
    """A learner's code running as a user of its own cannot read its
    classmates' results: each file 0600, each folder the checker makes 0700."""
    for option in (["--results", "out"], ["--format", "gradescope", "--output-dir", "docs"]):
        check("--no-sandbox", *option, "class", cwd=mixed_class.parent)
        folder = mixed_class.parent / option[-1]
        assert folder.stat().st_mode & 0o777 == 0o700, oct(folder.stat().st_mode)
        modes = {path.name: path.stat().st_mode & 0o777 for path in folder.iterdir()}
        assert modes and set(modes.values()) == {0o600}, modes


def test_documents_are_named_after_each_submissions_path_in_the_class(mixed_class):
    """The name keeps the student's folder, and does not change with the
    other files graded."""
    done = check("--no-sandbox", "--format", "exercism", "--output-dir", "out", "class",
                 cwd=mixed_class.parent)
    assert done.returncode == 0, done.stderr
    out = mixed_class.parent / "out"
    assert sorted(os.listdir(out)) == ["ann lee-softmax_exercise.py.json", "bo.py.json"]
    shutil.rmtree(out)
    (mixed_class / "bo.py").unlink()
    check("--no-sandbox", "--format", "exercism", "--output-dir", "out", "class",
          cwd=mixed_class.parent)
    assert os.listdir(out) == ["ann lee-softmax_exercise.py.json"]


def test_json_names_each_file_exactly_and_the_table_escapes_it(tmp_path):
    name = 'new\nline "q".py'
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SAMPLES / "correct_lists.py", folder / name)
    shutil.copy(SAMPLES / "correct_lists.py", folder / "plain.py")
    done = check("--no-sandbox", "--json", "class", cwd=tmp_path)
    assert [f["file"] for f in json.loads(done.stdout)["files"]] == [
        os.path.join("class", name), os.path.join("class", "plain.py")]
    assert '"class/new\\nline \\"q\\".py"' in done.stdout          # JSON's escapes
    table = check("--no-sandbox", "class", cwd=tmp_path).stdout.splitlines()
    assert any(line.startswith('class/new\\nline "q".py ') for line in table), table
    junit = check("--no-sandbox", "--format", "junit", "class", cwd=tmp_path).stdout
    assert """<testsuite name='class/new&#10;line "q".py'""" in junit      # XML's escapes


def test_several_files_write_one_document_each_and_print_the_table(tmp_path):
    files = [str(SAMPLES / "forgot_max.py"), str(SAMPLES / "correct_lists.py")]
    refused = check("--format", "gradescope", *files)
    assert refused.returncode == 2 and "--output-dir" in refused.stderr
    done = check("--format", "exercism", "--output-dir", str(tmp_path / "out"), *files)
    assert done.returncode == 0                                # Exercism's runners exit 0
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["correct_lists.py.json", "forgot_max.py.json"]
    for path in (tmp_path / "out").iterdir():
        assert exercism_problems(path.read_text()) == []
    assert done.stdout.splitlines()[-1] == "37 passed, 3 failed"


def test_one_file_gives_its_document_on_stdout_and_the_exit_code_stays():
    done = check("--format", "gradescope", "--points", "softmax=2", str(SAMPLES / "forgot_max.py"))
    assert done.returncode == 1 and gradescope_problems(done.stdout) == []
    assert json.loads(done.stdout)["tests"][0]["max_score"] == 2


# --- The exit code -----------------------------------------------------------------------

def test_a_file_the_checker_fails_on_stops_the_run_with_exit_3(tmp_path, monkeypatch, capsys):
    """No grade for it, or for the files after it; one line says why; the
    JSON document carries the error; --results keeps the grades already given."""
    problem = "the sandbox did not start: bwrap: No permissions to create a new namespace"
    ran = []

    def run(path, *args, **kwargs):
        ran.append(os.path.basename(path))
        if path.endswith("correct_lists.py"):
            return dict(formats._example(), file=path, load={"status": "unstarted"},
                        problem=problem)
        return dict(formats._example(), file=path)
    monkeypatch.setattr(process, "run", run)
    monkeypatch.setattr(workers, "STOPPING", threading.Event())   # stop_all's mark stays here
    files = [str(SAMPLES / name)
             for name in ("forgot_max.py", "correct_lists.py", "log_of_zero.py")]
    code = session.check(files, "json", sandbox=False, results=str(tmp_path))
    out, err = capsys.readouterr()
    assert code == session.CHECKER_FAILED == 3
    assert ran == ["forgot_max.py", "correct_lists.py"]       # the rest is not graded
    assert err == f"python -m lesson check: warning: {session.unconfined(sandbox.mode(False))}\n" \
                  f"python -m lesson check: error: {problem}\n"
    document = json.loads(out)
    assert (document["error"], document["files"]) == (problem, [])
    assert os.listdir(tmp_path) == ["forgot_max.py.json"]
    assert workers.STOPPING.is_set()                 # every worker stopped, none started


def test_a_results_folder_is_one_runs_at_a_time(tmp_path):
    """A second run into a --results folder that another run holds stops at
    once, in one line, having graded nothing and written nothing; once the
    first run ends, the folder is free, and no lock file is left in it."""
    import fcntl
    holder = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)                     # another run, writing there
    try:
        with pytest.raises(ValueError) as refused:
            session.check([str(SAMPLES / "forgot_max.py")], "json", sandbox=False,
                          results=str(tmp_path))
    finally:
        os.close(holder)
    assert "another check is writing there now" in str(refused.value)
    assert "\n" not in str(refused.value) and os.listdir(tmp_path) == []
    assert session.check([str(SAMPLES / "forgot_max.py")], "json", sandbox=False,
                         results=str(tmp_path)) == 1
    assert os.listdir(tmp_path) == ["forgot_max.py.json"]
