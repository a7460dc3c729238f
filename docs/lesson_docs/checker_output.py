"""The checker on the Exercises page: real runs on the samples, and its rules in words.

    {{ checker SAMPLE [FUNCTION ...] }}     the checker's report on a sample
    {{ checker_json SAMPLE CHECK }}         its --json result, cut to one check
    {{ checks_table }}                      every check: its call, and what passes
    {{ time_limits }}                       the checker's time limits, in words
    {{ threat_model }}                      each mode of confinement: what it protects,
                                            and what it cannot

A sample is ``starter`` (the file ``softmax-lesson starter`` writes) or a
learner's file in ``samples/`` beside this module: exactly the files the
pages show, graded as ``softmax_exercise.py`` in a scratch folder, as a
learner would run it.  The tests grade the same files (tests/conftest.py).
"""

import base64
import concurrent.futures
import functools
import hashlib
import html
import json
import os
import pathlib
import re
import shutil
import tempfile

import lesson
from lesson.grader import contract, judge, process, report
from lesson.grader.sandbox import THREAT_MODEL

from . import build_cache
from .markdown_text import markdown_table
from .pyodide_assets import CHECK_COMMAND

# The fresh inputs of the reports a page shows, drawn from one seed: the same
# page on every build (a learner's own runs draw a new seed each time).
SEED = 1

SAMPLES = pathlib.Path(__file__).resolve().parent / "samples"


class Grading:
    """The checker's runs on the samples, shared by every page of one build.

    A sample that never returns costs the checker its time limit.  So the
    first page that asks for a run starts one for every sample, in the
    background, while the other pages are built; a sample is graded again
    only if it or the lesson changed (as under `mkdocs serve`).  Nothing
    starts until a page asks.
    """

    def __init__(self, samples=SAMPLES, workers=4):
        self.samples, self.workers = pathlib.Path(samples), workers
        self._pool = None
        self._runs = {}

    def result(self, sample):
        """The checker's result for ``sample``, waiting for its run if need be."""
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.workers)
            for each in ["starter"] + sorted(p.stem for p in self.samples.glob("*.py")):
                self._run(each)
        return self._run(sample).result()

    def _run(self, sample):
        key = (sample, self._fingerprint(sample))
        if key not in self._runs:
            self._runs[key] = self._pool.submit(self._grade, sample)
        return self._runs[key]

    def _fingerprint(self, sample):
        files = [self.samples / f"{sample}.py"] if sample != "starter" else []
        files += sorted(pathlib.Path(lesson.__file__).parent.rglob("*.py"))
        return tuple(os.stat(f).st_mtime_ns for f in files)

    def _grade(self, sample):
        """The checker's result, kept for the next build of the same code and
        the same sample, wherever its folder is (build_cache)."""
        source = b"" if sample == "starter" else (self.samples / f"{sample}.py").read_bytes()
        name = f"checker {sample} {hashlib.sha256(source).hexdigest()}"
        return build_cache.kept(name, lambda: self._run_checker(sample))

    def _run_checker(self, sample):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "softmax_exercise.py")
            if sample == "starter":
                contract.write_starter(path)
            else:
                shutil.copy(self.samples / f"{sample}.py", path)
            return process.run(path, shown_as="softmax_exercise.py", seed=SEED)


@functools.lru_cache(maxsize=None)
def grading():
    """The build's one Grading, made when a page first shows the checker.

    MkDocs makes a new Markdown, and so a new extension, for every page; the
    runs outlive them all, so they are kept here, not on the extension.
    """
    return Grading()


def checker(sample, *keep):
    """Real checker output: ``starter`` (untouched) or a sample.

    ``keep`` names functions to show (default: all); the others are summed
    up in a line each.  The report's lines are not wrapped by the checker:
    the page wraps each once, under its own text.
    """
    result = grading().result(sample)
    records = report.records(result, functions=keep or contract.FUNCTIONS)
    command = report.line(f"$ {CHECK_COMMAND}")
    return report_token(report_html([command] + records))


def checker_json(sample, name):
    """A real --json result for a sample file, with its checks cut to one."""
    result = grading().result(sample)
    entry = {k: v for k, v in result.items() if k not in ("load", "seconds")}
    entry["checks"] = [c for c in result["checks"] if c["name"] == name.replace("_", " ")]
    text = json.dumps({"checker": "lesson 4", "time_limit": contract.TIME_LIMIT,
                       "files": [entry]}, indent=2)
    return f"```json\n{text}\n```"


def checks_table():
    """The checks, as the checker runs them: name, call, and what passes.  A
    check whose input is drawn afresh on each run shows this build's draw."""
    rows = [("check, and the call it makes", "passes when it")]
    for check in contract.checks_for(SEED):
        fresh = "<br>(new numbers on every run)" if check.name in contract.FRESH else ""
        rows.append((f"{check.name}<br>`{check.call_text()}`{fresh}", judge.passes_when(check)))
    return markdown_table(rows, left=2)


def time_limits():
    """The checker's time limits, in words, from the code."""
    check, load, whole = contract.time_limits()
    return (f"A check that takes longer than **{check:g} seconds** is stopped and "
            f"reported as never returning (an endless loop, say); that function's "
            f"other checks are then not run, since it would only hang again, and the "
            f"other functions are still checked. Loading your file may take "
            f"{load:g} seconds (importing NumPy takes a moment), and a whole file at "
            f"most {whole:g}. `--time-limit SECONDS` changes the first; the other two "
            f"follow it.")


def threat_model():
    """Each mode a submission may be graded in, when, what it protects and
    what it cannot, from the grader's own words (``THREAT_MODEL``), as
    ``check --help`` says them."""
    out = []
    for mode, said in THREAT_MODEL.items():
        out += [f"**`{mode}`**: {said['title']}.", "", f"- *When:* {said['when']}.",
                f"- *Protects:* {said['protects']}.", f"- *Cannot:* {said['cannot']}.", ""]
    return "\n".join(out).rstrip()


def report_html(records):
    """A report's records as one block of terminal output; a long line wraps
    under its own text (``report.wrap_indent``).

    Each line is a span holding the line and its newline, as Pygments'
    `line_spans` makes them: lesson.css lays the spans out with a hanging
    indent, and the copy button copies exactly the lines.  A place of the
    site that a line names ("stuck? read In code › ...") links to it, as in
    the Exercises page's editor.
    """
    spans = []
    for record in records:
        indent = report.wrap_indent(record)
        spans.append(f'<span class="lesson-report-line" style="padding-left:{indent}ch;'
                     f'text-indent:-{indent}ch">{_linked(record)}\n</span>')
    return ('<div class="language-text highlight lesson-report"><pre><code>'
            + "".join(spans) + "</code></pre></div>")


def _linked(record):
    """A record's line as HTML: its text, each place it names a link."""
    text, at = record["text"], 0
    out = [html.escape(report.line_text(dict(record, text="")))]
    for start, end, address in record["links"]:
        out += [html.escape(text[at:start]),
                f'<a href="{html.escape(address)}">{html.escape(text[start:end])}</a>']
        at = end
    return "".join(out + [html.escape(text[at:])])


# --- A report waits as a token until the page is HTML -------------------------
#
# Python-Markdown wraps raw HTML inside a tab in a paragraph, so a report
# stands in the Markdown as a token that carries it, and becomes its HTML in
# the page's HTML (restore_reports, run by the lesson_markdown extension).
# Python-Markdown's own stash of raw HTML cannot serve: its markers are
# stripped by the whitespace preprocessor, which runs after the placeholders.
# The token holds the report itself (base64 has no character Markdown
# reads), so no page keeps a list of reports for another to find.

REPORT_TOKEN = re.compile(r"<p>lesson-report-([A-Za-z0-9+/=]+)</p>")


def report_token(markup):
    """A line of Markdown that restore_reports turns back into ``markup``.

    >>> restore_reports("<p>" + report_token("<b>a</b>") + "</p>")
    '<b>a</b>'
    """
    return "lesson-report-" + base64.b64encode(markup.encode("utf-8")).decode("ascii")


def restore_reports(text):
    """The page's HTML with each checker report token replaced by its report."""
    return REPORT_TOKEN.sub(lambda m: base64.b64decode(m.group(1)).decode("utf-8"), text)
