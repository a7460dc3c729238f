"""See what your code did (issue 40): a failed check's step-by-step beside the
lesson's steps, with the first of the learner's values the lesson's do not
contain marked.

The corpus (tests/traced) holds learner files with one mistake each, on a
known line (tests/traced/mistakes.json names it by its code): the terminal's
checker and the page's Python must both mark that line, with the learner's
value and the lesson's, and show the same steps, under the page's own Python
too (Pyodide in Node, another CPython version).  Correct files show no
trace.  The hostile files (tests/traced/hostile) print, take the tracer away,
recurse deeply, make huge rows, use generators and NumPy, hold objects that
lie, hang or forge only while traced: the trace survives or is dropped, and
the grade is the one the checker gives without tracing.  Below them, the
parts: the tracer (``harness.traced``), the plan's trace step, and the
matching (``steps``).
"""

import functools
import json
import pathlib
import re
import sys

import pytest
from hypothesis import given, settings, strategies as st

from lesson.grader import harness, judge, page, plan as planning, process, report, steps
from lesson.grader.contract import CHECKS, check_named, checks_for, checks_of, time_limits

ROOT = pathlib.Path(__file__).resolve().parent.parent
TRACED = ROOT / "tests" / "traced"
MISTAKES = json.loads((TRACED / "mistakes.json").read_text())
HOSTILE = sorted((TRACED / "hostile").glob("*.py"))
SEED = 7
LIMIT = 2.0
TRACE_ROLES = ("differs", "trace", "step", "marked", "lesson")


def line_of(path, code):
    """The number of the one line of ``path`` that holds ``code``."""
    found = [number for number, text in enumerate(path.read_text().splitlines(), start=1)
             if text.strip() == code]
    assert len(found) == 1, (path.name, code, found)
    return found[0]


def in_page(path, seed=SEED):
    """``path`` graded as the Exercises page grades it: lesson.grader.page driving
    the plan, this process standing in for both Web Workers (the judge's, and the
    learner's running the harness), with runner.js's texts between them."""
    saved = set(sys.modules), sys.path[:]
    what, seconds, keep, request = page.begin(str(LIMIT), str(seed))
    try:
        while what != "done":
            if what == "load":
                happened = ("loaded", harness.load_here(str(path)))
            elif what == "call":
                happened = ("reply", harness.answer_here(request))
            else:
                happened = ("stopped", "")
            what, seconds, keep, request = page.advance(*happened, 0.001, "{}")
    finally:
        sys.path[:] = saved[1]
        for name in set(sys.modules) - saved[0]:
            if not name.startswith("numpy"):
                del sys.modules[name]
    return json.loads(page.finish(path.name, f"python -m lesson check {path.name}"))


def trace_lines(records):
    """The trace's records, as the terminal prints them, check by check."""
    out = {}
    for record in records:
        if record["role"] in TRACE_ROLES:
            out.setdefault(record["check"], []).append(report.line_text(record))
    return out


def page_trace_lines(drawing):
    """The same, from the page's drawing: its blocks of traces."""
    return {block["check"]: [r["head"] + r["text"] for r in block["records"]]
            for block in drawing["traces"]}


@pytest.fixture(scope="module")
def terminal():
    """{file name: its result} for the corpus, graded by the terminal's checker
    (worker processes, no sandbox: the steps, not the confinement, are under test)."""
    paths = sorted(TRACED.glob("*.py"))
    return {path.name: process.run(str(path), LIMIT, path.name, "none", seed=SEED)
            for path in paths}


# --- The corpus: one mistake, on a known line -------------------------------------------

@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_the_mistaken_line_is_marked_with_both_values(terminal, name):
    path = TRACED / name
    result = terminal[name]
    traced = [check for check in result["checks"] if check["trace"]]
    assert len(traced) == 1, [c["name"] for c in traced]        # one function is wrong
    check = traced[0]
    assert check["name"] == next(c["name"] for c in result["checks"]
                                 if c["function"] == check["function"] and not c["passed"])
    mark = check["trace"]["mark"]
    assert mark is not None and mark["line"] == line_of(path, MISTAKES[name])
    assert [s["marked"] for s in check["trace"]["steps"]].count(True) == 1
    records = report.records(result, LIMIT)
    differs = [r for r in records if r["role"] == "differs"]
    assert [r["lines"] for r in differs] == [[mark["line"]]]
    said = differs[0]["text"]
    assert said.startswith(f"line {mark['line']}: {MISTAKES[name]} ")
    assert mark["got"] in said and mark["lesson"] in said and mark["got"] != mark["lesson"]


def test_the_issue_s_example_reads_as_it_says(terminal):
    """Dividing by the scores' sum: ``total = sum(x)`` gives the scores' sum,
    0.7071 (also the row's max, a step the lesson has passed by then)."""
    records = report.records(terminal["softmax_sum_of_scores.py"], LIMIT)
    differs = [r["text"] for r in records if r["role"] == "differs"]
    assert differs == ["line 13: total = sum(x) gives total = 0.7071; the lesson's sum of the "
                       "exps is 1.4931 here"]
    lesson = [(r["label"], r["text"]) for r in records if r["role"] == "lesson"]
    assert lesson == [("max", "0.7071"), ("score - max", "[0, -0.7071]"),
                      ("exp(score - max)", "[1, 0.4931]"), ("sum of the exps", "1.4931"),
                      ("weight", "[0.6698, 0.3302]")]


def test_the_page_shows_the_same_steps_as_the_terminal(terminal):
    """The page runs the same harness, plan and judge: for every file of the corpus,
    the same trace records, check by check, as the terminal's."""
    for path in sorted(TRACED.glob("*.py")):
        drawing = in_page(path)
        theirs = trace_lines(report.records(terminal[path.name], LIMIT))
        assert page_trace_lines(drawing) == theirs, path.name
        assert not trace_lines(drawing["records"])
        assert theirs or path.name == "correct.py"


# The page's Python in Node: Pyodide from node_modules (npm ci), the lesson's
# modules the page is given, and the page's plan driven as in_page drives it.
PYODIDE_DRIVER = """
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
import fs from "fs";
const [modules, files, out] = process.argv.slice(2);
const python = await loadPyodide({ indexURL: "%(pyodide)s/" });
python.setStdout({ batched: () => {} });
const given = JSON.parse(fs.readFileSync(modules, "utf8"));
for (const [path, source] of Object.entries(given)) {
  const file = `/lesson-site/lesson/${path}`;
  python.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
  python.FS.writeFile(file, source);
}
python.FS.mkdirTree("/home/pyodide");
const names = JSON.parse(fs.readFileSync(files, "utf8"));
for (const [name, source] of Object.entries(names)) python.FS.writeFile(`/home/pyodide/${name}`, source);
python.globals.set("NAMES", python.toPy(Object.keys(names)));
python.runPython(`
import json, pathlib, sys
sys.path.insert(0, "/lesson-site")
from lesson.grader import harness, page
def drive(path):
    what, seconds, keep, request = page.begin("%(limit)s", "%(seed)s")
    while what != "done":
        if what == "load":
            happened = ("loaded", harness.load_here(path))
        elif what == "call":
            happened = ("reply", harness.answer_here(request))
        else:
            happened = ("stopped", "")
        what, seconds, keep, request = page.advance(*happened, 0.001, "{}")
    return json.loads(page.finish(pathlib.Path(path).name, "python -m lesson check"))
TRACES = {}
for name in NAMES:
    drawing = drive("/home/pyodide/" + name)
    TRACES[name] = {block["check"]: [r["head"] + r["text"] for r in block["records"]]
                    for block in drawing["traces"]}
    TRACES[name]["python"] = sys.version.split()[0]
`);
fs.writeFileSync(out, python.globals.get("json").dumps(python.globals.get("TRACES")));
"""


@pytest.mark.slow             # Pyodide in Node
def test_the_page_s_own_python_shows_the_terminal_s_steps(terminal, tmp_path):
    """The page's Python is another CPython (Pyodide's, 3.14 where the terminal's may
    be 3.11): comprehensions and line events differ between them, the steps must
    not.  Each file of the corpus without NumPy (the page has none), graded by
    the page's modules under Pyodide in Node, gives the terminal's trace blocks;
    only an exception's own wording may differ, as Python words it."""
    import shutil
    import subprocess
    pyodide = ROOT / "node_modules" / "pyodide"
    if not shutil.which("node") or not (pyodide / "pyodide.asm.wasm").is_file():
        from helpers import skip_or_fail
        skip_or_fail("no Node.js or no Pyodide in node_modules (npm ci)")
    sys.path.insert(0, str(ROOT / "docs"))
    from lesson_docs.pyodide_assets import page_modules
    files = {p.name: p.read_text() for p in sorted(TRACED.glob("*.py"))
             if "numpy" not in p.read_text()}
    (tmp_path / "modules.json").write_text(json.dumps(page_modules()))
    (tmp_path / "files.json").write_text(json.dumps(files))
    (tmp_path / "drive.mjs").write_text(PYODIDE_DRIVER % {
        "pyodide": pyodide.as_posix(), "limit": LIMIT, "seed": SEED})
    subprocess.run(["node", str(tmp_path / "drive.mjs"), str(tmp_path / "modules.json"),
                    str(tmp_path / "files.json"), str(tmp_path / "traces.json")],
                   check=True, timeout=300)
    theirs = json.loads((tmp_path / "traces.json").read_text())
    blocks = 0
    worded = re.compile(r"\b(\w+Error): [^;]*")
    for name in files:
        python = theirs[name].pop("python")
        mine = {str(check): [worded.sub(r"\1: ...", line) for line in lines] for check, lines
                in trace_lines(report.records(terminal[name], LIMIT)).items()}
        assert {check: [worded.sub(r"\1: ...", line) for line in lines]
                for check, lines in theirs[name].items()} == mine, (name, python)
        blocks += len(mine)
    assert len(files) >= 10 and blocks >= 10 and python != sys.version.split()[0]


def test_the_page_draws_the_trace_as_data(terminal):
    """runner.js gets each traced check's block apart, with its place among the
    records, each step's line to link ("at"), only the marked line to mark
    ("lines"), and roles to fold the block by."""
    drawing = in_page(TRACED / "softmax_sum_of_scores.py")
    assert [(b["check"], b["after"]) for b in drawing["traces"]] == [(0, max(
        i for i, r in enumerate(drawing["records"]) if r["check"] == 0))]
    block = drawing["traces"][0]["records"]
    assert {r["check"] for r in block} == {0}
    assert [r["lines"] for r in block if r["lines"]] == [[13]]
    assert [r["at"] for r in block if r["role"] in ("step", "marked")] == [7, 11, 12, 13, 14]
    assert [r["at"] for r in block if r["role"] == "marked"] == [13]
    assert all(r["head"] + r["text"] == report.line_text(r) for r in block)
    assert all(r["field"] for r in block if r["role"] != "trace")     # on a phone, under


def test_correct_files_show_no_trace(terminal):
    corpus = ROOT / "tests" / "learner_corpus"
    results = [terminal["correct.py"]] + [
        process.run(str(corpus / name), LIMIT, name, "none", seed=SEED)
        for name in ("correct_numpy.py", "correct_recursive.py")]
    for result in results:
        assert result["failed"] == 0, result["file"]
        assert not any(check["trace"] for check in result["checks"])
        assert not trace_lines(report.records(result, LIMIT))


# --- Hostile files: the trace never changes a grade -------------------------------------------

def verdicts(result):
    """What a grade says of each check (an object's address, which no two runs share, left out)."""
    return [{key: re.sub(r" at 0x[0-9a-f]+", "", str(check[key])) for key in (
        "status", "passed", "got", "expected", "hint", "message")} for check in result["checks"]]


@pytest.mark.slow             # hostile files traced to their bounds
@pytest.mark.parametrize("path", HOSTILE, ids=[p.name for p in HOSTILE])
def test_a_hostile_file_gets_the_grade_it_gets_untraced(path, monkeypatch):
    traced = process.run(str(path), LIMIT, path.name, "none", seed=SEED)
    monkeypatch.setattr(process, "Plan", functools.partial(planning.Plan, traces=False))
    untraced = process.run(str(path), LIMIT, path.name, "none", seed=SEED)
    assert verdicts(traced) == verdicts(untraced)
    assert (traced["passed"], traced["failed"]) == (untraced["passed"], untraced["failed"])
    assert traced["failed"] and not any(check["trace"] for check in untraced["checks"])
    records = report.records(traced, LIMIT)                 # it draws, bounded
    for check in traced["checks"]:
        if check["trace"]:
            assert len(check["trace"]["steps"]) <= harness.TRACE_STEPS + 2
    assert sum(r["role"] in TRACE_ROLES for r in records) < 4 * (harness.TRACE_STEPS + 12)


@pytest.mark.slow             # hostile files traced to their bounds
def test_what_hostile_files_leave_of_their_traces(terminal):
    """Each hostile file's trace, as it should be left: shown, cut and saying
    why, or dropped."""
    def traces(name):
        result = process.run(str(TRACED / "hostile" / name), LIMIT, name, "none", seed=SEED)
        return {check["function"]: check["trace"] for check in result["checks"]
                if check["trace"]}
    assert traces("settrace.py")["softmax"]["cut"] == "traced"
    assert traces("hangs_when_traced.py")["softmax"]["cut"] == "time"
    assert traces("forges_when_traced.py") == {}             # garbled: dropped, and after it
    huge = traces("huge_rows.py")["softmax"]
    assert huge["cut"] == "time" and any(step["folded"] for step in huge["steps"])
    deep = traces("deep_recursion.py")["softmax"]
    assert deep["mark"]["code"] == "total = sum(x)" and deep["cut"] is None
    assert "softmax" not in traces("odd_objects.py")     # its own later patches changed its run
    assert traces("generators.py")["naive_softmax"]["mark"]["got"] == "a generator"


# --- The tracer ------------------------------------------------------------------------------

def load(source):
    module, loaded = harness.load_learner(source, "mine.py", "mine_traced")
    assert loaded["status"] == "ok", loaded
    return module


def test_a_trace_is_each_statement_of_the_learner_s_own_frames_in_order():
    module = load("import math\n\ndef helper(v):\n    return v * 2\n\n"
                  "def f(x):\n    y = [helper(s)\n         for s in x]\n"
                  "    total = sum(y)\n    return total\n")
    outcome, trace = harness.traced(module.f, [[1.0, 2.0]])
    assert outcome == {"value": 6.0}
    assert [(s["line"], s["depth"]) for s in trace["steps"]] == [
        (3, 1), (4, 1), (3, 1), (4, 1), (7, 0), (9, 0), (10, 0)]
    assert trace["steps"][4]["set"] == [["y", [2.0, 4.0]]]
    assert trace["code"]["line 7"] == "y = [helper(s)"
    assert trace["steps"][-1]["returns"] == 6.0 and trace["cut"] is None


@pytest.mark.slow             # hostile files traced to their bounds
def test_a_long_loop_is_folded_and_the_trace_bounded():
    module = load("def f(x):\n    total = 0.0\n    for s in range(100000):\n"
                  "        total += s\n    return total\n")
    outcome, trace = harness.traced(module.f, [[1.0]], seconds=30)
    assert outcome == {"value": float(sum(range(100000)))} and trace["cut"] is None
    folded = [s for s in trace["steps"] if "folded" in s]
    assert len(folded) == 1 and folded[0]["folded"]["steps"] == 2 * 100000 - 2 * 4 + 1
    assert folded[0]["set"] == [["s", 99999], ["total", float(sum(range(100000)))]]
    assert trace["runs"]["line 4"] == 100000
    assert len(json.dumps(trace)) < harness.TRACE_CHARS + 2000


def test_a_trace_that_takes_its_time_stops_and_the_call_goes_on():
    module = load("def f(x):\n    n = 0\n    while n < 3_000_000:\n        n += 1\n    return n\n")
    outcome, trace = harness.traced(module.f, [[1.0]], seconds=0.05)
    assert outcome == {"value": 3_000_000} and trace["cut"] == "time"


def test_the_tracer_calls_none_of_the_learner_s_code():
    module = load("class Odd:\n    def __repr__(self):\n        raise RuntimeError\n"
                  "    def __eq__(self, other):\n        raise RuntimeError\n\n"
                  "def f(x):\n    odd = Odd()\n    text = 'a' * 1000\n    return 0.5\n")
    outcome, trace = harness.traced(module.f, [[1.0]])
    assert outcome == {"value": 0.5} and trace["cut"] is None
    assert trace["steps"][0]["set"] == [["odd", {"other": "Odd"}]]
    assert trace["steps"][1]["set"][0][1]["repr"].endswith("...")


def test_a_learner_who_takes_the_tracer_away_is_told():
    module = load("import sys\n\ndef f(x):\n    sys.settrace(None)\n    y = 1.0\n    return y\n")
    outcome, trace = harness.traced(module.f, [[1.0]])
    assert outcome == {"value": 1.0} and trace["cut"] == "traced"
    assert sys.gettrace() is None or "coverage" in type(sys.gettrace()).__module__


@pytest.mark.parametrize("body, value, cut", [
    ("    y = x[0] * 2\n    return y\n", 2.0, None),
    ("    import sys\n    sys.settrace(None)\n    return 1.0\n", 1.0, "traced"),
    ("    for i in range(2 * 10 ** 6):\n        y = i\n    return 1.0\n", 1.0, "time")])
def test_the_tracer_gives_back_the_one_it_found(body, value, cut):
    """In the checker's own process (a debugger, coverage), a trace puts the
    tracer it found back when it ends, is taken away or stops early."""
    module = load("def f(x):\n" + body)

    def theirs(frame, event, arg):
        return None
    before = sys.gettrace()
    sys.settrace(theirs)
    try:
        outcome, trace = harness.traced(module.f, [[1.0]], seconds=0.05)
        after = sys.gettrace()
    finally:
        sys.settrace(before)
    assert after is theirs
    assert outcome == {"value": value} and trace["cut"] == cut


# --- The plan's trace step ---------------------------------------------------------------------

def _carried_out(plan, trace_seconds=0.01, call_seconds=0.01, load_seconds=0.01):
    """The steps a plan asks for, each taking the seconds given (never more
    than the step's own), every call answered [0.25], every trace kept
    unless it takes all its seconds (it is late)."""
    steps_asked, step = [], plan.next()
    while step["do"] != "done":
        steps_asked.append(step)
        if step["do"] == "load":
            event = {"loaded": {"status": "ok"}, "seconds": min(load_seconds, step["seconds"])}
        elif step["do"] == "call":
            event = {"reply": {"token": step["token"], "outcome": {"value": [0.25]}},
                     "seconds": min(call_seconds, step["seconds"])}
        elif step["do"] == "trace" and trace_seconds >= step["seconds"]:
            event = {"late": True, "seconds": step["seconds"]}
        elif step["do"] == "trace":
            event = {"reply": {"token": step["token"], "outcome": {"value": [0.25]},
                               "trace": {"steps": [], "code": {}, "runs": {}, "cut": None}},
                     "seconds": trace_seconds}
        else:
            event = {}
        step = plan.next(event)
    return steps_asked


def test_traces_come_after_every_check():
    plan = planning.Plan(0.5, CHECKS)
    steps_asked = _carried_out(plan)
    kinds = [s["do"] for s in steps_asked]
    traced = [s["check"] for s in steps_asked if s["do"] == "trace"]
    assert kinds.index("trace") > max(i for i, k in enumerate(kinds) if k == "call")
    assert traced == [checks_of(f)[0] for f in ("softmax", "naive_softmax",
                                                 "rows_normalised", "entropy")]
    assert plan.used == pytest.approx(0.01 * (1 + len(CHECKS) + len(traced)))
    assert all(s["seconds"] == 0.5 + planning.TRACE_SECONDS and s["trace"] ==
               planning.TRACE_SECONDS for s in steps_asked if s["do"] == "trace")
    assert planning.request(steps_asked[-2])["trace"] == planning.TRACE_SECONDS
    assert plan.outcomes[traced[0]]["trace"]["outcome"] == {"value": [0.25]}


def test_traces_are_the_files_time_and_stop_when_it_is_used_up():
    """A trace gets what is left of the file's time, and none starts after:
    the file's steps, traces and all, fit in its time (so in a platform's
    window: Exercism's 20 s)."""
    plan = planning.Plan(0.5, CHECKS)
    file_limit = time_limits(0.5)[2]                    # 6.5 s
    steps_asked = _carried_out(plan, call_seconds=0.25, trace_seconds=1.0)
    traces = [s for s in steps_asked if s["do"] == "trace"]
    left = file_limit - 0.01 - 0.25 * len(CHECKS)      # 1.49 s once every check is done
    assert [t["seconds"] for t in traces] == pytest.approx([left, left - 1.0])
    assert plan.used == pytest.approx(file_limit)
    assert sum("trace" in o for o in plan.outcomes.values()) == 1   # the late one is dropped
    assert steps_asked[-1]["do"] == "stop"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0, 30), min_size=1, max_size=60), st.sampled_from([0.1, 0.5, 2.0]))
def test_a_files_steps_never_take_more_than_its_time(taken, time_limit):
    """Whatever each step takes (at most its seconds: a late one is stopped
    then), loads, hangs, reloads and traces included, the sum of the
    seconds the plan gives its steps is at most the file's limit."""
    plan = planning.Plan(time_limit, CHECKS)
    spent, step, n = 0.0, plan.next(), 0
    while step["do"] != "done":
        took = taken[n % len(taken)]
        n += 1
        late = took >= step.get("seconds", 0.0)
        seconds = min(took, step.get("seconds", 0.0))
        spent += seconds
        if step["do"] == "load":
            event = {"late": True} if late else {"loaded": {"status": "ok"}}
        elif step["do"] in ("call", "trace"):
            event = {"late": True} if late else {"reply": {
                "token": step["token"], "outcome": {"value": [0.25]},
                "trace": {"steps": [], "code": {}, "runs": {}, "cut": None}}}
        else:
            event, seconds = {}, 0.0
        step = plan.next(dict(event, seconds=seconds))
        assert n < 1000
    assert spent <= time_limits(time_limit)[2] + 1e-9


@pytest.mark.parametrize("happened", [{"late": True}, {"crashed": -9},
                                      {"reply": "20 passed, 0 failed"}])
def test_a_trace_late_crashed_or_garbled_is_dropped_with_those_after_it(happened):
    plan = planning.Plan(0.5, CHECKS)
    step, asked = plan.next(), []
    while step["do"] != "done":
        asked.append(step["do"])
        if step["do"] == "load":
            event = {"loaded": {"status": "ok"}, "seconds": 0.01}
        elif step["do"] == "call":
            event = {"reply": {"token": step["token"], "outcome": {"value": [0.25]}},
                     "seconds": 0.01}
        else:
            event = dict(happened, seconds=1.0) if step["do"] == "trace" else {}
        step = plan.next(event)
    assert asked.count("trace") == 1 and asked[-1] == "stop"
    assert not any("trace" in outcome for outcome in plan.outcomes.values())
    assert all(r["trace"] is None for r in judge.results(plan.load, plan.outcomes, 0.5))


def test_after_a_hang_the_file_is_loaded_once_more_to_trace():
    plan = planning.Plan(0.5, CHECKS)
    step, asked = plan.next(), []
    while step["do"] != "done":
        asked.append(step["do"])
        if step["do"] == "load":
            event = {"loaded": {"status": "ok"}, "seconds": 0.01}
        elif step["do"] == "call" and step["function"] == "entropy":
            event = {"late": True, "seconds": 0.5}
        elif step["do"] in ("call", "trace"):
            event = {"reply": {"token": step["token"], "outcome": {"value": [0.25]},
                               "trace": {"steps": [], "code": {}, "runs": {}, "cut": None}},
                     "seconds": 0.01}
        else:
            event = {}
        step = plan.next(event)
    assert asked[-6:] == ["stop", "load", "trace", "trace", "trace", "stop"]
    assert asked.count("load") == 2


def test_a_file_that_garbled_a_check_is_not_traced():
    plan = planning.Plan(0.5, CHECKS)
    step, asked = plan.next(), []
    while step["do"] != "done":
        asked.append(step["do"])
        event = ({"loaded": {"status": "ok"}, "seconds": 0.01} if step["do"] == "load"
                 else {"reply": "forged", "seconds": 0.01} if step["do"] == "call" else {})
        step = plan.next(event)
    assert "trace" not in asked


# --- The matching ------------------------------------------------------------------------------

def traced_outcome(source, function, check, seed=None):
    """The outcome of ``function`` on ``check``'s input, with its trace, as the plan keeps it."""
    module = load(source)
    outcome, trace = harness.traced(getattr(module, function), check.args, check.kwargs)
    return dict(outcome, trace=dict(trace, outcome=outcome))


def test_a_value_the_lesson_has_passed_is_not_its_next_step():
    """sum(x) is 0.7071 on [0.7071, 0]: the max, a step behind the exps."""
    check = check_named("lesson's first weight")
    source = ("import math\n\ndef softmax(x, axis=-1):\n    top = max(x)\n"
              "    exps = [math.exp(s - top) for s in x]\n    total = sum(x)\n"
              "    return [e / total for e in exps]\n")
    mark = steps.compared(check, traced_outcome(source, "softmax", check))["mark"]
    assert (mark["line"], mark["got"], mark["step"], mark["lesson"]) == (
        6, "0.7071", "sum of the exps", "1.4931")


def test_a_loop_one_key_short_leaves_its_sum_under_way():
    check = check_named("lesson's first weight")
    source = ("import math\n\ndef softmax(x, axis=-1):\n    top = max(x)\n"
              "    exps = [math.exp(s - top) for s in x]\n    total = 0.0\n"
              "    for i in range(len(exps) - 1):\n        total += exps[i]\n"
              "    return [e / total for e in exps]\n")
    mark = steps.compared(check, traced_outcome(source, "softmax", check))["mark"]
    assert (mark["line"], mark["name"], mark["got"], mark["lesson"]) == (8, "total", "1", "1.4931")


def test_a_right_function_s_trace_has_no_mark():
    check = check_named("uniform over 4 is ln 4")
    source = ("import math\n\ndef entropy(w):\n    total = 0.0\n    for p in w:\n"
              "        if p > 0:\n            term = p * math.log(p)\n"
              "            total -= term\n    return total\n")
    record = steps.compared(check, traced_outcome(source, "entropy", check))
    assert record["mark"] is None and len(record["steps"]) > 8


def test_where_no_step_of_the_lesson_s_can_be_named_nothing_is_marked():
    """A list of five numbers on a row of four: no step of the lesson's has that size."""
    check = check_named("uniform over 4 is ln 4")
    source = ("def entropy(w):\n    odd = [0.1, 0.2, 0.3, 0.4, 0.5]\n    return 7.0\n")
    record = steps.compared(check, traced_outcome(source, "entropy", check))
    assert record["mark"] is None and record["steps"][0]["values"].startswith("odd = [0.1")


def test_a_traced_run_that_ends_otherwise_is_not_shown():
    check = check_named("uniform over 4 is ln 4")
    outcome = traced_outcome("def entropy(w):\n    return 7.0\n", "entropy", check)
    assert steps.compared(check, outcome) is not None
    assert steps.compared(check, dict(outcome, value=8.0)) is None
    assert steps.compared(check, {"value": 7.0}) is None                    # no trace
    assert steps.compared(check, dict(outcome, trace={"steps": "junk"})) is None


@pytest.mark.parametrize("index", range(len(CHECKS)))
def test_the_lesson_s_steps_end_in_its_answer(index):
    """The last step of the lesson's table is the lesson's own answer (or where
    it raises), for every check's input, fresh ones too."""
    for check in (CHECKS[index], checks_for(SEED)[index]):
        table = [s for s in steps.lesson_steps(check) if s["table"] and s["row"] is None]
        kind, answer = steps._lesson_answer(check)
        if kind == "raises":
            assert any(s["raises"] for s in steps.lesson_steps(check)), check
        elif check.function != "rows_normalised":
            assert steps.matches(table[-1]["value"], answer), check
