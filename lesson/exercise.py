"""Exercises a learner can check: a starter file and a checker that teaches.

python -m lesson starter [PATH]   write the four stubs (never overwrites)
python -m lesson check PATH       grade them against the lesson's contract

The checks are data (``CHECKS``): a call, what kind of answer is right, and
a hint for when it is not.  The expected answers come from the lesson's own
functions, so the checker and the lesson cannot disagree; the project's
tests grade the lesson's own code with these same checks.

The learner's file runs in a separate process.  A check that does not
answer within the time limit is reported as never returning, the process is
restarted, and the remaining checks still run.
"""

import copy
import json
import math
import os
import queue
import subprocess
import sys
import textwrap
import threading
import traceback

import lesson

FUNCTIONS = ("softmax", "naive_softmax", "rows_normalised", "entropy")
NEG_INF = -math.inf
TIME_LIMIT = 5.0          # seconds per check

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
      "value"    the same True/False or number as the lesson's function
      "raises"   a ValueError, as the lesson's function raises
      "fails"    an error of any kind, or a result holding inf or nan
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

    def expected(self):
        """The right answer, from the lesson's own function."""
        if self.expect == "sums":
            return self.total
        reference = getattr(lesson, self.function)
        if self.expect in ("raises", "fails"):
            return None
        value = reference(*copy.deepcopy(self.args), **self.kwargs)
        return _round(value, 3) if self.expect == "3dp" else value


# Errors that count as naive_softmax failing loudly on overflow or underflow
# (a NameError, say, is a bug, not the lesson's failure).
LOUD_FAILURES = {"OverflowError", "FloatingPointError", "ZeroDivisionError",
                 "ArithmeticError", "ValueError"}

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


def _show(value):
    """A value as the learner would type it."""
    if isinstance(value, float) and value == NEG_INF:
        return "-inf"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value)


def _round(value, places):
    if isinstance(value, list):
        return [_round(v, places) for v in value]
    return round(value, places)


# --- Judging an answer ----------------------------------------------------------

def judge(check, outcome):
    """Return (passed, what came back, what was expected) for one check.

    ``outcome`` is what the worker reported: {"value": ...} or {"error": ...}.

    >>> judge(CHECKS[2], {"value": [0.5, 0.5]})
    (True, '[0.5, 0.5]', '[0.5, 0.5]')
    >>> judge(CHECKS[2], {"value": [float("nan"), float("nan")]})
    (False, '[nan, nan]', '[0.5, 0.5]')
    """
    expected = check.expected()
    if "error" in outcome:
        kind = outcome["error"]["type"]
        passed = ((check.expect == "raises" and kind == "ValueError")
                  or (check.expect == "fails" and kind in LOUD_FAILURES))
        return passed, _error_text(outcome), _wanted_text(check, expected)
    got = outcome["value"]
    return (_is_right(check, got, expected), _got_text(check, got),
            _wanted_text(check, expected))


def _is_right(check, got, expected):
    """Is a returned value right for this check?"""
    if check.expect == "raises":
        return False                            # it should have raised
    if check.expect == "fails":
        return not _all_finite(got)             # inf or nan is failing loudly too
    if check.expect == "sums":
        numbers = _numbers(got)
        return numbers is not None and abs(math.fsum(numbers) - expected) <= 1e-9
    if check.expect == "3dp":
        return (_numbers(got) is not None and _shape_of(got) == _shape_of(expected)
                and _round(got, 3) == expected)
    if check.expect == "value":
        return type(got) is bool and got == expected
    return _close(got, expected)


def _got_text(check, got):
    numbers = _numbers(got)
    if check.expect == "3dp" and numbers is not None:
        return _show_value(_round(got, 3), "{:.3f}")
    if check.expect == "sums" and numbers is not None:
        return f"{_show_value(got)} (sum {math.fsum(numbers):.6g})"
    return _show_value(got)


def _wanted_text(check, expected):
    if check.expect == "raises":
        return "ValueError"
    if check.expect == "fails":
        return "an error, or inf/nan"
    if check.expect == "sums":
        return f"weights summing to {expected:g}"
    if check.expect == "3dp":
        return _show_value(expected, "{:.3f}")
    return _show_value(expected)


def _error_text(outcome):
    error = outcome["error"]
    text = f"{error['type']}: {error['message']}"
    if error.get("line"):
        text += f" (your line {error['line']}: {error['code']})"
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


def _all_finite(value):
    numbers = _numbers(value)
    return numbers is not None and all(math.isfinite(n) for n in numbers)


def _close(got, expected):
    if isinstance(expected, list):
        return (isinstance(got, list) and len(got) == len(expected)
                and all(_close(g, e) for g, e in zip(got, expected)))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)


def _show_value(value, number="{:.6g}"):
    if isinstance(value, float):
        return number.format(value) if math.isfinite(value) else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_show_value(v, number) for v in value) + "]"
    return repr(value)


# --- Running the learner's file in another process -------------------------------

def _plain(value):
    """A learner's result as plain lists, floats and bools (NumPy included)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return repr(value)


def _learner_line(path, tb):
    """The last line of the learner's own file in a traceback, if any."""
    frames = [f for f in traceback.extract_tb(tb)
              if os.path.abspath(f.filename) == os.path.abspath(path)]
    return (frames[-1].lineno, (frames[-1].line or "").strip()) if frames else (None, "")


def _error(path, error):
    line, code = _learner_line(path, error.__traceback__)
    return {"type": type(error).__name__, "message": str(error), "line": line, "code": code}


def _worker(path, start):
    """Run in the child process: load the file, then report each check as JSON."""
    import importlib.util
    protocol, sys.stdout = sys.stdout, sys.stderr    # the learner's prints stay apart

    def send(message):
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()
    try:
        spec = importlib.util.spec_from_file_location("learner_solution", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except SyntaxError as error:
        send({"load": "syntax", "line": error.lineno, "message": error.msg,
              "code": (error.text or "").strip()})
        return
    except BaseException as error:                   # the learner's own code failed
        send({"load": "error", "error": _error(path, error)})
        return
    send({"load": "ok"})
    for index in range(start, len(CHECKS)):
        check = CHECKS[index]
        function = getattr(module, check.function, None)
        if not callable(function):
            send({"check": index, "missing": True})
            continue
        try:
            value = function(*copy.deepcopy(check.args), **check.kwargs)
            send({"check": index, "value": _plain(value)})
        except Exception as error:
            send({"check": index, "error": _error(path, error)})


class _Worker:
    """The learner's file running in a child process, read line by line."""

    def __init__(self, path, start):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lesson.exercise", path, str(start)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, cwd=os.path.dirname(os.path.abspath(path)) or None,
            env=dict(os.environ, PYTHONPATH=_lesson_path()))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)                         # the process has ended

    def next(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return "timeout"

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdout.close()


def _lesson_path():
    """PYTHONPATH for the child, so it finds this lesson package from anywhere."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)


def _run_checks(path, time_limit=TIME_LIMIT):
    """Run every check on the file; return (load problem or None, outcomes).

    ``outcomes`` has one entry per check: {"value": ...}, {"error": ...},
    {"missing": True}, {"timeout": True} or {"crashed": True}.
    """
    outcomes, start = {}, 0
    while start < len(CHECKS):
        process = _Worker(path, start)
        try:
            loaded = process.next(time_limit)
            if loaded == "timeout":
                return {"load": "timeout"}, {}
            if loaded is None or loaded.get("load") != "ok":
                return loaded or {"load": "crashed"}, {}
            while start < len(CHECKS):
                message = process.next(time_limit)
                if message == "timeout" or message is None:
                    outcomes[start] = {"timeout": True} if message else {"crashed": True}
                    start += 1
                    break                            # restart after this check
                outcomes[message["check"]] = message
                start = message["check"] + 1
        finally:
            process.stop()
    return None, outcomes


# --- The report ---------------------------------------------------------------------

def grade(path, time_limit=TIME_LIMIT, shown_as=None):
    """Grade a learner's file: return (lines of the report, passed, failed).

    ``shown_as`` is the file's name in the report (default: ``path``).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "ex.py")
    >>> write_starter(path)
    >>> lines, passed, failed = grade(path, shown_as="ex.py")
    >>> for line in lines[:5]:
    ...     print(line)
    Checking ex.py against lesson 4's contract
    <BLANKLINE>
    softmax
      FAIL  lesson's first weight
            not done yet: softmax() returns None
    >>> lines[-1] == f"0 passed, {len(CHECKS)} failed"
    True
    """
    problem, outcomes = _run_checks(path, time_limit)
    lines = [f"Checking {shown_as or path} against lesson 4's contract", ""]
    if problem is not None:
        lines += [_load_problem(problem, time_limit), ""]
    passed = failed = 0
    for function in FUNCTIONS:
        lines.append(function)
        for index, check in enumerate(CHECKS):
            if check.function != function:
                continue
            ok, details = _verdict(check, outcomes.get(index), problem, time_limit)
            passed, failed = passed + ok, failed + (not ok)
            lines.append(f"  {'PASS' if ok else 'FAIL'}  {check.name}")
            lines += [f"        {line}" for line in details]
        lines.append("")
    lines.append(f"{passed} passed, {failed} failed")
    return lines, passed, failed


def _load_problem(problem, time_limit):
    kind = problem.get("load")
    if kind == "syntax":
        return (f"Your file has a syntax error on line {problem['line']}: "
                f"{problem['message']}\n    {problem['code']}")
    if kind == "timeout":
        return (f"Your file did not finish loading within {time_limit:g} s: is there "
                f"a loop at the top level that never ends?")
    if kind == "error":
        return f"Your file raised an error while loading: {_error_text(problem)}"
    return "Your file could not be run (the Python process stopped)."


def _verdict(check, outcome, problem, time_limit):
    """(passed, lines of detail) for one check."""
    if problem is not None:
        return False, ["not run: the file itself could not be loaded (see above)"]
    if outcome is None or outcome.get("missing"):
        return False, [f"not done yet: there is no function {check.function}() in your file"]
    if outcome.get("timeout"):
        return False, [f"input:    {check.call_text()}",
                       f"never returned: stopped after {time_limit:g} s (an endless loop?)"]
    if outcome.get("crashed"):
        return False, [f"input:    {check.call_text()}",
                       "the Python process stopped during this call"]
    if "value" in outcome and outcome["value"] is None:
        return False, [f"not done yet: {check.function}() returns None"]
    ok, got, expected = judge(check, outcome)
    if ok:
        return True, []
    return False, (_field("input", check.call_text()) + _field("expected", expected)
                   + _field("got", got) + _field("hint", check.hint))


def _field(label, text, width=80):
    """One labelled line of a failure, wrapped under itself if it is long."""
    return textwrap.wrap(text, width, initial_indent=f"{label + ':':10}",
                         subsequent_indent=" " * 10, break_long_words=False,
                         break_on_hyphens=False) or [f"{label}:"]


def write_starter(path):
    """Write the starter file; refuse (FileExistsError) if path exists.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "softmax_exercise.py")
    >>> write_starter(path)
    >>> try:
    ...     write_starter(path)              # a second time: the file is kept
    ... except FileExistsError:
    ...     print("already there, left as it is")
    already there, left as it is
    """
    with open(path, "x", encoding="utf-8") as file:
        file.write(STARTER.format(name=os.path.basename(path)))


if __name__ == "__main__":
    _worker(sys.argv[1], int(sys.argv[2]))
