"""The plan carried out in the Exercises page: what its judge Web Worker runs.

The page's runner.js has what only JavaScript has: timers, Web Workers and
``terminate()``.  For each step it asks this module, in the judge's worker,
what to do next; the learner's worker runs ``lesson.grader.harness``
(``load_here``, ``answer_here``).  Replies travel between the workers as the
JSON text Python's ``json`` makes (inf and nan included), untouched.

begin(time_limit)                       a new run's first step
advance(what, text, seconds, printed)   what happened -> the next step
finish(shown_as, cli, source)           the report's records, as JSON text
drawn(result)                           ... made from a result: what runner.js draws

A step reaches JavaScript as a list: [do, seconds, keep, request], the
request being the JSON text to hand to the learner's worker.  The report
reaches it as data: the report's records (``lesson.grader.report``), each
with what drawing it takes, so runner.js reads no verdict, line number,
label or link out of the text.

    >>> begin("2")[:3]
    ['load', 10.0, 2000]
    >>> advance("loaded", '{"load": {"status": "ok"}}', 0.2, "{}")[0]
    'call'
"""

import json
import typing

from lesson.grader import judge, reading, report
from lesson.grader.contract import TIME_LIMIT, checks_for, new_seed
from lesson.grader.harness import Event, Verdict
from lesson.grader.plan import Plan, request

# The statuses runner.js and worker.js name, as data: the page's HTML carries
# them (data-statuses), so no status is written in the JavaScript.
STATUSES = {status.name.lower(): str(status) for status in (*Event, Verdict.PASS, Verdict.FAIL)}

_RUN = {}

# What the page's Python cannot do: a few words of the error it raises, and
# what to say under the report that shows it tried.
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
    """The next step, after the last one: ``what`` is an ``Event`` (loaded or
    reply, with the learner worker's JSON ``text``; late, crashed or stopped)."""
    what = Event(what)
    event = dict(json.loads(printed or "{}"), seconds=seconds)
    if what in (Event.LOADED, Event.REPLY):
        try:
            message = json.loads(text)
        except (TypeError, ValueError):
            message = None
        if what == Event.LOADED:
            message = message.get("load") if isinstance(message, dict) else None
        event[what] = message
    elif what == Event.LATE:
        event[Event.LATE] = True
    elif what == Event.CRASHED:
        event[Event.CRASHED] = "unknown"
    return _step(_RUN["plan"].next(event))


def _step(step):
    """A step as runner.js reads it.  A trace goes to it as a "call": the
    learner's worker answers the request, which says it is a trace."""
    sent = json.dumps(request(step)) if step["do"] in ("call", "trace") else ""
    do = "call" if step["do"] == "trace" else step["do"]
    return [do, step.get("seconds", 0.0), step.get("keep", 0), sent]


def finish(shown_as, cli, source=""):
    """The finished run's report, as JSON text (see ``drawn``); ``cli`` is the
    command that checks the file outside the page; ``source`` is the editor's
    text, read (never run) for what its code shows (``reading.facts``)."""
    plan = _RUN["plan"]
    code = reading.facts(source.encode("utf-8", "replace"), shown_as) if source else None
    results = judge.results(plan.load, plan.outcomes, plan.check_limit, _RUN["checks"], code)
    result = {"file": shown_as, "load": plan.load,
              "checks": report.located(results, plan.outcomes)}
    drawing = drawn(result, plan.check_limit)
    errors = [plan.load.get("error")] + [o.get("error") for o in plan.outcomes.values()]
    messages = [e.get("message") or "" for e in errors if isinstance(e, dict)]
    drawing["note"] = next((sentence.format(cli=cli) for words, sentence in PAGE_LIMITS
                            if any(words in message for message in messages)), "")
    return json.dumps(drawing)


# The records whose text is a value under its label (on a phone, below it).
FIELDS = ("detail", "printed", "differs", "step", "marked", "lesson")


class Drawing(typing.TypedDict):
    """What runner.js draws for a result (``drawn``)."""
    records: list           # report.Line each, with "head", "wrap" and "field"
    traces: list            # {"check", "after", "records"} each
    tally: str
    failed: int


def drawn(result, time_limit=TIME_LIMIT) -> Drawing:
    """What runner.js draws for a result (``Drawing``): {"records", "traces", "tally", "failed"}.

    Each record is the report's (``report.records``), with "head" (its
    indent and label, as the terminal prints them), "wrap" (where a wrapped
    line goes on, ``report.wrap_indent``) and "field" (a value that goes
    under its label on a phone).  "tally" is the closing count, in words.

    A traced check's block (where its values leave the lesson's, its steps,
    the lesson's: ``report.TRACE_ROLES``) is not among "records" but in
    "traces", one {"check", "after", "records"} a block: "after" is the index
    in "records" of that check's last line, the block's place, so that
    runner.js draws it there, folded under its first line (where the values
    leave the lesson's, that line marked in the editor: "lines"), each step's
    "line N" a button to the learner's line it ran ("at").

    >>> from lesson.grader.judge import results
    >>> load = {"status": "ok"}
    >>> drawing = drawn({"file": "ex.py", "load": load, "checks": results(load, {})})
    >>> drawing["tally"], drawing["records"][3]["head"], drawing["records"][3]["wrap"]
    ('0 passed, 20 failed', '  FAIL  ', 8)
    >>> drawing["traces"]
    []
    """
    records = report.records(result, time_limit)
    for record in records:
        record.update(head=report.line_text(dict(record, text="")),
                      wrap=report.wrap_indent(record),
                      field=record["role"] in FIELDS and bool(record["label"]))
    shown, traces = [], []
    for record in records:
        if record["role"] not in report.TRACE_ROLES:
            shown.append(record)
        elif traces and traces[-1]["check"] == record["check"]:
            traces[-1]["records"].append(record)
        else:
            traces.append({"check": record["check"], "after": len(shown) - 1,
                           "records": [record]})
    passed, failed = report.counts(result["checks"])
    return {"records": shown, "traces": traces, "tally": report.tally(passed, failed),
            "failed": failed}
