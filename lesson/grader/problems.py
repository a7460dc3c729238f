"""What went wrong, in words: a file that could not be loaded, a crash, an exception.

load_problem_text(load)    why a file could not be loaded, in one sentence (None if it was)
problem(load)              the same, for a result's "problem"
load_notes(load)           what went wrong while a file loaded, though it did load
crash_text(crashed)        what the judge says of a worker that stopped
error_text(error)          an exception, as the report shows it

Each load status (``harness.Load``) has its sentence here, and what to try
next; the report puts them at the top of a file's report, and every
platform's document takes them from there.

    >>> load_problem_text({"status": "timeout"}, 2.0)
    'Your file did not finish loading within 10 s: is there a loop at the top level that never ends?'
"""

from lesson.grader.contract import TIME_LIMIT, time_limits
from lesson.grader.harness import Load


LOAD_PROBLEMS = {
    Load.NOT_PYTHON: "{file} is not a Python file: the checker reads .py files "
                     "and Jupyter notebooks (.ipynb).",
    Load.NOT_NOTEBOOK: "{file} is not a Jupyter notebook the checker can read "
                       "(its JSON has no list of cells).",
    Load.NOT_TEXT: "Your file is not text Python can read: {message} ({where}). "
                   "Save it as UTF-8.",
    Load.SYNTAX: "Your file has a syntax error on {where}: {message}",
    Load.ERROR: "Your file raised an error while loading: {error}",
    Load.TIMEOUT: "Your file did not finish loading within {load_limit:g} s: is "
                  "there a loop at the top level that never ends?",
    Load.CRASHED: "Your file stopped the Python process while loading ({crash}): is "
                  "there an os._exit() or exit() at the top level?",
    "signal": "Your file crashed Python while loading: {crash}.",
    Load.GARBLED: "Your file wrote into the checker's private pipe while loading, so "
                  "it could not be checked.",
    Load.MISSING: "There is no file {file}.",
    Load.UNREADABLE: "{file} could not be read: {message}.",
    Load.INTERNAL: "The checker itself failed on {file} ({message}): please report "
                   "this, with the file.",
    Load.UNSTARTED: "The checker failed, not your file: {message}.",
    Load.UNSUPPORTED: "This checker runs files on Linux and macOS only; on Windows, "
                      "run it in WSL (Windows Subsystem for Linux).",
}

# What to try, after the sentence on why a file could not be loaded.


WHAT_TO_TRY = {
    Load.SYNTAX: "Look at that line and the one before it for a bracket or a quote left "
                 "open, or a missing colon; python -m py_compile FILE names the same place.",
    Load.ERROR: "The code at the top level of your file runs when the checker loads it: "
                "run the file yourself (python FILE) to see the whole traceback, and keep "
                "experiments inside a function or under if __name__ == \"__main__\":.",
    Load.TIMEOUT: "Move the loop into a function, or under if __name__ == \"__main__\":, "
                  "so that loading the file only defines the four functions.",
    Load.CRASHED: "Run the file yourself (python FILE): what stops Python there stops it "
                  "in the checker too.",
    Load.NOT_TEXT: "Your editor's Save As, or Save with Encoding, offers UTF-8.",
    Load.NOT_PYTHON: "Save your four functions in a .py file, or a notebook, and check that.",
    Load.NOT_NOTEBOOK: "Open it in Jupyter and save it again, or check a .py file instead.",
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
    if crashed == Load.GARBLED:
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
    if status == Load.OK:
        return None
    fields = dict(load, file=file, load_limit=time_limits(time_limit)[1])
    if status == Load.ERROR:
        fields["error"] = error_text(load["error"])
    if status == Load.CRASHED:
        code = load.get("code")
        if isinstance(code, int) and code < 0:              # a signal: no exit() did that
            status, fields["crash"] = "signal", crash_text(code).split(": ", 1)[1]
        else:
            fields["crash"] = f"exit code {code}"
    fields.setdefault("where", "an unknown line")
    fields.setdefault("code", load.get("code") or "?")
    text = problems[status].format(**fields)
    if status == Load.SYNTAX:
        text += f", in the line: {load['code']}" if load.get("code") else "."
    if status == Load.ERROR and load["error"]["type"] == "EOFError":
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

