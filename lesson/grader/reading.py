"""What a learner's code shows, read with ``ast`` and never run.

Where the answers cannot tell two mistakes apart, the code often can: a
``rows_normalised`` that never calls ``np.allclose`` did not make the
mistake of ``np.allclose``.  This module reads the learner's file (the
snapshot the terminal graded, or the page's editor) into facts, each a few
words, for each of the four functions; the diagnosis rules a mistake out
only where the code shows none of the facts that mistake needs.

facts(data, filename)    a file's bytes -> {function: its facts}, or None (no Python to read)
FACTS                    every fact, and what shows it

    >>> mine = (b"def rows_normalised(W, tol=1e-9):\\n"
    ...         b"    return all(sum(r) - 1 <= tol for r in W)\\n")
    >>> facts(mine, "mine.py")
    {'rows_normalised': frozenset({'compares without abs'})}
    >>> mine = b"import numpy as np\\ndef rows_normalised(W, tol=1e-9):\\n" \\
    ...        b"    return np.allclose([sum(r) for r in W], 1)\\n"
    >>> sorted(facts(mine, "mine.py")["rows_normalised"])
    ['ignores tol', 'np.isclose', 'numpy']
    >>> facts(b"def softmax(x:\\n", "mine.py") is None
    True

A function's code is its own body, the helpers it calls (the file's
other functions, but not the four: each is judged for itself), and the
file's top-level statements, where its constants live (not those under
``if __name__ == "__main__":``, which the checker never runs); its
dialect, "numpy", is read from its body and helpers alone.  A fact found
where it does not matter only keeps a mistake in the hint; a fact that
is missing would rule one out, so each fact is read broadly.
"""

import ast
from typing import NamedTuple

from lesson.grader.contract import FUNCTIONS, STARTER
from lesson.grader.harness import read_learner

FACTS = {
    "numpy": "uses NumPy (a name an import of numpy binds)",
    "max": "takes a maximum: max, np.max, .max(), amax, nanmax, sorted",
    "min": "takes a minimum: min, np.min, .min(), amin, nanmin, sorted",
    "max of all": "takes a maximum with no axis: max(...), x.max(), np.max(x), sorted",
    "mean": "takes a mean (mean, fmean, average) or counts items (len, .size, .shape)",
    "axis 0": "works down the columns: axis=0, or 0 as a max's or sum's axis, or "
              "transposes (.T, transpose, swapaxes, moveaxis, zip(*...))",
    "axis, no keepdims": "a NumPy max or sum along an axis other than 0, without keepdims",
    "try": "a try statement",
    "inf or nan": "tests for inf or nan: isfinite, isinf, isnan, nan_to_num, inf, nan",
    "calls softmax": "calls a function named softmax",
    "np.isclose": "calls NumPy's isclose or allclose",
    "compares without abs": "<, <=, > or >= (or less, greater...) with no side an abs()",
    "small number": "a number between 0 and 0.01 (a tolerance), but the starter's defaults",
    "round": "rounds: round, np.round, around, .round()",
    "ignores ...": "never reads the starter's parameter ... (tol, axis): "
                   "\"ignores tol\", \"ignores axis\"",
}

SMALL = 0.01                # below this a number written in the code is a tolerance
MOST_READ = 1 << 20         # bytes of a file read for facts: four functions take a few thousand
ABS = {"abs", "fabs", "absolute"}
MAXIMA, MINIMA = {"max", "amax", "nanmax"}, {"min", "amin", "nanmin"}
REDUCTIONS = MAXIMA | {"sum", "nansum"}
ORDERINGS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
ORDERING_CALLS = {"less", "less_equal", "greater", "greater_equal"}
TRANSPOSES = {"transpose", "swapaxes", "moveaxis"}
FINITE = {"isfinite", "isinf", "isnan", "isneginf", "isposinf", "nan_to_num"}
FUNCTION_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def facts(data, filename):
    """{function: frozenset of facts} for each of the four functions the file
    defines at its top level (a notebook: its code cells, joined); None when
    it is not Python that parses, or is larger than MOST_READ bytes."""
    if len(data) > MOST_READ:
        return None
    source, _ = read_learner(data, filename)
    if isinstance(source, list):                        # a notebook's (cell, code)s
        source = "\n".join(code for _, code in source)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, TypeError,         # TypeError: no source at all
            RecursionError, MemoryError):               # nested past the parser's depth
        return None
    names = _imported(tree)
    defined = {node.name: node for node in tree.body
               if isinstance(node, FUNCTION_DEFINITIONS)}
    top = [node for node in tree.body
           if not isinstance(node, FUNCTION_DEFINITIONS) and not _is_main(node)]
    top_facts = _facts_in(top, names) - {"numpy"}       # the dialect is the function's own
    return {name: _facts_of(defined[name], defined, names) | top_facts
            for name in FUNCTIONS if name in defined}


class Imported(NamedTuple):
    """What the file's imports bind: ``numpy``, the names NumPy's import binds
    (np, numpy, or what came from it); ``renamed``, {alias: the name imported}."""
    numpy: frozenset
    renamed: dict


def _imported(tree):
    numpy, renamed = set(), {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            numpy |= {(alias.asname or alias.name).split(".")[0] for alias in node.names
                      if alias.name.split(".")[0] == "numpy"}
        elif isinstance(node, ast.ImportFrom):
            renamed.update({alias.asname: alias.name for alias in node.names if alias.asname})
            if (node.module or "").split(".")[0] == "numpy":
                numpy |= {alias.asname or alias.name for alias in node.names}
    return Imported(frozenset(numpy), renamed)


def _is_main(node):
    """``if __name__ == "__main__":``, which the checker never runs."""
    test = getattr(node, "test", None)
    return (isinstance(node, ast.If) and isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name) and test.left.id == "__name__")


def _facts_of(function, defined, names):
    """One function's facts, from its code and its helpers' (and its parameters)."""
    own = function.body + _defaults_of_its_own(function)
    helpers = [defined[name] for name in _helpers(function, defined)]
    return frozenset(_facts_in(own + helpers, names) | _ignored(function))


def _facts_in(nodes, names):
    found = set()
    for node in _walk(nodes):
        found |= _node_facts(node, names)
    return found


def _walk(nodes):
    for node in nodes:
        yield from ast.walk(node)


def _helpers(function, defined, seen=None):
    """The names of the file's functions that ``function`` names (calls, or
    hands on: ``map(_row, x)``), and that they name, but none of the four."""
    seen = set() if seen is None else seen
    for node in ast.walk(function):
        name = node.id if isinstance(node, ast.Name) else None
        if name in defined and name not in FUNCTIONS and name not in seen:
            seen.add(name)
            _helpers(defined[name], defined, seen)
    return seen


def _called(node, renamed=None):
    """The name a call calls (``np.max`` -> "max"; ``npmax`` -> "max" after
    ``from numpy import max as npmax``), or None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return (renamed or {}).get(name, name) if isinstance(func, ast.Name) else name


def _root(node):
    """The name an expression starts from: ``np`` for ``np.linalg.norm``."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


# --- What one node shows ---------------------------------------------------------------

def _node_facts(node, names):
    if isinstance(node, ast.Call):
        return _call_facts(node, names)
    if isinstance(node, ast.Compare):
        ordered = any(isinstance(op, ORDERINGS) for op in node.ops)
        sides = [node.left] + node.comparators
        return {"compares without abs"} if ordered and not any(map(_is_abs, sides)) else set()
    if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        return {"try"}
    if isinstance(node, ast.Name):
        return ({"numpy"} if node.id in names.numpy else set()) | (
            {"inf or nan"} if node.id in ("inf", "nan") else set())
    if isinstance(node, ast.Attribute):
        return {"T": {"axis 0"}, "size": {"mean"}, "shape": {"mean"}, "inf": {"inf or nan"},
                "nan": {"inf or nan"}}.get(node.attr, set())
    if isinstance(node, ast.Constant):
        return {"small number"} if _is_small(node.value) else (
            {"inf or nan"} if str(node.value).lower() in ("inf", "-inf", "nan") else set())
    return set()


def _call_facts(call, names):
    """What a call shows: its name, and how it takes an axis."""
    name, found = _called(call, names.renamed), set()
    from_numpy = _root(call.func) in names.numpy
    if name == "sorted":
        found |= {"max", "min", "max of all"}
    if name in MAXIMA:
        found.add("max")
    if name in MINIMA:
        found.add("min")
    if name in ("mean", "fmean", "average", "len"):
        found.add("mean")
    if name == "softmax":
        found.add("calls softmax")
    if name in ("isclose", "allclose") and from_numpy:
        found.add("np.isclose")
    if name in ("round", "around"):
        found.add("round")
    if name in FINITE:
        found.add("inf or nan")
    if name in TRANSPOSES or (name == "zip" and any(isinstance(a, ast.Starred)
                                                      for a in call.args)):
        found.add("axis 0")
    if name in ORDERING_CALLS and not any(map(_is_abs, call.args)):
        found.add("compares without abs")
    if name in REDUCTIONS:
        found |= _reduction_facts(call, name, from_numpy)
    return found


def _reduction_facts(call, name, from_numpy):
    """A max or sum: along which axis, and with keepdims or not.  NumPy's
    ``np.max(x, axis)`` takes its axis second, a method ``x.max(axis)`` first;
    Python's own ``max(row)`` has none."""
    if isinstance(call.func, ast.Name) and not from_numpy:
        return {"max of all"} if name in MAXIMA else set()      # Python's max or sum
    method = isinstance(call.func, ast.Attribute) and not from_numpy
    keywords = {k.arg: k.value for k in call.keywords}
    positional = call.args[0 if method else 1:]
    axis = keywords.get("axis", positional[0] if positional else None)
    found = set()
    if axis is None:
        return {"max of all"} if name in MAXIMA else found
    if isinstance(axis, ast.Constant) and axis.value == 0:
        return found | {"axis 0"}
    if "keepdims" not in keywords:
        found.add("axis, no keepdims")
    return found


def _is_abs(node):
    return _called(node) in ABS


def _is_small(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 < abs(value) < SMALL)


# --- The function's parameters against the starter's ---------------------------------

def _literal(node):
    """The value a default writes (-1, 1e-9), or None for anything else."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _starter_signatures():
    """{function: its parameters in the starter, [(name, default or None)]}."""
    out = {}
    for node in ast.parse(STARTER).body:
        if isinstance(node, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            defaults = [None] * (len(names) - len(node.args.defaults)) + [
                _literal(d) for d in node.args.defaults]
            out[node.name] = list(zip(names, defaults))
    return out


STARTER_PARAMETERS = _starter_signatures()


def _defaults_of_its_own(function):
    """The function's parameter defaults, but those the starter gives (tol=1e-9)."""
    arguments, starter = function.args, STARTER_PARAMETERS.get(function.name, [])
    own = [d for d in arguments.kw_defaults if d is not None]
    first = len(arguments.args) - len(arguments.defaults)
    for index, default in enumerate(arguments.defaults, start=first):
        given = starter[index][1] if index < len(starter) else None
        if given is None or _literal(default) != given:
            own.append(default)
    return own



def _ignored(function):
    """"ignores tol" for each of the starter's parameters this function never
    reads (by its place: a learner may call tol eps), or does not have."""
    arguments = function.args
    if arguments.vararg or arguments.kwarg:
        return set()
    names = [a.arg for a in arguments.args]
    read = {node.id for node in ast.walk(function)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    return {f"ignores {starter}" for index, (starter, _) in
            enumerate(STARTER_PARAMETERS.get(function.name, []))
            if index >= len(names) or names[index] not in read}
