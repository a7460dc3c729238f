"""The plan: what to do next while grading one file, given what has happened.

The plan is a state machine with no clock, no process and no thread.  A
driver asks it for a step, carries the step out, and tells it what
happened; the plan owns every rule of time, of checks not run, and of
the file's budget, and every sentence that says so.  Two drivers run it:
``lesson.grader.process`` with worker processes in a terminal, and the
Exercises page with Web Workers (``lesson.grader.page``).

A step is plain data, {"do": ...}:

  {"do": "load", "seconds": s}         start a fresh worker and load the file
  {"do": "call", "check": i, "function", "args", "kwargs", "token", "seconds": s}
                                       make one call in that worker
  {"do": "trace", ... as "call", "trace": t}
                                       make that call again, traced for t seconds
  {"do": "stop"}                       stop the worker (and all it started)
  {"do": "done"}                       nothing is left: make the report

"seconds" is how long the step may take; "keep" how many characters of
each stream of printed output to keep; ``request(step)`` what to send the
worker for a call or a trace.  What happened is plain data too:
{"loaded": load}, {"reply": {"token", "outcome"}} (and "trace" for a
trace), {"late": True} (the step took all its seconds) or {"crashed": exit
code}; with "seconds" (what the step took) and "stdout" and "stderr", each
[kept text, characters in all].

Once every check has run (or the file's time is up), the plan asks for
traces: for each function, its first check that failed on an answer (a
value other than None, or an exception) is called once more, traced
(``harness.traced``), and the trace is put in that check's outcome, as
"trace".  The verdicts are all known by then, so a trace cannot change
one: what it prints is not shown, and a trace that is late, crashes or
comes back garbled is dropped, with the traces after it.  But a trace's
steps are the file's time like any other: each gets what is left of it
(at most TRACE_SECONDS more than a check's), and none starts once it is
used up.  So a file's steps, traces and all, never take more than its
``time_limits(time_limit)[2]`` seconds: a platform's window (Exercism's
20 s) holds the whole of it.

    >>> plan = Plan(time_limit=2.0)
    >>> plan.next()["do"], plan.next({"loaded": {"status": "ok"}, "seconds": 0.1})["check"]
    ('load', 0)
"""

import uuid

from lesson.grader import judge, replies
from lesson.grader.contract import CHECKS, FUNCTIONS, OUTPUT_LIMIT, TIME_LIMIT, time_limits
from lesson.grader.harness import Event, Load, Outcome, load_record, outcome_record

# Seconds the Exercises page waits for a fresh Python (a Web Worker) to start
# before it says Python did not start: the page has it as data (data-start-limit).
START_LIMIT = 60

# Seconds a trace may spend recording, on top of its check's own: tracing
# makes a call slower, and past this the call goes on untraced.
TRACE_SECONDS = 1.0

TIME_USED = "the file used up its {file_limit:g} s"
NO_RELOAD = "the file did not load again after the check above stopped"
GARBLED = "the file wrote into the checker's private pipe during the check above"
HUNG = "{function}() did not return on '{name}' (above)"
TIME_RAN_OUT = "stopped: the file used up its time while this check ran"


def capped(text, size):
    """Kept output, saying how much more there was.

    >>> capped("abc", 10)
    'abc\\n... (7 more characters not shown)'
    """
    more = size - len(text)
    return text + (f"\n... ({more} more characters not shown)" if more > 0 else "")


def request(step):
    """What the worker is sent for a "call" or "trace" step.

    >>> request({"do": "trace", "token": "t", "function": "entropy", "args": [[1.0]],
    ...          "kwargs": {}, "trace": 1.0, "seconds": 3.0})["trace"]
    1.0
    """
    keys = ("token", "function", "args", "kwargs") + (("trace",) if step["do"] == "trace" else ())
    return {key: step[key] for key in keys}


def printed(event):
    """What a step printed, as {"stdout", "stderr"}, each cut to OUTPUT_LIMIT.

    >>> printed({"stdout": ["x" * 3000, 3000]})["stdout"][-37:]
    '\\n... (1000 more characters not shown)'
    """
    out = {}
    for stream in ("stdout", "stderr"):
        text, size = (event or {}).get(stream) or ("", 0)
        out[stream] = capped(text[:OUTPUT_LIMIT], max(size, len(text)))
    return out


class Plan:
    """Grade one file: ``next(event)`` gives the next step, until "done".

    After a call that does not return, that worker is stopped and the
    function's other checks are not run (they would only hang again); a
    fresh worker loads the file again for the other functions.  The file
    has ``time_limits(time_limit)[2]`` seconds in all, traces included,
    counted as the seconds its steps took.  After a reply that is not one
    (the learner's code wrote into the private pipe), no check runs again.
    Then the traces (see the module's docstring), unless ``traces`` is
    False.  ``load`` and ``outcomes`` hold the result.
    """

    def __init__(self, time_limit=TIME_LIMIT, checks=CHECKS, traces=True):
        self.checks = checks
        self.traces = traces
        self.to_trace = None                        # the checks to trace, once grading is over
        self.check_limit, self.load_limit, self.file_limit = time_limits(time_limit)
        self.pending = list(range(len(checks)))
        self.outcomes = {}
        self.load = None
        self.used = 0.0
        self.reason = TIME_USED.format(file_limit=self.file_limit)
        self.last = None                # the step the driver is carrying out
        self.running = False            # is a worker running?
        self.stopping = False           # must the running worker stop next?
        self.given_up = False           # is no worker to load the file again?

    def next(self, event=None):
        """The next step, given what happened in the last one (None at the start)."""
        event = event or {}
        self.used += max(float(event.get("seconds") or 0.0), 0.0)
        last, self.last = self.last, None
        if last is not None and last["do"] == "load":
            self._loaded(event)
        elif last is not None and last["do"] == "call":
            self._answered(last, event)
        elif last is not None and last["do"] == "trace":
            self._traced(last, event)
        elif last is not None and last["do"] == "stop":
            self.running = False
        self.last = self._choose()
        return self.last

    @property
    def done(self):
        """Has the plan said "done"?"""
        return self.last is not None and self.last["do"] == "done"

    def _left(self):
        return self.file_limit - self.used

    def _choose(self):
        grading = self.pending and self._left() > 0 and not self.given_up
        if self.to_trace is None and not grading:
            for index in self.pending:
                self.outcomes.setdefault(index, outcome_record(not_run=self.reason))
            self.pending = []
            self.to_trace = self._first_failures() if self.traces and not self.given_up else []
        if self.to_trace and self._left() <= 0:     # no time is left to trace in
            self.to_trace = []
        wanted = self.pending if self.to_trace is None else self.to_trace
        if self.running and (self.stopping or not wanted):
            self.stopping = False
            return {"do": "stop"}
        if not wanted:
            return {"do": "done"}
        if not self.running:
            self.running = True
            return {"do": "load", "seconds": min(self.load_limit, self._left()),
                    "keep": OUTPUT_LIMIT}
        index = wanted.pop(0)
        check = self.checks[index]
        step = {"do": "call", "check": index, "function": check.function,
                "args": list(check.args), "kwargs": dict(check.kwargs),
                "token": uuid.uuid4().hex, "keep": OUTPUT_LIMIT,
                "seconds": min(self.check_limit, self._left())}
        if self.to_trace is not None:
            step.update(do="trace", trace=TRACE_SECONDS,
                        seconds=min(self.check_limit + TRACE_SECONDS, self._left()))
        return step

    def _first_failures(self):
        """Each function's first failing check, to trace if it failed on an
        answer (not on None, a time-out, a crash or a check not run)."""
        out = []
        for function in FUNCTIONS:
            for index, check in enumerate(self.checks):
                if check.function != function:
                    continue
                outcome = self.outcomes.get(index) or {}
                answered = Outcome.ERROR in outcome or outcome.get(Outcome.VALUE) is not None
                if answered and judge.judge(check, outcome)[0]:
                    continue
                if answered:
                    out.append(index)
                break
        return out

    def _loaded(self, event):
        if self.load is None:                       # the first load: the file's own
            if event.get(Event.LATE):
                load = load_record(Load.TIMEOUT)
            elif Event.CRASHED in event:
                load = load_record(Load.CRASHED, code=event[Event.CRASHED])
            else:
                load = replies.load(event.get(Event.LOADED))
            load.update(printed(event))
            self.load = load
            if load["status"] != Load.OK:
                self.pending, self.stopping, self.given_up = [], True, True
            return
        again = event.get(Event.LOADED)                 # after a stopped worker
        if isinstance(again, dict) and again.get("status") == Load.OK:
            return
        if self.to_trace is not None:               # loaded to trace: no traces, then
            self.to_trace, self.stopping = [], True
        else:
            self.reason, self.stopping, self.given_up = NO_RELOAD, True, True

    def _traced(self, step, event):
        """A trace's reply goes with its check's outcome; anything else ends the tracing."""
        reply = event.get(Event.REPLY)
        if (not event.get(Event.LATE) and Event.CRASHED not in event and isinstance(reply, dict)
                and reply.get("token") == step["token"] and replies.trace(reply.get("trace"))
                and replies.outcome(reply.get("outcome"))):
            self.outcomes[step["check"]] = dict(self.outcomes[step["check"]], trace=dict(
                reply["trace"], outcome=reply["outcome"]))
        else:
            self.to_trace, self.stopping = [], True

    def _answered(self, step, event):
        index = step["check"]
        shown = printed(event)
        reply = event.get(Event.REPLY)
        if event.get(Event.LATE):
            self.stopping = True
            outcome = outcome_record(timeout=True, **shown)
            if self._left() <= 0:
                outcome["message"] = TIME_RAN_OUT
            else:
                check = self.checks[index]
                for other in [i for i in self.pending
                              if self.checks[i].function == check.function]:
                    self.outcomes[other] = outcome_record(not_run=HUNG.format(
                        function=check.function, name=check.name))
                    self.pending.remove(other)
        elif Event.CRASHED in event:
            self.stopping = True
            outcome = outcome_record(crashed=event[Event.CRASHED], **shown)
        elif (isinstance(reply, dict) and reply.get("token") == step["token"]
              and replies.outcome(reply.get("outcome"))):
            outcome = dict(reply["outcome"], **shown)
        else:                  # not an answer to this call: a forger, never loaded again
            self.reason, self.stopping, self.given_up = GARBLED, True, True
            outcome = outcome_record(crashed=Load.GARBLED, **shown)
        self.outcomes[index] = outcome
