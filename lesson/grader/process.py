"""The terminal's checker: the plan's steps, carried out with worker processes.

run(path, time_limit)        one file -> its result: counts, load, one dict per check

    >>> import os, tempfile
    >>> from lesson.grader.contract import write_starter
    >>> path = os.path.join(tempfile.mkdtemp(), "softmax_exercise.py")
    >>> write_starter(path)
    >>> result = run(path)
    >>> result["passed"], result["failed"], result["checks"][0]["message"]
    (0, 20, 'not done yet: softmax() returns None')

What to do, and every rule of time and of checks not run, is in
``lesson.grader.plan``; the submission is read once, before anything runs
(``lesson.grader.snapshot``); each step is carried out by a worker process
(``lesson.grader.workers``), confined as ``lesson.grader.sandbox`` says.

Everywhere, the harness sets its limits (memory, file size, processes, no
core files) before any learner code runs, then says hello: a worker that
stops before its hello did not start (bwrap's own message says why, or a
memory limit too small for Python), which is the checker's failure, a load
of status "unstarted", never the learner's grade.
"""

import os
import time

from lesson.grader import judge, problems, reading, report, workers
from lesson.grader.contract import TIME_LIMIT, checks_for, new_seed
from lesson.grader.harness import HARNESS_SAYS, Event, Load, load_record
from lesson.grader.plan import Plan, request
from lesson.grader.sandbox import mode as sandbox_mode
from lesson.grader.snapshot import snapshot as read_submission
from lesson.grader.workers import MEMORY_LIMIT


def run(path, time_limit=TIME_LIMIT, shown_as=None, sandbox=None, memory_limit=MEMORY_LIMIT,
        seed=None, snapshot=None):
    """Grade one learner's file; return its result as plain data.

    ``sandbox`` is "bwrap", "user", "none", or None for the strongest mode
    here (``lesson.grader.sandbox.mode``).
    ``snapshot`` is what ``snapshot()`` read earlier (else ``path`` is read
    now); ``seed`` draws the fresh inputs (``contract.checks_for``; a new
    one when None).  The result has "file" (``shown_as``, default ``path``), "passed",
    "failed", "problem" (why the file could not load, or what went wrong
    while it loaded: a notebook cell that failed, an exit(); else None),
    "uses_reference", "stdout" and "stderr" (printed while loading),
    "checks" (one ``judge.result_record`` per check, with the learner's
    "line" its error points at: ``report.located``), "load", "sandbox",
    "seed" and "seconds".

    >>> result = run("notes.txt")
    >>> result["passed"], result["failed"], result["problem"]
    (0, 20, 'notes.txt is not a Python file: the checker reads .py files and Jupyter notebooks (.ipynb).')
    """
    started = time.monotonic()
    shown_as = path if shown_as is None else shown_as
    sandbox = sandbox or sandbox_mode()
    seed = new_seed() if seed is None else seed
    checks = checks_for(seed)
    try:
        snapshot = snapshot or read_submission(path)
        load, outcomes = grade(path, time_limit, sandbox, memory_limit, checks, snapshot)
        submission = snapshot[0]           # its code, read (never run) for the hints
        code = submission and reading.facts(submission.files[submission.main], submission.main)
        result = judged(load, outcomes, time_limit, checks, shown_as, code)
    except Exception as error:             # a bug of ours: one sentence, not a traceback
        result = judged(load_record(Load.INTERNAL, message=repr(error)[:300]), {}, time_limit,
                        checks, shown_as)
    return dict(result, sandbox=sandbox, seed=seed,
                seconds=round(time.monotonic() - started, 3))


def judged(load, outcomes, time_limit, checks, shown_as, code=None):
    """A file's result (``run``'s, but "sandbox", "seed" and "seconds") from
    how its load went and its outcomes, and what its ``code`` shows (for the
    hints): the judge's verdicts, each with the learner's line it points at,
    and the counts."""
    results = report.located(judge.results(load, outcomes, time_limit, checks, code),
                             outcomes)
    passed, failed = judge.counts(results)
    return {"file": shown_as, "passed": passed, "failed": failed,
            "problem": problems.problem(load, time_limit, file=shown_as),
            "uses_reference": judge.uses_reference(load, outcomes),
            "stdout": load.get("stdout", ""), "stderr": load.get("stderr", ""),
            "checks": results, "load": load}


def grade(path, time_limit=TIME_LIMIT, sandbox="none", memory_limit=MEMORY_LIMIT, checks=None,
          read=None):
    """(load, outcomes by check index) for one file: the plan, carried out."""
    submission, load = read or read_submission(path)
    if submission is None:
        return load, {}
    if not hasattr(os, "killpg"):          # Windows: no process groups, no select on pipes
        return load_record(Load.UNSUPPORTED), {}
    plan = Plan(time_limit, checks) if checks else Plan(time_limit)
    worker = None
    step = plan.next()
    try:
        while step["do"] != "done":
            event = {}
            if workers.STOPPING.is_set():
                raise KeyboardInterrupt
            if step["do"] == "load":
                worker = workers.Worker(submission, step["keep"], sandbox, memory_limit)
                event = worker.receive(step["seconds"], Event.LOADED)
                if Load.UNSTARTED in event and not (event.get(Event.LATE) and plan.load):
                    return load_record(Load.UNSTARTED, message=unstarted_text(   # ours: no grade
                        event.pop(Load.UNSTARTED), sandbox, memory_limit)), {}
                event.pop(Load.UNSTARTED, None)   # a reload in the file's last moments: its time
            elif step["do"] in ("call", "trace"):
                worker.send(request(step))
                event = worker.receive(step["seconds"], Event.REPLY)
            else:
                worker.stop()
                worker = None
            step = plan.next(event)
    finally:
        if worker is not None:
            worker.stop()
    return plan.load, plan.outcomes


def unstarted_text(cause, sandbox, memory_limit):
    """Why a worker did not start, and the way out, as one sentence.

    >>> unstarted_text("bwrap: No permissions to create a new namespace", "bwrap", 1024)
    'the sandbox could not start (bwrap: No permissions to create a new namespace): --no-sandbox grades without it, each file then running with your rights, or as root as a user of its own (check --help says what each protects)'
    >>> unstarted_text("MemoryError: ", "none", 1)
    'Python could not start within --memory-limit 1 MiB (MemoryError): give it more (the default is 1024)'

    In the sandbox, what bwrap did not say is Python's, under a memory
    limit lowered from the default (the limit leaves no room for words, or
    Python spins where it meets an error it has no memory to raise):

    >>> unstarted_text("it did not start within 10 s", "bwrap", 18)
    'Python could not start within --memory-limit 18 MiB (it did not start within 10 s): give it more (the default is 1024)'
    """
    lowered = memory_limit < MEMORY_LIMIT and not cause.startswith("bwrap")
    if sandbox == "bwrap" and not cause.startswith(HARNESS_SAYS) and not lowered:
        return (f"the sandbox could not start ({cause}): --no-sandbox grades without it, "
                f"each file then running with your rights, or as root as a user of its own "
                f"(check --help says what each protects)")
    cause = cause[len(HARNESS_SAYS):] if cause.startswith(HARNESS_SAYS) else cause
    if "MemoryError" in cause or lowered:
        return (f"Python could not start within --memory-limit {memory_limit} MiB "
                f"({cause.strip(': ')}): give it more (the default is {MEMORY_LIMIT})")
    return f"Python could not start to load the file ({cause}): please report this"


