"""Exercises a learner can check: a starter file, the checks, and a judge.

python -m lesson starter [PATH]         write the four stubs (never overwrites)
python -m lesson check PATH [PATH ...]  grade them against the lesson's contract

The checks are data (``CHECKS``): a call, what kind of answer is right, and
a hint for when it is not.  The expected answers come from the lesson's own
functions, so the checker and the lesson cannot disagree; the project's
tests grade the lesson's own code with these same checks.

This module is pure: no processes, no threads.  ``lesson.runner`` runs the
learner's side in a separate process; a runner in the browser can run it in
a Web Worker instead.  The two sides exchange only plain data (JSON through
Python's ``json`` module, NaN and Infinity included: pass the text between
workers as it is), so the judge never runs a line of the learner's code,
and a learner's ``math.exp = ...`` cannot change an expected answer.

The learner's side (runs the learner's code)
--------------------------------------------
read_learner(data, filename)      a file's bytes -> (source, None) or (None, load)
notebook_source(text)             a notebook's code cells, IPython syntax skipped
load_learner(source, filename)    run the source as a fresh module -> (module, load)
call_check(function, check)       call one function on a copy of one check's
                                  input -> outcome, with what it printed

    >>> module, load = load_learner("def entropy(w):\\n    return 0.0\\n", "mine.py")
    >>> load["status"], call_check(module.entropy, CHECKS[17])["value"]
    ('ok', 0.0)

The judge's side (never runs the learner's code)
------------------------------------------------
judge(check, outcome)                  -> (passed, got text, expected text)
results(load, outcomes, time_limit)    one result dict per check
report_lines(shown_as, load, results, time_limit)   the report, as lines
load_problem_text(load), load_notes(load)   what went wrong loading, in words
summary_lines(files)                   the teacher's table for several files
time_limits(time_limit)                seconds for a check, a load, a file

    >>> judge(CHECKS[2], {"value": [0.5, 0.5]})
    (True, '[0.5, 0.5]', '[0.5, 0.5]')

A run, step by step: ``read_learner`` the file; if it gave a load, stop
there.  Else ``load_learner`` (a load with status "ok" and a module, or
a load saying why not); then for each check, ``call_check(getattr(module,
check.function), check)``, or {"missing": True} when there is no such
function.  A runner that stops a call which hangs records {"timeout": True}
for that check, and {"not_run": reason} for the function's other checks.
Then ``results(load, outcomes)`` and ``report_lines``.

A load, an outcome and a result are dicts of plain data.  An outcome is one
of {"value": ...}, {"error": {...}}, {"missing": True}, {"timeout": True},
{"crashed": exit code} or {"not_run": reason}, plus "stdout" and "stderr"
(what the learner's code printed during the call) and "uses_reference".
"""

import contextlib
import copy
import io
import json
import linecache
import math
import os
import sys
import traceback
import types

FUNCTIONS = ("softmax", "naive_softmax", "rows_normalised", "entropy")
SOURCE_KINDS = (".py", ".ipynb")    # what the checker reads: Python files, notebooks
NEG_INF = -math.inf

# Seconds one check may take.  Every check's input has at most four numbers:
# a right answer takes microseconds, and a slow machine under load still
# answers in hundredths of a second.  Two seconds is a hundred times that,
# and a learner whose four functions all hang still waits only about 8 s.
TIME_LIMIT = 2.0

OUTPUT_LIMIT = 2000       # characters of the learner's output kept per stream

STARTER = '''\
"""Lesson 4, softmax weights: the four functions of Part 2.

Fill in each function, then check your work:

    python -m lesson check {name}

Use plain lists and the math module, or NumPy if you prefer: the checker
turns a NumPy result into a list with .tolist().
"""

import math


def softmax(x, axis=-1):
    """Numerically stable softmax of x along axis.

    Subtract the maximum along that axis before exponentiating, then divide
    by the sum.  Entries equal to -inf get weight exactly 0.  If a whole
    row is -inf (no key may be seen), raise ValueError.

    softmax([0.7071, 0]) -> about [0.670, 0.330]
    softmax([1000, 1000]) -> [0.5, 0.5]
    softmax([[1, 2], [3, 4]], axis=0) normalises each column
    """


def naive_softmax(x):
    """exp(x) / sum(exp(x)) along the last axis, with NO max subtraction.

    Kept to see why stability matters: on [1000, 1000] it must fail
    (an OverflowError, or inf/nan with NumPy), not quietly give [0.5, 0.5].
    """


def rows_normalised(W, tol=1e-9):
    """True if every row of W (its last axis) sums to 1 within tol.

    A flat list is one row.  math.fsum adds without losing digits.
    """


def entropy(w):
    """-sum(w * ln w) of one weight vector, in nats, taking 0 * ln 0 as 0.

    entropy([1, 0, 0]) -> 0.0 (focused); entropy([0.25] * 4) -> ln 4.
    """
'''


# --- The checks ---------------------------------------------------------------

class Check:
    """One call of a learner's function and how to judge its answer.

    ``expect`` is one of:
      "weights"  the same numbers as the lesson's function, to 1e-9
      "3dp"      the same numbers to 3 decimals (the lesson's own answers)
      "value"    the same True/False as the lesson's function
      "raises"   a ValueError (or a subclass), as the lesson's function raises
      "fails"    an ArithmeticError or ValueError, or a result holding inf or nan
      "sums"     numbers that add up to the given total

    >>> check = CHECKS[2]
    >>> check.call_text(), check.expected()
    ('softmax([1000, 1000])', [0.5, 0.5])
    """

    def __init__(self, function, name, args, expect, hint, kwargs=None, total=None):
        self.function, self.name, self.args = function, name, args
        self.kwargs = kwargs or {}
        self.expect, self.hint, self.total = expect, hint, total

    def call_text(self):
        parts = [_show(a) for a in self.args]
        parts += [f"{k}={_show(v)}" for k, v in self.kwargs.items()]
        return f"{self.function}({', '.join(parts)})"

    def passes_when(self):
        """What a passing answer is, in words, with the lesson's own numbers.

        >>> CHECKS[0].passes_when()
        'returns [0.670, 0.330] to 3 decimals'
        >>> CHECKS[10].passes_when()
        'raises an ArithmeticError (such as OverflowError) or a ValueError, or returns inf or nan'
        """
        expected = self.expected()
        return {
            "weights": lambda: f"returns {_show_value(expected)}, within 1e-9",
            "3dp": lambda: f"returns {_show_value(expected, 3, fixed=True)} to 3 decimals",
            "value": lambda: f"returns {expected}",
            "raises": lambda: "raises ValueError (or a subclass of it)",
            "fails": lambda: ("raises an ArithmeticError (such as OverflowError) or a "
                              "ValueError, or returns inf or nan"),
            "sums": lambda: f"returns weights that add up to {expected:g}",
        }[self.expect]()

    def expected(self):
        """The right answer, from the lesson's own function."""
        if self.expect == "sums":
            return self.total
        if self.expect in ("raises", "fails"):
            return None
        import lesson                  # only the judge needs the lesson itself
        value = getattr(lesson, self.function)(*copy.deepcopy(self.args), **self.kwargs)
        return _round(value, 3) if self.expect == "3dp" else value


STABILITY = ("exp() of a large score overflows: subtract the row maximum "
             "before exponentiating")

CHECKS = [
    Check("softmax", "lesson's first weight", ([0.7071, 0],), "3dp",
          "exponentiate each score, then divide by the sum of the exponentials"),
    Check("softmax", "weights sum to 1", ([2.0, 1.0, 0.1],), "weights",
          "each weight is exp(score - max) / sum of exp(score - max)"),
    Check("softmax", "large scores", ([1000, 1000],), "weights", STABILITY),
    Check("softmax", "very negative scores", ([-1000, -1000, -1001],), "weights",
          "exp(-1000) underflows to 0 and 0/0 is nan: subtract the row maximum "
          "first, so the largest exponential is exp(0) = 1"),
    Check("softmax", "-inf gets weight 0", ([1.0, NEG_INF, 0.5],), "weights",
          "exp(-inf) is 0, so a masked key gets weight exactly 0; subtract the "
          "maximum of the row, which is finite when any key is visible"),
    Check("softmax", "all -inf row raises", ([[0.0, 1.0], [NEG_INF, NEG_INF]],), "raises",
          "a row that is all -inf has no key to give weight to: raise "
          "ValueError instead of returning nan"),
    Check("softmax", "two queries: four weights sum to 2",
          ([[0.7071, 0.0], [0.0, 0.7071]],), "sums",
          "normalise each row on its own: every row sums to 1, so two rows sum to 2",
          total=2.0),
    Check("softmax", "each row of a matrix", ([[0.7071, 0.0], [3.0, -2.0]],), "weights",
          "with axis=-1, take the maximum and the sum of each row separately"),
    Check("softmax", "axis=0 normalises columns", ([[1, 2], [3, 4]],), "weights",
          "axis=0 runs down each column: subtract each column's maximum and "
          "divide by each column's sum", kwargs={"axis": 0}),
    Check("naive_softmax", "agrees on small scores", ([0.7071, 0],), "weights",
          "exp(x) / sum(exp(x)), with no subtraction"),
    Check("naive_softmax", "fails on [1000, 1000]", ([1000, 1000],), "fails",
          "naive_softmax must NOT subtract the maximum: it exists to show "
          "exp(1000) overflowing"),
    Check("naive_softmax", "fails on [-1000, -1000]", ([-1000, -1000],), "fails",
          "without the subtraction, exp(-1000) underflows to 0 and the sum is 0"),
    Check("rows_normalised", "true for softmax rows", ([[0.25, 0.75], [0.5, 0.5]],),
          "value", "sum each row (math.fsum) and compare with 1 within tol"),
    Check("rows_normalised", "false for a bad row", ([[0.5, 0.5], [0.5, 0.6]],),
          "value", "every row must sum to 1, not just the first"),
    Check("rows_normalised", "a flat list is one row", ([0.25, 0.75, 0.5, 0.5],),
          "value", "a flat list is a single row: these four weights sum to 2"),
    Check("rows_normalised", "outside tol is false", ([0.5, 0.5 + 1e-8],),
          "value", "compare abs(sum - 1) <= tol, with the default tol=1e-9"),
    Check("rows_normalised", "inside a looser tol", ([0.5, 0.5 + 1e-8],), "value",
          "use the tol argument, not a fixed tolerance", kwargs={"tol": 1e-7}),
    Check("entropy", "one-hot is 0", ([1.0, 0.0, 0.0],), "weights",
          "0 * ln 0 counts as 0: skip zero weights instead of taking log(0)"),
    Check("entropy", "uniform over 4 is ln 4", ([0.25, 0.25, 0.25, 0.25],), "weights",
          "entropy is -sum(w * ln w), with the natural log"),
    Check("entropy", "a zero weight adds nothing", ([0.5, 0.5, 0.0],), "weights",
          "0 * ln 0 counts as 0: skip zero weights instead of taking log(0)"),
]


def time_limits(time_limit=TIME_LIMIT):
    """(one check, loading the file, the whole file) in seconds.

    Loading may import NumPy, so it gets five checks' worth, and at least
    5 s.  The whole file gets five checks' worth plus 4 s: room for each of
    the four functions to hang once, and for Python to restart after each.

    >>> time_limits(2.0)
    (2.0, 10.0, 14.0)
    >>> time_limits(0.5)
    (0.5, 5.0, 6.5)
    """
    load = max(5 * time_limit, 5.0)
    return time_limit, load, max(5 * time_limit + 4, load + time_limit)


# --- The learner's side: reading and loading the file ---------------------------

def read_learner(data, filename):
    """A learner's file (its bytes) as source to run: (source, None) or (None, load).

    ``source`` is the text of a .py file, or for a notebook the list of
    (cell number, code) that ``notebook_source`` gives.  When the file
    cannot be run at all, ``load`` says why, as ``load_learner`` would.

    >>> read_learner(b"x = 1\\n", "mine.py")
    ('x = 1\\n', None)
    >>> read_learner(b"x = 1\\0\\n", "mine.py")[1]["line"]
    1
    >>> read_learner(b"x = 1", "notes.txt")[1]["status"]
    'not_python'
    """
    kind = os.path.splitext(filename)[1].lower()
    if kind not in SOURCE_KINDS:
        return None, {"status": "not_python", "kind": kind}
    if kind == ".ipynb":
        try:
            return notebook_source(data.decode("utf-8-sig")), None
        except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
            return None, {"status": "not_notebook"}
    try:
        source = _decode(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        start = getattr(error, "start", None)
        line = data.count(b"\n", 0, start) + 1 if start is not None else None
        return None, {"status": "not_text", "line": line, "where": _where(line, None),
                      "message": str(error)}
    nul = source.find("\0")
    if nul >= 0:
        line = source.count("\n", 0, nul) + 1
        return None, {"status": "syntax", "line": line, "where": _where(line, None),
                      "message": "a NUL byte (\\x00), which Python source cannot hold",
                      "code": source.splitlines()[line - 1].replace("\0", "\\x00").strip()}
    return source, None


def _decode(data):
    """Bytes of a .py file as text, honouring a BOM or a coding: line."""
    import tokenize
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def notebook_source(text):
    """The code cells of a Jupyter notebook: a list of (cell number, code).

    Cells are numbered from 1 in the notebook's order, markdown cells
    included, as a learner counts them.  IPython's own syntax is skipped:
    a cell starting with a cell magic (``%%time``) is left out, and a line
    magic (``%matplotlib``) or shell line (``!pip``) becomes ``pass``, so
    the line numbers stay the learner's.

    >>> notebook = {"cells": [
    ...     {"cell_type": "markdown", "source": ["# My softmax"]},
    ...     {"cell_type": "code", "source": ["%matplotlib inline\\n", "import math"]},
    ...     {"cell_type": "code", "source": "%%timeit\\nmath.exp(1)"}]}
    >>> notebook_source(json.dumps(notebook))
    [(2, 'pass\\nimport math\\n')]
    """
    cells = []
    for number, cell in enumerate(json.loads(text)["cells"], start=1):
        if cell.get("cell_type") != "code":
            continue
        code = cell.get("source", "")
        code = "".join(code) if isinstance(code, list) else code
        if code.lstrip().startswith("%%"):
            continue
        lines = []
        for line in code.splitlines():
            stripped = line.lstrip()
            if stripped.startswith(("%", "!")):
                line = line[:len(line) - len(stripped)] + "pass"
            lines.append(line)
        cells.append((number, "\n".join(lines) + "\n"))
    return cells


# The learner's code, by the name it was compiled under: (cell or None, lines).
# Errors and tracebacks are traced back to the learner's own lines with it.
_LEARNER_CODE = {}


def load_learner(source, filename, module_name="softmax_exercise", capture=True):
    """Run a learner's source as a fresh module: return (module, load).

    ``source`` is a .py file's text, or a notebook's cells from
    ``notebook_source``, run cell by cell in order.  The module is
    registered in ``sys.modules`` under ``module_name`` while it runs, so
    dataclasses and pickling (multiprocessing) find it.  ``load`` is plain
    data: {"status": "ok"} or "syntax" or "error", with the line, and
    "uses_reference" if the file imported the lesson's own code.  A notebook
    cell that fails is noted in load["cells"] and the other cells still run
    (a learner often keeps a cell that shows naive_softmax failing).  An
    exit() at the top level ends the file there: load["exited"] says where,
    and what was defined before it is checked.  With ``capture``, what the
    code prints goes into load["stdout"] and load["stderr"].

    >>> module, load = load_learner("import math\\nx = 1 / 0\\n", "mine.py")
    >>> module is None, load["status"], load["error"]["where"], load["error"]["code"]
    (True, 'error', 'line 2', 'x = 1 / 0')
    >>> load_learner("def f(:\\n", "mine.py")[1]["where"]
    'line 1'
    """
    module = types.ModuleType(module_name)
    module.__file__ = filename
    sys.modules[module_name] = module
    pieces = source if isinstance(source, list) else [(None, source)]
    load = {"status": "ok"}
    with _watching_reference() as watch, _captured(capture) as printed:
        for cell, code in pieces:
            name = filename if cell is None else f"{filename} (cell {cell})"
            _register(name, cell, code)
            problem = _run_piece(code, name, module)
            if problem is None:
                continue
            if problem["status"] == "exited":
                load["exited"] = problem["error"]     # check what it defined so far
            elif cell is None:
                load = problem
            else:
                load.setdefault("cells", []).append(problem)
            if cell is None or problem["status"] == "exited":
                break
    load.update(printed)
    load["uses_reference"] = watch.used
    if load["status"] != "ok":
        sys.modules.pop(module_name, None)
        return None, load
    return module, load


def _run_piece(code, name, module):
    """Compile and run one file or cell; None, or what went wrong as plain data."""
    try:
        compiled = compile(code, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        return {"status": "syntax", "line": line, "where": _where(line, name),
                "message": getattr(error, "msg", str(error)),
                "code": (getattr(error, "text", None) or "").strip()}
    try:
        exec(compiled, module.__dict__)
    except SystemExit as error:        # exit() at the top level: the file ends there
        return {"status": "exited", "error": error_info(error)}
    except BaseException as error:     # noqa: B036 - the learner's own code failed
        return {"status": "error", "error": error_info(error)}
    return None


def _register(name, cell, code):
    """Remember a learner's code, so tracebacks can show its lines."""
    lines = code.splitlines(True)
    _LEARNER_CODE[name] = (cell, lines)
    linecache.cache[name] = (len(code), None, lines, name)


def _where(line, name):
    """'line 8', or 'cell 3, line 2' for a notebook."""
    if line is None:
        return None
    cell = _LEARNER_CODE.get(name, (None, None))[0]
    return f"line {line}" if cell is None else f"cell {cell}, line {line}"


def call_check(function, check, capture=True):
    """Call a learner's function on a copy of one check's input; return the outcome.

    The outcome is plain data: {"value": the result as plain lists and
    numbers} or {"error": what was raised}, with the printed output under
    "stdout" and "stderr" (when ``capture``).  Anything that is not a number,
    a bool or a list (a string, a generator, a Decimal) comes back as
    {"other": type, "repr": text}, so it can never pass for a number.

    >>> call_check(lambda x: [0.5, 0.5], CHECKS[2])
    {'value': [0.5, 0.5], 'stdout': '', 'stderr': '', 'uses_reference': False}
    >>> call_check(lambda x: "TODO", CHECKS[10])["value"]
    {'other': 'str', 'repr': "'TODO'"}
    >>> error = call_check(lambda x: 1 / 0, CHECKS[10])["error"]
    >>> error["type"], error["is_arithmetic_error"], error["is_value_error"]
    ('ZeroDivisionError', True, False)
    """
    args, kwargs = copy.deepcopy(check.args), copy.deepcopy(check.kwargs)
    with _watching_reference() as watch, _captured(capture) as printed:
        try:
            outcome = {"value": plain(function(*args, **kwargs))}
        except BaseException as error:              # noqa: B036 - the learner's, reported
            outcome = {"error": error_info(error)}
    outcome.update(printed)
    outcome["uses_reference"] = watch.used
    return outcome


def plain(value, depth=0):
    """A learner's result as plain data: None, bools, ints, floats and lists.

    NumPy arrays and scalars become lists and numbers (through .tolist());
    tuples become lists.  Anything else becomes {"other": type, "repr": text}.

    >>> plain((1, 2.5, [True]))
    [1, 2.5, [True]]
    >>> plain(x for x in [1])["other"]
    'generator'
    """
    if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
        value = value.tolist()
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, (list, tuple)) and depth < 8 and len(value) <= 1000:
        return [plain(item, depth + 1) for item in value]
    text = repr(value)
    return {"other": type(value).__name__,
            "repr": text if len(text) <= 200 else text[:200] + "..."}


def error_info(error):
    """An exception as plain data, judged here with isinstance.

    "line", "where" ('line 8' or 'cell 3, line 2') and "code" point at the
    last line of the learner's own code in the traceback, if any.

    >>> try:
    ...     1 / 0
    ... except ZeroDivisionError as error:
    ...     info = error_info(error)
    ...
    >>> info["type"], info["is_arithmetic_error"], info["is_value_error"], info["where"]
    ('ZeroDivisionError', True, False, None)
    """
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if f.filename in _LEARNER_CODE]
    line, name = (frames[-1].lineno, frames[-1].filename) if frames else (None, None)
    code = ""
    if frames:
        lines = _LEARNER_CODE[name][1]
        code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    try:
        message = str(error)
    except Exception:                               # a learner's broken __str__
        message = ""
    return {"type": type(error).__name__,
            "is_value_error": isinstance(error, ValueError),
            "is_arithmetic_error": isinstance(error, ArithmeticError),
            "message": message[:500], "line": line, "where": _where(line, name),
            "code": code[:200]}


class _Capped(io.TextIOBase):
    """A text stream that keeps the first OUTPUT_LIMIT characters written."""

    def __init__(self):
        self.kept, self.size = [], 0

    def writable(self):
        return True

    def write(self, text):
        room = OUTPUT_LIMIT - min(self.size, OUTPUT_LIMIT)
        if room > 0:
            self.kept.append(str(text)[:room])
        self.size += len(text)
        return len(text)

    def text(self):
        return capped("".join(self.kept), self.size)


def capped(text, size):
    """Kept output, saying how much more there was.

    >>> capped("abc", 10)
    'abc\\n... (7 more characters not shown)'
    """
    more = size - len(text)
    return text + (f"\n... ({more} more characters not shown)" if more > 0 else "")


@contextlib.contextmanager
def _captured(capture):
    """While the learner's code runs, what it prints, as {"stdout", "stderr"}."""
    printed = {}
    if not capture:
        yield printed
        return
    out, err = _Capped(), _Capped()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            yield printed
        finally:
            printed.update(stdout=out.text(), stderr=err.text())


class _ReferenceWatch:
    """An import hook that notes any import of the lesson's own package."""

    used = False

    def find_spec(self, name, path=None, target=None):
        if name != "lesson" and not name.startswith("lesson."):
            return None
        self.used = True
        from importlib.machinery import PathFinder
        return PathFinder.find_spec(name, path or [_LESSON_HOME])


_LESSON_HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@contextlib.contextmanager
def _watching_reference():
    """Hide the lesson's modules while the learner's code runs, and watch.

    A learner's ``import lesson`` then imports a fresh copy through the
    watch, which notes it; afterwards the checker's own modules come back.
    """
    def lesson_modules():
        return [n for n in sys.modules if n == "lesson" or n.startswith("lesson.")]
    hidden = {name: sys.modules.pop(name) for name in lesson_modules()}
    watch = _ReferenceWatch()
    sys.meta_path.insert(0, watch)
    try:
        yield watch
    finally:
        if watch in sys.meta_path:
            sys.meta_path.remove(watch)
        for name in lesson_modules():
            del sys.modules[name]
        sys.modules.update(hidden)


# --- The judge's side: judging an answer -----------------------------------------

def judge(check, outcome):
    """Return (passed, what came back, what was expected) for one check.

    ``outcome`` is {"value": ...} or {"error": ...}, from ``call_check``.
    When the answer is wrong, both are shown with enough digits to differ.

    >>> judge(CHECKS[2], {"value": [float("nan"), float("nan")]})
    (False, '[nan, nan]', '[0.5, 0.5]')
    >>> judge(CHECKS[1], {"value": [0.659001, 0.242433, 0.0985659]})[1:]
    ('[0.659001, 0.242433, 0.0985659]', '[0.65900114, 0.24243297, 0.09856589]')
    """
    expected = check.expected()
    if "error" in outcome:
        error = outcome["error"]
        passed = ((check.expect == "raises" and error["is_value_error"])
                  or (check.expect == "fails"
                      and (error["is_value_error"] or error["is_arithmetic_error"])))
        return passed, _error_text(error), _wanted_text(check, expected)
    got = outcome["value"]
    passed = _is_right(check, got, expected)
    if check.expect in ("weights", "3dp") and not passed:
        got_text, wanted = _differing(got, expected, 3 if check.expect == "3dp" else 6)
        return passed, got_text, wanted
    return passed, _got_text(check, got), _wanted_text(check, expected)


def _is_right(check, got, expected):
    """Is a returned value right for this check?"""
    if check.expect == "raises":
        return False                            # it should have raised
    if check.expect == "fails":                 # inf or nan is failing loudly too
        numbers = _numbers(got)
        return bool(numbers) and not all(math.isfinite(n) for n in numbers)
    if check.expect == "sums":
        numbers = _numbers(got)
        return bool(numbers) and abs(math.fsum(numbers) - expected) <= 1e-9
    if check.expect == "3dp":
        return (_numbers(got) is not None and _shape_of(got) == _shape_of(expected)
                and _round(got, 3) == expected)
    if check.expect == "value":
        return type(got) is bool and got == expected
    return _close(got, expected)


def _got_text(check, got):
    numbers = _numbers(got)
    if check.expect == "3dp" and numbers:
        return _show_value(_round(got, 3), 3, fixed=True)
    if check.expect == "sums" and numbers:
        total = math.fsum(numbers)
        digits = _digits_to_differ([total], [check.total], 6)
        return f"{_show_value(got, digits)} (sum {total:.{digits}g})"
    return _show_value(got)


def _wanted_text(check, expected):
    if check.expect == "raises":
        return "ValueError"
    if check.expect == "fails":
        return "an OverflowError or other ArithmeticError, a ValueError, or inf/nan"
    if check.expect == "sums":
        return f"weights summing to {expected:g}"
    if check.expect == "3dp":
        return _show_value(expected, 3, fixed=True)
    return _show_value(expected)


def _differing(got, expected, digits):
    """Got and expected as text, with the fewest digits (from ``digits``) that differ."""
    if _numbers(got) is None:
        return _show_value(got), _show_value(expected, digits, fixed=digits == 3)
    if digits == 3:
        return _show_value(got, 3, fixed=True), _show_value(expected, 3, fixed=True)
    digits = _digits_to_differ(got, expected, digits)
    return _show_value(got, digits), _show_value(expected, digits)


def _digits_to_differ(got, expected, digits):
    """The fewest digits (at least ``digits``) at which each wrong number shows wrong."""
    pairs = [(got, expected)]
    flat_got, flat_expected = _numbers(got), _numbers(expected)
    if flat_got and flat_expected and len(flat_got) == len(flat_expected):
        pairs = [(g, e) for g, e in zip(flat_got, flat_expected)
                 if not (g == e or math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-12))]
    while digits < 17 and any(_show_value(g, digits) == _show_value(e, digits)
                              for g, e in pairs):
        digits += 1
    return digits


def _error_text(error):
    text = f"{error['type']}: {error['message']}" if error["message"] else error["type"]
    if error.get("where"):
        text += f" (your {error['where']}: {error['code']})"
    return text


def _numbers(value):
    """All numbers in a nested list, or None if it holds anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, list):
        out = []
        for item in value:
            numbers = _numbers(item)
            if numbers is None:
                return None
            out += numbers
        return out
    return None


def _shape_of(value):
    return [_shape_of(v) for v in value] if isinstance(value, list) else 0


def _close(got, expected):
    if isinstance(expected, list):
        return (isinstance(got, list) and len(got) == len(expected)
                and all(_close(g, e) for g, e in zip(got, expected)))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)


def _show(value):
    """A value as the learner would type it."""
    if isinstance(value, float) and value == NEG_INF:
        return "-inf"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value).replace("e-0", "e-")        # 1e-7, as the lesson writes it


def _show_value(value, digits=6, fixed=False):
    """Plain data as text: floats to ``digits`` significant digits (or places)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return f"{value:.{digits}f}" if fixed else f"{value:.{digits}g}"
    if isinstance(value, list):
        return "[" + ", ".join(_show_value(v, digits, fixed) for v in value) + "]"
    if isinstance(value, dict) and "other" in value:
        return f"{value['repr']} (a {value['other']}, not a number)"
    return repr(value)


def _round(value, places):
    if isinstance(value, list):
        return [_round(v, places) for v in value]
    return round(value, places)


# --- The judge's side: results and the report --------------------------------------

LOAD_PROBLEMS = {
    "not_python": "{file} is not a Python file: the checker reads .py files "
                  "and Jupyter notebooks (.ipynb).",
    "not_notebook": "{file} is not a Jupyter notebook the checker can read "
                    "(its JSON has no list of cells).",
    "not_text": "Your file is not text Python can read: {message} ({where}). "
                "Save it as UTF-8.",
    "syntax": "Your file has a syntax error on {where}: {message}",
    "error": "Your file raised an error while loading: {error}",
    "timeout": "Your file did not finish loading within {load_limit:g} s: is "
               "there a loop at the top level that never ends?",
    "crashed": "Your file stopped the Python process while loading (exit code "
               "{code}): is there an os._exit() or exit() at the top level?",
    "garbled": "Your file wrote into the checker's private pipe while loading, so "
               "it could not be checked.",
    "missing": "There is no file {file}.",
    "unreadable": "{file} could not be read: {message}.",
    "internal": "The checker itself failed on {file} ({message}): please report "
                "this, with the file.",
    "unsupported": "This checker runs files on Linux and macOS only; on Windows, "
                   "run it in WSL (Windows Subsystem for Linux).",
}

# A notebook cell that failed, though the notebook loaded (see load_notes).
CELL_PROBLEMS = dict(LOAD_PROBLEMS,
                     syntax="A cell has a syntax error on {where}: {message}",
                     error="A cell raised an error: {error}")


def load_problem_text(load, time_limit=TIME_LIMIT, file="Your file", problems=LOAD_PROBLEMS):
    """One sentence on why a file could not be loaded, or None if it was.

    >>> load_problem_text({"status": "timeout"}, 2.0)
    'Your file did not finish loading within 10 s: is there a loop at the top level that never ends?'
    >>> load_problem_text({"status": "ok"}) is None
    True
    """
    status = load["status"]
    if status == "ok":
        return None
    fields = dict(load, file=file, load_limit=time_limits(time_limit)[1])
    if status == "error":
        fields["error"] = _error_text(load["error"])
    fields.setdefault("where", "an unknown line")
    fields.setdefault("code", load.get("code") or "?")
    text = problems[status].format(**fields)
    if status == "syntax" and load.get("code"):
        text += f" ({load['code']})"
    if status == "error" and load["error"]["type"] == "EOFError":
        text += ": nobody types at the checker, so input() gets nothing"
    return text


def load_notes(load, time_limit=TIME_LIMIT):
    """Sentences on what went wrong while a file loaded, though it did load.

    A notebook cell that failed (the other cells still ran), or an exit()
    at the top level (the functions defined before it are checked).

    >>> exited = {"type": "SystemExit", "where": "line 9", "code": "sys.exit()"}
    >>> load_notes({"status": "ok", "exited": exited})
    ['Your file stopped itself on line 9 (sys.exit()) while loading; the functions it defined before that are checked.']
    """
    notes = []
    for cell in load.get("cells", []):
        text = load_problem_text(cell, time_limit, problems=CELL_PROBLEMS)
        notes.append(f"{text}. The other cells ran.")
    if load.get("exited"):
        exited = load["exited"]
        notes.append(f"Your file stopped itself on {exited['where']} ({exited['code']}) "
                     f"while loading; the functions it defined before that are checked.")
    return notes


REFERENCE = ("Your file imports the lesson's own code (import lesson): the checks "
             "would grade the lesson, not your functions, so none of them counts "
             "as passed. Write the four functions yourself.")
NOT_COUNTED = "not counted: your file imports the lesson's own code (see above)"


def results(load, outcomes, time_limit=TIME_LIMIT):
    """One result dict per check, in the order of CHECKS.

    ``outcomes`` maps a check's index (an int, or its text after a trip
    through JSON) to its outcome.  Each result has
    function, name, input, passed, status ("pass", "fail", "error",
    "timeout", "not run" or "missing"), expected, got, hint, message (one
    line on what happened), stdout and stderr.  A file that imports the
    lesson has no check passed.

    >>> load = {"status": "ok", "uses_reference": False}
    >>> first = results(load, {0: {"value": [0.67, 0.33]}})[0]
    >>> first["status"], first["got"], first["expected"]
    ('pass', '[0.670, 0.330]', '[0.670, 0.330]')
    >>> [r["status"] for r in results(load, {0: {"missing": True}})][:2]
    ['missing', 'not run']
    """
    outcomes = {int(index): outcome for index, outcome in outcomes.items()}  # JSON keys too
    problem = load_problem_text(load, time_limit)
    borrowed = uses_reference(load, outcomes)
    out = []
    for index, check in enumerate(CHECKS):
        outcome = outcomes.get(index, {"not_run": "the checker did not reach it"})
        result = _result(check, outcome, problem, time_limit)
        if borrowed and result["passed"]:
            result.update(passed=False, status="fail", message=NOT_COUNTED)
        out.append(result)
    return out


def uses_reference(load, outcomes):
    """Did the learner's code import the lesson, while loading or in a check?

    >>> uses_reference({"status": "ok"}, {4: {"value": [1.0], "uses_reference": True}})
    True
    """
    return bool(load.get("uses_reference")) or any(
        o.get("uses_reference") for o in outcomes.values())


def _result(check, outcome, problem, time_limit):
    """One check's result dict (see ``results``) from its outcome."""
    result = {"function": check.function, "name": check.name, "input": check.call_text(),
              "passed": False, "status": "fail", "expected": None, "got": None,
              "hint": None, "message": None, "stdout": outcome.get("stdout", ""),
              "stderr": outcome.get("stderr", "")}
    ok, got, expected = None, None, None
    if problem is not None:
        result.update(status="not run", message="not run: the file itself could not "
                                                "be loaded (see above)")
    elif outcome.get("missing"):
        result.update(status="missing", message=f"not done yet: there is no function "
                                                f"{check.function}() in your file")
    elif "not_run" in outcome:
        result.update(status="not run", message=f"not run: {outcome['not_run']}")
    elif outcome.get("timeout"):
        result.update(status="timeout", got=None, message=(
            outcome.get("message") or f"never returned: stopped after {time_limit:g} s "
                                      f"(an endless loop?)"))
    elif outcome.get("crashed") == "garbled":
        result.update(status="error", message="your code wrote into the checker's "
                                              "private pipe during this call")
    elif "crashed" in outcome:
        result.update(status="error", message=f"the Python process stopped during this "
                                              f"call (exit code {outcome['crashed']})")
    elif "value" in outcome and outcome["value"] is None:
        result.update(got="None", message=f"not done yet: {check.function}() returns None")
    else:
        ok, got, expected = judge(check, outcome)
        status = "pass" if ok else ("error" if "error" in outcome else "fail")
        result.update(passed=ok, status=status, got=got)
    if result["status"] not in ("pass", "not run", "missing"):
        result["hint"] = check.hint
    result["expected"] = expected if expected is not None else _wanted_text(
        check, check.expected())
    return result


def counts(results):
    """(passed, failed) over a list of results.

    >>> counts([{"passed": True}, {"passed": False}, {"passed": False}])
    (1, 2)
    """
    passed = sum(r["passed"] for r in results)
    return passed, len(results) - passed


def report_lines(shown_as, load, results, time_limit=TIME_LIMIT, functions=FUNCTIONS):
    """The report a learner reads, as lines, built from the results.

    Lines are not wrapped: a terminal or a web page wraps them once, as
    wide as it is.  Functions not in ``functions`` are summed up in one line
    each; the closing line always counts every check.

    >>> load = {"status": "ok", "uses_reference": False}
    >>> lines = report_lines("ex.py", load, results(load, {}))
    >>> print(lines[0], lines[3], lines[-1], sep="\\n")
    Checking ex.py against lesson 4's contract
      FAIL  lesson's first weight
    0 passed, 20 failed
    """
    lines = [f"Checking {shown_as} against lesson 4's contract", ""]
    problem = load_problem_text(load, time_limit, file=shown_as)
    if problem is not None:
        lines += [problem, ""]
    for note in load_notes(load, time_limit):
        lines += [f"Note: {note}", ""]
    if any(r["message"] == NOT_COUNTED for r in results) or load.get("uses_reference"):
        lines += [REFERENCE, ""]
    printed = _printed(load)
    if printed:
        lines += ["While loading, your file printed:"] + printed + [""]
    for function in FUNCTIONS:
        own = [r for r in results if r["function"] == function]
        if function not in functions:
            passed, failed = counts(own)
            lines += [f"{function}  ({passed} passed, {failed} failed: not shown here)", ""]
            continue
        lines.append(function)
        for result in own:
            lines += _result_lines(result)
        lines.append("")
    passed, failed = counts(results)
    lines.append(f"{passed} passed, {failed} failed")
    return lines


def _result_lines(result):
    """A check's verdict, then (if it failed) what was asked, given and wanted."""
    lines = [f"  {'PASS' if result['passed'] else 'FAIL'}  {result['name']}"]
    asked = (result["status"] in ("fail", "error", "timeout") and result["got"] != "None"
             and result["message"] != NOT_COUNTED)
    if not result["passed"] and asked:
        lines.append(_field("input", result["input"]))
    if not result["passed"] and result["message"]:
        lines.append(f"        {result['message']}")
    if not result["passed"] and asked and result["status"] != "timeout":
        lines += [_field("expected", result["expected"]), _field("got", result["got"])]
    if not result["passed"] and result["hint"] and asked and result["status"] != "timeout":
        lines.append(_field("hint", result["hint"]))
    return lines + [f"        {line}" for line in _printed(result)]


def _field(label, text):
    return f"        {label + ':':10}{text}"


def _printed(source, most=8, width=200):
    """What the learner's code printed, labelled: a few lines a stream, each cut short."""
    lines = []
    for stream, label in (("stdout", "printed:"), ("stderr", "stderr:")):
        text = _visible(source.get(stream) or "").rstrip("\n")
        if not text:
            continue
        shown = [line if len(line) <= width else line[:width] + "..."
                 for line in text.split("\n")]
        cut = shown.pop() if shown[-1].endswith("more characters not shown)") else None
        if len(shown) > most:
            shown = shown[:most] + [f"... ({len(shown) - most} more lines"
                                    f"{', and more after them' if cut else ''})"]
        elif cut:
            shown.append(cut)
        lines += [f"{label if i == 0 else '':10}{line}" for i, line in enumerate(shown)]
    return lines


def _visible(text):
    """Output with control characters (a terminal's clear screen) made visible."""
    return "".join(c if c in "\n\t" or c.isprintable() else repr(c)[1:-1] for c in text)


def summary_lines(files):
    """The teacher's table: file, passed, failed, first failing check; then the total.

    ``files`` are per-file dicts with "file", "passed", "failed" and "checks".

    >>> bob = [{"function": "softmax", "name": "large scores", "passed": False,
    ...         "status": "fail"}]
    >>> for line in summary_lines([
    ...         {"file": "alice.py", "passed": 20, "failed": 0, "checks": []},
    ...         {"file": "bob.py", "passed": 19, "failed": 1, "checks": bob}]):
    ...     print(line)
    ...
    file      passed  failed  first failing check
    alice.py      20       0
    bob.py        19       1  softmax: large scores
    <BLANKLINE>
    39 passed, 1 failed
    """
    rows = [("file", "passed", "failed", "first failing check")]
    for entry in files:
        first = next((r for r in entry["checks"] if not r["passed"]), None)
        if entry["checks"] and all(r["status"] == "not run" for r in entry["checks"]):
            first = "(it could not be loaded: see its report)"
        elif first:
            first = f"{first['function']}: {first['name']}"
        rows.append((entry["file"], str(entry["passed"]), str(entry["failed"]), first or ""))
    width = max(len(row[0]) for row in rows)
    lines = [f"{r[0]:{width}}  {r[1]:>6}  {r[2]:>6}  {r[3]}".rstrip() for r in rows]
    passed = sum(entry["passed"] for entry in files)
    failed = sum(entry["failed"] for entry in files)
    return lines + ["", f"{passed} passed, {failed} failed"]


def write_starter(path):
    """Write the starter file; refuse (FileExistsError) if path exists.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "softmax_exercise.py")
    >>> write_starter(path)
    >>> try:
    ...     write_starter(path)              # a second time: the file is kept
    ... except FileExistsError:
    ...     print("already there, left as it is")
    ...
    already there, left as it is
    """
    with open(path, "x", encoding="utf-8") as file:
        file.write(STARTER.format(name=os.path.basename(path)))
