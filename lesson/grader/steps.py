"""The lesson's steps beside the learner's: where the learner's values leave the lesson's.

For each function's first failing check, the plan had the learner's function
traced on that check's input (``lesson.grader.harness.traced``).  This module
works out the lesson's own steps for the same input, with the lesson's
functions (the softmax table of ``lesson.weights.softmax_table``: score,
score - max, exp, weight, and the sum; the entropy's terms; the row sums),
and finds the first of the learner's values that those steps do not contain.
It never runs the learner's code: it reads the trace, plain data.

lesson_steps(check)        the lesson's steps for a check's input
compared(check, outcome)   a failed check's trace beside the lesson's steps, with
                           the first value that leaves them marked (``trace_text.trace_record``)

    >>> from lesson.grader.contract import check_named
    >>> [(step["name"], shown(step["value"])) for step in lesson_steps(check_named(
    ...     "lesson's first weight"))][1:]
    [('max', '0.7071'), ('score - max', '[0, -0.7071]'), ('exp(score - max)', '[1, 0.4931]'), ('sum of the exps', '1.4931'), ('weight', '[0.6698, 0.3302]')]

How values are matched, by number (within the checks' tolerance, whatever
the learner named them), and why so:

- Only numbers count: floats, and lists or arrays of numbers.  An int on its
  own is a count, an index or a length as often as a value; a bool, a string
  or an object says nothing a step has; a number written in the code
  (``eps = 1e-12``) or a list of zeros made to be filled is a start, not a
  step.  They are shown, never matched.
- A value is the lesson's when it is one of the lesson's steps (a whole row,
  a scalar such as the max or the sum), a step under way (a list the first
  items of a step, a sum or a max part of the way through its row), or, on a
  line that ran more than once, one item of a step (a loop's exp; not 0,
  an item too common to say anything).  A variable's last value must be a
  whole step or an item: a sum that stops part of the way through its row
  (a loop one key short) is not the lesson's.  Where the lesson raises (an
  overflow, a row all -inf), inf or nan is the lesson's too (failing loudly),
  and so is an exception of the same kind.
- The steps come in order (the max before score - max, the exps before their
  sum).  Once a learner's value has reached a step, a later value that is
  only an earlier step is not the lesson's next one: ``total = sum(x)`` on
  [0.7071, 0] gives 0.7071, the row's max, after the exps were made.  A
  loop's variable is exempt: reading the input again is no mistake.
- The first value that is none of these is marked, with the lesson's step for
  it: the step it is closest to (within 1e-3: a float32 or a rounding), else
  the lesson's next step of the same size.  The function's own return must be
  the lesson's answer.  An exception is marked on the line that raised it,
  beside the lesson's next step.  Where no step of the lesson's can be named
  for the first such value, nothing is marked: the trace is shown as it is.
- A traced run that did not end as the checked one did (the learner's code
  draws random numbers, say, or a later check of it patched a builtin) is
  not shown at all: its steps are not the checked call's.
"""

import copy
import math
import re

import lesson
from lesson.grader.compare import matches, numbers
from lesson.grader.contract import NEG_INF
from lesson.grader.harness import Outcome
from lesson.grader.trace_text import shown, trace_record  # noqa: F401 - shown: the examples
from lesson.tables import TABLE_HEADER, fmt

CLOSE = 1e-3            # a value this near a step is that step, miscomputed


# --- The lesson's steps ----------------------------------------------------------------

def lesson_steps(check):
    """The lesson's steps for a check's input, in order: a list of
    {"stage", "row" (None for a step of every row at once), "name",
    "value" (a number or a list of them; None where the lesson raises),
    "raises" (what the lesson raises there, or None), "under_way" (the
    values the step passes through as it is made), "table" (is it a
    column of the lesson's table, which a report shows?)}.

    A row is what the function works along: a row of scores, or a column
    with axis=0.  With more than one row, each step comes once a row and
    once for all the rows together (as NumPy makes it).

    >>> from lesson.grader.contract import check_named
    >>> [s["name"] for s in lesson_steps(check_named("one-hot is 0")) if s["table"]]
    ['w * ln w', 'sum of w * ln w', 'entropy']
    >>> [s["name"] for s in lesson_steps(check_named("axis=0 normalises columns"))][:4]
    ['score', 'score (column 1)', 'score (column 2)', 'max']
    """
    rows, layout = _rows(check)
    made = {"softmax": _softmax_steps, "naive_softmax": _naive_steps,
            "rows_normalised": _sum_steps, "entropy": _entropy_steps}[check.function]
    each = [made(row) for row in rows]
    out = []
    for number, steps in enumerate(each):
        part = f" ({layout[:-1]} {number + 1})" if len(rows) > 1 else ""
        out += [dict(step, row=number if part else None, name=step["name"] + part)
                for step in steps]
    if len(rows) > 1:
        out += _together(each, layout)
    return sorted(out, key=lambda step: (step["stage"], step["row"] is not None))


def _rows(check):
    """The rows a check's function works along, and how they lie in its
    input: "rows", or "columns" (softmax with axis=0)."""
    x = check.args[0]
    if not (isinstance(x, list) and x and isinstance(x[0], list)):
        return [list(x)], "rows"
    if check.function == "softmax" and check.kwargs.get("axis", -1) in (0, -2):
        return [list(column) for column in zip(*x)], "columns"
    return [list(row) for row in x], "rows"


def _step(stage, name, value, under_way=(), raises=None, table=True):
    return {"stage": stage, "name": name, "value": value, "under_way": list(under_way),
            "raises": raises, "table": table}


def _running(values, start=0.0, add=lambda total, value: total + value):
    """The values a running total (or max) passes through, before its last."""
    out, total = [start], start
    for value in values[:-1]:
        total = add(total, value)
        out.append(total)
    return out


def _softmax_steps(row):
    top = max(row)
    steps = [_step(0, TABLE_HEADER[1], row, table=False),
             _step(1, "max", top, _running(row, NEG_INF, max))]
    if top == NEG_INF:
        return steps + [_step(2, TABLE_HEADER[4], None, raises="ValueError: every key is masked")]
    table = lesson.softmax_table(row)
    exps = [e for _, _, e, _ in table]
    return steps + [_step(2, TABLE_HEADER[2], [d for _, d, _, _ in table]),
                    _step(3, TABLE_HEADER[3], exps),
                    _step(4, "sum of the exps", math.fsum(exps), _running(exps)),
                    _step(5, TABLE_HEADER[4], [w for *_, w in table])]


def _naive_steps(row):
    steps = [_step(0, TABLE_HEADER[1], row, table=False)]
    try:
        exps = [math.exp(s) for s in row]
    except OverflowError:
        return steps + [_step(1, "exp(score)", None, raises=(
            f"OverflowError: exp({fmt(max(row))}) overflows"))]
    total = math.fsum(exps)
    steps += [_step(1, "exp(score)", exps), _step(2, "sum of the exps", total, _running(exps))]
    if not 0 < total < math.inf:
        return steps + [_step(3, TABLE_HEADER[4], None, raises=(
            f"ValueError: the exps sum to {fmt(total)}"))]
    return steps + [_step(3, TABLE_HEADER[4], [e / total for e in exps])]


def _sum_steps(row):
    total = math.fsum(row)
    return [_step(0, TABLE_HEADER[4], row, table=False), _step(1, "row sum", total, _running(row)),
            _step(2, "|sum - 1|", abs(total - 1))]


def _entropy_steps(row):
    above = [w for w in row if w > 0]
    terms = [w * math.log(w) for w in above]
    total = math.fsum(terms)
    return [_step(0, TABLE_HEADER[4], row, table=False),
            _step(0, "weight above 0", above, table=False),
            _step(1, "w * ln w", [w * math.log(w) if w > 0 else 0.0 for w in row]),
            _step(1, "ln w", [math.log(w) for w in above], table=False),
            _step(1, "w * ln w above 0", terms, table=False),
            _step(2, "sum of w * ln w", total, _running(terms)),
            _step(3, "entropy", 0.0 - total, _running([-t for t in terms]))]


def _together(each, layout):
    """Each stage's step for every row at once, as NumPy makes them (a list
    of rows, or of the rows' maxes and sums), laid out as the input is."""
    out = []
    for first, *rest in zip(*each):
        steps = [first] + rest
        if any(step["value"] is None for step in steps):
            continue
        values = [step["value"] for step in steps]
        if isinstance(values[0], list) and layout == "columns":
            values = [list(row) for row in zip(*values)]
        out.append(dict(_step(first["stage"], first["name"], values, table=first["table"]),
                        row=None))
    return out


# --- The learner's values -----------------------------------------------------------------

def _flat(value, code=""):
    """A shown value's numbers (a list, or [number] for a float), or None
    for one that is not matched: an int or a bool on its own, a list of
    zeros (made to be filled) or none, a number written in the code
    (``eps = 1e-12``), anything that is not numbers."""
    if isinstance(value, float):
        return None if _CONSTANT.match(code) else [value]
    if isinstance(value, list) and value:
        flat = numbers(value)
        if not flat or any(isinstance(v, bool) for v in _leaves(value)):
            return None
        return None if all(v == 0 for v in flat) and _ZEROS.search(code) else flat
    return None


_CONSTANT = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*\s*=\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$")
_ZEROS = re.compile(r"zeros|empty|\x5b0(\.0*)?\x5d\s*[*]")     # np.zeros, [0.0] * n


def _leaves(value):
    if isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _same(flat, value):
    """Are the learner's numbers the step's value (a number or a list)?"""
    want = numbers(value) if value is not None else None
    return want is not None and len(want) == len(flat) and all(
        matches(g, w) for g, w in zip(flat, want))


def _near(flat, value):
    want = numbers(value) if value is not None else None
    return want is not None and len(want) == len(flat) and all(
        g == w or (math.isfinite(g) and math.isfinite(w)
                   and math.isclose(g, w, rel_tol=CLOSE, abs_tol=CLOSE * 1e-3))
        for g, w in zip(flat, want))


def _how(flat, listed, step, repeated):
    """How the learner's numbers (``listed``: a list, not a number) are the
    step: "whole", "item" (one of its values, on a line that ran more than
    once), "under way", or None."""
    value = step["value"]
    if step["raises"] and not all(math.isfinite(v) for v in flat):
        return "whole"                      # inf or nan: failing loudly, as the lesson does
    if value is None:
        return None
    if _same(flat, value):
        return "whole"
    if not listed:
        if repeated and flat[0] != 0 and isinstance(value, list) and any(
                matches(flat[0], item) for item in numbers(value) or []):
            return "item"                   # (0 is too common an item to say anything)
        if any(matches(flat[0], past) for past in step["under_way"]):
            return "under way"
        return None
    items = numbers(value) if isinstance(value, list) and step["stage"] else None
    if items and len(flat) < len(items) and all(matches(g, w) for g, w in zip(flat, items)):
        return "under way"                  # the first items, appended
    if items and len(flat) == len(items) and any(g != 0 for g in flat) and all(
            g == 0 or matches(g, w) for g, w in zip(flat, items)):
        return "under way"                  # some items filled in, the others still 0
    return None


# --- Where the learner's values leave the lesson's ------------------------------------------

def compared(check, outcome):
    """A failed check's trace beside the lesson's steps (``trace_text.trace_record``), or
    None: no trace, or one whose run did not end as the checked one did."""
    trace = outcome.get("trace")
    if (not _well_formed(trace) or not trace["steps"]
            or not _ended_alike(outcome, trace.get("outcome"))):
        return None
    lesson = lesson_steps(check)
    mark = _parting(trace, lesson, _lesson_answer(check))
    return trace_record(trace, lesson, mark)


def _well_formed(trace):
    return (isinstance(trace, dict) and isinstance(trace.get("steps"), list)
            and all(isinstance(step, dict) and isinstance(step.get("where"), str)
                    and isinstance(step.get("depth"), int) for step in trace["steps"])
            and isinstance(trace.get("code"), dict) and isinstance(trace.get("runs"), dict))


def _ended_alike(graded, traced):
    """Did the traced run end as the checked one did: the same value, or the
    same exception on the same line?"""
    if not isinstance(traced, dict):
        return False
    if "value" in graded and "value" in traced:
        value, again = graded["value"], traced["value"]
        if isinstance(value, dict) and isinstance(again, dict):    # not numbers: the same kind
            return value.get("other") == again.get("other")
        return value == again or matches(again, value)
    error, again = graded.get("error"), traced.get("error")
    return (isinstance(error, dict) and isinstance(again, dict)
            and (error.get("type"), error.get("where")) == (again.get("type"), again.get("where")))


def _lesson_answer(check):
    """The lesson's own answer to the check's call: (Outcome.VALUE, it) or
    ("raises", its type)."""
    try:
        return Outcome.VALUE, getattr(lesson, check.function)(*copy.deepcopy(check.args),
                                                        **check.kwargs)
    except (ArithmeticError, ValueError) as error:
        return "raises", type(error).__name__


class _Reading:
    """The learner's values read in order against the lesson's steps
    (the rules are the module's docstring's)."""

    def __init__(self, trace, lesson):
        self.trace, self.lesson = trace, lesson
        self.reached = {None: 0}    # row (None: all of them) -> the last stage reached
        self.last = {}              # a variable -> (step index, its value, under way only?)
        self.frames = {}            # depth -> how many of the learner's frames began there
        self.row = None             # the row the learner's values were last of

    def placed(self, flat, listed, repeated, reading):
        """The step the learner's numbers are, as (step, how), or (None,
        "behind") or (None, None) when they are none of the lesson's."""
        found = [(step, how) for step in self.lesson
                 if (how := _how(flat, listed, step, repeated or reading))]
        if not found:
            return None, None
        ahead = [(step, how) for step, how in found if step["stage"] >= self._at(step["row"])]
        if not ahead and not reading:
            return None, "behind"
        step, how = min(ahead or found, key=lambda pair: _HOW.index(pair[1]))
        if how != "under way" and step["row"] is not None:
            self.row = step["row"]
        if how == "whole" and ahead:
            self.reached[step["row"]] = max(self.reached.get(step["row"], -1), step["stage"])
        return step, how

    def _at(self, row):
        return max(self.reached.get(row, -1), self.reached.get(None, -1))

    def raised_as_lesson(self, error):
        """Does the lesson raise this kind of exception at a step not yet passed?"""
        kind = f"{error.get('type')}:"
        return any(step["raises"] and step["raises"].startswith(kind)
                   and step["stage"] >= self._at(step["row"]) for step in self.lesson)

    def step_for(self, flat, listed, reading=False, repeated=False):
        """The lesson's step to show beside a value that leaves them: the one it
        is near, else the next of its size, else the one reached of its size
        (that one first for what a loop or a call reads: the input's rows).
        A number made in a loop may be one item of a step: those steps count
        as its size."""
        rows = (self.row, None) if self.row is not None else {s["row"] for s in self.lesson}
        sized = sorted((step for step in self.lesson if step["row"] in rows and (
            step["raises"] or (_size(step["value"]) == len(flat)
                               and isinstance(step["value"], list) == listed)
            or (repeated and not listed and isinstance(step["value"], list)))),
            key=lambda step: (step["row"] is None, step["stage"]))    # the row's own first
        near = [step for step in sized if _near(flat, step["value"])
                and not _same(flat, step["value"])]        # (one it is, it is behind)
        later = [step for step in sized if step["stage"] > self._at(step["row"])]
        here = [step for step in sized if step["stage"] == self._at(step["row"])]
        return (near or (here + later if reading else later + here) or [None])[0]

    def next_step(self):
        """The lesson's step beside an exception: where the lesson raises, if it
        does, else its first step not yet reached, one of its table's if it can."""
        steps = sorted(self.lesson, key=lambda step: (step["row"] != self.row, step["stage"]))
        raising = [step for step in steps if step["raises"]]
        later = [step for step in steps if step["stage"] > self._at(step["row"])]
        return next((step for step in raising + later if step["table"]),
                    later[0] if later else None)


_HOW = ("whole", "item", "under way")     # of the ways a value is a step, the best first


def _size(value):
    flat = numbers(value) if value is not None else None
    return len(flat) if flat is not None else -1


def _parting(trace, lesson, answer):
    """Where the learner's values first leave the lesson's steps: a mark
    {"step": its index, "name", "got", "step_name", "lesson", "raises"}, or
    None (they never do, or no step of the lesson's can be named for it)."""
    reading = _Reading(trace, lesson)
    marks = []
    for index, step in enumerate(trace["steps"]):
        mark = _read_step(reading, index, step, answer)
        if mark is not None:
            marks.append(mark)
            break
    marks += _unfinished(reading)
    first = min(marks, key=lambda mark: mark["step"]) if marks else None
    return first if first is not None and first["step_name"] is not None else None


def _read_step(reading, index, step, answer):
    """The mark a step makes, if its values leave the lesson's, else None."""
    code = str(reading.trace["code"].get(step["where"], ""))
    runs = reading.trace["runs"].get(step["where"], 0)
    looping = code.startswith(("for ", "async for ")) or "calls" in step
    repeated = "folded" in step or (isinstance(runs, int) and runs > 1)
    if "calls" in step:
        reading.frames[step["depth"]] = reading.frames.get(step["depth"], 0) + 1
    values = [pair for pair in step.get("set") or [] if isinstance(pair, list) and len(pair) == 2]
    if "returns" in step and step["depth"] > 0:
        values.append(["returns", step["returns"]])
    for name, value in values:
        flat = _flat(value, code)
        if flat is None:
            continue
        listed = isinstance(value, list)
        found, how = reading.placed(flat, listed, repeated, looping)
        if found is None:
            return _mark(index, name, value, reading.step_for(flat, listed, looping, repeated))
        if not looping:                     # what a loop or a call reads need not be made
            key = (step["depth"], reading.frames.get(step["depth"], 0), str(name))
            reading.last[key] = (index, name, value, how == "under way", found)
    if isinstance(step.get("raised"), dict) and not reading.raised_as_lesson(step["raised"]):
        return _mark(index, "raised", step["raised"], reading.next_step())
    if "returns" in step and step["depth"] == 0 and not _is_answer(step["returns"], answer):
        return _mark(index, "returns", step["returns"], _answer_step(reading.lesson, answer))
    return None


def _answer_step(lesson, answer):
    """The lesson's answer as a step: its last step's, where that is the answer."""
    kind, value = answer
    if kind == "raises":
        return {"name": "answer", "value": None, "raises": value}
    last = [step for step in lesson if step["table"] and step["row"] is None]
    name = last[-1]["name"] if last and matches(last[-1]["value"], value) else "answer"
    return {"name": name, "value": value, "raises": None}


def _is_answer(value, answer):
    kind, right = answer
    return kind == Outcome.VALUE and matches(value, right)


def _unfinished(reading):
    """Marks for variables whose last value is a step only part of the way made."""
    out = []
    for index, name, value, under_way, step in reading.last.values():
        if under_way:
            out.append(_mark(index, name, value, step))
    return out


def _mark(index, name, value, step):
    """A mark on a learner's step; "step_name" None when no step of the
    lesson's can be named beside it."""
    step = step or {}
    return {"step": index, "name": str(name), "got": value, "step_name": step.get("name"),
            "lesson": step.get("value"), "raises": step.get("raises")}
