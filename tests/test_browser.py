"""The built site in a real browser (headless Chromium), opened from disk.

Checks what a learner sees: math drawn as MathML with real size, no raw TeX,
the table's numbers, search working offline, and no JavaScript errors.
Screenshots of every page, light and dark, go to $LESSON_SCREENSHOTS (or a
temporary folder) so a person can look at them.
"""

import os

import pytest

PAGES = ["index", "by-hand", "in-code", "check", "exercises", "reference", "precision", "api"]
RAW_TEX = ["\\frac", "\\sqrt", "\\mathbb", "\\operatorname", "\\infty", "\\(", "\\["]
MATH_PAGES = ["index", "by-hand", "in-code", "check", "reference", "precision"]
@pytest.mark.parametrize("name", PAGES)
def test_page_has_no_errors_raw_tex_or_network(open_page, shots, name):
    for scheme in ("light", "dark"):
        view = open_page(name, scheme=scheme)
        text = view.page.inner_text("article")
        assert not [t for t in RAW_TEX if t in text], text
        view.page.screenshot(path=os.path.join(shots, f"{name}-{scheme}.png"), full_page=True)
        assert view.errors == []
        assert all(url.startswith(("file:", "data:", "blob:", "about:")) for url in view.requests), \
            [url for url in view.requests if not url.startswith("file:")]


@pytest.mark.parametrize("name", MATH_PAGES)
def test_math_is_drawn_with_real_size(open_page, name):
    view = open_page(name)
    sizes = view.page.eval_on_selector_all(
        "article math", "els => els.map(e => { const r = e.getBoundingClientRect();"
                        " return [r.width, r.height]; })")
    assert sizes, "no MathML on the page"
    assert all(w > 1 and h > 5 for w, h in sizes), sizes
    # A fraction is taller than a line of text: MathML is laid out, not shown as text.
    heights = view.page.eval_on_selector_all(
        "article math[display=block]", "els => els.map(e => e.getBoundingClientRect().height)")
    if name == "index":
        assert max(heights) > 40, heights


def test_idea_page_shows_the_lessons_table(open_page):
    text = open_page("index").page.inner_text(".softmax-widget table")
    for number in ["0.7071", "0.4931", "0.1814", "0.5972", "0.2945", "0.1083"]:
        assert number in text


def test_answers_are_hidden_until_opened(open_page):
    view = open_page("by-hand")
    answer = view.page.locator("details.success").first
    assert not answer.locator("table").is_visible()
    answer.locator("summary").click()
    assert answer.locator("table").is_visible()


def test_search_works_from_disk(open_page):
    view = open_page("index")
    view.page.keyboard.press("/")                  # Material's search shortcut
    view.page.keyboard.type("overflow")
    view.page.wait_for_selector(".md-search-result__item", timeout=15000)
    assert "naive_softmax" in view.page.inner_text(".md-search-result")
    assert view.errors == []


def test_narrow_screen_has_no_sideways_overflow(open_page, shots):
    for name in ["index", "reference"]:
        view = open_page(name, width=390)
        overflow = view.page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        view.page.screenshot(path=os.path.join(shots, f"{name}-phone.png"), full_page=True)
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px on a phone"
