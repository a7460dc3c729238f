"""The score widget and the pictures, in headless Chromium.

The widget's numbers are checked against lesson.softmax of the scores the
widget actually holds, formatted the way the lesson's table formats them.
"""

import math

import pytest

from lesson import entropy, softmax
from lesson.tables import fmt
from lesson.example import TABLE_SCORES


def shown(view):
    """(scores held, temperature, the table's weight column, the summary)."""
    state = view.page.evaluate(
        "() => { const w = lessonWidget.widgets[0]; return [w.scores, w.temperature]; }")
    cells = view.page.eval_on_selector_all(
        ".softmax-widget table tr", "rows => rows.slice(1).map(r => r.lastChild.textContent)")
    return state[0], state[1], cells, view.page.inner_text(".sw-summary")


def expected_weights(scores, temperature):
    return [fmt(w) for w in softmax([s / temperature for s in scores])]


def test_widget_starts_at_the_lessons_table(open_page):
    view = open_page("index")
    scores, t, weights, summary = shown(view)
    assert scores == pytest.approx(TABLE_SCORES, abs=0) and t == 1
    assert weights == ["0.5972", "0.2945", "0.1083"] == expected_weights(TABLE_SCORES, 1)
    assert view.page.input_value("#softmax-widget-0-s1") == "0.71"
    assert "Sum of the weights: 1." in summary
    assert f"Entropy: {fmt(entropy(softmax(TABLE_SCORES)))} nats" in summary
    assert view.errors == []


def test_moving_a_slider_from_the_keyboard_changes_the_weights(open_page):
    view = open_page("index")
    _, _, before, _ = shown(view)
    view.page.focus("#softmax-widget-0-s3")
    for _ in range(250):
        view.page.keyboard.press("ArrowRight")           # score 3: -1 -> 1.5
    scores, t, after, summary = shown(view)
    assert scores[2] == pytest.approx(1.5)
    assert after != before
    assert after == expected_weights(scores, t)
    assert view.errors == []


def test_temperature_sharpens_and_spreads(open_page):
    view = open_page("index")
    entropies = []
    for position in ("-1", "0", "1"):                    # T = 0.1, 1, 10
        view.page.fill("#softmax-widget-0-t", position)
        scores, t, weights, summary = shown(view)
        assert t == pytest.approx(10 ** float(position))
        assert weights == expected_weights(scores, t)
        entropies.append(entropy(softmax([s / t for s in scores])))
    assert entropies[0] < entropies[1] < entropies[2] < math.log(3)


def test_adding_and_removing_keys_keeps_the_weights_summing_to_one(open_page):
    view = open_page("index")
    add = view.page.locator("text=Add a key")
    remove = view.page.locator("text=Remove the last key")
    for n in range(4, 9):
        add.click()
        scores, t, weights, summary = shown(view)
        assert len(scores) == len(weights) == n
        assert weights == expected_weights(scores, t)
        assert "Sum of the weights: 1." in summary
        assert abs(sum(float(w) for w in weights) - 1) <= n * 0.5e-4
    assert add.is_disabled()                              # at most 8 keys
    for n in range(7, 1, -1):
        remove.click()
        scores, t, weights, _ = shown(view)
        assert len(weights) == n and weights == expected_weights(scores, t)
    assert remove.is_disabled()                           # at least 2 keys
    assert view.errors == []


EDGE_ROWS = [[1000, 1000], [-1000, -1000, -1001], [50, -50], [700, -700, 0],
             [1e308, -1e308], [5e-324, 0], [0.7071067811865476, 0, -1], [3, 3, 3, 3, 3, 3, 3, 3]]


@pytest.mark.parametrize("row", EDGE_ROWS, ids=str)
def test_widget_softmax_matches_the_lesson_and_never_gives_nan(open_page, row):
    view = open_page("index")
    got = view.page.evaluate("row => lessonWidget.softmax(row)", row)
    assert all(math.isfinite(w) for w in got)
    assert got == pytest.approx(softmax(row), rel=1e-12, abs=1e-300)
    assert view.page.evaluate("w => lessonWidget.entropy(w)", got) == \
        pytest.approx(entropy(softmax(row)), rel=1e-12, abs=1e-15)


def test_widget_formats_numbers_as_the_lesson_does(open_page):
    view = open_page("index")
    for value in [1.0, 0.0, -0.0, 0.49306869, -1.70710678, -0.00001, 12.0, 0.12345]:
        assert view.page.evaluate("v => lessonWidget.fmt(v)", value) == fmt(value)


def test_without_javascript_the_static_table_remains(browser, built_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((built_site / "index.html").as_uri())
    text = page.inner_text(".softmax-widget")
    assert "0.5972" in text and "0.4931" in text
    assert page.locator(".softmax-widget input").count() == 0
    context.close()


@pytest.mark.parametrize("name, count", [("index", 1), ("reference", 2)])
def test_figures_render_with_alt_text_and_captions(open_page, name, count):
    view = open_page(name)
    figures = view.page.locator("figure.lesson-figure-box")
    assert figures.count() == count
    for i in range(count):
        svg = figures.nth(i).locator("svg")
        box = svg.bounding_box()
        assert box["width"] > 100 and box["height"] > 50
        assert svg.get_attribute("role") == "img" and svg.get_attribute("aria-label")
        assert figures.nth(i).locator("figcaption").inner_text()
    assert view.errors == []


def test_causal_heatmap_marks_masked_cells_apart_from_small_weights(open_page):
    view = open_page("reference")
    svg = view.page.locator("figure.lesson-figure-box svg").nth(1)
    hatched = svg.locator('rect[fill="url(#hatch)"]').count()
    assert hatched == 6                                   # the upper triangle of 4 x 4
    assert svg.locator("text", has_text="\u2212\u221e").count() == 6
