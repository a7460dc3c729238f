"""lesson/grader/page.py: the grading plan as the Exercises page's judge
Web Worker carries it out, with texts in and out.

runner.js drives it in a browser (test_runner_browser.py); here Python
drives it as the judge's worker does, without a page or a process.  The plan
it follows is test_plan.py's.
"""

import json

import pytest

from lesson.grader import harness, page
from lesson.grader.contract import CHECKS, TIME_LIMIT, time_limits

from helpers import SAMPLES      # tests/learner_corpus and the site's samples

LIMIT = 0.5
CHECK, LOAD, FILE = time_limits(LIMIT)


def test_the_page_drives_the_same_plan():
    """lesson.grader.page, as the judge's worker runs it, with texts in and out."""
    what, seconds, keep, request = page.begin("0.5")
    assert (what, seconds) == ("load", LOAD)
    what, seconds, keep, request = page.advance("loaded", '{"load": {"status": "ok"}}', 0.01, "{}")
    assert what == "call" and '"function": "softmax"' in request
    what, *_ = page.advance("late", "", seconds, '{"stdout": ["waiting", 7]}')
    assert what == "stop"
    plan = page._RUN["plan"]
    assert plan.outcomes[0]["timeout"] and plan.outcomes[0]["stdout"] == "waiting"


def drive(path, time_limit="0.5", seed="7"):
    """Grade ``path`` as the page does, this process standing in for both
    Web Workers: the judge's (``page``) and the learner's (``harness``'s
    load_here and answer_here), with runner.js's texts between them."""
    what, seconds, keep, request = page.begin(time_limit, seed)
    while what != "done":
        if what == "load":
            happened = ("loaded", harness.load_here(str(path)))
        elif what == "call":
            happened = ("reply", harness.answer_here(request))
        else:                                               # "stop"
            happened = ("stopped", "")
        what, seconds, keep, request = page.advance(*happened, 0.001, "{}")
    return json.loads(page.finish(path.name, f"python -m lesson check {path.name}"))


def test_a_file_graded_by_the_page_gets_the_checkers_verdicts():
    right = drive(SAMPLES / "correct_lists.py")
    assert (right["tally"], right["failed"], right["note"]) == (
        f"{len(CHECKS)} passed, 0 failed", 0, "")
    wrong = drive(SAMPLES / "forgot_max.py")
    assert (wrong["tally"], wrong["failed"]) == (f"{len(CHECKS) - 3} passed, 3 failed", 3)
    failed = [r["check"] for r in wrong["records"] if r["verdict"] == "fail"]
    assert failed == [i for i, c in enumerate(CHECKS) if c.name in (
        "large scores", "very negative scores", "each row of a matrix")]
    assert {n for r in wrong["records"] for n in r["lines"]} == {8, 10}   # exp overflows; / 0


@pytest.mark.parametrize("text", ["", "abc", "inf", "nan", "0", "-1"])
def test_a_time_limit_the_address_gets_wrong_is_the_default(text):
    """?time-limit= is the learner's to type: nonsense gives the default, never an error."""
    assert page.begin(text)[:2] == ["load", time_limits(TIME_LIMIT)[1]]
