"""The built site in a real browser (headless Chromium), opened from disk.

Checks what a learner sees: math drawn as MathML with real size, no raw TeX,
the table's numbers, search working offline, no JavaScript errors and no
request off the disk; on a 390 px phone and a desktop nothing is cut off at
the right, a wrapped line of code hangs under its own text, every copy button
copies its code as written (a `>>>` session, the code that runs), and every
question sits inside its box.

Most tests read conftest's `inspected(name, scheme, width)`: each page state
is loaded and measured once per run, and each test asserts on its part.
Screenshots of every page, light, dark and phone, go to $LESSON_SCREENSHOTS
when it is set, so a person can look at them.
"""

import re
import subprocess
import sys

import pytest

from page_states import DESKTOP, PAGES, PHONE, SCHEMES

RAW_TEX = ["\\frac", "\\sqrt", "\\mathbb", "\\operatorname", "\\infty", "\\(", "\\["]
MATH_PAGES = ["index", "by-hand", "in-code", "check", "reference", "why-softmax", "why-scaling", "precision"]


# Last page first: on two pytest-xdist workers, this file and test_accessibility.py
# (which goes first page first) then measure different pages at the same time,
# instead of one worker waiting for the page the other is measuring.
@pytest.mark.parametrize("name", PAGES[::-1])
def test_page_has_no_errors_raw_tex_or_network(inspected, name):
    """The page loads, light and dark, with its math typeset, no JavaScript error,
    and nothing fetched from the network."""
    for scheme in SCHEMES:
        state = inspected(name, scheme=scheme)
        text = state["at_load"]["text"]
        assert text is not None, f"{name} has no article"
        assert not [t for t in RAW_TEX if t in text], text
        assert state["errors_at_load"] == []
        requests = state["requests_at_load"]
        assert any(url.endswith(".css") for url in requests), requests   # the record works
        assert all(url.startswith(("file:", "data:", "blob:", "about:")) for url in requests), \
            [url for url in requests if not url.startswith("file:")]


@pytest.mark.parametrize("name", MATH_PAGES)
def test_math_is_drawn_with_real_size(inspected, name):
    """Every formula is laid out as MathML, with a real width and height."""
    at_load = inspected(name)["at_load"]
    sizes = at_load["math"]
    assert sizes, "no MathML on the page"
    assert all(w > 1 and h > 5 for w, h in sizes), sizes
    # A fraction is taller than a line of text: MathML is laid out, not shown as text.
    heights = at_load["block_math_heights"]
    if name == "index":
        assert max(heights) > 40, heights


def test_idea_page_shows_the_lessons_table(inspected):
    text = inspected("index")["at_load"]["widget_table"]
    assert text is not None, "the idea page's widget has no table"
    for number in ["0.7071", "0.4931", "0.1814", "0.5972", "0.2945", "0.1083"]:
        assert number in text


def test_answers_are_hidden_until_opened(inspected):
    """A worked answer's table is hidden until its summary is clicked, then shown."""
    reveal = inspected("by-hand")["answer_reveal"]
    assert reveal, "By hand has no worked answer (details.success)"
    assert reveal["hidden_at_first"]
    assert reveal["shown_when_opened"]


def test_search_works_from_disk(open_page):
    view = open_page("index")
    view.page.keyboard.press("/")                  # Material's search shortcut
    view.page.keyboard.type("overflow")
    view.page.wait_for_selector(".md-search-result__item", timeout=15000)
    assert "naive_softmax" in view.page.inner_text(".md-search-result")
    assert view.errors == []


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
@pytest.mark.parametrize("name", PAGES)
def test_nothing_is_cut_off_at_the_right(inspected, name, width):
    """Every column of every table, every line of code and every name in code is seen
    whole, with no copy button over it, on a phone and a desktop (every answer and
    tab open)."""
    found = inspected(name, width=width)["sideways"]
    assert found["page"] <= 0, f"the page scrolls sideways by {found['page']}px"
    for fault in ["tables", "code", "broken_names", "covered"]:
        assert found[fault] == [], f"{fault}: {found[fault]}"
    wide = found["wide_formulas"]
    assert wide == [], f"display formulas wider than the column: {wide}"


def test_not_found_page_works_from_disk(open_page, built_site):
    """404.html opened from disk has its styles, its scripts, search and working links."""
    page = open_page("404").page
    failed = []

    def record(request):
        failed.append(request.url)
    page.on("requestfailed", record)
    sheets = page.eval_on_selector_all(
        "link[rel=stylesheet]", "links => links.map(l => [l.getAttribute('href'), !!l.sheet])")
    assert sheets and all(loaded for _, loaded in sheets), sheets
    assert page.evaluate("typeof document$ !== 'undefined'"), "the theme's script did not run"
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") \
        == "sticky", "the theme's header is unstyled"
    links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
    local = [href.split("#")[0] for href in links if "//" not in href and href.split("#")[0]]
    assert local and all((built_site / href).resolve().is_file() for href in local), local
    page.keyboard.press("/")
    page.keyboard.type("overflow")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    page.remove_listener("requestfailed", record)
    assert failed == []


def test_searching_shows_no_hidden_solution_and_readable_math(open_page):
    """A learner searching "entropy" meets In code's contract with its formula
    as text, and none of the solutions that the pages keep closed."""
    page = open_page("index").page
    page.keyboard.press("/")
    page.keyboard.type("entropy")
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    page.wait_for_timeout(300)                          # the last results drawn
    results = page.inner_text(".md-search-result")
    assert "H(w) = −∑ᵢ wᵢ ln wᵢ" in results, results
    for solution in ("def entropy", "def softmax(", "math.log(p) for p in w", "exp(-1000) is 0.0"):
        assert solution not in results, results


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
@pytest.mark.parametrize("name", PAGES)
def test_copy_button_copies_the_code_as_written(inspected, name, width):
    """The copy button on every code block copies its lines exactly: no line
    doubled, added or lost, whatever the page's layout does to wrap them.  A
    `>>>` session copies the code that runs instead (tests/test_pasting.py
    runs it): no prompt, no output."""
    blocks = inspected(name, width=width)["copied"]
    assert blocks, f"{name}: no code block with a copy button was found"     # every page has some
    for block in blocks:
        assert block["copied"] is not None, f"no copy happened for {block['text'][:40]!r}"
        session = "language-pycon" in block["language"]
        assert session == (block["runs"] is not None), block["language"]
        expected = block["runs"] if session else block["text"]
        assert block["copied"] == expected.rstrip(), \
            f"{block['language']}: copied text differs from the code\n{block['copied'][:300]!r}"
        if session:
            assert not re.search(r"^(>>>|\.\.\.)( |$)", block["copied"], re.M), block["copied"]


def test_a_copied_session_runs_at_pythons_prompt(browser, built_site, tmp_path):
    """Clicked, a `>>>` example's copy button puts on the clipboard code that
    Python's prompt runs as it is: here the by-hand page's second worked
    answer, whose `W` and `softmax` come from earlier on the page."""
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto((built_site / "by-hand.html").as_uri())
    answer = page.locator("details", has_text="W = softmax").first
    answer.locator("summary").click()
    block = answer.locator(".language-pycon")
    block.hover()
    block.locator("button[data-clipboard-target]").click()
    pasted = page.evaluate("() => navigator.clipboard.readText()")
    context.close()
    assert ">>>" not in pasted and "([1.0, 1.0], 2.0)" not in pasted, pasted
    prompt = subprocess.run([sys.executable, "-i", "-q"], input=pasted + "\n", cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert prompt.stdout == "([1.0, 1.0], 2.0)\n", (pasted, prompt.stdout, prompt.stderr)
    assert "Error" not in prompt.stderr, prompt.stderr
    (tmp_path / "pasted.py").write_text(pasted + "\nprint(W)\n", encoding="utf-8")
    as_file = subprocess.run([sys.executable, "pasted.py"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60)
    assert as_file.returncode == 0 and as_file.stdout.startswith("[["), as_file.stderr


def test_a_copied_listing_runs_its_examples(inspected, tmp_path):
    """A source listing on In code, copied with its button into a fresh file in an
    empty folder, passes `python -m doctest`, as the page promises."""
    listings = [b["copied"] for b in inspected("in-code", width=PHONE)["copied"]
                if "language-python" in b["language"] and ">>> " in (b["copied"] or "")]
    assert listings, "In code shows no Python listing with examples"
    for number, listing in enumerate(listings):
        path = tmp_path / f"listing_{number}.py"
        path.write_text(listing + "\n", encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "doctest", path.name], cwd=tmp_path,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{path.name}:\n{listing[:400]}\n{result.stdout[-2000:]}"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
@pytest.mark.parametrize("name", ["index", "check", "why-softmax", "why-scaling"])
def test_quiz_questions_sit_inside_their_box(inspected, name, width, scheme):
    """A question of several lines is inside its box, under the whole top border,
    not drawn across it."""
    boxes = inspected(name, scheme=scheme, width=width)["at_load"]["quiz_boxes"]
    assert boxes, f"{name} has no quiz"
    for box in boxes:
        assert box["border"] > 0, f"{box['question']}: the box has no top border"
        assert max(box["above"], box["left"], box["right"], box["below"]) <= 0, \
            f"{box['question']!r} is not inside its box: {box}"


@pytest.mark.parametrize("name", ["in-code", "exercises", "reference", "check", "api"])
def test_a_wrapped_code_line_hangs_under_its_own_text(inspected, name):
    """On a phone a long line of code, or of the checker's report, wraps with its
    later rows indented past its own first character."""
    found = inspected(name, width=PHONE)["wrapped_to_the_left"]
    assert found == [], f"lines that wrap back to or left of their start: {found}"


OVERLAPS = """() => {
    const found = [];
    for (const svg of document.querySelectorAll('svg.lesson-figure')) {
        const boxes = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
        boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
            const gap = 1;            // at least a pixel between two labels
            if (r.left < s.right + gap && s.left < r.right + gap
                && r.top < s.bottom + gap && s.top < r.bottom + gap) found.push([a, b]);
        }));
    }
    return found;
}"""


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
@pytest.mark.parametrize("name", ["index", "why-softmax", "why-scaling", "reference"])
def test_no_two_labels_of_a_figure_touch(untouched, name, width):
    """A figure's words are apart: on Why exponentiate? the y axis's 0 and the x
    axis's -4 met at the corner."""
    page = untouched(name, width=width).page
    assert page.locator("svg.lesson-figure text").count() > 5, name
    assert page.evaluate(OVERLAPS) == []


BROKEN_CODE_WORDS = """() => {
    // Words of code (runs with no space, across Pygments' token spans) drawn
    // on more than one row though a row has room for them: inline code's
    // (prose, headings, tables), and a block's that breaks just after a hyphen.
    const broken = [];
    const units = [...document.querySelectorAll('article pre > code > span[id^="__span"], '
                                                + 'article :not(pre) > code')];
    for (const unit of units) {
        if (!unit.getClientRects().length || unit.closest('details:not([open])')) continue;
        const nodes = [];
        const walk = document.createTreeWalker(unit, NodeFilter.SHOW_TEXT);
        for (let node; (node = walk.nextNode());) nodes.push(node);
        const text = nodes.map(n => n.textContent).join('');
        const at = (i) => {                    // the text node and offset of character i
            for (const node of nodes) {
                if (i < node.textContent.length) return [node, i];
                i -= node.textContent.length;
            }
        };
        const top = (i) => {                   // the row character i is drawn on
            const range = document.createRange();
            const [node, offset] = at(i);
            range.setStart(node, offset);
            range.setEnd(node, offset + 1);
            return Math.round(range.getBoundingClientRect().top);
        };
        const inline = unit.matches('code');            // else a line of a block
        const room = inline ? unit.parentElement.clientWidth
            : unit.clientWidth - parseFloat(getComputedStyle(unit).paddingLeft);
        for (const word of text.matchAll(/\\S+/g)) {
            const rows = [...word[0]].map((_, i) => top(word.index + i));
            const cuts = rows.map((row, i) => i > 0 && row !== rows[i - 1] ? i : 0).filter(i => i);
            if (!cuts.length) continue;
            const probe = document.createElement('span');
            probe.textContent = word[0];
            probe.style.whiteSpace = 'pre';
            unit.append(probe);
            const width = probe.getBoundingClientRect().width;
            probe.remove();
            if (width <= room && (inline || cuts.some(i => word[0][i - 1] === '-'))) {
                broken.push(word[0]);
            }
        }
    }
    return broken;
}"""


@pytest.mark.parametrize("name", PAGES)
def test_on_a_phone_code_wraps_at_its_spaces(untouched, name):
    """At 390 px a word of code that fits a row never breaks just after a
    hyphen (`tol=1e-` / `9)`, `-` / `inf`), and one in the prose, a heading
    or a table never breaks at all."""
    page = untouched(name, width=PHONE).page
    assert page.locator("article code").count() > 0, name
    assert page.evaluate(BROKEN_CODE_WORDS) == []


def test_jump_to_the_editor_brings_the_keys_there(open_page):
    """Exercises' "Jump to the editor", followed with the keyboard, leaves the
    keys in the editor, ready to type, and the editor in view."""
    page = open_page("exercises").page
    link = page.get_by_role("link", name="Jump to the editor")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.classList.contains('cm-content')",
                           timeout=5000)
    assert page.evaluate("""() => { const r = document.activeElement.getBoundingClientRect();
                                    return r.top >= 0 && r.top < innerHeight; }""")
    page.keyboard.type("x = 1")
    assert page.evaluate("() => lessonRunner.runners[0].editor.text()").endswith("x = 1") or \
        "x = 1" in page.evaluate("() => lessonRunner.runners[0].editor.text()")
