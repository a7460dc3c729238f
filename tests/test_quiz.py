"""Questions that answer back, and the "why" pages.

Built-site tests check that every question is a real form whose answers the
lesson computed; browser tests (headless Chromium) choose right and wrong
options, type answers, use the keyboard, run axe-core, and turn JavaScript
off. (The pages' install steps are tested in test_download.py.)
"""

import functools
import html
import http.server
import json
import math
import re
import threading

import pytest

import lesson
from lesson import example, softmax

from lesson_docs import lesson_figures, lesson_tables, why_scaling  # the site build's own

QUIZ_PAGES = {"index": ["temperature", "double", "shift", "tiny", "matrix"], "check": ["rows", "mask"],
              "why-softmax": ["divide", "argmax"], "why-scaling": ["scaling"]}
ANSWER_PAGE = "by-hand"


def page(site, name):
    return (site / f"{name}.html").read_text()


def answer_spec(site, name):
    match = re.search(rf'<form class="lesson-answer" id="answer-{name}" hidden data-answer="([^"]+)"',
                      page(site, ANSWER_PAGE))
    return json.loads(html.unescape(match.group(1)))


# --- The built pages ----------------------------------------------------------

def test_at_least_six_questions_across_the_pages_each_a_real_form(built_site):
    total = 0
    for name, quizzes in QUIZ_PAGES.items():
        markup = page(built_site, name)
        found = re.findall(r'<form class="lesson-quiz" id="quiz-(\w+)"', markup)
        assert found == quizzes, name
        for quiz in quizzes:
            form = markup[markup.index(f'id="quiz-{quiz}"'):]
            form = form[:form.index("</form>")]
            assert re.search(r"<fieldset><legend>.+?</legend>", form)
            radios = re.findall(r'<input type="radio" name="quiz-\w+" value="(\w)" '
                                r'data-right="(true|false)"', form)
            assert len(radios) >= 2 and [r for _, r in radios].count("true") == 1
            for letter, _ in radios:                        # every option is explained
                why = re.search(rf'<li data-option="{letter}">.*?<span class="quiz-why">(.+?)</span>',
                                form, re.S)
                assert why and len(why.group(1)) > 40, (quiz, letter)
            total += 1
    assert total >= 6


def test_questions_cover_what_the_issue_asks(built_site):
    legends = " ".join(re.findall(r"<legend>(.+?)</legend>",
                                  "".join(page(built_site, n) for n in QUIZ_PAGES)))
    for idea in ["across every query", "Add 5", "by 2", "[2, \u2212100]", "mask",
                 "T \u2192 0", "\u221ad<sub>k</sub>", "<em>causal</em>"]:
        assert idea in legends, idea


def test_explanations_carry_numbers_computed_by_the_lesson(built_site):
    text = html.unescape(page(built_site, "index"))
    doubled = softmax([2 * s for s in example.TABLE_SCORES])
    assert "[" + ", ".join(f"{w:.4f}".rstrip("0") for w in doubled) + "]" in text
    tiny = softmax([2, -100])[1]
    assert f"{tiny:.3g}" in text and tiny > 0
    markup = page(built_site, "why-scaling")
    big = why_scaling.scaling_experiment()[-1]
    assert f"{big['top_raw']:.2f}" in markup and f"{big['top_scaled']:.2f}" in markup


def test_answer_boxes_hold_the_lessons_answers(built_site):
    first = answer_spec(built_site, "first-weight")
    assert first["answer"] == softmax([0.7071, 0])[0] and first["shown"] == "0.670"
    assert first["tolerance"] == 0.0005                        # "to 3 decimals"
    four = answer_spec(built_site, "four-weights")
    assert four["answer"] == math.fsum(map(math.fsum, softmax([[0.7071, 0], [0, 0.7071]])))
    large = answer_spec(built_site, "large-scores")
    assert large["answer"] == softmax([1000, 1000])[0] and large["each"] == 2
    diagnosed = [d["value"] for d in first["diagnoses"]]
    assert 0.7071 / (0.7071 + 0) in diagnosed                   # divided by the sum, no exp
    assert softmax([1, 0])[0] in diagnosed                      # unscaled [1, 0]
    assert math.fsum(softmax([0.7071, 0, 0, 0.7071])) in [d["value"] for d in four["diagnoses"]]


def test_the_idea_pages_scores_come_from_a_stated_query_and_keys(built_site):
    scores = lesson.scaled_scores(lesson_tables.TABLE_QUERY, lesson_tables.TABLE_KEYS)
    assert scores == example.TABLE_SCORES                       # exactly, not nearly
    text = html.unescape(re.sub(r"<[^>]+>", " ", page(built_site, "index")))
    for shown in lesson_tables.TABLE_KEYS_SHOWN:
        assert shown in text


def test_causal_heatmap_uses_example_tokens(built_site):
    markup = page(built_site, "reference")
    assert "token 0" not in markup
    for word in lesson_figures.TOKEN_WORDS:
        assert f">{word}</text>" in markup


def test_scaling_experiment_shows_what_the_page_says():
    rows = why_scaling.scaling_experiment()
    for r in rows:                                   # spread grows like sqrt(d_k) ...
        assert r["spread"] == pytest.approx(math.sqrt(r["d_k"]), rel=0.15)
        assert r["spread_scaled"] == pytest.approx(1, rel=0.15)   # ... and scaling undoes it
    raw = [r["h_raw"] for r in rows]
    scaled = [r["h_scaled"] for r in rows]
    assert raw == sorted(raw, reverse=True) and raw[-1] < 0.25 * raw[0]
    assert max(scaled) - min(scaled) < 0.15
    assert rows[-1]["top_raw"] > 0.9 > 0.5 > rows[-1]["top_scaled"]


# --- In the browser -----------------------------------------------------------

def options(view, quiz):
    return view.page.locator(f"#quiz-{quiz} input[type=radio]")


@pytest.mark.parametrize("name", list(QUIZ_PAGES))
def test_choosing_an_option_answers_at_once_with_its_reason(open_page, name):
    view = open_page(name)
    for quiz in QUIZ_PAGES[name]:
        feedback = view.page.locator(f"#quiz-{quiz} .quiz-feedback")
        assert feedback.inner_text() == ""
        radios = options(view, quiz)
        assert radios.count() >= 2, quiz
        for i in range(radios.count()):
            radio = radios.nth(i)
            radio.check()
            right = radio.get_attribute("data-right") == "true"
            why = view.page.locator(f'#quiz-{quiz} li[data-option="{radio.get_attribute("value")}"] '
                                    f".quiz-why").text_content()
            assert why.strip() in feedback.text_content()
            assert ("right." in feedback.inner_text()) == right
            assert ("is-right" if right else "is-wrong") in feedback.get_attribute("class")
    assert view.errors == []


def test_questions_work_from_the_keyboard(open_page):
    view = open_page("check")
    first = options(view, "rows").first
    first.focus()
    view.page.keyboard.press("ArrowDown")               # moves to, and chooses, option B
    assert options(view, "rows").nth(1).is_checked()
    assert "right." in view.page.inner_text("#quiz-rows .quiz-feedback")
    view.page.keyboard.press("ArrowUp")
    assert "not quite." in view.page.inner_text("#quiz-rows .quiz-feedback")


def submit(view, box, text, key=False):
    field = view.page.locator(f"#answer-{box}-input")
    field.fill(text)
    if key:
        field.press("Enter")
    else:
        view.page.click(f"#answer-{box} button")
    feedback = view.page.locator(f"#answer-{box} .answer-feedback")
    return feedback.get_attribute("class"), feedback.inner_text()


def says(spec, value):
    """The diagnosis the build wrote for a wrong value, as plain text."""
    for d in spec["diagnoses"]:
        if math.isclose(d["value"], value, abs_tol=d["tolerance"]):
            return html.unescape(re.sub(r"<[^>]+>", "", d["says"]))
    raise LookupError(value)


def test_answer_boxes_accept_reasonable_forms(open_page):
    view = open_page(ANSWER_PAGE)
    for text in ["0.670", ".67", "0.6698", "0,670", " 0.67 "]:
        verdict, said = submit(view, "first-weight", text)
        assert "is-right" in verdict, (text, said)
        assert "0.670" in said
    for text in ["2", "2.0"]:
        assert "is-right" in submit(view, "four-weights", text)[0]
    for text in ["0.5", ".5", "1/2", "[0.5, 0.5]", "0.5 each", "50%", "50 %", "[1/2, 1/2]",
                 "half", "0.5 and 0.5", "one half each"]:
        assert "is-right" in submit(view, "large-scores", text, key=True)[0], text
    assert view.errors == []


def test_answer_boxes_name_a_percent_another_example_and_each(open_page, built_site):
    view = open_page(ANSWER_PAGE)
    first = answer_spec(built_site, "first-weight")
    verdict, said = submit(view, "first-weight", "67")              # a percent, no % sign
    assert "is-wrong" in verdict and "percent" in said and "0.670" in said
    verdict, said = submit(view, "first-weight", "0.5972")          # the idea page's 3 keys
    assert "is-wrong" in verdict and "three-key example" in said
    verdict, said = submit(view, "first-weight", "0.67 each")       # not one key's weight
    assert "is-wrong" in verdict and said == first["notEach"]
    # Question 2's answer is a sum, not a weight: 200 is a percent, said as such.
    verdict, said = submit(view, "four-weights", "200")
    assert "is-wrong" in verdict and "percent" in said and "a sum of weights" in said, said
    assert "A weight is a fraction" not in said and "200%" not in said
    verdict, said = submit(view, "large-scores", "50")
    assert "A weight is a fraction between 0 and 1: 0.5, which is 50%." in said
    assert view.errors == []


def test_answer_boxes_diagnose_the_common_mistakes(open_page, built_site):
    view = open_page(ANSWER_PAGE)
    first, four, large = (answer_spec(built_site, n)
                          for n in ("first-weight", "four-weights", "large-scores"))
    verdict, said = submit(view, "first-weight", "1.0")
    assert "is-wrong" in verdict and said == says(first, 1.0)
    assert "dividing the scores by their sum" in said and "no exp" in said
    verdict, said = submit(view, "first-weight", "0.731")
    assert said == says(first, softmax([1, 0])[0]) and "unscaled" in said
    verdict, said = submit(view, "first-weight", "0.669")          # cut off, not rounded
    assert "is-close" in verdict and "0.670" in said and "cutting it off" in said
    verdict, said = submit(view, "first-weight", "0.671")          # close, but not a cut-off
    assert "is-close" in verdict and "cutting" not in said and "0.671" in said
    verdict, said = submit(view, "large-scores", "[1,1]")          # a list, not 1.1
    assert "is-wrong" in verdict and said == says(large, 1.0)
    verdict, said = submit(view, "large-scores", "[0,5]")          # a list: 0 and 5
    assert "is-wrong" in verdict and said == says(large, 0.0)
    verdict, said = submit(view, "four-weights", "1")
    assert said == says(four, 1.0) and "whole" in said
    for text in ["nan", "overflow", "inf", "NaN (overflow)"]:
        verdict, said = submit(view, "large-scores", text, key=True)
        assert "is-wrong" in verdict and "without subtracting the maximum" in said, text
        assert "OverflowError" in said
    verdict, said = submit(view, "large-scores", "0.7")
    assert "is-wrong" in verdict and "Subtract the maximum first" in said
    assert submit(view, "large-scores", "")[1] == "Type your answer first."


def test_worked_answers_stay_behind_a_reveal(open_page):
    view = open_page(ANSWER_PAGE)
    for i in range(3):
        answer = view.page.locator("details.success").nth(i)
        assert not answer.locator("p").first.is_visible()


def test_without_javascript_questions_degrade_to_revealed_answers(browser, built_site):
    context = browser.new_context(java_script_enabled=False)
    page_ = context.new_page()
    page_.goto((built_site / "by-hand.html").as_uri())
    assert page_.locator("form.lesson-answer").count() == 3
    assert not page_.locator("form.lesson-answer").first.is_visible()    # no dead boxes
    assert page_.locator("details.success").count() == 3
    page_.goto((built_site / "check.html").as_uri())
    quiz = page_.locator("#quiz-rows")
    assert quiz.locator("legend").is_visible() and quiz.locator("input[type=radio]").count() == 2
    quiz.locator("summary").click()
    assert quiz.locator("li[data-option=A]").is_visible()
    assert quiz.locator("li[data-option=B]").is_visible()
    context.close()


@pytest.fixture(scope="module")
def served(built_site):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_questions_and_widget_work_when_served(browser, served):
    context = browser.new_context()
    page_ = context.new_page()
    errors = []
    page_.on("pageerror", lambda e: errors.append(str(e)))
    page_.goto(f"{served}/by-hand.html")
    page_.fill("#answer-first-weight-input", ".67")
    page_.press("#answer-first-weight-input", "Enter")
    assert "is-right" in page_.get_attribute("#answer-first-weight .answer-feedback", "class")
    page_.goto(f"{served}/index.html")
    page_.check("#softmax-widget-0-m1")
    assert page_.evaluate("lessonWidget.widgets[0].masked[0]") is True
    page_.locator("#quiz-tiny input").nth(1).check()
    assert "right." in page_.inner_text("#quiz-tiny .quiz-feedback")
    assert errors == []
    context.close()


AXE_PAGES = ["index", "by-hand", "check", "why-softmax", "why-scaling"]
INTERACTIVE = [".softmax-widget", ".lesson-quiz", ".lesson-answer", ".lesson-figure-pair"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", AXE_PAGES)
def test_widget_and_questions_have_no_serious_axe_violations(inspected, name, scheme):
    """The widget, questions, answer boxes and figures, with feedback showing (first
    option chosen, key 2 masked, "1" checked in each box), have no serious axe finding.

    conftest's `inspected` page state runs axe once over the whole page in that
    state; this test reads the findings on nodes inside INTERACTIVE.
    """
    state = inspected(name, scheme=scheme)
    state["feedback"]                                   # choosing, masking and typing worked
    regions = state["axe", "regions"]
    assert all(s in regions for s in INTERACTIVE), "conftest's AXE_REGIONS must list INTERACTIVE"
    present = [s for s in INTERACTIVE if regions[s]]
    assert present
    # A node axe names by a selector the page no longer matches (inside None) counts here too.
    bad = []
    for v in state["axe", "response"]["violations"]:
        nodes = [n for n in v["nodes"] if n["inside"] is None or set(n["inside"]) & set(present)]
        if v["impact"] in ("serious", "critical") and nodes:
            bad.append((v["id"], v["impact"], len(nodes)))
    assert bad == [], bad


# --- The two new pages, as a learner sees them -------------------------------

RAW_TEX = ["\\frac", "\\sqrt", "\\cdot", "\\partial", "\\(", "\\["]


@pytest.mark.parametrize("name", ["why-softmax", "why-scaling"])
def test_why_pages_render_offline_without_errors(inspected, name):
    """Light and dark on a desktop, light on a phone, each as loaded (the page
    states test_browser.py measures too): the math typeset, no error, nothing
    fetched, nothing wider than the page, and each figure labelled and drawn."""
    for scheme, width in (("light", 1280), ("dark", 1280), ("light", 390)):
        state = inspected(name, scheme=scheme, width=width)
        at_load = state["at_load"]
        assert not [t for t in RAW_TEX if t in at_load["text"]]
        assert len(at_load["math"]) > 3
        assert state["errors_at_load"] == []
        assert all(url.startswith(("file:", "data:")) for url in state["requests_at_load"])
        assert at_load["page_fits"] and all(at_load["compact_tables_fit"]), at_load
        assert at_load["figures"], "no figure"
        for figure in at_load["figures"]:
            assert figure["label"] and figure["width"] > 200, figure


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keyboard_focus_is_visible_on_questions(open_page, scheme):
    """A ring appears round each control the keyboard reaches.  The answer box's
    field and button share one load of by-hand: focus is taken away (blur)
    before each "before" picture, as on a page just opened."""
    for name, selectors in (("check", ["#quiz-rows input[type=radio]"]),
                            ("by-hand", ["#answer-first-weight-input",
                                         "#answer-first-weight button"])):
        view = open_page(name, scheme=scheme)
        for selector in selectors:
            target = view.page.locator(selector).first
            target.scroll_into_view_if_needed()
            box = target.bounding_box()
            clip = {"x": box["x"] - 8, "y": box["y"] - 8,
                    "width": box["width"] + 16, "height": box["height"] + 16}
            view.page.evaluate("document.activeElement && document.activeElement.blur()")
            before = view.page.screenshot(clip=clip, animations="disabled")
            target.focus()
            view.page.keyboard.press("Shift")             # a key press: :focus-visible
            after = view.page.screenshot(clip=clip, animations="disabled")  # transitions done
            assert after != before, (name, selector, scheme)
            assert target.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"


def test_an_answer_that_is_not_a_number_is_asked_for_again(open_page):
    view = open_page(ANSWER_PAGE)
    for text in ["<b>0.9</b>", "zero point six", "0.6.7"]:
        verdict, said = submit(view, "first-weight", text)
        assert "is-wrong" in verdict and said.startswith("Type a number"), text
    assert view.page.locator("#answer-first-weight .answer-feedback b").count() == 0
