"""lesson/grader/classroom.py: a class's submissions, found as teachers keep them.

A class folder holds a file per student or a folder per student; a link to
a file is that student's line, refused when graded (test_process.py), and a
link to a folder, a dangling link, an archive or any other file is skipped
and named.  In a student's folder one rule chooses the file graded (the
starter's name, else the only notebook, else the only .py), and a folder
where it chooses nothing is still the student's line in the table.  The
folder a hostile class shares is in test_hostile_class.py.
"""

import json
import os
import shutil
import subprocess
import sys
import threading

import pytest

from lesson.grader import classroom, contract

from helpers import SAMPLES      # tests/learner_corpus and the site's samples
from helpers import ROOT, check


def test_a_class_folder_holds_files_and_folders_and_says_what_it_skipped(tmp_path):
    folder = tmp_path / "class"
    for name in ("zoe.py", "bob.ipynb", "ann/softmax_exercise.py", "ann/scratch.py",
                 "cat/src/softmax_exercise.py", ".hidden.py", "__pycache__/x.py", "notes.md",
                 "work.zip", "dan/readme.txt"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("")
    (tmp_path / "outside.py").write_text("")
    (folder / "eve.py").symlink_to(tmp_path / "outside.py")
    (folder / "gus.py").symlink_to(tmp_path / "nothing.py")
    (folder / "hal").symlink_to(folder / "ann")
    entries, skipped = classroom.find([str(folder)])
    shown = [entry.shown_as for entry in entries]
    assert shown == [f"{folder}/ann/softmax_exercise.py", f"{folder}/bob.ipynb",
                     f"{folder}/cat/src/softmax_exercise.py", f"{folder}/eve.py",
                     f"{folder}/zoe.py"]
    assert entries[0].folder == str(folder / "ann") and entries[1].folder is None
    assert [e.within for e in entries] == [None, "", None, "", ""]   # a link to no file
    why = dict(skipped)
    assert set(why) == {f"{folder}/dan/", f"{folder}/gus.py", f"{folder}/hal", f"{folder}/notes.md",
                        f"{folder}/work.zip"}
    assert "a link to a folder" in why[f"{folder}/hal"]
    assert "no .py file" in why[f"{folder}/dan/"] and "a link to nothing" in why[f"{folder}/gus.py"]
    assert "an archive" in why[f"{folder}/work.zip"]


def test_a_missing_path_or_an_empty_folder_is_one_line(tmp_path):
    with pytest.raises(ValueError, match=r"^no file .*nope\.py$"):
        classroom.find([str(tmp_path / "nope.py")])
    (tmp_path / "notes.md").write_text("")
    with pytest.raises(ValueError) as error:
        classroom.find([str(tmp_path)])
    assert str(error.value).startswith("nothing to grade in the folder")
    assert "1 skipped" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("files, chosen", [
    (["mine.py"], "mine.py"),
    (["analysis.ipynb"], "analysis.ipynb"),
    (["analysis.ipynb", "helpers.py"], "analysis.ipynb"),           # the only notebook
    (["helpers.py", "analysis.ipynb", "plots.py"], "analysis.ipynb"),
    (["softmax_exercise.py", "analysis.ipynb"], "softmax_exercise.py"),   # the starter's name
    (["softmax_exercise.ipynb", "draft.ipynb", "a.py"], "softmax_exercise.ipynb"),
    (["softmax_exercise.py", "softmax_exercise.ipynb"], "softmax_exercise.py"),
    (["a.py", "b.py"], None),                                        # none chosen
    (["a.ipynb", "b.ipynb"], None),
    (["a.ipynb", "b.ipynb", "helpers.py"], None),                    # notebooks, not one
])
def test_one_rule_chooses_the_file_in_a_students_folder(tmp_path, files, chosen):
    for name in files:
        (tmp_path / name).write_text("")
    found, why = classroom.find_submission(str(tmp_path))
    if chosen is None:
        assert found is None and why.startswith("Your submission holds several")
        assert all(name in why for name in files) and "softmax_exercise.py" in why
    else:
        assert (found, why) == (str(tmp_path / chosen), None)


def test_a_folder_where_no_file_is_chosen_is_the_students_line_in_the_table(tmp_path):
    for name in ("ann/analysis.ipynb", "ann/helpers.py", "bo/a.py", "bo/b.py", "cy/notes.txt"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(SAMPLES / ("notebook_correct.ipynb" if name.endswith(".ipynb")
                               else "correct_lists.py"), tmp_path / name)
    entries, skipped = classroom.find([str(tmp_path)])
    assert [(e.shown_as, e.problem is None) for e in entries] == [
        (f"{tmp_path}/ann/analysis.ipynb", True), (f"{tmp_path}/bo/", False)]
    assert [name for name, _ in skipped] == [f"{tmp_path}/cy/"]          # nothing to choose
    code, out, _, _ = check(str(tmp_path))
    lines = out.splitlines()
    rows = lines[next(i for i, line in enumerate(lines) if line.startswith("file  ")):]
    assert rows[1].split() == [f"{tmp_path}/ann/analysis.ipynb", "20", "0"]
    assert rows[2].split()[:3] == [f"{tmp_path}/bo/", "0", "20"] and code == 1
    assert entries[1].problem in out          # its report says why, and what to do


def test_a_students_folder_names_its_submission(tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "mine.py").write_text("")
    assert classroom.find_submission(str(tmp_path / "one")) == (str(tmp_path / "one" / "mine.py"), None)
    (tmp_path / "one" / "softmax_exercise.ipynb").write_text("")
    found, why = classroom.find_submission(str(tmp_path / "one"))
    assert found == str(tmp_path / "one" / "softmax_exercise.ipynb") and why is None
    (tmp_path / "none").mkdir()
    found, why = classroom.find_submission(str(tmp_path / "none"))
    assert found is None and "holds no .py file" in why


def test_grading_side_by_side_keeps_the_order_and_reports_each_as_it_ends():
    """The first item ends last; the results still come in the items' order,
    and ``done`` hears of each as soon as it is known."""
    first_may_end = threading.Event()
    heard = []

    def grade(item):
        if item == 0:
            assert first_may_end.wait(10)
        return item * 10

    def done(index, result):
        heard.append(index)
        if len(heard) == 3:
            first_may_end.set()
    results = list(classroom.grade_all([0, 1, 2, 3], grade, jobs=4, done=done))
    assert results == [0, 10, 20, 30]
    assert sorted(heard) == [0, 1, 2, 3] and heard[-1] == 0
    assert list(classroom.grade_all([], grade, jobs=4)) == []


def test_any_path_a_shell_accepts(tmp_path):
    correct = (SAMPLES / "correct_lists.py").read_bytes()
    names = ["sub/softmax_exercise.py", "with space/my file.py", "ünïcode/lösung.py"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(correct)
    (tmp_path / "elsewhere").mkdir()
    with open(os.path.join(os.fsencode(tmp_path), b"latin1-\xe9.py"), "wb") as file:
        file.write(correct)                                # a name that is not UTF-8
    paths = names + [str(tmp_path / names[0]), "elsewhere/../sub/softmax_exercise.py"]
    code, out, err, _ = check(*paths, cwd=tmp_path)
    assert code == 0 and err == "", out
    assert out.splitlines()[-1] == f"{len(paths) * len(contract.CHECKS)} passed, 0 failed"
    result = subprocess.run([sys.executable, "-m", "lesson", "check", "--json",
                             b"../latin1-\xe9.py"], cwd=tmp_path / "elsewhere",
                            capture_output=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    entry = json.loads(result.stdout)["files"][0]
    assert result.returncode == 0 and entry["passed"] == len(contract.CHECKS)
    assert entry["file"] == "../latin1-\\xe9.py"    # as the report shows it, in strict UTF-8
    result.stdout.decode("utf-8")


def test_a_folder_gets_a_report_per_file_and_a_summary_table(tmp_path):
    shutil.copy(SAMPLES / "correct_lists.py", tmp_path / "alice.py")
    shutil.copy(SAMPLES / "forgot_max.py", tmp_path / "bob.py")
    (tmp_path / "notes.md").write_text("not a submission")
    code, out, _, _ = check(str(tmp_path))
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("file "))
    assert header > 0 and lines[header].split() == ["file", "passed", "failed", "first",
                                                    "failing", "check"]
    assert lines[header + 1].split()[1:] == ["20", "0"]
    assert lines[header + 2].split()[1:] == ["17", "3", "softmax:", "large", "scores"]
    assert lines[-1] == "37 passed, 3 failed" and code == 1
    assert out.count("Checking ") == 2
    assert f"Skipped {tmp_path}/notes.md: not a .py file or a Jupyter notebook" in out
