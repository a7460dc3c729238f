"""python -m lesson: the worked example, the table, the checker's options and the starter.

What the checker makes of learners' files is in test_exercise.py, and what a
run of it does (output folders, documents, exit codes) in test_session.py.
"""

import argparse
import pathlib
import subprocess
import sys

import pytest

from lesson import cli, example
from lesson.cli import main
from lesson.grader import contract
from lesson.tables import fmt

from helpers import SAMPLES      # tests/learner_corpus and the site's samples
from helpers import check         # python -m lesson check, as a teacher runs it


def run(*args):
    return subprocess.run([sys.executable, "-m", "lesson", *args],
                          capture_output=True, text=True, timeout=60)


def test_default_prints_the_worked_example_in_order(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    expected_order = ["[1, 0]", "[0.707107, 0]", "[0.669762, 0.330238]",
                      "[1.339523, 0.660477]", "[1, 0]", "[2, 0]"]
    position = 0
    for text in expected_order:
        assert text in out[position:], f"{text} missing after position {position}"
        position = out.index(text, position) + 1


def test_table_without_scores_reproduces_the_seed(capsys):
    assert main(["table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines[1:4]]
    assert [r[3] for r in rows] == ["1", "0.4931", "0.1814"]
    assert [r[4] for r in rows] == ["0.5972", "0.2945", "0.1083"]
    assert lines[-1] == "sum of weights: 1"


def test_table_reads_negative_scores_and_minus_inf(capsys):
    assert main(["table", "2", "-inf", "-1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:4]]
    assert rows[1] == ["2", "-inf", "-inf", "0", "0"]
    assert rows[2][2] == "-3"


@pytest.mark.parametrize("scores, message", [
    (["abc"], "'abc' is not a number"),
    (["1", "nan"], "scores[1] is nan"),
    (["-inf", "-inf"], "all -inf"),
    (["inf"], "scores[0] is inf"),
])
def test_bad_scores_give_one_line_and_a_nonzero_exit(scores, message):
    result = run("table", *scores)
    assert result.returncode != 0
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr


def commands():
    """Every command the parser knows, read from the parser itself."""
    parser = cli._build_parser()
    [subparsers] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(subparsers.choices)


def test_every_command_is_listed_in_the_top_level_help():
    assert len(commands()) >= 4
    result = run("--help")
    assert result.returncode == 0 and "usage: python -m lesson" in result.stdout
    for command in commands():
        assert command in result.stdout


def test_the_program_is_named_as_it_was_run():
    """softmax-lesson's usage says softmax-lesson, python -m lesson's says that."""
    script = pathlib.Path(sys.executable).parent / "softmax-lesson"
    if not script.exists():
        pytest.skip("softmax-lesson is not installed beside this Python (pip install -e .)")
    for argv, name in (([str(script)], "softmax-lesson"), ([sys.executable, "-m", "lesson"],
                                                          "python -m lesson")):
        shown = subprocess.run(argv + ["check", "--help"], capture_output=True, text=True,
                               timeout=60)
        assert shown.stdout.startswith(f"usage: {name} check "), shown.stdout[:80]
        wrong = subprocess.run(argv + ["table", "abc"], capture_output=True, text=True,
                               timeout=60)
        assert wrong.stderr == f"{name} table: error: 'abc' is not a number\n"
    assert cli.program("/venv/bin/softmax-lesson") == "softmax-lesson"
    assert cli.program("/site-packages/lesson/__main__.py") == "python -m lesson"


@pytest.mark.parametrize("command", commands())
def test_help_exists_for_every_command(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: python -m lesson {command}")


@pytest.mark.parametrize("value, text", [
    (1.0, "1"), (0.0, "0"), (-0.0, "0"), (0.49306869, "0.4931"),
    (-1.70710678, "-1.7071"), (-0.00001, "-1.0e-5"), (float("-inf"), "-inf"), (12, "12"),
])
def test_fmt_rounds_to_four_places_without_trailing_zeros(value, text):
    assert fmt(value) == text


def test_example_scores_start_at_one_over_root_two():
    assert example.TABLE_SCORES[0] == pytest.approx(2 ** -0.5, rel=1e-15)


def test_quick_is_a_usage_error_for_the_accuracy_bench(capsys):
    assert main(["bench", "accuracy", "--quick"]) == 2
    assert "--quick is for bench speed only" in capsys.readouterr().err


def test_only_a_masked_key_shows_a_weight_of_zero(capsys):
    """Key 2's weight, about 2.1e-9, is tiny but not 0; key 3 is masked."""
    assert main(["table", "0", "-20", "-inf"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:4]]
    assert [row[-1] for row in rows] == ["1", "2.1e-9", "0"]


# --- The checker's options (python -m lesson check) -------------------------------

@pytest.mark.parametrize("limit", ["inf", "0", "-1", "nan", "abc"])
def test_a_bad_time_limit_is_a_one_line_usage_error(limit):
    code, out, err, _ = check("--time-limit", limit, str(SAMPLES / "correct_lists.py"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("python -m lesson check: error: argument --time-limit")


def test_help_documents_batch_mode_and_json():
    result = run("check", "--help")
    assert "--json" in result.stdout and "folder" in result.stdout
    assert f"default: {contract.TIME_LIMIT:g}" in result.stdout


def test_check_of_a_missing_file_is_one_line(capsys):
    assert main(["check", "no/such/file.py"]) == 2
    assert capsys.readouterr().err.strip() == "python -m lesson check: error: no file no/such/file.py"


# --- Starter ------------------------------------------------------------------------

def test_untouched_starter_is_not_done_yet(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["starter"]) == 0
    assert (tmp_path / "softmax_exercise.py").exists()
    capsys.readouterr()
    assert main(["check", "softmax_exercise.py"]) == 1
    out = capsys.readouterr().out
    assert out.count("not done yet") == len(contract.CHECKS)
    assert out.splitlines()[-1] == f"0 passed, {len(contract.CHECKS)} failed"


def test_starter_never_overwrites(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("# my work\n")
    assert main(["starter", str(path)]) == 1
    assert path.read_text() == "# my work\n"
    assert "already exists" in capsys.readouterr().err


def test_starter_into_a_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["starter", str(tmp_path / "no" / "such" / "ex.py")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_starter_holds_the_four_stubs_and_their_contracts(tmp_path):
    path = tmp_path / "ex.py"
    contract.write_starter(str(path))
    text = path.read_text()
    for name in contract.FUNCTIONS:
        assert f"def {name}(" in text
    assert "softmax-lesson check ex.py" in text
    compile(text, str(path), "exec")
