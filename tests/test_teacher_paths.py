"""What a teacher names on the command line: output folders checked before any
grading, documents named after each submission's own path, and each file named
exactly in the JSON (escaped for display only in the text report)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLES


def check(*args, cwd):
    return subprocess.run([sys.executable, "-m", "lesson", "check", "--no-sandbox", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


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
    done = check(*option, "taken", "class", cwd=mixed_class.parent)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (f"python -m lesson check: error: {option[-1]} taken: that "
                                   f"is a file, not a folder")


def test_results_record_the_limits_the_files_were_graded_with(mixed_class):
    done = check("--results", "out", "--time-limit", "1.5", "--memory-limit", "512", "class",
                 cwd=mixed_class.parent)
    assert done.returncode == 1, done.stderr
    saved = json.loads((mixed_class.parent / "out" / "bo.py.json").read_text())
    assert saved["time_limit"] == 1.5 and saved["memory_limit_mib"] == 512
    assert saved["file"]["file"] == os.path.join("class", "bo.py")


def test_documents_are_named_after_each_submissions_path_in_the_class(mixed_class):
    """The name keeps the student's folder, and does not change with the
    other files graded."""
    done = check("--format", "exercism", "--output-dir", "out", "class", cwd=mixed_class.parent)
    assert done.returncode == 0, done.stderr
    out = mixed_class.parent / "out"
    assert sorted(os.listdir(out)) == ["ann lee-softmax_exercise.py.json", "bo.py.json"]
    shutil.rmtree(out)
    (mixed_class / "bo.py").unlink()
    check("--format", "exercism", "--output-dir", "out", "class", cwd=mixed_class.parent)
    assert os.listdir(out) == ["ann lee-softmax_exercise.py.json"]


def test_json_names_each_file_exactly_and_the_table_escapes_it(tmp_path):
    name = 'new\nline "q".py'
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SAMPLES / "correct_lists.py", folder / name)
    shutil.copy(SAMPLES / "correct_lists.py", folder / "plain.py")
    done = check("--json", "class", cwd=tmp_path)
    assert [f["file"] for f in json.loads(done.stdout)["files"]] == [
        os.path.join("class", name), os.path.join("class", "plain.py")]
    assert '"class/new\\nline \\"q\\".py"' in done.stdout          # JSON's escapes
    table = check("class", cwd=tmp_path).stdout.splitlines()
    assert any(line.startswith('class/new\\nline "q".py ') for line in table), table
    junit = check("--format", "junit", "class", cwd=tmp_path).stdout
    assert """<testsuite name='class/new&#10;line "q".py'""" in junit      # XML's escapes
