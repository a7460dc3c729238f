"""The Exercises page's editor, in headless Chromium: Python in the page.

The built site is served from 127.0.0.1 (as `python3 -m http.server -d site`
would), and one page is shared by the tests, since Python takes seconds to
start.  Every request is routed: one that would leave 127.0.0.1 is recorded
and refused.  Each report the page gives is compared with the report that
`softmax-lesson check` prints for the same file.

The page runs CPython 3.14 (Pyodide) while these tests run the CLI under the
Python at hand, so an exception's message, which may differ between the two,
is compared by its type only.

Run with -s to see the figures: load time, run time, bytes added to the site.
"""

import concurrent.futures
import functools
import gzip
import http.server
import json
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time

import pytest

from lesson.grader import contract
from helpers import mkdocs_build, skip_or_fail

ROOT = pathlib.Path(__file__).resolve().parent.parent
from helpers import SAMPLES      # tests/learner_corpus and the site's samples
FILENAME = "softmax_exercise.py"
SEED = 7                     # the same fresh inputs in the page (?seed=7) and the CLI
STARTER = contract.STARTER.format(name=FILENAME)
CHECKS = len(contract.CHECKS)
# The page is opened with ?time-limit=0.5 and the CLI run with --time-limit 0.5:
# a right answer takes milliseconds, and the tests that hang wait less.
TIME_LIMIT = 0.5

# A solution that is right in itself, but first replaces math.exp.  Sharing
# one Python with the judge, it would change the expected answers too.
PATCHES_EXP = ("import math\n"
               "math.exp = lambda v: 1.0       # 'faster': every exponential is 1\n\n"
               + (SAMPLES / "correct_lists.py").read_text())


# --- Serving a built site from 127.0.0.1 ----------------------------------------

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass                      # a page closed while a worker was still downloading


@pytest.fixture(scope="module")
def serve():
    servers = []

    def serve_(folder):
        handler = functools.partial(Quiet, directory=str(folder))
        server = Server(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}/"
    yield serve_
    for server in servers:
        server.shutdown()
        server.server_close()


def _fulfil(text, route, *_):
    route.fulfill(body=text, content_type="text/javascript")


class View:
    """A browser context where every request is seen and none leaves the site."""

    def __init__(self, browser, url, missing=None, served=None):
        """``missing``: files answered with 404; ``served``: {file: script}
        answered with that JavaScript instead of the file's own."""
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.requests, self.outside, self.errors = [], [], []
        self.context.route("**/*", self._route)
        if missing:                                # answer 404 for these files
            self.context.route(missing, lambda route: route.fulfill(status=404, body="gone"))
        for pattern, text in (served or {}).items():
            self.context.route(pattern, functools.partial(_fulfil, text))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.opened = time.perf_counter()
        self.page.goto(url)

    def _route(self, route):
        url = route.request.url
        self.requests.append(url)
        if url.startswith(("http://127.0.0.1:", "file:", "data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def state(self):
        return self.page.get_attribute(".lesson-runner", "data-state")

    def status(self):
        return self.page.inner_text(".lr-status")

    def close(self):
        self.context.close()


def build_without_runtime(folder):
    """`mkdocs build --strict` of a copy of the project without what `npm ci` makes."""
    copy = folder / "project"
    runtime = ROOT / "docs" / "assets" / "runner" / "pyodide"     # what npm ci copies

    bundle = runtime.parent / "editor.bundle.js"                   # and what it bundles

    def left_out(folder, names):
        return {name for name in names
                if name in ("node_modules", ".venv", "venv", ".git", "site", "__pycache__",
                            ".pytest_cache", ".hypothesis")
                or pathlib.Path(folder, name) in (runtime, bundle)}
    shutil.copytree(ROOT, copy, ignore=left_out)
    built = folder / "site"
    return mkdocs_build(copy, built), built


@pytest.fixture(scope="module", autouse=True)
def built_without_runtime(request, tmp_path_factory):
    """The site as built without `npm ci`, started in a thread as this file's tests start.

    The build is seconds of CPU; started first, it runs while Python starts in
    the shared page, instead of after. Its test waits for it (.result()). It is
    started only if that test was selected.
    """
    wanted = "test_built_without_npm_ci_the_site_builds_and_the_editor_says_so"
    if not any(item.name == wanted for item in request.session.items):
        yield None
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit(build_without_runtime, tmp_path_factory.mktemp("without_runtime"))


@pytest.fixture(scope="module")
def site(built_site):
    if not (built_site / "assets" / "runner" / "pyodide" / "pyodide.asm.wasm").exists():
        skip_or_fail("the site was built without Pyodide: run `npm ci` first")
    return built_site


@pytest.fixture(scope="module")
def runner(browser, site, serve):
    """The Exercises page, served, with Python started once for every test."""
    view = View(browser, serve(site) + f"exercises.html?seed={SEED}&time-limit={TIME_LIMIT:g}")
    view.first_words = (view.state(), view.page.is_visible(".lr-progress"), view.status())
    view.page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.querySelector('.lesson-runner').dataset.state)",
        timeout=90_000)
    view.load_seconds = time.perf_counter() - view.opened
    view.reports = {}
    assert view.state() == "ready", view.status()
    yield view
    assert view.outside == [], f"requests that left the site: {view.outside}"
    view.close()


def set_text(page, source):
    """Put source in the editor, as Reset does (one undoable change).

    The page is brought to the front first: a page behind another tab is
    hidden, and CodeMirror draws on animation frames, which it then gets none of."""
    page.bring_to_front()
    page.evaluate("text => lessonRunner.runners[0].editor.setText(text)", source)


def text_of(page):
    return page.evaluate("() => lessonRunner.runners[0].editor.text()")


def focus_editor(page):
    page.evaluate("() => lessonRunner.runners[0].editor.focus()")


def check_in_page(view, source, key=True):
    """Put source in the editor, run the checks; return (report lines, status, seconds)."""
    page = view.page
    runs = page.evaluate("() => lessonRunner.runners[0].timings.runs.length")
    set_text(page, source)
    began = time.perf_counter()
    if key:
        focus_editor(page)
        page.keyboard.press("Control+Enter")
    else:
        page.click(".lr-run")
    page.wait_for_function("n => lessonRunner.runners[0].timings.runs.length > n", arg=runs,
                           timeout=(TIME_LIMIT * 4 + 60) * 1000)
    seconds = time.perf_counter() - began
    return page.text_content(".lr-report").rstrip("\n").split("\n"), view.status(), seconds


def report_of(view, source):
    """The page's report for a source, reusing one an earlier test made."""
    if source not in view.reports:
        view.reports[source] = check_in_page(view, source)[0]
    return view.reports[source]


def check_with_cli(tmp_path, source, *options):
    """The CLI's report for the same file, named as the page names it."""
    (tmp_path / FILENAME).write_text(source, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "lesson", "check", "--seed", str(SEED),
                             "--time-limit", f"{TIME_LIMIT:g}", *options, FILENAME],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    header, blank, *lines = result.stdout.rstrip("\n").split("\n")
    assert header.startswith("lesson 4's checker: ") and blank == ""    # the CLI's own
    return lines


def untraced(lines):
    """A report without its traced checks' blocks (from "differs:" or "your
    steps:" to the check's end, each line a detail's indent deep): a step's
    values may be an exception's words, which the page's Python words its
    own way; test_the_page_draws_the_terminals_steps compares them whole."""
    out, inside = [], False
    for line in lines:
        if line.startswith(("        differs:  ", "        your steps:")):
            inside = True
        elif not line.startswith("        "):
            inside = False
        if not inside:
            out.append(line)
    return out


ERROR = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Exit|Interrupt)): [^(]*")


def comparable(lines):
    """A report with each exception message cut to its type.

    The page's Python (3.14) may word an exception differently from the
    Python running the CLI; everything else must match exactly.
    """
    return [ERROR.sub(r"\1: ... ", line) for line in lines]


def verdicts(lines):
    return [line[2:6] for line in lines if line.startswith(("  PASS  ", "  FAIL  "))]


# --- Graded as the CLI grades it ------------------------------------------------

# Replaces the lesson's own softmax with its own (wrong) answer.
PATCHES_LESSON = ("import lesson\n\n"
                  "def softmax(x, axis=-1):\n"
                  "    return [0.5] * len(x)\n\n"
                  "lesson.softmax = softmax          # now the 'expected' answers agree\n")

# Prints while loading and inside a check, to stdout, stderr and the real stdout.
PRINTS = ((SAMPLES / "correct_lists.py").read_text()
          + "\nimport sys\n"
          + "print('hello from the top of the file')\n"
          + "print('to the real stdout', file=sys.__stdout__)\n"
          + "_entropy = entropy\n"
          + "def entropy(w):\n"
          + "    print('entropy of', w, file=sys.stderr)\n"
          + "    return _entropy(w)\n")

# Sleeps at the top and in softmax, and asks entropy for a negative sleep: in
# the page time.sleep waits without spinning (harness.sleep_with), and still
# refuses what Python's own refuses.
SLEEPS = ((SAMPLES / "correct_lists.py").read_text()
          + "\nimport time\n"
          + "time.sleep(0.25)\n"
          + "_softmax = softmax\n"
          + "def softmax(x, axis=-1):\n"
          + "    time.sleep(0.01)\n"
          + "    return _softmax(x, axis)\n"
          + "def entropy(w):\n"
          + "    time.sleep(-1)\n")

CASES = {
    "correct_lists": ((SAMPLES / "correct_lists.py").read_text(), CHECKS),
    "starter": (STARTER, 0),
    "forgot_max": ((SAMPLES / "forgot_max.py").read_text(), None),
    "patches_math_exp": (PATCHES_EXP, None),
    "patches_lesson": (PATCHES_LESSON, 0),
    "prints": (PRINTS, CHECKS),
    "sleeps": (SLEEPS, CHECKS - 3),
}


@pytest.mark.parametrize("name", CASES)
def test_the_page_reports_what_the_cli_reports(runner, tmp_path, name):
    source, passed = CASES[name]
    page_lines, status, seconds = check_in_page(runner, source, key=(name != "starter"))
    runner.reports[source] = page_lines
    cli_lines = check_with_cli(tmp_path, source)
    print(f"\n{name}: checked in the page in {seconds:.2f} s "
          f"(Python ready {runner.load_seconds:.1f} s after the page opened)")
    assert comparable(untraced(page_lines)) == comparable(untraced(cli_lines))
    loaded = not any(line.startswith("None of the") for line in page_lines)
    assert len(verdicts(page_lines)) == (CHECKS if loaded else 0)     # not run: no verdicts
    closing = page_lines[-1]
    assert re.fullmatch(r"\d+ passed, \d+ failed", closing)
    assert closing in status                          # announced, not only shown
    if passed is not None:
        assert closing == f"{passed} passed, {CHECKS - passed} failed"
    assert runner.errors == []


def test_the_page_draws_the_terminals_steps_folded_under_the_check(runner, tmp_path):
    """A learner who divided by the scores' sum: the page shows the terminal's
    report, steps and all, word for word; the steps are folded under the line
    that says where the values leave the lesson's, and each step's "line N"
    takes the keys to that line of the editor."""
    source = (ROOT / "tests" / "traced" / "softmax_sum_of_scores.py").read_text()
    page_lines = report_of(runner, source)
    assert page_lines == check_with_cli(tmp_path, source)          # the steps too
    assert any(line.startswith("        differs:  line 13: total = sum(x)")
               for line in page_lines), page_lines
    page = runner.page
    block = page.locator(".lr-report details.lr-trace").first
    assert page.locator(".lr-report details.lr-trace").count() == 1
    assert block.get_attribute("open") is None                      # folded at first
    assert not page.is_visible(".lr-report details.lr-trace .lr-step")
    block.locator("summary").click()
    marked = block.locator(".lr-step", has_text="> line 13")
    assert marked.is_visible() and 13 in runner.page.evaluate(
        "() => lessonRunner.runners[0].editor.marked()")
    block.locator(".lr-step", has_text="line 11").first.click()
    caret = page.evaluate("""() => { const view = lessonRunner.runners[0].editor.view;
        return view.hasFocus && view.state.doc.lineAt(view.state.selection.main.head).number; }""")
    assert caret == 11
    assert runner.errors == []


def test_forgetting_the_maximum_fails_on_large_scores(runner):
    lines = report_of(runner, CASES["forgot_max"][0])
    text = "\n".join(lines)
    large = lines.index("  FAIL  large scores")
    assert "softmax([1000, 1000])" in lines[large + 1]
    assert "subtract the row maximum" in text
    assert verdicts(lines)[0] == "PASS"               # right on the lesson's small scores


def test_patching_math_exp_cannot_change_the_expected_answers(runner):
    lines = report_of(runner, PATCHES_EXP)
    first = lines.index("  FAIL  lesson's first weight")
    assert lines[first + 2].split() == ["expected:", "[0.670,", "0.330]"]   # the lesson's own
    assert lines[first + 3].split() == ["got:", "[0.500,", "0.500]"]         # exp patched to 1


def test_a_check_that_never_returns_is_stopped_then_the_next_run_works(runner, tmp_path):
    source = (SAMPLES / "never_returns.py").read_text()
    lines, status, seconds = check_in_page(runner, source, key=False)
    stopped = runner.page.evaluate("() => lessonRunner.runners[0].timings.stopped")
    print(f"\nnever_returns: the call was stopped after {stopped[-1]:.2f} s "
          f"(time limit {TIME_LIMIT:g} s); the report came {seconds:.2f} s after Run")
    assert TIME_LIMIT <= stopped[-1] <= TIME_LIMIT + 2     # a timer, give or take a busy machine
    assert comparable(untraced(lines)) == comparable(untraced(check_with_cli(tmp_path, source)))
    assert any("never returned" in line for line in lines)
    assert lines[-1] in status
    lines, _, seconds = check_in_page(runner, CASES["correct_lists"][0])
    assert lines[-1] == f"{CHECKS} passed, 0 failed"


# Time-outs at the short limit (?time-limit=0.5 in the page, --time-limit 0.5 for
# the CLI): 0.5 s a check, 5 s to load, 6.5 s for the whole file.  These files
# sleep where a learner's would spin: the limits go by the clock, so the plan
# is the same, and the page and the CLI leave the cores to the other tests
# (a spinning check is stopped in the page by the test before, never_returns.py).
BUSY = "import time\ntime.sleep({seconds})\n"
HANGS = "\ndef {name}(*args, **kwargs):\n    import time\n    time.sleep(3600)\n"
TIMEOUT_CASES = {
    # Loading never ends: stopped at the 5 s load limit; no check runs.
    "hangs_at_load": "import time\ntime.sleep(3600)\n",
    # Loads in 2 s; softmax hangs (2.5 s used); loads again (4.5 s); naive_softmax
    # hangs (5 s); the third load has the 1.5 s left of the file's 6.5 s, and is
    # cut off by the budget: the file did not load again, so the rest is not run.
    "does_not_load_again": (BUSY.format(seconds=2.0) + HANGS.format(name="softmax")
                            + HANGS.format(name="naive_softmax")),
}


def test_time_outs_and_the_files_budget_as_the_cli_reports_them(runner, tmp_path):
    """The page and the terminal follow one plan: the same report for a file that
    hangs while loading, and for one whose budget runs out so that it does not
    load again after a hang."""
    with concurrent.futures.ThreadPoolExecutor() as pool:     # the CLI meanwhile
        cli = {name: pool.submit(check_with_cli, tmp_path / name, source)
               for name, source in TIMEOUT_CASES.items() if (tmp_path / name).mkdir() is None}
        for name, source in TIMEOUT_CASES.items():
            lines, status, seconds = check_in_page(runner, source)
            print(f"\n{name}: the page's report came {seconds:.2f} s after Run")
            assert comparable(lines) == comparable(cli[name].result()), name
            text = "\n".join(lines)
            if name == "hangs_at_load":
                assert "did not finish loading within 5 s" in text
                assert lines[-1] == f"0 passed, {CHECKS} failed"
            else:
                assert "never returned: stopped after 0.5 s" in text
                assert "not run: the file did not load again" in text
                assert "not run: softmax() did not return" in text


def test_what_the_code_prints_is_shown_with_its_check(runner):
    lines = report_of(runner, PRINTS)
    printed = lines.index("While loading, your file printed:")
    assert lines[printed + 1:printed + 3] == ["printed:  hello from the top of the file",
                                              "          to the real stdout"]
    one_hot = lines.index("  PASS  one-hot is 0")
    assert lines[one_hot + 1] == "        stderr:   entropy of [1.0, 0.0, 0.0]"
    assert lines[-1] == f"{CHECKS} passed, 0 failed"


def test_a_flood_on_stderr_does_not_hide_what_stdout_printed(runner):
    """A call that never returns is shown by what it printed as it ran, and each
    stream has its own allowance: 5,000 characters on stderr (more than the page
    keeps) must not hide the line on stdout that follows them."""
    flood = ((SAMPLES / "correct_lists.py").read_text()
             + "\nimport sys\n"
             + "def entropy(w):\n"
             + "    sys.stderr.write('x' * 5000 + '\\n')\n"
             + "    sys.stderr.flush()\n"
             + "    print('after the flood', flush=True)\n"
             + "    while True:\n"
             + "        pass\n")
    lines = report_of(runner, flood)
    hung = lines.index("  FAIL  one-hot is 0")
    shown = lines[hung:hung + 12]
    assert any("after the flood" in line for line in shown), shown
    assert lines[-1] == f"{CHECKS - 3} passed, 3 failed"


# --- The editor ------------------------------------------------------------------

def test_the_editor_keeps_the_text_and_resets_to_the_starter(browser, site, serve):
    """The learner's text survives a reload, and Reset brings back the starter,
    which a reload keeps too; Ctrl+Z undoes the Reset.  Neither needs Python
    (runner.js keeps the text in localStorage and Reset edits the text), so this
    page's interpreter answers 404 and never starts: the shared page, where
    Python is ready, is not reloaded."""
    view = View(browser, serve(site) + "exercises.html", missing="**/runner/pyodide/**")
    page = view.page
    assert page.locator(".lr-editor").count() == 1 and page.is_hidden(".lr-code")
    assert text_of(page) == STARTER
    focus_editor(page)
    page.keyboard.press("Control+End")
    page.keyboard.type("\nx = 1")
    page.reload()
    assert text_of(page) == STARTER + "\nx = 1"
    page.click(".lr-reset")
    assert text_of(page) == STARTER
    page.keyboard.press("Control+z")                   # Reset is one undoable step
    assert text_of(page) == STARTER + "\nx = 1"
    page.click(".lr-reset")
    page.reload()
    assert text_of(page) == STARTER
    assert view.outside == []
    view.close()


def test_typing_python_indents_as_python_does(runner):
    """Enter keeps the indent and deepens it after a colon, Backspace removes one
    level, Tab and Shift+Tab indent and dedent the line, Ctrl+Z undoes."""
    page = runner.page
    set_text(page, "")
    focus_editor(page)
    for keys in ["def entropy(w):", "Enter", "total = 0", "Enter", "for p in w:", "Enter",
                 "total -= p", "Enter", "Backspace", "return total"]:
        page.keyboard.press(keys) if keys in ("Enter", "Backspace") else page.keyboard.type(keys)
    assert text_of(page) == ("def entropy(w):\n    total = 0\n    for p in w:\n"
                             "        total -= p\n    return total")
    page.keyboard.press("Tab")
    assert text_of(page).endswith("\n        return total")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert text_of(page).endswith("\nreturn total")
    page.keyboard.press("Control+z")
    assert text_of(page).endswith("\n    return total")
    page.click(".lr-reset")


def test_escape_then_tab_leaves_the_editor_and_tab_alone_does_not(runner):
    page = runner.page
    active = "() => document.activeElement.className"
    set_text(page, "x = 1")
    focus_editor(page)
    page.keyboard.press("Tab")
    assert "cm-content" in page.evaluate(active) and text_of(page) == "    x = 1"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate(active).startswith("md-button")       # Run the checks
    assert text_of(page) == "    x = 1"
    assert "press Escape, then Tab" in page.inner_text(".lr-keys-editor")
    assert page.is_hidden(".lr-keys-plain")
    page.click(".lr-reset")


def test_the_editor_highlights_python_and_matches_brackets(runner):
    page = runner.page
    set_text(page, "def f(x):\n    return (x + 1)\n")
    keyword = page.wait_for_function("""() => [...document.querySelectorAll('.lr-editor .cm-line span')]
        .filter(s => s.textContent === 'def').map(s => getComputedStyle(s).color)[0]""",
        polling=100).json_value()
    site_keyword = page.evaluate("""() => { const s = document.createElement('span');
        s.style.color = 'var(--md-code-hl-keyword-color)'; document.body.append(s);
        const c = getComputedStyle(s).color; s.remove(); return c; }""")
    assert keyword == site_keyword != page.evaluate("() => getComputedStyle(document.body).color")
    focus_editor(page)
    page.keyboard.press("Control+End")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("End")                          # just after the closing bracket
    page.wait_for_selector(".lr-editor .cm-matchingBracket")
    assert page.locator(".lr-editor .cm-matchingBracket").all_inner_texts() == ["(", ")"]
    page.click(".lr-reset")


def test_the_line_a_report_names_is_marked(runner):
    """The lines the checker found are marked; a line number the file printed is not."""
    source = CASES["forgot_max"][0] + "\nprint('see your line 5, or on line 4')\n"
    lines = report_of(runner, source)
    named = sorted({int(n) for line in lines if line.lstrip().startswith("got:")
                    for n in re.findall(r"\byour line (\d+)", line)})
    assert named, "the report names no line of the file"
    assert any("your line 5" in line for line in lines) and not {4, 5} & set(named)
    set_text(runner.page, "x = 1")
    assert runner.page.evaluate("() => lessonRunner.runners[0].editor.marked()") == []
    check_in_page(runner, source)
    assert runner.page.evaluate("() => lessonRunner.runners[0].editor.marked()") == named
    marked = runner.page.locator(".lr-editor .lr-marked").all_inner_texts()
    assert marked == [source.splitlines()[n - 1] for n in named]
    # The site's addresses the report names are links, and only those.
    links = runner.page.eval_on_selector_all(
        ".lr-report a", "links => links.map(a => [a.textContent, a.getAttribute('href')])")
    assert links == [["In code \u203a softmax(x, axis=-1)", "in-code.html#softmax"],
                     ["Exercises \u203a A solution", "exercises.html#a-solution"]]


# Every word of the reports on the page that fits in a row: the ones drawn on
# more than one row (broken inside), and each value's left edge and width
# against its label's and the report's.
BROKEN_WORDS = """selector => {
    const broken = [];
    for (const line of document.querySelectorAll(selector)) {
        if (!line.getClientRects().length) continue;
        const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let node; (node = walk.nextNode());) {
            for (const word of node.textContent.matchAll(/\\S+/g)) {
                if (word[0].length > 30) continue;          // wider than a phone's row
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const rows = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (rows.size > 1) broken.push(word[0]);
            }
        }
    }
    return broken;
}"""
VALUES = """() => {
    const code = document.querySelector('.lr-report code');
    const style = getComputedStyle(code);
    const inside = code.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const shown = [...document.querySelectorAll('.lr-report .lesson-report-value')]
        .filter(value => value.getClientRects().length);       // not in a folded trace
    return shown.map(value => {
        const head = [...value.parentNode.childNodes].find(n => n !== value && n.textContent.trim());
        let l = head.nodeType === Node.ELEMENT_NODE ? head.getBoundingClientRect() : null;
        if (!l) {
            const label = document.createRange();
            label.setStart(head, head.textContent.search(/\\S/));
            label.setEnd(head, head.textContent.length);
            l = label.getBoundingClientRect();
        }
        const v = value.getBoundingClientRect();
        return {value: value.textContent.slice(0, 30), under: v.top >= l.bottom - 1,
                indented: v.left + parseFloat(getComputedStyle(value).paddingLeft) > l.left,
                width: v.width / inside};
    });
}"""


def test_on_a_phone_a_value_goes_under_its_label_and_no_word_breaks(runner):
    page = runner.page
    source = CASES["forgot_max"][0]
    if page.text_content(".lr-report") != "\n".join(report_of(runner, source)) + "\n":
        check_in_page(runner, source)                   # not already shown (the test before)
    page.set_viewport_size({"width": 390, "height": 900})
    try:
        values = page.evaluate(VALUES)
        assert len(values) > 4
        for value in values:
            assert value["under"] and value["indented"] and value["width"] > 0.95, value
        assert page.evaluate(BROKEN_WORDS, ".lr-report code > span") == []
        # The site's own reports, in the page's tabs: no word broken either.
        assert page.evaluate(BROKEN_WORDS, ".lesson-report .lesson-report-line") == []
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    values = page.evaluate(VALUES)                      # wide: each value beside its label
    assert len(values) > 4
    assert not any(value["under"] for value in values)


def test_the_solution_is_behind_a_reveal_and_passes_in_the_page(runner):
    """The Exercises page's whole solution: closed until asked for, then pasted
    into the editor it passes every check."""
    page = runner.page
    reveal = page.locator("#a-solution ~ details").first
    assert reveal.get_attribute("open") is None and not reveal.locator("pre").is_visible()
    reveal.locator("summary").click()
    shown = reveal.locator("pre").inner_text()
    solution = (ROOT / "docs" / "assets" / "solution" / FILENAME).read_text()
    assert shown.strip() == solution.strip()
    lines, status, _ = check_in_page(runner, solution)
    assert lines[-1] == f"{CHECKS} passed, 0 failed" and lines[-1] in status
    reveal.locator("summary").click()


def test_while_python_starts_the_page_says_so(runner):
    state, progress, status = runner.first_words
    assert state == "starting" and progress
    assert status.startswith("Starting Python in the page") and " MB " in status
    assert not runner.page.is_visible(".lr-progress")        # gone once it is ready


def test_the_result_is_announced_and_the_controls_are_labelled(runner):
    page = runner.page
    status = page.locator(".lr-status")
    assert status.get_attribute("role") == "status"
    assert status.get_attribute("aria-live") == "polite"
    label = page.inner_text("label#lesson-runner-label")
    # The editor screen readers meet: CodeMirror's textbox, named by the label,
    # described by the help above it and the keys under it.
    box = page.get_by_role("textbox", name=label)
    assert box.count() == 1 and "cm-content" in box.get_attribute("class")
    described = box.get_attribute("aria-describedby").split()
    assert [page.locator(f"#{id}").is_visible() for id in described] == [True, True]
    assert page.locator(".lr-run").inner_text() == "Run the checks"


# --- Where Python cannot run -------------------------------------------------------

def test_from_disk_the_page_says_how_to_check(browser, built_site):
    view = View(browser, (built_site / "exercises.html").as_uri())
    view.page.wait_for_function("() => document.querySelector('.lesson-runner').dataset.state === 'disk'")
    status = view.status()
    assert "python3 -m http.server -d site" in status
    assert f"softmax-lesson check {FILENAME}" in status
    assert view.page.is_disabled(".lr-run")
    assert text_of(view.page) == STARTER
    assert view.errors == []
    assert any(url.endswith(".css") for url in view.requests), view.requests   # recorded
    assert all(url.startswith("file:") for url in view.requests), view.requests
    view.close()


def test_a_snapshot_the_browser_cannot_load_means_starting_afresh(browser, site, serve):
    """Each learner's Python starts from the judge's snapshot (worker.js).  Where a
    browser cannot load one, the learner starts afresh: slower, graded the same.
    Here runner.js hands each learner 1,000 bytes that are no snapshot."""
    script = (site / "assets" / "runner" / "runner.js").read_text(encoding="utf-8")
    handed = "start.snapshot = snapshot;"
    assert script.count(handed) == 1
    corrupt = script.replace(handed, "start.snapshot = new Uint8Array(1000);")
    view = View(browser, serve(site) + f"exercises.html?seed={SEED}&time-limit={TIME_LIMIT:g}",
                served={"**/runner/runner.js": corrupt})
    view.page.wait_for_function(
        "() => document.querySelector('.lesson-runner').dataset.state === 'ready'",
        timeout=90_000)
    lines, status, _ = check_in_page(view, CASES["correct_lists"][0])
    assert lines[-1] == f"{CHECKS} passed, 0 failed" and lines[-1] in status
    starts = view.page.evaluate("() => lessonRunner.runners[0].timings.starts")
    assert starts and not any(start["snapshot"] for start in starts), starts
    print(f"\nwith no snapshot to start from, a learner's Python started in "
          f"{starts[0]['seconds']:.1f} s")
    assert view.errors == [] and view.outside == []
    view.close()


def test_after_the_judge_every_learner_starts_from_its_snapshot(runner):
    """The shared page has made runs by now: each of its learners' Pythons
    started from the judge's snapshot, the first included (started once the
    judge was ready)."""
    report_of(runner, CASES["correct_lists"][0])           # two runs at least: two learners
    check_in_page(runner, CASES["correct_lists"][0])
    starts = runner.page.evaluate("() => lessonRunner.runners[0].timings.starts")
    assert len(starts) >= 2 and all(start["snapshot"] for start in starts), starts
    seconds = sorted(start["seconds"] for start in starts)
    print(f"\n{len(starts)} learners' Pythons started from the snapshot, in "
          f"{seconds[len(seconds) // 2]:.2f} s (the median)")


def test_when_python_cannot_start_the_page_says_so_within_seconds(browser, site, serve):
    view = View(browser, serve(site) + "exercises.html", missing="**/pyodide.asm.wasm")
    view.page.wait_for_function("() => document.querySelector('.lesson-runner').dataset.state === 'failed'",
                                timeout=30_000)
    seconds = time.perf_counter() - view.opened
    print(f"\nno interpreter on the server: the page said so after {seconds:.1f} s")
    assert seconds < 20
    assert "could not start" in view.status()
    assert f"softmax-lesson check {FILENAME}" in view.status()
    assert view.page.is_disabled(".lr-run")
    view.close()


def test_built_without_npm_ci_the_site_builds_and_the_editor_says_so(browser, serve,
                                                                    built_without_runtime):
    result, built = built_without_runtime.result(timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not (built / "assets" / "runner" / "pyodide").exists()
    view = View(browser, serve(built) + "exercises.html")
    view.page.wait_for_function(
        "() => document.querySelector('.lesson-runner').dataset.state === 'unavailable'")
    status = view.status()
    assert "not bundled in this build" in status
    assert f"softmax-lesson check {FILENAME}" in status
    # No CodeMirror either: the textarea, where Enter keeps the indent and Tab leaves.
    page = view.page
    assert not (built / "assets" / "runner" / "editor.bundle.js").exists()
    assert page.locator(".lr-editor").count() == 0 and page.input_value(".lr-code") == STARTER
    assert page.is_visible(".lr-keys-plain") and page.locator(".lr-keys-editor").count() == 0
    page.fill(".lr-code", "")
    page.focus(".lr-code")
    page.keyboard.type("def entropy(w):")
    page.keyboard.press("Enter")
    page.keyboard.type("return 0")
    assert page.input_value(".lr-code") == "def entropy(w):\n    return 0"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className").startswith("md-button")
    assert view.errors == [] and view.outside == []
    view.close()


def test_without_javascript_the_starter_is_in_a_textarea(browser, site, serve):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(serve(site) + "exercises.html")
    assert page.is_visible("textarea.lr-code") and page.input_value(".lr-code") == STARTER
    assert page.is_visible(".lr-keys-plain") and page.is_hidden(".lr-keys-editor")
    assert "Checking in the page needs JavaScript" in page.inner_text(".lr-status")
    context.close()


def test_bytes_the_runtime_adds_to_the_site(site):
    """A figure, not a bound: what the editor costs the site, raw and gzipped."""
    files = [path for path in (site / "assets" / "runner").rglob("*") if path.is_file()]
    sizes = {path.name: path.stat().st_size for path in files}
    blobs = [path.read_bytes() for path in files]
    page = (site / "exercises.html").read_text(encoding="utf-8")
    blobs.append(re.search(r'<script type="application/json" class="lr-lesson">(.*?)</script>',
                           page, re.S).group(1).encode())       # the lesson's modules
    raw, gzipped = sum(map(len, blobs)), sum(len(gzip.compress(b, 6)) for b in blobs)
    print(f"\nthe editor adds {raw:,} bytes to the site, {gzipped:,} gzipped "
          f"({sizes['pyodide.asm.wasm']:,} raw are the interpreter, "
          f"{sizes['python_stdlib.zip']:,} the standard library, {len(blobs[-1]):,} "
          f"the lesson's modules in the page)")
    code_editor = (site / "assets" / "runner" / "editor.bundle.js").read_bytes()
    print(f"the code editor (CodeMirror, editor.bundle.js) is {len(code_editor):,} bytes of "
          f"them, {len(gzip.compress(code_editor, 6)):,} gzipped")
    assert set(sizes) >= {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                          "python_stdlib.zip", "pyodide-lock.json", "runner.js", "worker.js",
                          "runner.css", "editor.bundle.js"}
    assert b"fetch(" not in code_editor and b"import(" not in code_editor   # nothing loaded later
    shipped = json.loads(blobs[-1])["modules"]
    assert "class Plan:" in shipped["grader/plan.py"] and "def call(" in shipped["grader/harness.py"]
    for runs_only_in_a_terminal in ("cli.py", "bench.py", "speed.py", "grader/process.py"):
        assert runs_only_in_a_terminal not in shipped


def test_the_page_names_each_typical_mistake_as_the_terminal_does(runner, tmp_path):
    """The editor runs the same grader: typical mistakes (tests/mistakes/, one for
    three of the functions; tests/test_mistakes.py grades all of them in the
    terminal, and reads the names each hint names) are caught in the page, with
    the hints the terminal gives, word for word.  In each, only the code tells
    the mistake from another alike in answers (lesson/grader/reading.py), so
    the page must read the editor's text as the terminal reads the file.
    Each run in the page starts a fresh Python (from the judge's snapshot) and
    grades the file: about a second of CPU each, so three, one a function."""
    MISTAKES = ROOT / "tests" / "mistakes"
    began = time.perf_counter()
    chosen = ("softmax_minus_mean", "naive_falls_back", "rows_no_abs")
    for name in chosen:
        source = (MISTAKES / f"{name}.py").read_text()
        lines = report_of(runner, source)
        assert not lines[-1].endswith(" 0 failed"), (name, lines[-1])
        assert any(line.lstrip().startswith("hint:") for line in lines), (name, lines)
        assert comparable(untraced(lines)) == comparable(
            untraced(check_with_cli(tmp_path, source))), name
    print(f"\n{len(chosen)} mistakes checked in the page in "
          f"{time.perf_counter() - began:.1f} s")


# --- NumPy, from the package CDN, only when the learner asks ---------------------
#
# A local server stands in for Pyodide's package CDN: the built page, copied,
# names it instead (data-package-cdn, pyodide_assets.PACKAGE_CDN's one use).
# It serves a stand-in NumPy: a real wheel, of the name the lock gives, whose
# numpy module is a few lines of Python.  With the shipped lock, whose sha256
# is real NumPy's, the browser must refuse it (the integrity check is the
# lock's); with a lock naming the stand-in's sha256, it loads, and the page
# grades a file that imports it.

NUMPY_SOLUTION = ("import numpy as np\n"
                  "assert np.STAND_IN or np.__version__\n\n"
                  + (SAMPLES / "correct_lists.py").read_text())


def stand_in_numpy(file_name):
    """The stand-in wheel's bytes: numpy/__init__.py and its metadata."""
    import base64
    import hashlib
    import io
    import zipfile
    version = file_name.split("-")[1]
    info = f"numpy-{version}.dist-info"
    files = {"numpy/__init__.py": f'"""A stand-in for the tests."""\nSTAND_IN = True\n'
                                  f'__version__ = "{version}"\nfrom math import exp, log\n',
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: numpy\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: false\n"
                              "Tag: cp314-cp314-pyemscripten_2026_0_wasm32\n"}
    record = "".join(
        f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()},{len(text.encode())}\n"
        for name, text in files.items()) + f"{info}/RECORD,,\n"
    files[f"{info}/RECORD"] = record
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


class Cdn(http.server.BaseHTTPRequestHandler):
    """The package CDN's stand-in: each request recorded; "fail" answers 503,
    "serve" the stand-in wheel (with the CORS header the real CDN sends)."""

    state = None                        # {"mode", "wheel", "requests"}, set per server

    def do_GET(self):
        self.state["requests"].append(self.path)
        if self.state["mode"] == "fail":
            self.send_response(503)
            self.send_header("Access-Control-Allow-Origin", "*")
            self.end_headers()
            return
        body = self.state["wheel"]
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def cdn():
    """A stand-in package CDN on 127.0.0.1; its state says what it answers."""
    from lesson_docs import pyodide_assets
    package = pyodide_assets.offered_package(ROOT / pyodide_assets.RUNTIME_IN_PROJECT)
    if package is None:
        skip_or_fail("the site was built without Pyodide: run `npm ci` first")
    state = {"mode": "fail", "wheel": stand_in_numpy(package["file"]), "requests": [],
             "package": package}
    handler = type("CdnHere", (Cdn,), {"state": state})
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    state["url"] = f"http://127.0.0.1:{server.server_port}/pyodide/"
    yield state
    server.shutdown()
    server.server_close()


def site_with_cdn(site, folder, cdn, lock_sha256=None):
    """A copy of the built site (links to its files) whose Exercises page names
    the stand-in CDN, and whose lock, if asked, names the stand-in's sha256."""
    import hashlib
    import os
    shutil.copytree(site, folder, copy_function=os.symlink)
    page = folder / "exercises.html"
    markup = page.read_text(encoding="utf-8")
    shipped = re.search(r'data-package-cdn="([^"]+)"', markup).group(1)
    page.unlink()
    page.write_text(markup.replace(shipped, cdn["url"]), encoding="utf-8")
    if lock_sha256:
        lock = folder / "assets" / "runner" / "pyodide" / "pyodide-lock.json"
        data = json.loads(lock.read_text(encoding="utf-8"))
        data["packages"]["numpy"]["sha256"] = hashlib.sha256(cdn["wheel"]).hexdigest()
        lock.unlink()
        lock.write_text(json.dumps(data), encoding="utf-8")
    return shipped


def ready_view(browser, url):
    view = View(browser, url)
    view.page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.querySelector('.lesson-runner').dataset.state)",
        timeout=90_000)
    assert view.state() == "ready", view.status()
    return view


def ask_to_check(view, source):
    set_text(view.page, source)
    focus_editor(view.page)
    view.page.keyboard.press("Control+Enter")


def test_numpy_is_offered_fetched_only_on_the_click_and_a_failure_recovers(
        browser, site, serve, cdn, tmp_path):
    """With the shipped lock: a file that imports NumPy gets an offer, not a
    report, and nothing is fetched; a click asks the CDN for the lock's file;
    a failed request, then a file whose sha256 is not the lock's, are each
    said in one line with the terminal's command; the editor goes on working;
    offline, the page says so and fetches nothing."""
    from lesson_docs import pyodide_assets
    shipped = site_with_cdn(site, tmp_path / "site", cdn)
    assert shipped == pyodide_assets.PACKAGE_CDN.format(
        version=pyodide_assets.runtime_version(site / "assets" / "runner" / "pyodide"))
    package, command = cdn["package"], f"softmax-lesson check {FILENAME}"
    cdn["requests"].clear()
    view = ready_view(browser, serve(tmp_path / "site") + f"exercises.html?seed={SEED}")
    page = view.page
    fetched = lambda: [u for u in view.requests if u.startswith(cdn["url"])]   # noqa: E731
    # 1. The offer: one button, its size; no report, no request.
    ask_to_check(view, NUMPY_SOLUTION)
    page.wait_for_selector(".lr-offer:not([hidden])")
    assert page.inner_text(".lr-load") == f"Load NumPy {package['version']} ({package['size']})"
    assert "imports NumPy" in view.status() and command in view.status()
    assert page.is_hidden(".lr-report") and cdn["requests"] == [] and fetched() == []
    offered = view.status()
    # 2. The click; the request fails (503): one line, the command, a second chance.
    page.click(".lr-load")
    page.wait_for_function("() => /could not be loaded/.test(document.querySelector('.lr-status').textContent)",
                           timeout=60_000)
    assert cdn["requests"] and set(cdn["requests"]) == {f"/pyodide/{package['file']}"}
    assert fetched() and set(fetched()) == {cdn["url"] + package["file"]}     # seen by the page
    assert command in view.status() and "\n" not in view.status().strip()
    assert page.inner_text(".lr-load").startswith("Try again")
    failed = view.status()
    # 3. Served, but not the file the lock names (its sha256 differs): refused.
    cdn["mode"], asked = "serve", len(cdn["requests"])
    page.click(".lr-load")
    page.wait_for_function(
        "n => /could not be loaded/.test(document.querySelector('.lr-status').textContent)"
        " && !document.querySelector('.lr-offer').hidden", arg=None, timeout=60_000)
    assert len(cdn["requests"]) > asked                  # it was fetched, then refused
    print(f"\nthe offer: {offered!r}\nthe request failed: {failed!r}\n"
          f"a file that is not the lock's: {view.status()!r}")
    # 4. The editor still checks a file without NumPy, in the page.
    cdn["mode"] = "fail"
    lines, status, _ = check_in_page(view, CASES["correct_lists"][0])
    assert lines[-1] == f"{CHECKS} passed, 0 failed" and page.is_hidden(".lr-offer")
    # 5. Offline: said in one line, with the command; no button, no request.
    asked = len(cdn["requests"])
    view.context.set_offline(True)
    ask_to_check(view, NUMPY_SOLUTION)
    page.wait_for_function("() => /offline/.test(document.querySelector('.lr-status').textContent)")
    assert command in view.status() and page.is_hidden(".lr-offer")
    print(f"offline: {view.status()!r}")
    view.context.set_offline(False)
    assert len(cdn["requests"]) == asked
    assert view.outside == []
    view.close()


def test_numpy_loaded_on_the_click_is_graded_in_the_page(browser, site, serve, cdn, tmp_path):
    """A lock that names the stand-in's sha256: after the click the file that
    imports NumPy is checked in the page, as the terminal checks it, and the
    next run needs no click."""
    site_with_cdn(site, tmp_path / "site", cdn, lock_sha256=True)
    cdn["mode"] = "serve"
    cdn["requests"].clear()
    view = ready_view(browser, serve(tmp_path / "site") + f"exercises.html?seed={SEED}")
    page = view.page
    runs = page.evaluate("() => lessonRunner.runners[0].timings.runs.length")
    ask_to_check(view, NUMPY_SOLUTION)
    page.wait_for_selector(".lr-offer:not([hidden])")
    assert cdn["requests"] == []
    page.click(".lr-load")
    page.wait_for_function("n => lessonRunner.runners[0].timings.runs.length > n", arg=runs,
                           timeout=120_000)
    lines = page.text_content(".lr-report").rstrip("\n").split("\n")
    assert lines[-1] == f"{CHECKS} passed, 0 failed", lines
    print(f"\nafter the click: {view.status()!r}")
    assert set(cdn["requests"]) == {f"/pyodide/{cdn['package']['file']}"}
    lines, status, _ = check_in_page(view, NUMPY_SOLUTION)           # no offer this time
    assert lines[-1] == f"{CHECKS} passed, 0 failed" and page.is_hidden(".lr-offer")
    assert view.outside == []
    view.close()
