"""The plan carried out in the Exercises page: what its judge Web Worker runs.

The page's runner.js has what only JavaScript has: timers, Web Workers and
``terminate()``.  For each step it asks this module, in the judge's worker,
what to do next; the learner's worker runs ``lesson.grader.harness``
(``load_here``, ``answer_here``).  Replies travel between the workers as the
JSON text Python's ``json`` makes (inf and nan included), untouched.

begin(time_limit)                       a new run's first step
advance(what, text, seconds, printed)   what happened -> the next step
report(shown_as)                        the report, as JSON text

A step reaches JavaScript as a list: [do, seconds, keep, request], the
request being the JSON text to hand to the learner's worker.

    >>> begin("2")[:3]
    ['load', 10.0, 2000]
    >>> advance("loaded", '{"load": {"status": "ok"}}', 0.2, "{}")[0]
    'call'
"""

import json

from lesson.grader import judge
from lesson.grader.contract import FUNCTIONS, TIME_LIMIT, checks_for, new_seed
from lesson.grader.plan import Plan
from lesson.grader.report import hang, report_lines

_RUN = {}

# What the page's Python cannot do, said under the report that shows it tried.
PAGE_LIMITS = (
    ("No module named 'numpy'", "NumPy is not available in the page: check a NumPy "
                                "solution with {cli}."),
    ("does not support processes", "The page's Python cannot start processes "
                                   "(os.system, subprocess, multiprocessing): check "
                                   "this file with {cli}."),
)


def begin(time_limit="", seed=""):
    """Start grading a file; the first step.  ``time_limit`` and ``seed`` are
    text from the page's address (``?time-limit=0.5&seed=7``, as the CLI's
    ``--time-limit`` and ``--seed``); the defaults when empty or not numbers."""
    try:
        seconds = float(time_limit)
    except (TypeError, ValueError):
        seconds = TIME_LIMIT
    seconds = seconds if 0 < seconds < float("inf") else TIME_LIMIT
    seed = int(seed) if str(seed).isdigit() else new_seed()
    _RUN["checks"] = checks_for(seed)
    _RUN["plan"] = Plan(seconds, _RUN["checks"])
    return _step(_RUN["plan"].next())


def advance(what, text, seconds, printed):
    """The next step, after the last one: ``what`` is "loaded" or "reply" (with
    the learner worker's JSON ``text``), "late", "crashed" or "stopped"."""
    event = dict(json.loads(printed or "{}"), seconds=seconds)
    if what in ("loaded", "reply"):
        try:
            message = json.loads(text)
        except (TypeError, ValueError):
            message = None
        if what == "loaded":
            message = message.get("load") if isinstance(message, dict) else None
        event[what] = message
    elif what == "late":
        event["late"] = True
    elif what == "crashed":
        event["crashed"] = "unknown"
    return _step(_RUN["plan"].next(event))


def _step(step):
    request = ""
    if step["do"] == "call":
        request = json.dumps({key: step[key] for key in ("token", "function", "args", "kwargs")})
    return [step["do"], step.get("seconds", 0.0), step.get("keep", 0), request]


def report(shown_as, cli):
    """The finished run's report: JSON text of {"lines", "hangs", "passed",
    "failed", "note"}; ``cli`` is the command that checks it outside the page."""
    plan = _RUN["plan"]
    time_limit = plan.check_limit
    results = judge.results(plan.load, plan.outcomes, time_limit, _RUN["checks"])
    lines = report_lines(shown_as, plan.load, results, time_limit, FUNCTIONS)
    passed, failed = judge.counts(results)
    text = "\n".join(lines)
    note = next((sentence.format(cli=cli) for found, sentence in PAGE_LIMITS
                 if found in text), "")
    return json.dumps({"lines": lines, "hangs": [hang(line) for line in lines],
                       "passed": passed, "failed": failed, "note": note})
