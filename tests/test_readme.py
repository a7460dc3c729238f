"""The README's "Try it" commands, run as written from a folder outside the repository.

The block starts by activating the venv (``. .venv/bin/activate``); every
line after it must then work from any folder, even one that holds a
``lesson.py`` of the learner's own.
"""

import os
import re
import subprocess
import sys

import pytest

from helpers import ROOT, skip_or_fail

ACTIVATE = ". .venv/bin/activate"


def try_it_lines():
    """The lines of the first ``sh`` block under "## Try it", as written."""
    section = (ROOT / "README.md").read_text().split("\n## Try it\n", 1)[1]
    block = re.search(r"```sh\n(.*?)\n```", section.split("\n## ", 1)[0], re.S).group(1)
    return block.splitlines()


def test_try_it_starts_by_activating_the_venv():
    first = try_it_lines()[0]
    assert first.startswith(ACTIVATE + " ") and ".venv\\Scripts\\activate" in first


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """A folder outside the repository whose .venv is this test run's venv,
    and which holds a learner's own lesson.py."""
    if sys.prefix == sys.base_prefix:
        skip_or_fail("the tests do not run in a venv (the README's command makes .venv)")
    folder = tmp_path_factory.mktemp("elsewhere")
    assert ROOT not in folder.parents
    (folder / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    (folder / "lesson.py").write_text('raise SystemExit("the learner\'s own lesson.py ran")\n')
    return folder


def run_line(line, folder):
    """``line`` in a new shell in ``folder``, after the README's first line."""
    script = try_it_lines()[0] + "\n" + line + "\n"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONSAFEPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(sys.prefix))   # not active yet
    return subprocess.run(["bash", "-c", script], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)


def test_every_try_it_line_works_from_another_folder(elsewhere):
    lines = try_it_lines()[1:]
    assert lines and all(line.startswith("softmax-lesson") for line in lines)
    assert any(" check " in line for line in lines), "no line grades the starter"
    for line in lines:                      # in order: starter writes what check reads
        result = run_line(line, elsewhere)
        output = result.stdout + result.stderr
        assert "lesson.py ran" not in output and "No module named" not in output, line
        assert result.stdout.strip(), (line, output)
        if " check " in line:               # the untouched starter: every check fails
            assert result.returncode == 1, (line, output)
            assert re.search(r"\n0 passed, [1-9][0-9]* failed$", result.stdout.rstrip()), line
        else:
            assert result.returncode == 0, (line, output)
    assert (elsewhere / "softmax_exercise.py").is_file()


def test_ci_runs_the_serve_commands_install():
    """.ci/run installs the serve command's extras (under its oldest and newest Python)."""
    readme = (ROOT / "README.md").read_text()
    serve = next(line for line in readme.splitlines() if "mkdocs serve" in line)
    install = re.search(r'pip install -e "\.\[\w+\]"', serve).group(0)
    assert install == 'pip install -e ".[docs]"'
    assert f'"$venv"/bin/{install}' in (ROOT / ".ci" / "run").read_text()
