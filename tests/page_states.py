"""What the browser tests measure of each page state, and in which order.

Loading a page costs 0.3-0.6 s (Material's bundle) and an axe-core run about
a second, so the browser tests of test_browser.py, test_accessibility.py and
test_quiz.py read one shared set of measurements per page state (page,
colour scheme, width) instead of each loading the page again.  The
measurements are taken in one place, in an order where nothing a step does
to the page (focus, a click, opened answers, injected elements) can change
what an earlier step measured: read first, then focus, then open, then
interact.  Each test still asserts on its own part, so a broken page fails
the test that checks that thing.

The fixture that takes and shares these measurements, ``inspected``, is in
conftest.py.
"""

import os
import traceback


def screenshot(page, shots, name):
    """Save a full-page screenshot as shots/name.png, if screenshots were asked for."""
    if shots:
        page.screenshot(path=os.path.join(shots, f"{name}.png"), full_page=True)


PAGES = ["index", "by-hand", "in-code", "check", "exercises", "reference", "why-softmax", "why-scaling",
         "precision", "api"]
SCHEMES = ["light", "dark"]
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
