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
conftest.py.  The JavaScript that measures and changes the page is in
page_states.js, one function a step, called by name with :func:`run`.
"""

import functools
import os
import pathlib
import traceback


@functools.lru_cache(maxsize=None)
def _script():
    return pathlib.Path(__file__).with_name("page_states.js").read_text(encoding="utf-8")


def run(page, name, arg=None):
    """Call the function ``name`` of page_states.js in ``page``, with ``arg``."""
    return page.evaluate(f"([name, arg]) => ({_script()})[name](arg)", [name, arg])


def screenshot(page, shots, name):
    """Save a full-page screenshot as shots/name.png, if screenshots were asked for."""
    if shots:
        page.screenshot(path=os.path.join(shots, f"{name}.png"), full_page=True)


PAGES = ["index", "by-hand", "in-code", "check", "exercises", "reference", "why-softmax", "why-scaling",
         "precision", "api"]
SCHEMES = ["light", "dark"]
PHONE = 390
DESKTOP = 1280

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
    run(page, "blur")
    page.mouse.move(0, 0)
    before = page.screenshot(clip=clip, animations="disabled")
    # Focus by keyboard, as a keyboard user does: Tab from the element before it.
    run(page, "focusJustBefore", selector)
    page.keyboard.press("Tab")
    reached = run(page, "focused", selector)
    # No wait for the theme's colour transitions: animations="disabled" makes
    # the screenshot fast-forward them to their end.
    after = page.screenshot(clip=clip, animations="disabled")
    urls = ["data:image/png;base64," + base64.b64encode(png).decode() for png in (before, after)]
    return {"reached": reached, "changed": run(page, "changedPixels", urls), "box": box}


# Every Pygments token class Material colours, set in one code block on In code.
TOKEN_SAMPLE_PAGE = "in-code"
TOKEN_CLASSES = ("k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm nl nn nx py nt nv vc vg vi "
                 "vm o ow p c ch cm cpf c1 cs cp gd ge gr gh gi go gp gs gu gt s sa sb sc dl sd "
                 "s2 se sh si sx sr s1 ss m mb mf mh mi il mo").split()

# Parts of a page whose axe findings a test reads apart from the rest: the
# lesson's interactive parts (test_quiz.py's INTERACTIVE) and the code-colour
# sample.  Each finding's node is marked with the parts it is inside.
AXE_REGIONS = [".softmax-widget", ".lesson-quiz", ".lesson-answer", ".lesson-figure-pair",
               "#token-sample"]


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
    step("at_load", lambda: run(page, "readAtLoad"))
    step("figure_labels", lambda: run(page, "labelContrast"))
    if desktop:
        screenshot(page, shots, f"{name}-{scheme}")
    found["errors_at_load"], found["requests_at_load"] = list(page_.errors), list(page_.requests)
    # 2. Keyboard focus, on the page as loaded; the injected controls go again after.
    targets = [selector for page_name, selector, _ in FOCUS_TARGETS if page_name == name]
    if desktop and targets:
        def rings():
            run(page, "plainControls")
            try:
                return {selector: attempt(lambda: focus_ring(page, selector)) for selector in targets}
            finally:
                run(page, "removePlainControls")
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
        run(page, "showEverything")
    if light:
        if not desktop:
            screenshot(page, shots, f"{name}-phone")
        step("sideways", lambda: run(page, "hiddenSideways"))
        step("wrapped_to_the_left", lambda: run(page, "wrappedToTheLeft"))
    # 5. axe over everything at once: opened, answered back, and on In code the
    # token sample.  The sample goes again after, before the copy buttons.
    if desktop:
        step("feedback", lambda: show_feedback(page))
        if name == TOKEN_SAMPLE_PAGE:
            step("token_sample", lambda: run(page, "tokenSample", TOKEN_CLASSES))

        def run_axe():
            try:
                from axe_playwright_python.sync_playwright import Axe
            except ImportError:
                return {"__skipped__": "axe-playwright-python is not installed (pip install -e '.[test]')"}
            run(page, "backToTheTop")
            # Every rule runs on every node as by default; only the violations
            # are read, so only they carry every node (axe's resultTypes): the
            # passes' selectors cost half of axe's time (2.5 s of CPU to 1.2 s
            # on the idea page), and the violations are the same.
            response = Axe().run(page, options={"resultTypes": ["violations"]}).response
            where = run(page, "axeNodesInside", [response["violations"], AXE_REGIONS])
            for violation, inside in zip(response["violations"], where["inside"]):
                for node, parts in zip(violation["nodes"], inside):
                    node["inside"] = parts               # None: axe's selector found nothing
            return {"response": response, "regions": where["counts"]}
        step("axe", run_axe)
        run(page, "removeTokenSample")
    # 6. Each copy button clicked (scrolls the page and puts text on the clipboard).
    if light:
        step("copied", lambda: run(page, "clickEveryCopyButton"))
    return found
