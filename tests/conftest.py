"""Shared fixtures for the lesson's tests.

Tests that drive a real browser are marked ``browser`` here, whichever file
they are in, so ``pytest -m "not browser"`` runs everything else quickly.
Hypothesis runs derandomized: the same examples on every run and in CI.
"""

import os
import pathlib
import random
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

# The same examples on every run; no timing limits, which a busy CI machine
# would trip without any bug.
settings.register_profile("lesson", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("lesson")


def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the browser fixture (through open_page too)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)

# Learners' files: graded by the checker, never imported by pytest (some have
# syntax errors, never finish loading, call input(), exit or fork).
collect_ignore_glob = ["exercise_samples/*", "learner_corpus/*"]


@pytest.fixture
def rng():
    """A seeded random generator, so every run checks the same cases."""
    return random.Random(20261130)


ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once per test run with `mkdocs build --strict`."""
    site = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


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


class Page:
    """A page opened from disk, with every JavaScript error it raised."""

    def __init__(self, browser, site, name, scheme="light", width=1280):
        self.context = browser.new_context(viewport={"width": width, "height": 900},
                                           color_scheme=scheme)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.requests = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto((site / f"{name}.html").as_uri())
        self.page.wait_for_load_state("load")

    def close(self):
        self.context.close()


@pytest.fixture
def open_page(browser, built_site):
    opened = []

    def open_(name, **options):
        page = Page(browser, built_site, name, **options)
        opened.append(page)
        return page
    yield open_
    for page in opened:
        page.close()
