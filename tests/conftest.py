"""Shared fixtures for the lesson's tests.

Tests that drive a real browser are marked ``browser`` here, whichever file
they are in, so ``pytest -m "not browser"`` runs everything else quickly.
Hypothesis runs derandomized: the same examples on every run and in CI.
"""

import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import traceback

try:
    import fcntl                # a lock for made_once; POSIX only
except ImportError:
    fcntl = None

import pytest
from hypothesis import HealthCheck, settings

# The same examples on every run; no timing limits, which a busy CI machine
# would trip without any bug.
settings.register_profile("lesson", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("lesson")


# The files that take longest run first: under pytest-xdist (-n auto --dist
# loadfile) each worker takes whole files in this order, so the long ones
# start at once and the short ones fill in around them.
LONGEST_FIRST = ["test_learner_corpus.py", "test_runner_browser.py", "test_browser.py",
                 "test_accessibility.py",
                 "test_widget.py", "test_quiz.py", "test_site.py", "test_exercise.py"]


def pytest_xdist_auto_num_workers(config):
    """-n auto: one worker more than there are cores.  A browser test waits on
    Chromium, and a checker test on a learner's file that hangs, for much of
    its time; the extra worker uses those waits (measured on 2 cores: the
    whole suite in 179 s with 2 workers, 158 s with 3 or 4)."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the browser fixture (through open_page too);
    put the longest files first."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable

# Learners' files: graded by the checker, never imported by pytest (some have
# syntax errors, never finish loading, call input(), exit or fork).
collect_ignore_glob = ["exercise_samples/*", "learner_corpus/*"]


@pytest.fixture
def rng():
    """A seeded random generator, so every run checks the same cases."""
    return random.Random(20261130)


ROOT = pathlib.Path(__file__).resolve().parent.parent


def made_once(tmp_path_factory, name, make):
    """A folder made by ``make(folder)`` once per test run, and its path.

    With pytest-xdist the run's workers share it: the first to ask makes it
    while the others wait on a lock, so a site is built once, not per worker.
    """
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent                 # the run's folder, above each worker's
    folder, done = base / name, base / f"{name}.done"
    with open(base / f"{name}.lock", "w") as lock:
        if fcntl:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once per test run with `mkdocs build --strict`."""
    def build(site):
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        result = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
    return made_once(tmp_path_factory, "site", build)


# --- A real browser: headless Chromium driven by Playwright -----------------

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-quic"]


def chromium_path():
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def skip_or_fail(reason):
    """Skip where a learner has no browser; in CI a skipped browser test is a failure."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        skip_or_fail("no Chromium found (apt-get install chromium, or set CHROMIUM=/path)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def shots():
    """Where to save screenshots to look at: $LESSON_SCREENSHOTS, or None.

    Full-page screenshots cost seconds and no test reads them, so they are
    taken only when someone asks: LESSON_SCREENSHOTS=shots pytest -m browser.
    """
    folder = os.environ.get("LESSON_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
    return folder or None


def screenshot(page, shots, name):
    """Save a full-page screenshot as shots/name.png, if screenshots were asked for."""
    if shots:
        page.screenshot(path=os.path.join(shots, f"{name}.png"), full_page=True)


# Before any script of a page runs, its storage is emptied: a page opened in a
# shared context starts as if in a fresh one (no saved editor text, scheme or tab).
EMPTY_STORAGE = "try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}"


@pytest.fixture(scope="session")
def contexts(browser):
    """One browser context per (colour scheme, width), shared by the whole run.

    A context keeps its cache, so the theme's scripts and styles load once,
    not once per test; each page still starts with empty storage.
    """
    made = {}

    def context(scheme="light", width=1280):
        if (scheme, width) not in made:
            made[scheme, width] = browser.new_context(viewport={"width": width, "height": 900},
                                                      color_scheme=scheme)
            made[scheme, width].add_init_script(EMPTY_STORAGE)
        return made[scheme, width]
    yield context
    for each in made.values():
        each.close()


class Page:
    """A page of the site opened from disk in a new tab, with every JavaScript error it raised."""

    def __init__(self, context, site, name):
        self.context = context
        self.page = context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.requests = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto((site / f"{name}.html").as_uri())
        self.page.wait_for_load_state("load")

    def close(self):
        self.page.close()


@pytest.fixture
def open_page(browser, contexts, built_site):
    opened = []

    def open_(name, scheme="light", width=1280):
        page = Page(contexts(scheme, width), built_site, name)
        opened.append(page)
        return page
    yield open_
    for page in opened:
        page.close()


# --- Each page state measured once per run (speed-browser) -------------------
#
# Loading a page costs 0.3-0.6 s (Material's bundle) and an axe-core run about
# a second, so the browser tests of test_browser.py, test_accessibility.py and
# test_quiz.py read one shared set of measurements per page state (page,
# colour scheme, width) instead of each loading the page again.  The
# measurements are taken in one place, in an order where nothing a step does
# to the page (focus, a click, opened answers, injected elements) can change
# what an earlier step measured: read first, then focus, then open, then
# interact.  Each test still asserts on its own part, so a broken page fails
# the test that checks that thing.

PAGES = ["index", "by-hand", "in-code", "check", "exercises", "reference", "why-softmax", "why-scaling",
         "precision", "api"]
PHONE = 390
DESKTOP = 1280

# The page's article text, math sizes, the idea page's table, figure labels and
# question boxes: read straight after loading, before anything is touched.
READ_AT_LOAD = """() => {
    const rect = e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
    const article = document.querySelector('article');
    const table = document.querySelector('.softmax-widget table');
    return {
        text: article ? article.innerText : null,
        math: [...document.querySelectorAll('article math')].map(rect),
        block_math_heights: [...document.querySelectorAll('article math[display=block]')]
            .map(e => e.getBoundingClientRect().height),
        widget_table: table ? table.innerText : null,
        quiz_boxes: [...document.querySelectorAll('.lesson-quiz fieldset')].map(f => {
            const box = f.getBoundingClientRect(), legend = f.querySelector('legend').getBoundingClientRect();
            const border = parseFloat(getComputedStyle(f).borderTopWidth);
            return {question: f.querySelector('legend').textContent.slice(0, 40), border,
                    above: box.top + border - legend.top, left: box.left - legend.left,
                    right: legend.right - box.right, below: legend.bottom - box.bottom};
        }),
    };
}"""

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

PLAIN_CONTROLS = """() => {
    const p = document.createElement('p');
    p.id = 'plain-controls';
    p.innerHTML = '<input id="plain-range" type="range" aria-label="test"> '
                + '<button id="plain-button" type="button">test</button>';
    document.querySelector('article').prepend(p);
}"""


def focus_ring(page, selector):
    """How a control looks before and after it takes keyboard focus: the pixels
    around it that change by 3:1, its box, and whether Tab reached it."""
    import base64
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
    reached = page.evaluate("""sel => { const el = document.querySelector(sel);
        const a = document.activeElement;
        return el === a || a.matches('.md-option') && a.form === el.closest('form'); }""",
        selector)
    # No wait for the theme's colour transitions: animations="disabled" makes
    # the screenshot fast-forward them to their end.
    after = page.screenshot(clip=clip, animations="disabled")
    urls = ["data:image/png;base64," + base64.b64encode(png).decode() for png in (before, after)]
    return {"reached": reached, "changed": page.evaluate(CHANGED_PIXELS, urls), "box": box}


SHOW_EVERYTHING = """() => {
    document.querySelectorAll('article details').forEach(d => d.open = true);
    const style = document.createElement('style');
    style.textContent = '.tabbed-set > .tabbed-content > .tabbed-block { display: block !important }';
    document.head.append(style);
}"""

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
    // Display formulas wider than the column.
    found.wide_formulas = [...document.querySelectorAll('.math-block')]
        .filter(block => block.scrollWidth > block.clientWidth + 1)
        .map(block => block.textContent.trim().slice(0, 40));
    return found;
}"""

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

# Every Pygments token class Material colours, set in one code block on In code.
TOKEN_SAMPLE_PAGE = "in-code"
TOKEN_CLASSES = ("k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm nl nn nx py nt nv vc vg vi "
                 "vm o ow p c ch cm cpf c1 cs cp gd ge gr gh gi go gp gs gu gt s sa sb sc dl sd "
                 "s2 se sh si sx sr s1 ss m mb mf mh mi il mo").split()
TOKEN_SAMPLE = """classes => {
    const block = document.createElement('div');
    block.id = 'token-sample';
    block.className = 'language-python highlight';
    block.innerHTML = '<pre><code>' + classes.map(c =>
        `<span class="${c}">token_${c}</span>`).join('\\n') + '</code></pre>';
    document.querySelector('article').prepend(block);
    return block.querySelectorAll('span').length;
}"""

# Parts of a page whose axe findings a test reads apart from the rest: the
# lesson's interactive parts (test_quiz.py's INTERACTIVE) and the code-colour
# sample.  Each finding's node is marked with the parts it is inside.
AXE_REGIONS = [".softmax-widget", ".lesson-quiz", ".lesson-answer", ".lesson-figure-pair",
               "#token-sample"]
AXE_NODES_INSIDE = """([violations, regions]) => {
    const find = target => {            // axe's target: a selector per frame / shadow root
        let root = document, el = null;
        for (const step of target) {
            for (const sel of Array.isArray(step) ? step : [step]) {
                el = root.querySelector(sel);
                if (!el) return null;
                root = el.shadowRoot || el;
            }
        }
        return el;
    };
    const counts = Object.fromEntries(regions.map(r => [r, document.querySelectorAll(r).length]));
    const inside = violations.map(v => v.nodes.map(n => {
        const el = find(n.target);
        return el ? regions.filter(r => el.closest(r)) : null;
    }));
    return {counts, inside};
}"""

# The page scrolled back to the top, as loaded, with nothing focused, once the
# transitions this starts (the header's title fades back) have ended: axe
# computes colours as drawn, so it must not see a fade half-way.
BACK_TO_THE_TOP = """async () => {
    window.scrollTo(0, 0);
    if (document.activeElement) document.activeElement.blur();
    const frame = () => new Promise(done => requestAnimationFrame(done));
    for (let still = 0, frames = 0; still < 2 && frames < 200; frames++) {
        await frame();
        const moving = document.getAnimations().filter(a => a.playState === 'running'
            && Number.isFinite(a.effect.getComputedTiming().endTime));
        still = moving.length ? 0 : still + 1;
        await Promise.all(moving.map(a => a.finished.catch(() => null)));
    }
}"""

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


def show_feedback(page):
    """Answer back everywhere a learner can: the first option of each question
    chosen, the widget's key 2 masked, and "1" typed and checked in every answer box."""
    for quiz in page.locator("form.lesson-quiz").all():
        quiz.locator("input[type=radio]").first.check()
    if page.locator(".softmax-widget").count():
        page.check("#softmax-widget-0-m2")
    for box in page.locator("form.lesson-answer").all():
        box.locator("input").fill("1")
        box.locator("button").click()


def measure_page(page_, name, scheme, width, shots):
    """Every measurement the browser tests make of one page state, in a safe order."""
    page = page_.page
    light, desktop = scheme == "light", width == DESKTOP
    found = {}

    def attempt(measure):
        try:
            return measure()
        except Exception:                     # the test that reads this part fails with it
            return {"__failed__": traceback.format_exc(limit=3)}

    def step(part, measure):
        found[part] = attempt(measure)

    # 1. Read what loading shows, untouched.
    step("at_load", lambda: page.evaluate(READ_AT_LOAD))
    step("figure_labels", lambda: page.evaluate(LABEL_CONTRAST))
    if desktop:
        screenshot(page, shots, f"{name}-{scheme}")
    found["errors_at_load"], found["requests_at_load"] = list(page_.errors), list(page_.requests)
    # 2. Keyboard focus, on the page as loaded; the injected controls go again after.
    targets = [selector for page_name, selector, _ in FOCUS_TARGETS if page_name == name]
    if desktop and targets:
        def rings():
            page.evaluate(PLAIN_CONTROLS)
            try:
                return {selector: attempt(lambda: focus_ring(page, selector)) for selector in targets}
            finally:
                page.evaluate("""() => { document.getElementById('plain-controls').remove();
                    document.activeElement && document.activeElement.blur(); }""")
                page.mouse.move(0, 0)
        step("focus", rings)
    # 3. The first worked answer: hidden, then opened by its summary.
    if desktop and light:
        def reveal():
            answer = page.locator("details.success").first
            if not answer.count():
                return None
            hidden = not answer.locator("table").is_visible()
            answer.locator("summary").click()
            return {"hidden_at_first": hidden, "shown_when_opened": answer.locator("table").is_visible()}
        step("answer_reveal", reveal)
    # 4. Every answer and tab open: layout as a reader who opens everything sees it.
    if desktop or light:
        page.evaluate(SHOW_EVERYTHING)
    if light:
        if not desktop:
            screenshot(page, shots, f"{name}-phone")
        step("sideways", lambda: page.evaluate(HIDDEN_SIDEWAYS))
        step("wrapped_to_the_left", lambda: page.evaluate(WRAPPED_TO_THE_LEFT))
    # 5. axe over everything at once: opened, answered back, and on In code the
    # token sample.  The sample goes again after, before the copy buttons.
    if desktop:
        step("feedback", lambda: show_feedback(page))
        if name == TOKEN_SAMPLE_PAGE:
            step("token_sample", lambda: page.evaluate(TOKEN_SAMPLE, TOKEN_CLASSES))

        def run_axe():
            try:
                from axe_playwright_python.sync_playwright import Axe
            except ImportError:
                return {"__skipped__": "axe-playwright-python is not installed (pip install -e '.[test]')"}
            page.evaluate(BACK_TO_THE_TOP)
            response = Axe().run(page).response
            where = page.evaluate(AXE_NODES_INSIDE, [response["violations"], AXE_REGIONS])
            for violation, inside in zip(response["violations"], where["inside"]):
                for node, parts in zip(violation["nodes"], inside):
                    node["inside"] = parts               # None: axe's selector found nothing
            return {"response": response, "regions": where["counts"]}
        step("axe", run_axe)
        page.evaluate("() => document.getElementById('token-sample')?.remove()")
    # 6. Each copy button clicked (scrolls the page and puts text on the clipboard).
    if light:
        step("copied", lambda: page.evaluate(CLICK_EVERY_COPY_BUTTON))
    return found


class Inspected:
    """One page state's measurements; a part that could not be measured fails its test."""

    def __init__(self, key, found):
        self.key, self.found = key, found

    def __getitem__(self, path):
        """state["sideways"], or state["focus", selector] for a part of a part."""
        value = self.found
        for part in path if isinstance(path, tuple) else (path,):
            if part not in value:
                pytest.fail(f"{self.key}: {path!r} is not measured in this state")
            value = value[part]
            if isinstance(value, dict) and "__skipped__" in value:
                skip_or_fail(value["__skipped__"])
            if isinstance(value, dict) and "__failed__" in value:
                pytest.fail(f"{self.key}: measuring {path!r} failed:\n{value['__failed__']}")
        return value


@pytest.fixture(scope="session")
def inspected(browser, contexts, built_site, shots, tmp_path_factory):
    """inspected(name, scheme, width): that page state's measurements, taken once per run.

    One load per (page, colour scheme, width), shared by every browser test and,
    through a file, by every pytest-xdist worker: the first test to ask measures
    (see measure_page for what and in which order) and the rest read the result.
    """
    memo = {}

    def inspected_(name, scheme="light", width=DESKTOP):
        key = (name, scheme, width)
        if key not in memo:
            def measure(folder):
                view = Page(contexts(scheme, width), built_site, name)
                try:
                    found = measure_page(view, name, scheme, width, shots)
                finally:
                    view.close()
                (folder / "measured.json").write_text(json.dumps(found))
            folder = made_once(tmp_path_factory, f"page-{name}-{scheme}-{width}", measure)
            memo[key] = Inspected(key, json.loads((folder / "measured.json").read_text()))
        return memo[key]
    return inspected_
