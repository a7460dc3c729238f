"""The attention-matrix explorer on the idea page, in headless Chromium.

Every number the explorer shows is checked against :mod:`lesson` for the
mask and temperature it holds, formatted as the lesson's tables format it
(``lesson.tables.fmt``), each weight as every weight the scripts show, to
four decimals (``lesson.tables.fmt_weight``).  The file's tests share one page load: each test
starts from "Start over".  Axe's dark-scheme run and the phone's width are
the only other views.
"""

import math
import re
from html.parser import HTMLParser

import pytest

import lesson
from lesson.tables import fmt, fmt_list
from lesson_docs import explorer, questions  # the site build's data for the explorer
from lesson.tables import fmt_weight

from plugin_browser import Page
from page_states import DESKTOP, screenshot

Q, K, V = explorer.Q, explorer.K, explorer.V
NEG_INF = -math.inf
ROOT = "[data-explorer=attention]"

GRID = """root => ({
    cells: [...root.querySelectorAll('.ax-grid tbody tr:not(.ax-policy)')].map(tr =>
        [...tr.querySelectorAll('td[data-k]')].map(td => td.textContent)),
    where: [...root.querySelectorAll('td[data-k]')].map(td => [+td.dataset.q, +td.dataset.k]),
    sums: [...root.querySelectorAll('.ax-sum')].map(e => e.textContent),
    outputs: [...root.querySelectorAll('.ax-out')].map(e => e.textContent),
    total: root.querySelector('.ax-total').textContent,
    policy: [...root.querySelectorAll('.ax-policy')].map(e => e.textContent)})"""


class Cells(HTMLParser):
    """The weight cells of a page's HTML: [query, key, text] each."""

    def __init__(self):
        super().__init__()
        self.cells, self.open = [], False

    def handle_starttag(self, tag, attributes):
        attributes = dict(attributes)
        self.open = tag == "td" and "data-q" in attributes
        if self.open:
            self.cells.append([int(attributes["data-q"]), int(attributes["data-k"]), ""])

    def handle_data(self, data):
        if self.open:
            self.cells[-1][2] += data

    def handle_endtag(self, tag):
        self.open = False


def built_cells(html):
    """What a reader without JavaScript sees in the grid."""
    parser = Cells()
    parser.feed(html)
    return parser.cells


def shown(page):
    return page.eval_on_selector(ROOT, GRID)


def mask_of(masked):
    """The additive mask for a set of masked (query, key) cells."""
    return [[NEG_INF if (i, j) in masked else 0.0 for j in range(len(K))]
            for i in range(len(Q))]


def causal():
    return {(i, j) for i in range(len(Q)) for j in range(len(K)) if j > i}


def expected(masked=(), t=1.0):
    """What the explorer must show, worked out by lesson.attention query by query."""
    rows = []
    for q, m in zip(Q, mask_of(set(masked))):
        try:
            rows.append(lesson.attention([x / t for x in q], K, V, mask=m))
        except ValueError:
            rows.append(None)
    kept = [w for row in rows if row for w in row[1]]
    return {"cells": [[fmt_weight(w) for w in row[1]] if row else [""] * len(K) for row in rows],
            "sums": [fmt(math.fsum(row[1])) if row else "none" for row in rows],
            "outputs": [fmt_list(row[0], 4) if row else "none" for row in rows],
            "total": fmt(math.fsum(kept))}


def same(page, want):
    got = shown(page)
    for part in ("cells", "sums", "outputs", "total"):
        assert got[part] == want[part], part
    return got


def click(page, i, j):
    page.click(f'{ROOT} td[data-q="{i}"][data-k="{j}"] button')


def no_key_left(i):
    """What lesson.attention raises when every key of query i is masked."""
    with pytest.raises(ValueError) as error:
        lesson.attention(Q, K, V, mask=mask_of({(i, j) for j in range(len(K))}))
    return f"ValueError: {error.value}"


@pytest.fixture(scope="module")
def view(contexts, built_site):
    """The idea page, loaded once for the file; each test starts over."""
    page = Page(contexts("light", DESKTOP), built_site, "index")
    yield page
    assert page.errors == []
    assert all(url.startswith(("file:", "data:")) for url in page.requests)    # nothing fetched
    page.close()


@pytest.fixture
def page(view):
    view.page.set_viewport_size({"width": DESKTOP, "height": 900})
    view.page.click(f"{ROOT} button:text('Start over')")
    return view.page


# --- The first view: the lesson's own numbers ---------------------------------

def test_the_first_view_is_lesson_attention_built_into_the_page(built_site, page):
    html = (built_site / "index.html").read_text()
    O, A = lesson.attention(Q, K, V)
    assert built_cells(html) == [[i, j, fmt_weight(w)] for i, row in enumerate(A)
                                 for j, w in enumerate(row)]
    # One format for the weights: every one of them with four decimals (or an exact 0 or 1).
    assert all(re.fullmatch(r"0\.\d{4}|[01]|.*e-\d+", text) for *_, text in built_cells(html))
    assert "0.1310" in [text for *_, text in built_cells(html)]       # not 0.131
    want = expected()
    got = same(page, want)                      # the script shows what the build wrote
    assert got["where"] == [[i, j] for i in range(len(Q)) for j in range(len(K))]
    assert len(Q) >= 4 and len(K) >= 4
    assert got["sums"] == ["1"] * len(Q) and got["total"] == str(len(Q))
    assert all(abs(sum(float(w) for w in row) - 1) <= len(K) * 0.5e-4 for row in got["cells"])
    unspanned = re.sub(r"</?span[^>]*>", "", html)     # a hyphenated run of code is a span
    for name, matrix in (("queries", Q), ("keys", K), ("values", V)):       # shown on the page
        assert all(f"<code>{fmt_list(v)}</code>" in unspanned for v in matrix), name


# --- Causal, a click, a row with no key left, the temperature ------------------

def test_causal_zeroes_every_later_key_and_each_row_still_sums_to_one(page):
    box = page.get_by_role("checkbox", name=re.compile("causal"))
    box.check()
    got = same(page, expected(causal()))
    for i, row in enumerate(got["cells"]):
        assert row[i + 1:] == ["0"] * (len(K) - i - 1) and "0" not in row[:i + 1]
    assert got["sums"] == ["1"] * len(Q)
    assert got["outputs"][0] == "[2, 0]"        # the worked example's causal output
    label = page.get_attribute(f'{ROOT} td[data-q="0"][data-k="1"] button', "aria-label")
    assert label == "0, masked by the causal mask"
    box.uncheck()
    same(page, expected())


def test_a_click_masks_one_cell_and_only_its_row_changes(page):
    before = shown(page)
    click(page, 2, 1)
    after = same(page, expected({(2, 1)}))
    assert after["cells"][2][1] == "0"
    assert [r for i, r in enumerate(after["cells"]) if i != 2] == \
        [r for i, r in enumerate(before["cells"]) if i != 2]
    assert after["cells"][2] != before["cells"][2] and after["sums"][2] == "1"
    assert page.get_attribute(f'{ROOT} td[data-q="2"][data-k="1"] button',
                              "aria-label") == "0, masked"
    click(page, 2, 1)                            # a second click unmasks it
    same(page, before)


def test_the_worked_example_appears_in_query_zero(page):
    for j in (2, 3):
        click(page, 0, j)
    got = shown(page)
    steps = {step: values for step, _, values in lesson.example.worked_example()}
    assert got["cells"][0] == [fmt(w) for w in steps["weights"]] + ["0", "0"]
    assert got["outputs"][0] == fmt_list(steps["output"], 4)


def test_a_row_with_no_key_left_shows_the_lessons_error_and_no_weights(page):
    page.focus(f'{ROOT} td[data-q="1"][data-k="0"] button')
    for key in ("Enter", "Tab", "Space", "Tab", "Enter", "Tab", "Space"):    # keys 0 to 3
        page.keyboard.press(key)
    got = same(page, expected({(1, j) for j in range(len(K))}))
    assert got["cells"][1] == [""] * len(K)
    assert got["policy"] == [no_key_left(1)]
    assert got["total"] == str(len(Q) - 1)       # one for each row that has weights
    assert no_key_left(1) in page.inner_text(f"{ROOT} .ax-status")
    page.keyboard.press("Space")                 # key 3 again: the row is back
    got = same(page, expected({(1, j) for j in range(len(K) - 1)}))
    assert got["policy"] == [] and got["cells"][1][-1] == "1"


def test_temperature_sharpens_and_flattens_every_row(page):
    tops = []
    for position, t in (("-1", 0.1), ("0", 1.0), ("1", 10.0)):
        page.fill(f"{ROOT} input[type=range]", position)
        got = same(page, expected(t=t))
        tops.append([max(float(w.lstrip(">")) for w in row) for row in got["cells"]])
        assert page.get_attribute(f"{ROOT} input[type=range]", "aria-valuetext") == f"T = {t:.2f}"
    assert all(cold > warm > hot > 1 / len(K) for cold, warm, hot in zip(*tops))


def test_the_quizs_answer_is_what_the_explorer_shows(page):
    legend, options, _ = questions.QUIZZES["matrix"]()
    right = next(text for text, is_right, _ in options if is_right)
    page.get_by_role("checkbox", name=re.compile("causal")).check()
    assert right.startswith(shown(page)["total"] + ",")


# --- The JavaScript's arithmetic against the lesson's ---------------------------

def test_the_scripts_softmax_and_rows_agree_with_the_lesson(page, rng):
    rows = []
    for _ in range(300):
        n = rng.randint(1, 8)
        row = [rng.choice([NEG_INF, rng.uniform(-50, 50), rng.uniform(-1, 1)]) for _ in range(n)]
        row[rng.randrange(n)] = rng.uniform(-50, 50)                     # one key is seen
        rows.append(row)
    got = page.evaluate("rows => rows.map(r => lessonWidget.softmax(r))", rows)
    assert len(got) == len(rows)
    for row, weights in zip(rows, got):
        assert weights == pytest.approx(lesson.softmax(row), rel=1e-12, abs=1e-300)
        assert [w == 0 for w in weights] == [s == NEG_INF for s in row]   # only a mask gives 0
    cases = []
    for _ in range(100):
        q = [rng.uniform(-3, 3) for _ in range(2)]
        masked = [rng.random() < 0.3 for _ in K]
        cases.append((q, rng.choice([0.1, 0.5, 1.0, 3.0]), masked))
    got = page.evaluate("""cases => cases.map(([q, t, masked]) =>
        lessonExplorer.attentionRow(q, %s, %s, t, masked))""" % (K, V), cases)
    assert len(got) == len(cases)
    for (q, t, masked), row in zip(cases, got):
        mask = [NEG_INF if m else 0.0 for m in masked]
        if all(masked):
            assert row is None
            continue
        output, weights = lesson.attention([x / t for x in q], K, V, mask=mask)
        assert row["weights"] == pytest.approx(weights, rel=1e-12, abs=1e-300)
        assert row["output"] == pytest.approx(output, rel=1e-12, abs=1e-12)


# --- Keyboard, screen reader, axe, phone ------------------------------------------

def test_the_keyboard_reaches_every_cell_in_reading_order(page):
    page.focus(f"{ROOT} input[type=checkbox]")
    reached = []
    for _ in range(len(Q) * len(K) + 4):
        page.keyboard.press("Tab")
        where = page.evaluate("() => { const td = document.activeElement.closest('td[data-k]');"
                              " return td && [+td.dataset.q, +td.dataset.k]; }")
        if where:
            reached.append(where)
    assert reached == [[i, j] for i in range(len(Q)) for j in range(len(K))]


def test_a_screen_reader_hears_headers_weights_and_mask_states(page):
    header = f"{ROOT} .ax-grid"
    assert page.locator(f"{header} thead th[scope=col]").all_inner_texts()[:len(K)] == \
        [f"key {j}" for j in range(len(K))]
    assert page.locator(f"{header} tbody th[scope=row]").all_inner_texts() == \
        [f"query {i}" for i in range(len(Q))]
    assert page.locator(f"{header} caption").count() == 1
    weight = fmt(lesson.attention(Q, K, V)[1][0][0])
    assert page.get_by_role("button", name=f"{weight}, not masked").count() >= 1
    click(page, 0, 0)
    assert page.get_by_role("button", name="0, masked", exact=True).count() == 1
    assert page.get_by_role("status").filter(has_text="Query 0, key 0 masked").count() == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_in_the_explorer_light_and_dark(page, contexts, built_site, scheme):
    """With causal on, T = 0.1 (weights near 1: the darkest shade), a click's mask
    and a row with no key left, axe finds nothing at any impact."""
    from axe_playwright_python.sync_playwright import Axe
    other = None if scheme == "light" else Page(contexts("dark", DESKTOP), built_site, "index")
    page = other.page if other else page
    try:
        page.get_by_role("checkbox", name=re.compile("causal")).check()
        page.fill(f"{ROOT} input[type=range]", "-1")
        click(page, 2, 1)
        for j in (0, 1):
            click(page, 1, j)
        assert shown(page)["policy"]
        # No preload: axe would fetch the stylesheets, which a page from disk may not.
        results = Axe().run(page, context=ROOT, options={
            "resultTypes": ["violations", "incomplete"], "preload": False}).response
        found = [(v["id"], n["target"]) for v in results["violations"] for n in v["nodes"]]
        assert found == []
        unsure = [n["target"] for v in results["incomplete"] if v["id"] == "color-contrast"
                  for n in v["nodes"] if "td" in " ".join(n["target"])]
        assert unsure == [], "axe could not measure the contrast of these cells"
    finally:
        if other:
            assert other.errors == []
            other.close()


def test_on_a_phone_the_grid_fits(page, shots):
    page.set_viewport_size({"width": 390, "height": 900})
    page.get_by_role("checkbox", name=re.compile("causal")).check()
    page.fill(f"{ROOT} input[type=range]", "-1")          # the widest numbers: 4.4e-16
    page.locator(ROOT).scroll_into_view_if_needed()
    screenshot(page, shots, "explorer-phone")
    wrap = page.locator(f"{ROOT} .ax-scroll")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    cells = page.locator(f"{ROOT} .ax-grid :is(th, td)").all()
    assert len(cells) >= (len(Q) + 1) * (len(K) + 1), len(cells)    # every cell and header
    for cell in cells:
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
