"""The built site in a real browser (headless Chromium), opened from disk.

Checks what a learner sees: math drawn as MathML with real size, no raw TeX,
the table's numbers, search working offline, and no JavaScript errors; and
that every reader can use it: axe-core finds nothing serious in light or dark,
every code colour is readable, keyboard focus shows, and on a 390 px phone
nothing is cut off at the right.  Screenshots of every page, light, dark and
phone, go to $LESSON_SCREENSHOTS when it is set, so a person can look at
them.
"""

import base64

import pytest

from conftest import screenshot, skip_or_fail

PAGES = ["index", "by-hand", "in-code", "check", "exercises", "reference", "why-softmax", "why-scaling",
         "precision", "api"]
RAW_TEX = ["\\frac", "\\sqrt", "\\mathbb", "\\operatorname", "\\infty", "\\(", "\\["]
MATH_PAGES = ["index", "by-hand", "in-code", "check", "reference", "why-softmax", "why-scaling", "precision"]


@pytest.mark.parametrize("name", PAGES)
def test_page_has_no_errors_raw_tex_or_network(open_page, shots, name):
    for scheme in ("light", "dark"):
        view = open_page(name, scheme=scheme)
        text = view.page.inner_text("article")
        assert not [t for t in RAW_TEX if t in text], text
        screenshot(view.page, shots, f"{name}-{scheme}")
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


# --- Accessibility, focus, phone layout and dark mode ------------------------
#
# These tests reuse one browser tab per (colour scheme, width) for the whole
# module: a page is loaded into it, checked, and the next page replaces it.

SCHEMES = ["light", "dark"]
PHONE = 390

# axe-core findings the site accepts, with the reason.  Each is the theme's
# markup, not the lesson's: (rule, CSS selector of the element) -> why.
AXE_EXCEPTIONS = {
    ("aria-dialog-name", ".md-search"):
        "Material's search box is a role=dialog <div> with no name; the theme "
        "renders it and gives no option to name it.",
    ("landmark-unique", ".md-code__nav"):
        "Material wraps each code block's copy button in its own <nav>, so a page "
        "with several code blocks has several unnamed <nav> landmarks.",
}
SERIOUS = {"serious", "critical"}


@pytest.fixture(scope="module")
def visit(browser, built_site):
    """Load a page of the built site into a reused tab; return the Playwright page."""
    tabs = {}

    def visit_(name, scheme="light", width=1280):
        if (scheme, width) not in tabs:
            context = browser.new_context(viewport={"width": width, "height": 900},
                                          color_scheme=scheme)
            tabs[scheme, width] = (context, context.new_page())
        page = tabs[scheme, width][1]
        page.goto((built_site / f"{name}.html").as_uri())
        page.wait_for_load_state("load")
        return page
    yield visit_
    for context, _ in tabs.values():
        context.close()


@pytest.fixture(scope="module")
def axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        skip_or_fail("axe-playwright-python is not installed (pip install -e '.[test]')")
    return Axe()



def show_everything(page):
    """Open every answer and tab, so axe checks the hidden text too."""
    page.evaluate("""() => {
        document.querySelectorAll('article details').forEach(d => d.open = true);
        const style = document.createElement('style');
        style.textContent = '.tabbed-set > .tabbed-content > .tabbed-block { display: block !important }';
        document.head.append(style);
    }""")


def excepted(rule, node):
    return any(rule == r and selector in " ".join(node["target"])
               for r, selector in AXE_EXCEPTIONS)


def serious_findings(response):
    """axe's serious and critical findings, less the listed exceptions."""
    return [f"{v['id']} ({v['impact']}): {n['target']} {n['failureSummary']}"
            for v in response["violations"] if v["impact"] in SERIOUS
            for n in v["nodes"] if not excepted(v["id"], n)]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", PAGES + ["404"])
def test_axe_finds_no_serious_violation(visit, axe, name, scheme):
    page = visit(name, scheme=scheme)
    show_everything(page)
    findings = serious_findings(axe.run(page).response)
    assert not findings, "\n".join(findings)


# Every Pygments token class Material colours, set in one code block.
TOKEN_CLASSES = ("k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm nl nn nx py nt nv vc vg vi "
                 "vm o ow p c ch cm cpf c1 cs cp gd ge gr gh gi go gp gs gu gt s sa sb sc dl sd "
                 "s2 se sh si sx sr s1 ss m mb mf mh mi il mo").split()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_code_colour_has_contrast(visit, axe, scheme):
    """Each token colour reaches 4.5:1 on the code background, even ones no page uses yet."""
    page = visit("in-code", scheme=scheme)
    page.evaluate("""classes => {
        const block = document.createElement('div');
        block.id = 'token-sample';
        block.className = 'language-python highlight';
        block.innerHTML = '<pre><code>' + classes.map(c =>
            `<span class="${c}">token_${c}</span>`).join('\\n') + '</code></pre>';
        document.querySelector('article').prepend(block);
    }""", TOKEN_CLASSES)
    response = axe.run(page, context="#token-sample",
                       options={"runOnly": ["color-contrast"], "resultTypes": ["violations"]}).response
    assert not serious_findings(response), serious_findings(response)
    checked = page.eval_on_selector_all("#token-sample span", "els => els.length")
    assert checked == len(TOKEN_CLASSES)



# A figure's axis labels ("key 1", "token 0") against the page behind them.
LABEL_CONTRAST = """() => {
    const rgb = s => s.match(/[\\d.]+/g).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, k) => s + v * [0.2126, 0.7152, 0.0722][k], 0);
    const page = rgb(getComputedStyle(document.body).backgroundColor);
    return [...document.querySelectorAll('svg.lesson-figure text[fill*="lighter"]')].map(t => {
        const [r, g, b, a = 1] = rgb(getComputedStyle(t).fill);
        const ink = [r, g, b].map((v, k) => v * a + page[k] * (1 - a));
        const [x, y] = [lum(ink), lum(page)];
        return [t.textContent, (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)];
    });
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", ["index", "reference"])
def test_figure_labels_have_contrast(visit, name, scheme):
    """axe does not check text drawn in SVG: the figures' labels reach 4.5:1 here."""
    labels = visit(name, scheme=scheme).evaluate(LABEL_CONTRAST)
    assert labels, "no figure labels found"
    faint = [(text, round(ratio, 2)) for text, ratio in labels if ratio < 4.5]
    assert not faint, faint

# A pixel of a focus ring must differ from the unfocused pixel by 3:1
# (WCAG 2.2's focus appearance; 2.1 AA asks only that focus is visible).
CHANGED_PIXELS = """async ([before, after]) => {
    const load = src => new Promise(done => { const i = new Image(); i.onload = () => done(i); i.src = src; });
    const [a, b] = await Promise.all([load(before), load(after)]);
    const pixels = img => { const c = document.createElement('canvas'); c.width = img.width;
        c.height = img.height; const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, img.width, img.height).data; };
    const [p, q] = [pixels(a), pixels(b)];
    const lum = (d, i) => [0, 1, 2].map(k => { const v = d[i + k] / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, k) => s + v * [0.2126, 0.7152, 0.0722][k], 0);
    let changed = 0;
    for (let i = 0; i < p.length; i += 4) {
        const [x, y] = [lum(p, i), lum(q, i)];
        if ((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) >= 3) changed += 1;
    }
    return changed;
}"""

# (page, how to find the control, what it is).  The injected range and button
# have no styles of their own: they test the site-wide rule that also covers
# the widget's sliders.
FOCUS_TARGETS = [
    ("in-code", "article p a[href]", "a link in the text"),
    ("by-hand", "article details > summary", "an answer's summary"),
    ("in-code", "article .md-code__button", "a copy button"),
    ("index", "label.md-header__button[for^='__palette']:not([hidden])", "the colour-scheme toggle"),
    ("index", "#plain-range", "a plain range input"),
    ("index", "#plain-button", "a plain button"),
]


def focus_ring_pixels(page, selector):
    """Pixels around a control that change by 3:1 when it takes keyboard focus."""
    page.evaluate("""() => {
        const p = document.createElement('p');
        p.innerHTML = '<input id="plain-range" type="range" aria-label="test"> '
                    + '<button id="plain-button" type="button">test</button>';
        document.querySelector('article').prepend(p);
    }""")
    control = page.locator(selector).first
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    margin = 8
    clip = {"x": max(box["x"] - margin, 0), "y": max(box["y"] - margin, 0),
            "width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin}
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    before = page.screenshot(clip=clip, animations="disabled")
    # Focus by keyboard, as a keyboard user does: Tab from the element before it.
    control.evaluate("""el => {
        const marker = document.createElement('span');
        marker.tabIndex = -1;
        (el.closest('details, form') || el).before(marker);
        marker.focus();
        marker.remove();
    }""")
    page.keyboard.press("Tab")
    # The colour toggle's focusable element is one of the hidden radio inputs in its form.
    focused = page.evaluate("""sel => { const el = document.querySelector(sel);
        const a = document.activeElement;
        return el === a || a.matches('.md-option') && a.form === el.closest('form'); }""",
        selector)
    assert focused, f"Tab did not reach {selector}"
    page.wait_for_timeout(300)                      # the theme's colour transitions
    after = page.screenshot(clip=clip, animations="disabled")
    urls = ["data:image/png;base64," + base64.b64encode(png).decode() for png in (before, after)]
    return page.evaluate(CHANGED_PIXELS, urls), box


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name, selector, what", FOCUS_TARGETS, ids=[t[2] for t in FOCUS_TARGETS])
def test_keyboard_focus_is_visible(visit, scheme, name, selector, what):
    page = visit(name, scheme=scheme)
    changed, box = focus_ring_pixels(page, selector)
    # A ring one pixel wide all round the control changes at least its perimeter.
    perimeter = 2 * (box["width"] + box["height"])
    assert changed >= perimeter, \
        f"{what}: focus changes {changed} pixels by 3:1, fewer than the perimeter {perimeter:.0f}"


# What a reader cannot see without scrolling sideways, measured in the page.
# The checker's output (language-text) is left out: it is wrapped by the checker.
HIDDEN_SIDEWAYS = """() => {
    const over = el => el.scrollWidth - el.clientWidth;
    const text = el => el.innerText.trim().slice(0, 40);
    const found = {};
    found.page = over(document.documentElement);
    found.tables = [...document.querySelectorAll('article .md-typeset__scrollwrap')]
        .filter(w => over(w) > 0).map(w => `${text(w)}: ${over(w)}px`);
    found.code = [...document.querySelectorAll('article .highlight:not(.language-text) pre > code')]
        .filter(c => over(c) > 0).map(c => `${text(c)}: ${over(c)}px`);
    // A name in code (no spaces) laid out on two lines was broken mid-word.
    found.broken_names = [...document.querySelectorAll('article :not(pre) > code')]
        .filter(c => !/\\s/.test(c.textContent) && c.getClientRects().length > 1)
        .map(c => c.textContent);
    // Text under a code block's copy button.
    found.covered = [];
    for (const pre of document.querySelectorAll('article pre')) {
        const button = pre.querySelector('.md-code__button'), code = pre.querySelector('code');
        if (!button || !code) continue;
        const b = button.getBoundingClientRect();
        const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let node; (node = walk.nextNode());) {
            if (!node.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of range.getClientRects())
                if (r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom)
                    found.covered.push(node.textContent.trim().slice(0, 40));
        }
    }
    return found;
}"""


@pytest.mark.parametrize("width", [PHONE, 1280])
@pytest.mark.parametrize("name", PAGES)
def test_nothing_is_cut_off_at_the_right(visit, shots, name, width):
    """Every column of every table, every line of code and every name in code is seen
    whole, with no copy button over it, on a phone and a desktop."""
    page = visit(name, width=width)
    show_everything(page)
    if width == PHONE:
        screenshot(page, shots, f"{name}-phone")
    found = page.evaluate(HIDDEN_SIDEWAYS)
    assert found["page"] <= 0, f"the page scrolls sideways by {found['page']}px"
    for fault in ["tables", "code", "broken_names", "covered"]:
        assert found[fault] == [], f"{fault}: {found[fault]}"
    wide = page.evaluate("""() => [...document.querySelectorAll('.math-block')]
        .filter(block => block.scrollWidth > block.clientWidth + 1)
        .map(block => block.textContent.trim().slice(0, 40))""")
    assert wide == [], f"display formulas wider than the column: {wide}"


def test_not_found_page_works_from_disk(visit, built_site):
    """404.html opened from disk has its styles, its scripts, search and working links."""
    page = visit("404")
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


# What each copy button put on the clipboard, next to the code it copies.
# Material copies with clipboard.js, which writes through a hidden textarea and
# execCommand("copy"); the page's copy event sees that textarea's selection.
CLICK_EVERY_COPY_BUTTON = """async () => {
    const copied = [];
    let last = null;
    document.addEventListener('copy', () => {
        const box = document.activeElement;
        last = box && box.tagName === 'TEXTAREA' ? box.value : String(getSelection());
    }, true);
    for (const button of document.querySelectorAll('article button[data-clipboard-target]')) {
        const code = document.querySelector(button.getAttribute('data-clipboard-target'));
        last = null;
        button.scrollIntoView();
        button.click();
        await new Promise(resolve => setTimeout(resolve, 0));
        copied.push({text: code.textContent, copied: last,
                     language: (code.closest('.highlight') || code.parentElement).className});
    }
    return copied;
}"""


@pytest.mark.parametrize("width", [PHONE, 1280])
@pytest.mark.parametrize("name", PAGES)
def test_copy_button_copies_the_code_as_written(visit, name, width):
    """The copy button on every code block copies its lines exactly: no line
    doubled, added or lost, whatever the page's layout does to wrap them."""
    page = visit(name, width=width)
    show_everything(page)
    blocks = page.evaluate(CLICK_EVERY_COPY_BUTTON)
    for block in blocks:
        assert block["copied"] is not None, f"no copy happened for {block['text'][:40]!r}"
        assert block["copied"] == block["text"].rstrip(), \
            f"{block['language']}: copied text differs from the code\n{block['copied'][:300]!r}"


def test_a_copied_listing_runs_its_examples(visit, tmp_path):
    """A source listing on In code, copied with its button into a fresh file in an
    empty folder, passes `python -m doctest`, as the page promises."""
    import subprocess
    import sys
    page = visit("in-code", width=PHONE)
    show_everything(page)
    listings = [b["copied"] for b in page.evaluate(CLICK_EVERY_COPY_BUTTON)
                if "language-python" in b["language"] and ">>> " in (b["copied"] or "")]
    assert listings, "In code shows no Python listing with examples"
    for number, listing in enumerate(listings):
        path = tmp_path / f"listing_{number}.py"
        path.write_text(listing + "\n", encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "doctest", path.name], cwd=tmp_path,
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{path.name}:\n{listing[:400]}\n{result.stdout[-2000:]}"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", [PHONE, 1280])
@pytest.mark.parametrize("name", ["index", "check", "why-softmax", "why-scaling"])
def test_quiz_questions_sit_inside_their_box(visit, name, width, scheme):
    """A question of several lines is inside its box, under the whole top border,
    not drawn across it."""
    page = visit(name, scheme=scheme, width=width)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.lesson-quiz fieldset')].map(f => {
        const box = f.getBoundingClientRect(), legend = f.querySelector('legend').getBoundingClientRect();
        const border = parseFloat(getComputedStyle(f).borderTopWidth);
        return {question: f.querySelector('legend').textContent.slice(0, 40), border,
                above: box.top + border - legend.top, left: box.left - legend.left,
                right: legend.right - box.right, below: legend.bottom - box.bottom};
    })""")
    assert boxes, f"{name} has no quiz"
    for box in boxes:
        assert box["border"] > 0, f"{box['question']}: the box has no top border"
        assert max(box["above"], box["left"], box["right"], box["below"]) <= 0, \
            f"{box['question']!r} is not inside its box: {box}"


# Code lines laid out on more than one row whose later rows start at or left
# of the line's first character: they read as a new line of code.
WRAPPED_TO_THE_LEFT = """() => {
    const found = [];
    const lines = document.querySelectorAll(
        'article .highlight pre > code > span:is([id^="__span"], .lesson-report-line)');
    for (const line of lines) {
        if (!line.getClientRects().length) continue;
        const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        let start = null;
        for (let node; !start && (node = walk.nextNode());) {
            const at = node.textContent.search(/\\S/);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + 1);
            start = range.getBoundingClientRect();
        }
        if (!start) continue;
        const all = document.createRange();
        all.selectNodeContents(line);
        for (const r of all.getClientRects()) {
            if (r.width < 1 || r.top < start.bottom - 1) continue;     // the first row
            if (r.left <= start.left + 1) {
                found.push(`${line.textContent.trim().slice(0, 50)} (row at ${Math.round(r.left - start.left)}px)`);
                break;
            }
        }
    }
    return found;
}"""


@pytest.mark.parametrize("name", ["in-code", "exercises", "reference", "check", "api"])
def test_a_wrapped_code_line_hangs_under_its_own_text(visit, name):
    """On a phone a long line of code, or of the checker's report, wraps with its
    later rows indented past its own first character."""
    page = visit(name, width=PHONE)
    show_everything(page)
    found = page.evaluate(WRAPPED_TO_THE_LEFT)
    assert found == [], f"lines that wrap back to or left of their start: {found}"
