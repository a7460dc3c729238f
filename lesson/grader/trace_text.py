"""A traced check as the report shows it: the learner's steps, the lesson's, the
mark, every value as text (``trace_record``), short enough to read.

    >>> shown([0.49306869, 1.0, -math.inf])
    '[0.4931, 1, -inf]'
"""

import math

from lesson.grader.harness import TRACE_CUTS
from lesson.tables import fmt

SHOWN_ITEMS = 6         # items of a long list a report shows


# --- The lesson's steps ----------------------------------------------------------------


def trace_record(trace, lesson, mark):
    """A trace as a report shows it, plain data, every value as text:

      "steps"   the learner's, in order: {"where", "line" (the number, or None
                in a notebook's cell), "depth", "code" (the line's text),
                "values" (what it set, returned or raised), "folded" (steps
                of a loop not shown, 0 for a step shown), "marked"}
      "lesson"  the lesson's table for the input: {"name", "value"}, every row
                at once (a row where the lesson raises says so)
      "mark"    None, or where the learner's values leave the lesson's:
                {"where", "line", "code", "got" (the value, or what was
                raised), "name" (what the learner set, or "returns" or
                "raised"), "step" (the lesson's step), "lesson" (its value,
                or what the lesson raises), "lesson_raises"}, the two values
                with digits enough to differ
      "cut"     None, or why the trace stops early (see ``harness.traced``)
    """
    steps = [_shown_step(trace, index, step, mark) for index, step in enumerate(trace["steps"])]
    table = [{"name": step["name"], "value": step["raises"] or shown(step["value"])}
             for step in lesson if step["table"] and (step["row"] is None or step["raises"])]
    cut = trace.get("cut") if trace.get("cut") in TRACE_CUTS else None
    return {"steps": steps, "lesson": table, "mark": _shown_mark(trace, mark), "cut": cut}


def _shown_step(trace, index, step, mark):
    """One of the learner's steps, as text."""
    parts = []
    if "calls" in step:
        arguments = ", ".join(f"{name}={shown(value)}" for name, value in _pairs(step))
        parts.append(f"calls {step['calls']}({arguments})")
    elif "folded" in step:
        folded = step["folded"] if isinstance(step["folded"], dict) else {}
        lines = ", ".join(str(n) for n in folded.get("lines", []) if isinstance(n, int))
        left = [f"{name} = {shown(value)}" for name, value in _pairs(step)]
        parts.append(f"... {folded.get('steps', 0)} more steps of lines {lines}"
                     + (", leaving" if left else ""))
        parts += left
    else:
        parts += [f"{name} = {shown(value)}" for name, value in _pairs(step)]
    for key in ("returns", "yields"):
        if key in step:
            parts.append(f"{key} {shown(step[key])}")
    if isinstance(step.get("raised"), dict):
        parts.append(f"raises {_error(step['raised'])}")
    folded = step.get("folded") if isinstance(step.get("folded"), dict) else {}
    values = ", ".join(parts)
    if folded:                              # "... 9 more steps of lines 4, 5, leaving x = 1"
        values = " ".join([parts[0], ", ".join(parts[1:])]).strip()
    return {"where": step["where"], "line": _line(step), "depth": step["depth"],
            "code": str(trace["code"].get(step["where"], "")), "values": values,
            "folded": folded.get("steps", 0), "marked": mark is not None and mark["step"] == index}


def _line(step):
    return step.get("line") if isinstance(step.get("line"), int) else None


def _pairs(step):
    return [(str(pair[0]), pair[1]) for pair in step.get("set") or []
            if isinstance(pair, list) and len(pair) == 2]


def _error(error):
    message = str(error.get("message") or "")
    return f"{error.get('type')}: {message}" if message else str(error.get("type"))


def _shown_mark(trace, mark):
    if mark is None:
        return None
    step = trace["steps"][mark["step"]]
    digits = _digits_to_differ(mark["got"], mark["lesson"])
    got = _error(mark["got"]) if mark["name"] == "raised" else shown(mark["got"], digits)
    lesson = mark["raises"] or shown(mark["lesson"], digits)
    return {"where": step["where"], "line": _line(step),
            "code": str(trace["code"].get(step["where"], "")),
            "name": mark["name"], "got": got, "step": mark["step_name"], "lesson": lesson,
            "lesson_raises": bool(mark["raises"])}


def _digits_to_differ(got, want, digits=4):
    """The fewest decimals (at least 4, at most 12) at which two values show differently."""
    if isinstance(got, dict) or want is None:
        return digits
    while digits < 12 and shown(got, digits) == shown(want, digits):
        digits += 1
    return digits


def shown(value, digits=4):
    """A value as a trace shows it: numbers as the lesson's tables show them
    (``lesson.tables.fmt``), a long list's first items and its length.

    >>> shown([0.49306869, 1.0, -math.inf]), shown({"other": "list", "len": 1000})
    ('[0.4931, 1, -inf]', 'a list of 1000 items')
    >>> shown({"other": "str", "repr": "'TODO'"}), shown([0.5] * 8)
    ("'TODO'", '[0.5, 0.5, 0.5, 0.5, 0.5, 0.5, ... (8 items)]')
    """
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        big = math.isfinite(value) and abs(value) >= 1e6
        return f"{value:.{digits}g}" if big else fmt(value, digits)
    if isinstance(value, list):
        items = [shown(item, digits) for item in value[:SHOWN_ITEMS]]
        if len(value) > SHOWN_ITEMS:
            items.append(f"... ({len(value)} items)")
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        if "repr" in value:
            return str(value["repr"])[:60]
        if "len" in value:
            return f"a {value.get('other')} of {value['len']} items"
        return f"a {value.get('other')}"
    return "?"
