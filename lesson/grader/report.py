"""The report: what a learner and a teacher read, as lines of text.

The lines are not wrapped: a terminal or a web page wraps them once, as
wide as it is, each under the text after its label (``hang``).

report_lines(shown_as, load, results, time_limit)   one file's report
load_problem_text(load), load_notes(load)          what went wrong loading
summary_lines(files)                               the teacher's table
hang(line)                                         where a wrapped line goes on
"""

import re

from lesson.grader.contract import FUNCTIONS, TIME_LIMIT, time_limits
from lesson.grader.links import LESSON_PARTS, SOLUTION, address

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
    "crashed": "Your file stopped the Python process while loading ({crash}): is "
               "there an os._exit() or exit() at the top level?",
    "signal": "Your file crashed Python while loading: {crash}.",
    "garbled": "Your file wrote into the checker's private pipe while loading, so "
               "it could not be checked.",
    "missing": "There is no file {file}.",
    "unreadable": "{file} could not be read: {message}.",
    "internal": "The checker itself failed on {file} ({message}): please report "
                "this, with the file.",
    "unstarted": "The checker failed, not your file: {message}.",
    "unsupported": "This checker runs files on Linux and macOS only; on Windows, "
                   "run it in WSL (Windows Subsystem for Linux).",
}

# What to try, after the sentence on why a file could not be loaded.
WHAT_TO_TRY = {
    "syntax": "Look at that line and the one before it for a bracket or a quote left "
              "open, or a missing colon; python -m py_compile FILE names the same place.",
    "error": "The code at the top level of your file runs when the checker loads it: "
             "run the file yourself (python FILE) to see the whole traceback, and keep "
             "experiments inside a function or under if __name__ == \"__main__\":.",
    "timeout": "Move the loop into a function, or under if __name__ == \"__main__\":, "
               "so that loading the file only defines the four functions.",
    "crashed": "Run the file yourself (python FILE): what stops Python there stops it "
               "in the checker too.",
    "not_text": "Your editor's Save As, or Save with Encoding, offers UTF-8.",
    "not_python": "Save your four functions in a .py file, or a notebook, and check that.",
    "not_notebook": "Open it in Jupyter and save it again, or check a .py file instead.",
}

# A notebook cell that failed, though the notebook loaded (see load_notes).
CELL_PROBLEMS = dict(LOAD_PROBLEMS,
                     syntax="A cell has a syntax error on {where}: {message}",
                     error="A cell raised an error: {error}")

REFERENCE = ("Your file imports the lesson's own code (import lesson): the checks "
             "would grade the lesson, not your functions, so the checker does not "
             "let it, and none of them counts as passed. Write the four functions "
             "yourself.")
NOT_COUNTED = "not counted: your file imports the lesson's own code (see above)"

# Signals a crash is most often, in a learner's words.
SIGNALS = {4: "illegal instruction", 6: "aborted", 7: "bus error", 8: "arithmetic error",
           9: "killed", 11: "segmentation fault", 15: "terminated"}


def crash_text(crashed):
    """Why the Python process stopped during a call, in words.

    >>> crash_text(-11)
    'crashed: segmentation fault (signal 11)'
    >>> crash_text(3)
    'the Python process stopped during this call (exit code 3)'
    """
    if crashed == "garbled":
        return "your code wrote into the checker's private pipe during this call"
    if isinstance(crashed, int) and crashed < 0:
        return f"crashed: {SIGNALS.get(-crashed, 'stopped by a signal')} (signal {-crashed})"
    return f"the Python process stopped during this call (exit code {crashed})"


def error_text(error):
    """An exception as the report shows it: its type, message and the learner's line.

    >>> error_text({"type": "ValueError", "message": "bad", "where": "line 3",
    ...             "code": "raise ValueError('bad')"})
    "ValueError: bad (your line 3: raise ValueError('bad'))"
    """
    text = f"{error['type']}: {error['message']}" if error.get("message") else error["type"]
    if error.get("memory_limit"):
        text = (f"used more than {error['memory_limit'] // 2 ** 20} MiB of memory, the "
                f"checker's limit ({error['type']})")
    if error.get("where"):
        text += f" (your {error['where']}: {error['code']})"
    return text


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
        fields["error"] = error_text(load["error"])
    if status == "crashed":
        code = load.get("code")
        if isinstance(code, int) and code < 0:              # a signal: no exit() did that
            status, fields["crash"] = "signal", crash_text(code).split(": ", 1)[1]
        else:
            fields["crash"] = f"exit code {code}"
    fields.setdefault("where", "an unknown line")
    fields.setdefault("code", load.get("code") or "?")
    text = problems[status].format(**fields)
    if status == "syntax":
        text += f", in the line: {load['code']}" if load.get("code") else "."
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


def problem(load, time_limit=TIME_LIMIT, file="Your file"):
    """Why the file could not load, or what went wrong while it loaded; else None."""
    return (load_problem_text(load, time_limit, file=file)
            or " ".join(load_notes(load, time_limit)) or None)


def report_lines(shown_as, load, results, time_limit=TIME_LIMIT, functions=FUNCTIONS):
    """The report a learner reads, as lines, built from the results.

    Functions not in ``functions`` are summed up in one line each; the
    closing line always counts every check.

    >>> from lesson.grader.judge import results
    >>> load = {"status": "ok"}
    >>> lines = report_lines("ex.py", load, results(load, {}))
    >>> print(lines[0], lines[3], lines[-1], sep="\\n")
    Checking ex.py against lesson 4's contract
      FAIL  lesson's first weight
    0 passed, 20 failed
    """
    lines = [f"Checking {shown_as} against lesson 4's contract", ""]
    trouble = load_problem_text(load, time_limit, file=shown_as)
    if trouble is not None:                      # one paragraph, then nothing ran
        advice = REFERENCE if load.get("uses_reference") else WHAT_TO_TRY.get(load["status"])
        lines += [trouble] + ([advice] if advice else []) + [""]
        printed = _printed(load)
        if printed:
            lines += ["While loading, your file printed:"] + printed + [""]
        return lines + [f"None of the {len(results)} checks could run: the file did "
                        f"not load.", "", closing_line(results)]
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
        if any(r["status"] in ("fail", "error", "timeout") for r in own):
            lines.append(stuck_line(function))
        lines.append("")
    lines.append(closing_line(results))
    return lines


def stuck_line(function):
    """Where a learner whose function fails can read on, or see it done.

    >>> stuck_line("entropy")
    '  stuck? read in-code.html#entropy or see a solution at exercises.html#a-solution'
    """
    return (f"  stuck? read {address(LESSON_PARTS[function])} or see a solution at "
            f"{address(SOLUTION)}")


def closing_line(results):
    """The report's last line, "N passed, M failed"."""
    passed, failed = counts(results)
    return f"{passed} passed, {failed} failed"


def counts(results):
    """(passed, failed) over a list of results.

    >>> counts([{"passed": True}, {"passed": False}, {"passed": False}])
    (1, 2)
    """
    passed = sum(r["passed"] for r in results)
    return passed, len(results) - passed


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
    """What the learner's code printed, labelled: a few lines a stream, each cut
    short, then exactly how many characters were not shown.

    >>> for line in _printed({"stdout": "loading!" * 1000}):
    ...     print(line)
    printed:  loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!loading!...
              ... (7800 more characters not shown)
    """
    lines = []
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
        visible = [_visible(kept) + ("..." if len(piece) > width else "")
                   for kept, piece in zip(shown, pieces)]
        if hidden > 0:
            visible.append(f"... ({hidden} more characters not shown)")
        lines += [f"{label if i == 0 else '':10}{line}" for i, line in enumerate(visible)]
    return lines


_CUT = re.compile(r"\n?[.]{3} [(]([0-9]+) more characters not shown[)]$")


def _visible(text):
    """Output with control characters (a terminal's clear screen) made visible."""
    return "".join(c if c in "\n\t" or c.isprintable() else repr(c)[1:-1] for c in text)


def summary_lines(files):
    """The teacher's table: file, passed, failed, first failing check; then the total.

    ``files`` are per-file results with "file", "passed", "failed" and "checks".

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


# A report line's indent, then its label ("got:", "not done yet:", "PASS  ").
_LABEL = re.compile(r"( *)((?:[a-z][a-z ]{0,20}?: +)|(?:PASS|FAIL)  )?")
MIN_HANG = 4            # a wrapped line with no label is still indented this much


def hang(line):
    """Where a wrapped report line goes on: its indent plus its label's width.

    The terminal, the site's reports and the page's editor all wrap with it.

    >>> hang("        hint:     subtract the row maximum"), hang("  FAIL  large scores")
    (18, 8)
    >>> hang("Your file has a syntax error on line 3: '(' was never closed")
    4
    """
    match = _LABEL.match(line)
    return len(match.group(1)) + len(match.group(2) or " " * MIN_HANG)
