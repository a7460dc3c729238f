"""Every output says the same: one set of records, drawn six ways (issue 27).

The report is records (lesson/grader/report.py); the terminal's text, the
Exercises page's drawing (lesson/grader/page.py, what runner.js receives)
and the four platforms' documents are each drawn from them.  For every file
of the learner corpus (tests/learner_corpus, tests/mistakes), graded once
here, each output must agree with the result on every check's verdict,
every line of the learner's file it names, and the closing count.

The files are graded with no sandbox and a short time limit (the verdicts,
not the limits, are under test here; the corpus's own tests run the CLI as
teachers do): the benign ones (every usual mistake, the corpus's wrong and
correct answers) in this process, as tests/test_mistakes.py does, the others
each in the checker's worker process.
"""

import json
import pathlib
import re
import sys
import time
import warnings
import xml.etree.ElementTree as ElementTree

import pytest

from lesson.grader import (classroom, contract, formats, harness, judge, page, problems,
                          process, report)
from lesson.grader.plan import Plan, request
from helpers import code_of

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "learner_corpus"
MISTAKES = ROOT / "tests" / "mistakes"
LIMIT = 0.1                 # seconds per check: the files that hang cost little
SEED = 7
SLOW = ("hang_top_level_loop", "loops_at_import")     # spin the 5 s floor of a load


# Corpus files that start processes or print while loading: graded by a worker.
NOT_BENIGN = ("correct_multiprocessing.py", "correct_top_level_prints.py")


def benign(path):
    """A file that only defines functions and computes: a usual mistake, or
    one of the corpus's wrong or correct answers."""
    path = pathlib.Path(path)
    return path.parent == MISTAKES or (path.parent == CORPUS and path.name.endswith(".py")
                                       and path.name.startswith(("wrong_", "correct_"))
                                       and path.name not in NOT_BENIGN)


def grade(path):
    """One file's result: a benign file loaded and called in this process as
    a worker does (no Python started for it), any other by the checker's
    worker process, as it may hang, exit, fork or crash."""
    shown = str(pathlib.Path(path).relative_to(ROOT))
    if benign(path):
        started = time.monotonic()
        load, outcomes, checks = planned_here(path)
        return dict(process.judged(load, outcomes, LIMIT, checks, shown, code_of(path)),
                    sandbox="none", seed=SEED, seconds=round(time.monotonic() - started, 3))
    return process.run(path, LIMIT, shown, "none", seed=SEED)


def planned_here(path):
    """(load, outcomes, checks): the plan carried out in this process, as a
    worker would (its traces too), for a benign file; this process's state
    (sys.path, NumPy's error settings, the modules the file imported) put back."""
    import numpy
    checks = contract.checks_for(SEED)
    saved = sys.argv[:], sys.path[:], numpy.geterr(), set(sys.modules)
    plan, module = Plan(LIMIT, checks), None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # NumPy's, which a worker sends to stderr
            step = plan.next()
            while step["do"] != "done":
                event = {}
                if step["do"] == "load":
                    module, load = harness.load_file(str(path))
                    event = {"loaded": wired(load)}
                elif step["do"] in ("call", "trace"):
                    event = {"reply": wired(harness.answer(module, request(step)))}
                step = plan.next(event)
    finally:
        sys.argv[:], sys.path[:] = saved[0], saved[1]
        numpy.seterr(**saved[2])
        for name in set(sys.modules) - saved[3]:
            if name.split(".")[0] != "numpy":
                del sys.modules[name]
    return plan.load, plan.outcomes, checks


def wired(record):
    """A record as the checker reads it from a worker: through the pipe, as
    JSON (its statuses plain strings; the checker believes no other shape)."""
    return json.loads(json.dumps(record))


@pytest.fixture(scope="module")
def graded():
    """{shown name: result} for every file of the corpus, each graded once."""
    entries, _ = classroom.find([str(CORPUS), str(MISTAKES)])
    paths = [e.path for e in entries] + [str(p) for p in sorted(CORPUS.glob("*.txt"))
                                         + sorted(CORPUS.glob("*.docx"))]
    here = {path: grade(path) for path in paths if benign(path)}
    paths = sorted((p for p in paths if p not in here),
                   key=lambda path: not any(name in path for name in SLOW))   # those first
    results = classroom.grade_all(list(range(len(paths))), lambda i: grade(paths[i]), 2, None)
    return {result["file"]: result for result in list(here.values()) + list(results)}


def test_the_corpus_is_all_there(graded):
    assert len(graded) > 100
    assert {r["load"]["status"] for r in graded.values()} >= {
        "ok", "syntax", "error", "timeout", "not_python"}
    assert any(c.get("line") for r in graded.values() for c in r["checks"])
    garbled = [name for name, r in graded.items()
               if benign(ROOT / name) and r["load"]["status"] == "garbled"]
    assert garbled == [], "graded here, these were read as forged: the wiring is wrong"


def truth(result):
    """What every output must say: each check's verdict (None where the file did
    not load: no check ran), the lines each check names, and the count."""
    loaded = problems.load_problem_text(result["load"], LIMIT) is None
    verdicts = [("pass" if c["passed"] else "fail") if loaded else None
                for c in result["checks"]]
    return verdicts, report.tally(*judge.counts(result["checks"]))


def named_lines(check):
    """The learner's lines a check's records must name: the line its error points
    at, and, for a traced check, where its values leave the lesson's."""
    mark = (check.get("trace") or {}).get("mark") or {}
    return {n for n in (check["line"], report.learner_line(mark)) if n}


def check_lines(records):
    """{check index: the learner's lines its records name}."""
    named = {}
    for record in records:
        if record["check"] is not None and record["lines"]:
            named.setdefault(record["check"], set()).update(record["lines"])
    return named


def test_the_records_carry_the_results_verdicts_and_lines(graded):
    located = traced = 0                # failed checks whose lines the records must name
    for name, result in graded.items():
        records = report.records(result, LIMIT)
        verdicts, tally = truth(result)
        drawn = [r["verdict"] for r in records if r["role"] == "verdict"]
        assert drawn == [v for v in verdicts if v], name
        assert records[-1]["text"] == tally, name
        for index, lines in check_lines(records).items():
            assert lines == named_lines(result["checks"][index]), (name, index)
        for index, check in enumerate(result["checks"]):
            if named_lines(check) and not check["passed"] and check["got"] not in (None, "None"):
                assert check_lines(records).get(index) == named_lines(check), (name, index)
                located += 1
                traced += bool(check["trace"] and check["trace"]["mark"])
    assert located, "no failed check names a line of the learner's file"
    assert traced, "no trace marks a line: the traces' lines went unchecked"


def test_the_terminal_text_agrees(graded):
    numbers = 0
    for name, result in graded.items():
        records = report.records(result, LIMIT)
        text = report.text_lines(records)
        verdicts, tally = truth(result)
        shown = [line[2:6] for line in text if line.startswith(("  PASS  ", "  FAIL  "))]
        assert shown == [v.upper() for v in verdicts if v], name
        assert text[-1] == tally, name
        for line, record in zip(text, records):
            for number in record["lines"]:
                assert f"line {number}" in line, (name, line)
                numbers += 1
    assert numbers, "no record names a line: the text's line numbers went unchecked"


def unfolded(drawing):
    """The page's records with each traced check's block in its place ("after")."""
    out = []
    blocks = {block["after"]: block["records"] for block in drawing["traces"]}
    for index, record in enumerate(drawing["records"]):
        out += [record] + blocks.get(index, [])
    return out


def test_the_page_gets_the_same_records_as_data(graded):
    links = traced = 0
    for name, result in graded.items():
        records = report.records(result, LIMIT)
        drawing = json.loads(json.dumps(page.drawn(result, LIMIT)))   # as runner.js gets it
        verdicts, tally = truth(result)
        assert drawing["tally"] == tally and drawing["failed"] == result["failed"], name
        assert [r["head"] + r["text"] for r in unfolded(drawing)] == report.text_lines(records)
        assert [(r["verdict"], r["lines"], r["links"]) for r in unfolded(drawing)] == [
            (r["verdict"], r["lines"], r["links"]) for r in records], name
        assert not any(r["role"] in report.TRACE_ROLES for r in drawing["records"])
        traced += len(drawing["traces"])
        for record in drawing["records"]:
            for start, end, address in record["links"]:
                assert address.split("#")[0].endswith(".html") and record["text"][start:end], record
                links += 1
    assert links, "no record links to the site: the links went unchecked"
    assert traced, "no trace drawn: the traces' blocks went unchecked"


def test_every_platform_agrees(graded):
    lined = 0                           # checks whose lines each platform must mention
    for name, result in graded.items():
        verdicts, tally = truth(result)
        named = check_lines(report.records(result, LIMIT))
        lined += len(named)
        agree_gradescope(name, result, verdicts, tally, named)
        agree_prairielearn(name, result, verdicts, tally, named)
        agree_exercism(name, result, verdicts, named)
        agree_junit(name, result, verdicts, named)
    assert lined, "no record names a line: the platforms' line numbers went unchecked"


def mentions(text, lines):
    return all(f"line {number}" in text for number in lines)


def agree_gradescope(name, result, verdicts, tally, named):
    document = json.loads(formats.gradescope(result, time_limit=LIMIT))
    assert [t["status"] for t in document["tests"]] == [
        "passed" if v == "pass" else "failed" for v in verdicts], name
    assert document["output"].endswith(tally), name
    for index, lines in named.items():
        assert mentions(document["tests"][index]["output"], lines), (name, index)


def agree_prairielearn(name, result, verdicts, tally, named):
    document = json.loads(formats.prairielearn(result, time_limit=LIMIT))
    assert document["gradable"] is (verdicts[0] is not None), name
    if not document["gradable"]:
        return
    assert [t["points"] > 0 for t in document["tests"]] == [v == "pass" for v in verdicts]
    assert document["message"].startswith(tally + ":"), name
    for index, lines in named.items():
        assert mentions(document["tests"][index]["output"], lines), (name, index)


def agree_exercism(name, result, verdicts, named):
    document = json.loads(formats.exercism(result, LIMIT))
    if verdicts[0] is None:                 # no test was executed: none is listed
        assert document["status"] == "error" and document["tests"] == [], name
        return
    assert [t["status"] == "pass" for t in document["tests"]] == [
        v == "pass" for v in verdicts], name
    for index, lines in named.items():
        assert mentions(document["tests"][index]["message"], lines), (name, index)


def agree_junit(name, result, verdicts, named):
    suite = ElementTree.fromstring(formats.junit([result], LIMIT)).find("testsuite")
    cases = suite.findall("testcase")
    outcome = [next((e for e in case if e.tag in ("failure", "error", "skipped")), None)
               for case in cases]
    assert [o is None for o in outcome] == [v == "pass" for v in verdicts], name
    for index, lines in named.items():
        assert mentions(outcome[index].text, lines), (name, index)


# --- Nothing reads the report's text back -------------------------------------------

def test_a_line_number_the_learner_printed_is_not_a_line_of_the_file():
    """Only the judge's data names a line: printing "on line 5" marks nothing,
    and an error's message that says "your line 5" marks the line it came from."""
    raised = {"error": {"type": "OverflowError", "message": "(your line 5: x)",
                        "kinds": ["OverflowError"], "line": 3, "where": "line 3",
                        "code": "math.exp(s)"}, "stdout": "failed on line 5\n"}
    outcomes = {2: raised, 3: {"value": None, "stdout": "on line 5"}}
    load = {"status": "ok", "stdout": "your line 5 is fine"}
    results = report.located(judge.results(load, outcomes), outcomes)
    drawing = page.drawn({"file": "ex.py", "load": load, "checks": results})
    assert sorted({n for r in drawing["records"] for n in r["lines"]}) == [3]
    assert any("your line 5" in r["text"] for r in drawing["records"])   # shown, not marked


def test_runner_js_matches_no_report_text():
    """runner.js draws records: no PASS/FAIL, line numbers, labels or links found
    in the text by a pattern, and no rule of time of its own."""
    script = (ROOT / "docs" / "assets" / "runner" / "runner.js").read_text()
    for words in ("PASS", "FAIL", "your line", "on line", ".html#", "result.hangs",
                  "START_LIMIT ="):
        assert words not in script, words
    assert not re.search(r"matchAll|result\.lines|\.split\(/", script)


def test_the_page_says_what_its_python_cannot_do_from_the_error_not_the_report():
    """A NumPy solution in the page: the note comes from the exception the
    file raised, and the report draws the learner's line from the load."""
    error = {"type": "ModuleNotFoundError", "message": "No module named 'numpy'",
             "kinds": ["ModuleNotFoundError", "ImportError"], "line": 2, "where": "line 2",
             "code": "import numpy as np"}
    what, *_ = page.begin("0.5", "7")
    what, *_ = page.advance("loaded", json.dumps({"load": {"status": "error", "error": error}}),
                            0.01, "{}")
    while what != "done":
        what, *_ = page.advance("stopped", "", 0.0, "{}")
    drawing = json.loads(page.finish("softmax_exercise.py", "python -m lesson check x.py"))
    assert drawing["note"].startswith("NumPy is not available in the page")
    assert "python -m lesson check x.py" in drawing["note"]
    assert [r["lines"] for r in drawing["records"] if r["role"] == "problem"] == [[2]]
    assert drawing["tally"] == f"0 passed, {len(contract.CHECKS)} failed"
