"""The report: what a learner and a teacher read, as records.

A report is a list of records, one a line, each plain data:

  "role"     what the line is: "title", "problem", "advice", "note",
             "printed", "function", "verdict", "detail", "stuck", "closing",
             "gap" (a blank line) or "text"
  "check"    the index of the check it is about, or None
  "indent"   spaces before it
  "label"    its label ("PASS", "got:", "printed:"), or ""
  "pad"      the width the label takes, spaces after it included, or 0
  "text"     what follows the label (not wrapped)
  "verdict"  a Verdict, PASS or FAIL, on a check's first line, else None
  "lines"    the learner's line numbers it names (the page marks them)
  "links"    [start, end, address] of each place of the site its text names
  "at"       the learner's line a step of a trace ran (the page may link it;
             it is not marked), or None

A failed check that was traced (a function's first failing one) has, after
its details, where the learner's values leave the lesson's ("differs", its
line marked), the learner's steps ("step", one "marked"; a loop's further
rounds folded into one) and the lesson's own for the input ("lesson"), each
block under its heading ("trace").

Every output is drawn from these: the terminal joins each into a line of
text (``line_text``) and wraps it under its text (``wrap_indent``); the
Exercises page draws them (``lesson.grader.page`` hands them to runner.js);
the grading platforms' documents take their parts (``lesson.grader.formats``).
Nobody reads the text back for a verdict, a line number or a link.

records(result, time_limit)                one file's report; line(text, ...) one record
located(results, outcomes)                 each check's result with the learner's "line"
line_text(record), text_lines(records)     the report as the terminal prints it...
wrapped(records, width), wrap_indent(r)    ... wrapped, each line under its own text
tally(passed, failed), counts(results)     "17 passed, 3 failed", and its numbers
summary_lines(files)                       the teacher's table
visible(text)                              control characters shown escaped
printable(name)                            a file name as one line of text
"""

import os
import re
import textwrap
import typing

from lesson.grader.contract import FUNCTIONS, TIME_LIMIT
from lesson.grader.harness import Verdict
from lesson.grader.links import LESSON_PARTS, SOLUTION, place
from lesson.grader.problems import (NOT_COUNTED, REFERENCE, WHAT_TO_TRY, load_notes,
                                    load_problem_text)

# A check that went wrong, rather than one that was not run or not written.
WENT_WRONG = (Verdict.FAIL, Verdict.ERROR, Verdict.TIMEOUT)


# --- The records -------------------------------------------------------------------

FIELD = 10              # the width of a check's field labels: "expected: "
VERDICT = 6             # ... and of its verdict: "FAIL  "
MIN_WRAP_INDENT = 4     # a wrapped line with no label is still indented this much
DETAIL_INDENT = 8       # a check's details sit under its name


class Line(typing.TypedDict):
    """One record of a report: a line (see the module's docstring)."""
    role: str
    check: typing.Optional[int]
    indent: int
    label: str
    pad: int
    text: str
    verdict: typing.Optional[Verdict]
    lines: list
    links: list
    at: typing.Optional[int]


def line(text="", *, role="text", check=None, indent=0, label="", pad=0, verdict=None,
         lines=(), links=(), at=None) -> Line:
    """One record of a report (``Line``; see the module's docstring for its keys).
    Its text and label are one line each, whatever the learner's code made
    of them (a message of its own, an exception's name, where a trace says
    a step is): control characters shown escaped, in the terminal and in
    the page alike.

    >>> line_text(line("[0.5, 0.5]", role="detail", indent=8, label="got:", pad=FIELD))
    '        got:      [0.5, 0.5]'
    >>> line("ValueError\\u202e: \\x1b[2J\\x1b[32mPASS")["text"]
    'ValueError\\\\u202e: \\\\x1b[2J\\\\x1b[32mPASS'
    >>> line("x = 1", label="line 3\\x1b[2J")["label"]
    'line 3\\\\x1b[2J'
    """
    return {"role": role, "check": check, "indent": indent, "label": visible(label, keep=""),
            "pad": pad, "text": visible(text, keep="\t"), "verdict": verdict,
            "lines": list(lines), "links": [list(link) for link in links], "at": at}


def records(result, time_limit=TIME_LIMIT, functions=FUNCTIONS, named=False):
    """The report a learner reads, as records, built from one file's result.

    ``result`` has "file", "load" and "checks" (``judge.result_record``s,
    with the learner's "line" where ``located`` found one), and may have a
    "problem" (why it did not load,
    where a bundle says it better than the load can).  Functions not in
    ``functions`` are summed up in one line each; the closing line always
    counts every check, and names the file when ``named``.

    >>> from lesson.grader.judge import results
    >>> load = {"status": "ok"}
    >>> report = records({"file": "ex.py", "load": load, "checks": results(load, {})})
    >>> for record in report[:4] + report[-1:]:
    ...     print(line_text(record))
    Checking ex.py against lesson 4's contract
    <BLANKLINE>
    softmax
      FAIL  lesson's first weight
    0 passed, 20 failed
    >>> report[3]["verdict"], report[3]["check"]
    ('fail', 0)
    """
    load, checks = result["load"], result["checks"]
    shown = printable(result["file"])
    out = [line(f"Checking {shown} against lesson 4's contract", role="title"),
           _gap()]
    trouble = load_problem_text(load, time_limit, file=shown)
    if trouble is not None:                  # a bundle may say it better (no submission found)
        trouble = result.get("problem") or trouble
    out += _load_records(trouble, load, checks, time_limit)
    if trouble is None:
        for function in FUNCTIONS:
            out += _function_records(function, checks, function in functions)
    closing = tally(*counts(checks))
    return out + [line(f"{shown}: {closing}" if named else closing, role="closing")]


def learner_line(info):
    """The line of the learner's file a load or an error points at, or None (in a
    notebook, the line of a cell is not a line of the file).

    >>> learner_line({"line": 8, "where": "line 8"})
    8
    >>> learner_line({"line": 2, "where": "cell 3, line 2"}) is None
    True
    """
    number = info.get("line")
    return number if isinstance(number, int) and info.get("where") == f"line {number}" else None


def located(results, outcomes):
    """The results, each with "line": the learner's line its error points at, or None.

    >>> from lesson.grader.judge import results
    >>> raised = {"error": {"type": "OverflowError", "line": 8, "where": "line 8", "code": "x"}}
    >>> located(results({"status": "ok"}, {0: raised}), {0: raised})[0]["line"]
    8
    """
    outcomes = {int(index): outcome for index, outcome in outcomes.items()}
    return [dict(result, line=learner_line((outcomes.get(index) or {}).get("error") or {}))
            for index, result in enumerate(results)]


def _gap():
    return line(role="gap")


def _load_records(trouble, load, checks, time_limit):
    """What the file did while loading: why it did not load (``trouble``), or
    notes, and what it printed."""
    out = []
    if trouble is not None:                      # one paragraph, then nothing ran
        out.append(line(trouble, role="problem", lines=_learner_lines(load)))
        advice = REFERENCE if load.get("uses_reference") else WHAT_TO_TRY.get(load["status"])
        out += [line(advice, role="advice")] if advice else []
        out.append(_gap())
    else:
        for note, where in zip(load_notes(load, time_limit), _note_lines(load)):
            out += [line(note, role="note", label="Note:", pad=6, lines=where), _gap()]
        if any(c["message"] == NOT_COUNTED for c in checks) or load.get("uses_reference"):
            out += [line(REFERENCE, role="advice"), _gap()]
    printed = _printed(load, indent=0)
    if printed:
        out += [line("While loading, your file printed:", role="text")] + printed + [_gap()]
    if trouble is not None:
        out += [line(f"None of the {len(checks)} checks could run: the file did not load.",
                     role="text"), _gap()]
    return out


def _function_records(function, checks, shown):
    """One function's part of the report: its checks, or one line that sums them up."""
    own = [(index, check) for index, check in enumerate(checks) if check["function"] == function]
    if not shown:
        passed, failed = counts([check for _, check in own])
        return [line(f"{function}  ({tally(passed, failed)}: not shown here)", role="function"),
                _gap()]
    out = [line(function, role="function")]
    for index, check in own:
        out += _check_records(index, check)
    if any(check["status"] in WENT_WRONG for _, check in own):
        out.append(_stuck(function))
    return out + [_gap()]


def _check_records(index, check):
    """A check's verdict; if it failed, what was asked, given and wanted; what it printed.

    This is the one rule for a check's details, in every output: the input,
    expected and got only for a call that ran and came back with an answer
    to judge (not None, not a file that imports the lesson); expected, got
    and the hint not after a time-out, which got nothing.
    """
    out = [line(check["name"], role="verdict", check=index, indent=2, pad=VERDICT,
                label="PASS" if check["passed"] else "FAIL",
                verdict=Verdict.PASS if check["passed"] else Verdict.FAIL)]
    asked = (not check["passed"] and check["status"] in WENT_WRONG
             and check["got"] != "None" and check["message"] != NOT_COUNTED)
    fields = []
    if asked:
        fields.append(("input:", check["input"], ()))
    if not check["passed"] and check["message"]:
        fields.append(("", check["message"], ()))
    if asked and check["status"] != Verdict.TIMEOUT:
        fields.append(("expected:", check["expected"], ()))
        if check["got"] is not None:
            fields.append(("got:", check["got"], [check["line"]] if check.get("line") else ()))
        if check["hint"]:
            fields.append(("hint:", check["hint"], ()))
    out += [line(text, role="detail", check=index, indent=DETAIL_INDENT, label=label,
                 pad=FIELD if label else 0, lines=lines) for label, text, lines in fields]
    out += _printed(check, indent=DETAIL_INDENT, check=index)
    return out + (_trace_records(index, check["trace"]) if check.get("trace") else [])


# --- A failed check's steps ---------------------------------------------------------

TRACE_ROLES = ("differs", "trace", "step", "marked", "lesson")     # a traced check's block
CODE_WIDTH = 36         # characters of a step's code shown, in a column
STOPPED = {"time": "the trace stops here: tracing took all its time",
           "traced": "the trace stops here: your code set a tracer of its own (sys.settrace)",
           "error": "the trace stops here: the tracer could not go on"}


def _trace_records(index, trace):
    """A traced check's records (see ``steps.trace_record`` for its data): where
    the learner's values leave the lesson's, the learner's steps, the lesson's.
    Each step and each of the lesson's is a field under its label (the line, or
    the step's name), as a check's details are: on a phone, under it.

    >>> trace = {"steps": [{"where": "line 7", "line": 7, "depth": 0, "code": "total = sum(x)",
    ...                     "values": "total = 0.7071", "folded": 0, "marked": True}],
    ...          "lesson": [{"name": "sum of the exps", "value": "1.4931"}], "cut": None,
    ...          "mark": {"where": "line 7", "line": 7, "code": "total = sum(x)",
    ...                   "name": "total", "got": "0.7071", "step": "sum of the exps",
    ...                   "lesson": "1.4931", "lesson_raises": False}}
    >>> for record in _trace_records(0, trace):
    ...     print(line_text(record))
            differs:  line 7: total = sum(x) gives total = 0.7071; the lesson's sum of the exps is 1.4931 here
            your steps:
            > line 7  total = sum(x)  total = 0.7071
            the lesson's steps:
              sum of the exps  1.4931
    """
    mark, out = trace["mark"], []
    if mark:
        number = learner_line(mark)
        out.append(line(_differs(mark), role="differs", check=index,
                        indent=DETAIL_INDENT, label="differs:", pad=FIELD,
                        lines=[number] if number else ()))
    out.append(line("your steps:", role="trace", check=index, indent=DETAIL_INDENT))
    wheres = max(len(step["where"]) for step in trace["steps"]) + 2
    codes = min(max(len(step["code"]) for step in trace["steps"]), CODE_WIDTH)
    for step in trace["steps"]:
        code = step["code"] if len(step["code"]) <= codes else step["code"][:codes - 3] + "..."
        text = f"{'  ' * min(step['depth'], 4)}{code:<{codes}}  {step['values']}"
        marked = step["marked"]                    # "> line 8", its text in line with the others'
        out.append(line(text.rstrip(), role="marked" if marked else "step",
                        check=index, indent=DETAIL_INDENT + (0 if marked else 2),
                        label=("> " if marked else "") + step["where"],
                        pad=wheres + (2 if marked else 0), at=learner_line(step)))
    if trace["cut"]:
        out.append(line(f"({STOPPED[trace['cut']]})", role="trace", check=index,
                        indent=DETAIL_INDENT + 2))
    out.append(line("the lesson's steps:", role="trace", check=index, indent=DETAIL_INDENT))
    names = max((len(entry["name"]) for entry in trace["lesson"]), default=0)
    return out + [line(entry["value"], role="lesson", check=index,
                       indent=DETAIL_INDENT + 2, label=entry["name"], pad=names + 2)
                  for entry in trace["lesson"]]


def _differs(mark):
    """Where the learner's values leave the lesson's, in one sentence."""
    said = f"{mark['where']}: {mark['code']}"
    if mark["name"] == "returns":
        theirs = f"{said} returns {mark['got']}"
    elif mark["name"] == "raised":
        theirs = f"{said} raises {mark['got']}"
    else:
        theirs = f"{said} gives {mark['name']} = {mark['got']}"
    if mark["lesson_raises"]:
        return f"{theirs}; the lesson raises {mark['lesson']} here"
    return f"{theirs}; the lesson's {mark['step']} is {mark['lesson']} here"


def _stuck(function):
    """Where a learner whose function fails can read on, or see it done: each
    place as ``links.place`` names it, and the address it links to.

    >>> line_text(_stuck("entropy"))
    '  stuck? read In code \u203a entropy(w) or see a solution at Exercises \u203a A solution'
    >>> _stuck("entropy")["links"]
    [[5, 25, 'in-code.html#entropy'], [47, 69, 'exercises.html#a-solution']]
    """
    text, links = "", []
    for piece, href in (("read ", None), place(LESSON_PARTS[function]),
                        (" or see a solution at ", None), place(SOLUTION)):
        if href:
            links.append((len(text), len(text) + len(piece), href))
        text += piece
    return line(text, role="stuck", indent=2, label="stuck?", pad=7, links=links)


def _printed(source, indent, check=None, most=8, width=200):
    """What the learner's code printed, labelled: a few lines a stream, each cut
    short, then exactly how many characters were not shown.

    >>> for record in _printed({"stdout": "loading!" * 1000}, indent=0):
    ...     print(line_text(record))
    printed:  loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!...
              ... (7800 more characters not shown)
    """
    out = []
    for stream, label in (("stdout", "printed:"), ("stderr", "stderr:")):
        text = (source.get(stream) or "").rstrip("\n")
        more = 0
        cut = _CUT.search(text)
        if cut:                              # the plan kept the first characters only
            text, more = text[:cut.start()], int(cut.group(1))
        if not text and not more:
            continue
        pieces = text.split("\n")
        shown = [piece[:width] for piece in pieces[:most]]
        hidden = len(text) - sum(len(piece) for piece in shown) - (len(shown) - 1) + more
        texts = [kept + ("..." if len(piece) > width else "")
                 for kept, piece in zip(shown, pieces)]
        if hidden > 0:
            texts.append(f"... ({hidden} more characters not shown)")
        out += [line(text, role="printed", check=check, indent=indent, pad=FIELD,
                     label=label if i == 0 else "") for i, text in enumerate(texts)]
    return out


# What the plan adds to output it cut short (lesson.grader.plan.capped).
_CUT = re.compile(r"\n?[.]{3} [(]([0-9]+) more characters not shown[)]$")


def _learner_lines(load):
    """The learner's line numbers a load's problem names (none in a notebook's cells)."""
    return [n for n in (learner_line(load), learner_line(load.get("error") or {})) if n]


def _note_lines(load):
    """The learner's line numbers each of ``load_notes`` names, in its order."""
    return [[] for _ in load.get("cells", [])] + (
        [[n for n in [learner_line(load["exited"])] if n]] if load.get("exited") else [])


# --- The report as text ------------------------------------------------------------

def line_text(record):
    """A record as the terminal prints it: indent, label, text."""
    return " " * record["indent"] + record["label"].ljust(record["pad"]) + record["text"]


def text_lines(report):
    """A report's records as lines of text, not wrapped.

    >>> text_lines([line("large scores", indent=2, label="FAIL", pad=VERDICT), line()])
    ['  FAIL  large scores', '']
    """
    return [line_text(record) for record in report]


def wrap_indent(record):
    """Where a wrapped line goes on: its indent plus its label's width.

    The terminal, the site's reports and the page's editor all wrap with it.

    >>> wrap_indent(line("subtract the row maximum", indent=8, label="hint:", pad=FIELD))
    18
    >>> wrap_indent(line("Your file has a syntax error on line 3: '(' was never closed"))
    4
    """
    return record["indent"] + (record["pad"] or MIN_WRAP_INDENT)


def wrapped(report, width):
    """A report's lines wrapped to ``width`` columns, each under its own text.

    >>> wrapped([line("subtract the row maximum first", indent=8, label="hint:",
    ...               pad=FIELD)], 34)
    ['        hint:     subtract the row', '                  maximum first']
    """
    out = []
    for record in report:
        text = line_text(record)
        out += textwrap.wrap(text, width, subsequent_indent=" " * wrap_indent(record),
                             break_long_words=False, break_on_hyphens=False,
                             drop_whitespace=True) or [text]
    return out


def tally(passed, failed):
    """The count every output closes with.

    >>> tally(17, 3)
    '17 passed, 3 failed'
    """
    return f"{passed} passed, {failed} failed"


def counts(results):
    """(passed, failed) over a list of results.

    >>> counts([{"passed": True}, {"passed": False}, {"passed": False}])
    (1, 2)
    """
    passed = sum(r["passed"] for r in results)
    return passed, len(results) - passed


def visible(text, keep="\n\t"):
    """Text with its control characters (a terminal's clear screen, a NUL, a
    newline in a file name) shown escaped, as Python writes them; those in
    ``keep`` stay.  Every output shows them this way.

    >>> visible("\\x1b[2Jhi\\n"), visible("a\\nb.py", keep="")
    ('\\\\x1b[2Jhi\\n', 'a\\\\nb.py')
    """
    return "".join(c if c in keep or c.isprintable() else repr(c)[1:-1] for c in text)


def printable(name):
    """A name as one line of text: a control character (a newline in a file
    name) shown escaped, a byte that is not UTF-8 as \\xe9.

    >>> printable("ann\\nbob.py"), printable("caf\\udce9.py")
    ('ann\\\\nbob.py', 'caf\\\\xe9.py')
    """
    return visible(os.fsencode(name).decode("utf-8", "backslashreplace"), keep="")


def summary_lines(files):
    """The teacher's table: file, passed, failed, first failing check; then the total.

    ``files`` are per-file results with "file", "passed", "failed" and "checks".

    >>> bob = [{"function": "softmax", "name": "large scores", "passed": False,
    ...         "status": "fail"}]
    >>> for row in summary_lines([
    ...         {"file": "alice.py", "passed": 20, "failed": 0, "checks": []},
    ...         {"file": "bob.py", "passed": 19, "failed": 1, "checks": bob}]):
    ...     print(row)
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
        if entry["checks"] and all(r["status"] == Verdict.NOT_RUN for r in entry["checks"]):
            first = "(it could not be loaded: see its report)"
        elif first:
            first = f"{first['function']}: {first['name']}"
        rows.append((entry["file"], str(entry["passed"]), str(entry["failed"]), first or ""))
    width = max(len(row[0]) for row in rows)
    lines = [f"{r[0]:{width}}  {r[1]:>6}  {r[2]:>6}  {r[3]}".rstrip() for r in rows]
    return lines + ["", tally(sum(entry["passed"] for entry in files),
                              sum(entry["failed"] for entry in files))]
