"""The project's promises about itself: README commands, no dependencies."""

import ast
import importlib.util
import pathlib
import re
import subprocess
import sys
import sysconfig

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_commands():
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text, re.S)


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = next(c for c in readme_commands() if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_lesson_imports_only_the_standard_library():
    """lesson/ needs nothing installed: every import is stdlib or lesson itself.

    (bench.py may *try* NumPy at run time, through importlib, and works
    without it; a learner's file run by the grader may import anything.)
    """
    for path in (ROOT / "lesson").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert is_stdlib(top) or top == "lesson", f"{path.name} imports {name}"


def is_stdlib(name):
    """Is ``name`` a module of Python's standard library?"""
    if hasattr(sys, "stdlib_module_names"):               # Python 3.10+
        return name in sys.stdlib_module_names
    if name in sys.builtin_module_names:                  # Python 3.9: where it is found
        return True
    spec = importlib.util.find_spec(name)
    stdlib = sysconfig.get_paths()["stdlib"]
    return bool(spec and spec.origin and spec.origin.startswith(stdlib)
                and "site-packages" not in spec.origin)


def test_lesson_runs_with_no_third_party_package(tmp_path):
    """The module and its CLI work under python -I -S: no site-packages at all."""
    code = ("import sys; sys.path.insert(0, {root!r}); import lesson, lesson.bench, "
            "lesson.grader.process; from lesson.cli import main; "
            "sys.exit(main(['table']))").format(root=str(ROOT))
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "0.5972" in result.stdout


def test_no_lesson_module_imports_another_modules_private_names():
    """Private names stay in their module.  ``_validate`` is the package's own
    private module of input checks, there to be shared; nothing else is."""
    for path in (ROOT / "lesson").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lesson"):
                private = [a.name for a in node.names
                           if a.name.startswith("_") and a.name != "_validate"]
                assert private == [], f"{path.name} imports {private} from {node.module}"


def test_private_utilities_come_last_under_a_banner():
    """A reader meets the math first and the plumbing last."""
    for name in ("weights.py", "head.py"):
        source = (ROOT / "lesson" / name).read_text()
        banner = source.index("\n# === Private utilities ===\n")
        private = [m.start() for m in re.finditer(r"^def _", source, re.M)]
        public = [m.start() for m in re.finditer(r"^def [a-z]", source, re.M)]
        assert private and min(private) > banner > max(public), name


def test_every_public_function_in_lesson_has_a_doctest():
    missing = []
    for path in sorted((ROOT / "lesson").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if (isinstance(node, (ast.FunctionDef, ast.ClassDef))
                    and not node.name.startswith("_")
                    and ">>>" not in (ast.get_docstring(node) or "")):
                missing.append(f"{path.name}: {node.name}")
    assert missing == []
