"""The browser tests' plugin: headless Chromium driven by Playwright.

browser            Chromium, once per worker (a skip, or in CI a failure, without it)
contexts           a browser context per (colour scheme, width), shared by the run
open_page          a page of the built site to click, type and scroll in
untouched          a page only read, opened once per worker
inspected          a page state's measurements (tests/page_states.py), once per run
shots              where to save screenshots, when someone asks for them

A test that uses ``browser`` (through any of these) is marked ``browser``
(plugin_scheduling.py), so ``pytest -m "not browser"`` leaves them out.
"""

import json
import os
import shutil

import pytest

from helpers import made_once, skip_or_fail
from page_states import DESKTOP, measure_page


CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-quic"]


def chromium_path():
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


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


# Before any script of a page runs, its storage is emptied: a page opened in a
# shared context starts as if in a fresh one (no saved editor text, scheme or tab).
EMPTY_STORAGE = "try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}"


@pytest.fixture(scope="session")
def contexts(browser):
    """One browser context per (colour scheme, width), shared by the whole run.

    A context keeps its cache, so the theme's scripts and styles load once,
    not once per test; each page still starts with empty storage.  Each
    context also keeps one blank tab open: while it is open, Chromium keeps
    the context's renderer process, and a page opened in a new tab reuses it
    (and the scripts it compiled) instead of starting a process of its own:
    about 0.6 s of CPU a page instead of 1.3 s.  (Page keeps the tabs a test
    is done with too; the blank one still saves CPU: test_widget,
    test_widget_layout and test_quiz took 87 s of CPU with it, 101 s without.)
    """
    made = {}

    def context(scheme="light", width=DESKTOP):
        if (scheme, width) not in made:
            made[scheme, width] = browser.new_context(viewport={"width": width, "height": 900},
                                                      color_scheme=scheme)
            made[scheme, width].add_init_script(EMPTY_STORAGE)
            made[scheme, width].new_page()              # the blank tab kept open
        return made[scheme, width]
    yield context
    for each in made.values():
        IDLE_TABS.pop(id(each), None)
        each.close()


class Page:
    """A page of the site opened from disk, with every JavaScript error it raised.

    It is loaded, as a new document (its storage emptied by the context's
    script, as in a new tab), into a tab an earlier page of its context left,
    else into a new tab: a load in a tab Chromium has running costs about a
    third less CPU.  The tab is brought to the front first (a tab behind
    another gets no animation frames).  A tab whose viewport a test changed
    is closed, not kept.
    """

    def __init__(self, context, site, name):
        self.context = context
        idle = IDLE_TABS.setdefault(id(context), [])
        self.page = idle.pop() if idle else context.new_page()
        self.page.bring_to_front()          # a tab behind another gets no animation frames
        self.viewport = self.page.viewport_size      # the context's, until a test changes it
        self.errors, self.requests = [], []
        self.listeners = {
            "pageerror": lambda error: self.errors.append(str(error)),
            "console": lambda m: m.type == "error" and self.errors.append(m.text),
            "request": lambda r: self.requests.append(r.url)}
        for event, listener in self.listeners.items():
            self.page.on(event, listener)
        self.page.goto((site / f"{name}.html").as_uri())
        self.page.wait_for_load_state("load")

    def close(self):
        for event, listener in self.listeners.items():
            self.page.remove_listener(event, listener)
        if self.page.is_closed():
            return
        if self.page.viewport_size != self.viewport:
            self.page.close()
            return
        self.page.evaluate("window.scrollTo(0, 0)")       # as a new tab has them, should the
        self.page.mouse.move(0, 0)                         # next load restore either
        IDLE_TABS.setdefault(id(self.context), []).append(self.page)


IDLE_TABS = {}              # id(context): tabs a closed Page left, to load the next in


@pytest.fixture
def open_page(browser, contexts, built_site):
    opened = []

    def open_(name, scheme="light", width=DESKTOP):
        page = Page(contexts(scheme, width), built_site, name)
        opened.append(page)
        return page
    yield open_
    for page in opened:
        page.close()


@pytest.fixture(scope="session")
def untouched(contexts, built_site):
    """Pages that tests only read: each (page, scheme, width) opened once per worker.

    A page load costs Material's bundle again, and many checks only read the state
    a page starts in or call its pure functions. They share one load here, across
    files. No test may click, type, focus or scroll these pages; a test that
    changes anything opens its own page with open_page.
    """
    opened = {}

    def untouched_(name, scheme="light", width=DESKTOP):
        if (name, scheme, width) not in opened:
            opened[name, scheme, width] = Page(contexts(scheme, width), built_site, name)
        return opened[name, scheme, width]
    yield untouched_
    for view in opened.values():
        view.close()


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
