"""The code's shape, held as tests: imports run one way, functions stay short,
one module builds the wheel.

The modules are those of the lesson (``lesson/``, ``lesson/grader/``) and of
the site's build (``docs/lesson_docs/``).  Every import counts, the ones
inside a function too: an import moved into a function hides a cycle from
Python, not from a reader.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = {"lesson": ROOT / "lesson", "lesson_docs": ROOT / "docs" / "lesson_docs"}
LONGEST = 80                # lines a function may have, its docstring included


def modules():
    """{dotted name: path} for every module of the packages."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package,) + parts)] = path
    return found


def imports(name, path, known):
    """The known modules that ``name`` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                                  # from . import x
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        out |= {target for target in targets if target in known and target != name}
    return out


def cycle(graph):
    """One import cycle as a list of modules, or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None
    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def test_the_import_graph_is_read():
    """The graph this file checks is the real one (not empty, edges found)."""
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert "lesson.grader.judge" in graph and "lesson.weights" in graph
    assert "lesson.grader.contract" in graph["lesson.grader.judge"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_among_the_lesson_s_modules_and_the_site_build_s():
    known = modules()
    graph = {name: imports(name, path, known) - {n for n in known if name.startswith(n + ".")}
             for name, path in known.items()}       # a module may import its own package
    assert cycle(graph) is None


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_function_is_longer_than_80_lines(name):
    tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
    long = [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > LONGEST]
    assert long == []


def test_one_module_builds_a_wheel():
    """Only lesson/grader/wheel.py writes a wheel's RECORD; nothing runs setuptools' backend."""
    builders = [name for name, path in modules().items()
                if "RECORD" in path.read_text(encoding="utf-8")
                or "build_meta" in path.read_text(encoding="utf-8")]
    assert builders == ["lesson.grader.wheel"]
