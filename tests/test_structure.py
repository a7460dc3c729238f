"""The code's shape, held as tests: imports run one way, functions stay short,
one module builds the wheel.

The modules are those of the lesson (``lesson/``, ``lesson/grader/``) and of
the site's build (``docs/lesson_docs/``).  Every import counts, the ones
inside a function too: an import moved into a function hides a cycle from
Python, not from a reader.
"""

import ast
import pathlib
import re

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


# --- Statuses: declared once ------------------------------------------------------

def status_literals():
    """{status text: modules of lesson/ that write it as a literal}, for every
    status harness.py declares (Load, Outcome, Verdict, Event), where a value
    is meant: not a record's key (``load["error"]``, ``.get("value")``,
    ``"value" in outcome``, a dict display's key), nor a docstring.  The
    platforms' own words (Exercism's "pass", "fail", "error") are formats.py's
    tables at its top level: they are the platforms' vocabulary, not ours."""
    from lesson.grader import harness
    words = {str(s) for kind in (harness.Load, harness.Outcome, harness.Verdict, harness.Event)
             for s in kind}
    found = {}
    for name, path in modules().items():
        if not name.startswith("lesson.") or name == "lesson.grader.harness":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))                      # a docstring
            if isinstance(node, ast.Subscript):
                skip.add(id(node.slice))
            if isinstance(node, ast.Dict):
                skip |= {id(key) for key in node.keys if key is not None}
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("get", "pop", "setdefault") and node.args:
                skip.add(id(node.args[0]))
            if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
                skip.add(id(node.left))
        if name == "lesson.grader.formats":
            skip |= {id(n) for top in tree.body if isinstance(top, ast.Assign)
                     for n in ast.walk(top.value)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in words and id(node) not in skip:
                found.setdefault(node.value, set()).add(name)
    return found


def test_each_status_is_written_in_one_module_only():
    """harness.py declares every status (Load, Outcome, Verdict, Event), once,
    with its meaning; every other module names them, so a misspelled status
    fails at once."""
    assert status_literals() == {}


def test_no_status_is_written_in_the_pages_javascript():
    """The page gets the statuses as data (page.py's STATUSES), never as literals."""
    from lesson.grader import harness
    words = {str(s) for kind in (harness.Load, harness.Verdict, harness.Event) for s in kind}
    for path in (ROOT / "docs" / "assets" / "runner").glob("*.js"):
        if path.name.endswith(".bundle.js"):
            continue
        quoted = set(re.findall(r'"([a-z_ ]+)"', path.read_text(encoding="utf-8")))
        quoted |= set(re.findall(r"'([a-z_ ]+)'", path.read_text(encoding="utf-8")))
        assert not quoted & words, (path.name, sorted(quoted & words))


def test_the_checkers_own_failures_are_the_statuses_marked_ours():
    from lesson.grader import formats, harness
    assert {s for s in harness.Load if s.ours} == {harness.Load.UNSTARTED, harness.Load.INTERNAL}
    assert set(formats.CHECKER_FAILURES) == {s for s in harness.Load if s.ours}
