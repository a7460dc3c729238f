"""The score widget and the pictures, in headless Chromium.

The widget's numbers are checked against lesson.softmax of the scores the
widget actually holds, formatted the way the lesson's table formats them.
"""

import math
import re

import pytest

from lesson import entropy, softmax
from lesson.tables import TABLE_HEADER, fmt, fmt_tiny
from lesson.example import TABLE_SCORES
from lesson_docs import widget  # the site build's data for the widget
from lesson.tables import fmt_weight
from page_states import run, screenshot


def shown(view):
    """(scores held, temperature, the table's weight column, the summary)."""
    state = view.page.evaluate(
        "() => { const w = lessonWidget.widgets[0]; return [w.scores, w.temperature]; }")
    cells = view.page.eval_on_selector_all(
        ".softmax-widget table tr", "rows => rows.slice(1).map(r => r.lastChild.textContent)")
    return state[0], state[1], cells, view.page.inner_text(".sw-summary")




def expected_weights(scores, temperature):
    return [fmt_weight(w) for w in softmax([s / temperature for s in scores])]


@pytest.fixture(scope="module")
def without_javascript(browser, built_site):
    """The lesson's page with JavaScript off: the static table a reader gets first.

    Loaded once for the file (a context of its own, no warm cache); tests only read it.
    """
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((built_site / "index.html").as_uri())
    yield page
    context.close()


def test_widget_starts_at_the_lessons_table(untouched):
    view = untouched("index")
    scores, t, weights, summary = shown(view)
    assert scores == pytest.approx(TABLE_SCORES, abs=0) and t == 1
    assert weights == ["0.5972", "0.2945", "0.1083"] == expected_weights(TABLE_SCORES, 1)
    # The first slider holds 1/sqrt(2) exactly, as the lesson does, not 0.71.
    # (A range input keeps 15 significant digits; the widget holds the float.)
    assert float(view.page.input_value("#softmax-widget-0-s1")) == \
        pytest.approx(TABLE_SCORES[0], rel=1e-14)
    assert view.page.inner_text("#softmax-widget-0-s1 + output") == fmt(TABLE_SCORES[0])
    assert "Sum of the weights: 1." in summary
    assert f"Entropy: {fmt(entropy(softmax(TABLE_SCORES)))} nats" in summary
    assert view.errors == []


def test_moving_a_slider_from_the_keyboard_changes_the_weights(open_page):
    view = open_page("index")
    _, _, before, _ = shown(view)
    view.page.focus("#softmax-widget-0-s3")
    for _ in range(50):
        view.page.keyboard.press("ArrowRight")           # score 3: -1 -> -0.5
    scores, t, after, summary = shown(view)
    assert scores[2] == -0.5                             # 50 steps of 0.01, no drift
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
def test_widget_softmax_matches_the_lesson_and_never_gives_nan(untouched, row):
    view = untouched("index")
    got = view.page.evaluate("row => lessonWidget.softmax(row)", row)
    assert all(math.isfinite(w) for w in got)
    assert got == pytest.approx(softmax(row), rel=1e-12, abs=1e-300)
    assert view.page.evaluate("w => lessonWidget.entropy(w)", got) == \
        pytest.approx(entropy(softmax(row)), rel=1e-12, abs=1e-15)


def test_widget_formats_numbers_as_the_lesson_does(untouched):
    view = untouched("index")
    for value in [1.0, 0.0, -0.0, 0.49306869, -1.70710678, -0.00001, 12.0, 0.12345]:
        assert view.page.evaluate("v => lessonWidget.fmt(v)", value) == fmt(value)


def test_without_javascript_the_static_table_remains(without_javascript):
    page = without_javascript
    text = page.inner_text(".softmax-widget")
    assert "0.5972" in text and "0.4931" in text
    assert page.locator(".softmax-widget input").count() == 0


@pytest.mark.parametrize("name, count", [("index", 1), ("reference", 2)])
def test_figures_render_with_alt_text_and_captions(untouched, name, count):
    view = untouched(name)
    figures = view.page.locator("figure.lesson-figure-box")
    assert figures.count() == count
    for i in range(count):
        svg = figures.nth(i).locator("svg")
        box = svg.bounding_box()
        assert box["width"] > 100 and box["height"] > 50
        assert svg.get_attribute("role") == "img" and svg.get_attribute("aria-label")
        assert figures.nth(i).locator("figcaption").inner_text()
    assert view.errors == []


def test_causal_heatmap_marks_masked_cells_apart_from_small_weights(untouched):
    view = untouched("reference")
    svg = view.page.locator("figure.lesson-figure-box svg").nth(1)
    hatched = svg.locator('rect[fill="url(#hatch)"]').count()
    assert hatched == 6                                   # the upper triangle of 4 x 4
    assert svg.locator("text", has_text="\u2212\u221e").count() == 6


# --- Mask, shift, output, and the widget's accessibility -------------------

NEG_INF = float("-inf")


def table(view):
    """The live table as text: header row, then one list of cells per key."""
    return view.page.eval_on_selector_all(
        ".softmax-widget table tr",
        "rows => rows.map(r => Array.from(r.children).map(c => c.textContent))")


def test_masking_a_key_gives_it_weight_exactly_zero_and_renormalises_the_rest(open_page):
    view = open_page("index")
    view.page.check("#softmax-widget-0-m2")
    scores, t, weights, summary = shown(view)
    expected = softmax([scores[0], NEG_INF, scores[2]])
    assert weights == [fmt_weight(expected[0]), "0", fmt_weight(expected[2])]
    assert table(view)[2][1:3] == ["-inf", "-inf"]
    assert "Sum of the weights: 1." in summary
    view.page.uncheck("#softmax-widget-0-m2")
    assert shown(view)[2] == expected_weights(scores, t)
    assert view.errors == []


def test_masking_every_key_says_what_the_lesson_says(open_page):
    view = open_page("index")
    for i in (1, 2, 3):
        view.page.check(f"#softmax-widget-0-m{i}")
    with pytest.raises(ValueError) as error:
        softmax([NEG_INF, NEG_INF])
    assert str(error.value) in view.page.inner_text(".sw-summary")
    view.page.uncheck("#softmax-widget-0-m3")
    assert shown(view)[2] == ["0", "0", "1"]
    assert view.errors == []


def test_shifting_every_score_moves_no_weight(open_page):
    view = open_page("index")
    _, _, before, _ = shown(view)
    static = table(view)[0]
    for c in ("3", "-4.5", "0"):
        view.page.fill("#softmax-widget-0-c", c)
        rows = table(view)
        assert [row[-1] for row in rows[1:]] == before
        assert [row[1] for row in rows[1:]] == [fmt(s + float(c)) for s in TABLE_SCORES]
        assert rows[0][1] == ("score" if c == "0" else "score + c")
    assert table(view)[0] == static
    assert view.errors == []


def test_headers_are_the_static_tables_and_name_the_temperature(without_javascript, open_page):
    static = without_javascript.eval_on_selector_all(".softmax-widget th",
                                                     "ths => ths.map(t => t.textContent)")
    view = open_page("index")
    assert table(view)[0] == static                   # no text changes when JS loads
    assert static == list(TABLE_HEADER)               # one spelling: the lesson's own
    view.page.fill("#softmax-widget-0-t", "0.5")
    live = table(view)[0]
    assert live == [h if i == 0 else h.replace("score", "score/T") for i, h in enumerate(static)]
    assert any(h.startswith("score/T ") and h.endswith("max") for h in live)


def test_tiny_weights_never_show_as_zero(open_page):
    view = open_page("index")
    view.page.fill("#softmax-widget-0-t", "-1")       # T = 0.1: key 3's weight is ~4e-8
    scores, t, weights, _ = shown(view)
    exact = softmax([s / t for s in scores])
    assert 0 < exact[2] < 0.00005 and weights[2] == fmt_tiny(exact[2])   # 4.5e-8, as the CLI
    assert re.fullmatch(r"\d\.\de-\d+", table(view)[3][3])     # its exp too
    view.page.check("#softmax-widget-0-m3")
    assert shown(view)[2][2] == "0"                   # only a masked key shows 0


def test_output_is_the_weighted_mix_of_the_values_and_moves(open_page):
    view = open_page("index")
    values = widget.WIDGET_VALUES

    def output():
        return view.page.evaluate("() => lessonWidget.widgets[0].output")

    def dot():
        return view.page.eval_on_selector(".sw-output-dot", "c => [c.getAttribute('cx'), "
                                                            "c.getAttribute('cy')]")
    for move in (None, "#softmax-widget-0-s2"):
        if move:
            view.page.fill(move, "3")
        scores, t, _, _ = shown(view)
        w = softmax(scores)
        expected = [math.fsum(wi * v[j] for wi, v in zip(w, values)) for j in (0, 1)]
        assert output() == pytest.approx(expected, abs=1e-12)
        mix = view.page.inner_text(".sw-mix")
        assert f"[{fmt(expected[0])}, {fmt(expected[1])}]" in mix
        assert "before rounding" in mix          # O is not worked from the rounded terms
        cx, cy = map(float, dot())
        assert (cx, -cy) == pytest.approx((40 * expected[0], 40 * expected[1]), abs=0.01)
    view.page.check("#softmax-widget-0-m1")
    view.page.check("#softmax-widget-0-m3")            # only key 2 is left: O = v2
    assert output() == pytest.approx(values[1])
    assert view.errors == []


def test_controls_are_named_by_their_visible_labels(untouched):
    view = untouched("index")
    sliders = view.page.locator(".softmax-widget input[type=range]")
    assert sliders.count() == 5
    for i in range(sliders.count()):
        slider = sliders.nth(i)
        label = slider.evaluate("e => e.labels[0].textContent")
        assert slider.get_attribute("aria-label") is None
        assert view.page.get_by_role("slider", name=label, exact=True).count() == 1
    for i in (1, 2, 3):
        assert view.page.get_by_role("checkbox", name=f"mask key {i}").count() == 1
        assert "mask" in view.page.inner_text(f"label[for=softmax-widget-0-m{i}]")


def test_temperature_slider_announces_t(open_page):
    view = open_page("index")
    slider = view.page.locator("#softmax-widget-0-t")
    assert slider.get_attribute("aria-valuetext") == "T = 1.00"
    view.page.fill("#softmax-widget-0-t", "-0.5")
    assert slider.get_attribute("aria-valuetext") == f"T = {10 ** -0.5:.2f}"


def test_weights_are_announced_once_briefly(open_page):
    """One live region says the new weights in a short sentence once, after the
    slider stops moving (not at every step, which a screen reader would read out).
    The page records each change to the region; nothing here depends on how
    quickly a loaded machine runs the page's timer."""
    from playwright.sync_api import expect     # here: the browser fixture found Playwright
    view = open_page("index")
    assert view.page.locator(".softmax-widget [aria-live]").count() == 1
    # the weights the page opened with are said first, once its timer runs
    view.page.wait_for_function("document.querySelector('.sw-live').textContent !== ''",
                                timeout=10_000)
    view.page.evaluate("""() => {
        window.said = [];
        const live = document.querySelector(".sw-live");
        new MutationObserver(() => window.said.push(live.textContent))
            .observe(live, {childList: true, characterData: true, subtree: true});
    }""")
    view.page.focus("#softmax-widget-0-s1")
    for _ in range(5):
        view.page.keyboard.press("ArrowRight")
    scores, t, _, _ = shown(view)
    expected = "Weights " + ", ".join(fmt(w) for w in softmax(scores))
    expect(view.page.locator(".sw-live")).to_have_text(expected, timeout=10_000)
    view.page.wait_for_timeout(700)            # one more debounce: nothing else is said
    assert view.page.evaluate("window.said") == [expected]
    assert len(expected) < 40


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keyboard_focus_is_visible_on_every_control(open_page, scheme):
    view = open_page("index", scheme=scheme)
    page = view.page
    for selector in ("#softmax-widget-0-s1", "#softmax-widget-0-m1", "#softmax-widget-0-t",
                     ".sw-buttons button"):
        target = page.locator(selector).first
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        clip = {"x": box["x"] - 8, "y": box["y"] - 8,
                "width": box["width"] + 16, "height": box["height"] + 16}
        page.evaluate("document.activeElement && document.activeElement.blur()")
        before = page.screenshot(clip=clip, animations="disabled")
        target.focus()
        page.keyboard.press("Shift")                     # a key press: :focus-visible
        after = page.screenshot(clip=clip, animations="disabled")   # transitions finished
        assert before != after, f"{selector}: focus changes nothing on screen ({scheme})"
        assert target.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"


COLOUR = """css => { const probe = document.createElement('span');
  probe.style.color = css; document.querySelector('.softmax-widget').append(probe);
  const value = getComputedStyle(probe).color; probe.remove();
  return value.match(/[\\d.]+/g).slice(0, 3).map(Number); }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_widget_colours_have_contrast(untouched, scheme):
    view = untouched("index", scheme=scheme)       # COLOUR's probe is removed at once
    page = view.page
    background = page.evaluate(COLOUR, "var(--md-default-bg-color)")
    button = page.locator(".sw-buttons button").first.evaluate(
        "e => getComputedStyle(e).color.match(/[\\d.]+/g).slice(0, 3).map(Number)")
    assert run(page, "contrast", [button, background]) >= 4.5
    thumb = page.evaluate(COLOUR, "var(--sw-accent)")
    assert run(page, "contrast", [thumb, background]) >= 3
    track = page.evaluate(COLOUR, "var(--sw-track)")
    if scheme == "dark":
        assert run(page, "luminance", track) < 0.3, "a dark page's slider track must not be bright white"


@pytest.mark.parametrize("keys", [3, 8])
def test_every_weight_and_score_minus_max_is_visible_on_a_phone(open_page, shots, keys):
    view = open_page("index", width=390)
    page = view.page
    for _ in range(keys - 3):
        page.locator("text=Add a key").click()
    page.fill("#softmax-widget-0-s2", "-4.5")           # the widest numbers: -5.2071
    page.fill("#softmax-widget-0-t", "0.3")             # and the longest headers
    page.fill("#softmax-widget-0-c", "-3.3")
    page.locator(".softmax-widget").scroll_into_view_if_needed()
    screenshot(page, shots, f"widget-phone-{keys}")
    wrap = page.locator(".sw-table-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    headers = table(view)[0]
    for column in (3, 5):                               # score - max, and the weight
        assert "max" in headers[2] and "weight" in headers[4]
        cells = page.locator(f".softmax-widget table tr > :nth-child({column})").all()
        assert len(cells) == keys + 1, (column, len(cells))   # the header, a row per key
        for cell in cells:
            assert cell.is_visible()
            box = cell.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.locator(".sw-narrow-note").is_visible()
    label = page.locator("label[for=softmax-widget-0-t]")
    assert label.evaluate("e => e.getBoundingClientRect().height") < 30   # one line


def test_numbers_line_up_on_the_decimal_point(untouched):
    view = untouched("index")
    points = view.page.eval_on_selector_all(
        ".softmax-widget table td:nth-child(4) .sw-frac",
        "spans => spans.map(s => s.getBoundingClientRect().left)")
    assert len(points) == 3 and max(points) - min(points) < 0.5
    table_box = view.page.locator(".sw-table-wrap table").bounding_box()
    wrap_box = view.page.locator(".sw-table-wrap").bounding_box()
    assert abs(table_box["width"] - wrap_box["width"]) < 2   # rules reach the box's edge


def test_mask_and_shift_work_from_the_keyboard(open_page):
    view = open_page("index")
    _, _, before, _ = shown(view)
    view.page.focus("#softmax-widget-0-m1")
    view.page.keyboard.press("Space")
    scores, t, weights, _ = shown(view)
    assert weights[0] == "0" and weights == [fmt_weight(w) for w in
                                             softmax([NEG_INF] + scores[1:])]
    view.page.keyboard.press("Space")
    assert shown(view)[2] == before
    view.page.focus("#softmax-widget-0-c")
    for _ in range(10):
        view.page.keyboard.press("ArrowRight")
    assert view.page.evaluate("lessonWidget.widgets[0].shift") == pytest.approx(1.0)
    assert shown(view)[2] == before
    assert view.errors == []


def test_reset_brings_back_the_lessons_table(open_page):
    view = open_page("index")
    start = table(view)
    page = view.page
    page.focus("#softmax-widget-0-s1")
    page.keyboard.press("ArrowRight")                 # 1/sqrt(2) + 0.01, from the exact value
    assert shown(view)[0][0] == pytest.approx(TABLE_SCORES[0] + 0.01, abs=1e-12)
    page.fill("#softmax-widget-0-s3", "2")
    page.check("#softmax-widget-0-m2")
    page.fill("#softmax-widget-0-t", "0.5")
    page.fill("#softmax-widget-0-c", "1.5")
    page.locator("text=Add a key").click()
    assert table(view) != start
    page.locator("button", has_text="Reset").click()
    scores, t, weights, _ = shown(view)
    assert scores == TABLE_SCORES and t == 1           # exactly: 1/sqrt(2), not 0.71
    assert page.evaluate("lessonWidget.widgets[0].shift") == 0
    assert float(page.input_value("#softmax-widget-0-s1")) == pytest.approx(TABLE_SCORES[0],
                                                                           rel=1e-14)
    assert page.input_value("#softmax-widget-0-t") == "0"
    assert page.input_value("#softmax-widget-0-c") == "0"
    assert not page.is_checked("#softmax-widget-0-m2")
    assert table(view) == start
    assert view.errors == []


def test_weights_in_the_widget_share_one_number_of_decimals(open_page):
    view = open_page("index")
    view.page.fill("#softmax-widget-0-s1", "-2.95")   # weights 0.0369, 0.7041, 0.2590
    assert softmax([-2.95, 0, -1])[2] == pytest.approx(0.2590, abs=0.00005)
    scores, t, weights, _ = shown(view)
    assert weights == expected_weights(scores, t)
    assert all(len(w.partition(".")[2]) == 4 for w in weights), weights
    bars = view.page.eval_on_selector_all(".sw-bar-value", "b => b.map(e => e.textContent)")
    assert bars == weights
