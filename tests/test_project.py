"""The project's promises about itself: README commands, no dependencies."""

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text, re.S)


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = next(c for c in readme_commands() if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_lesson_imports_only_the_standard_library():
    allowed = {"argparse", "decimal", "importlib", "math", "random", "sys",
               "timeit", "lesson"}
    for path in (ROOT / "lesson").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
