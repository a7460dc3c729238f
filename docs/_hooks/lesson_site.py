"""The lesson's placeholders: Markdown that :mod:`lesson` computes at build time.

A page writes ``{{ name arg arg }}`` alone on a line; :func:`expand` replaces
it with what ``PLACEHOLDERS[name](arg, arg)`` returns, indented like the
placeholder, so it can sit inside an admonition or a tab.  An unknown name
stops the build.  :mod:`lesson_docs.lesson_markdown` runs :func:`expand` on
every page, for MkDocs and for Zensical alike.

To add a placeholder: write a function that returns Markdown, and add it to
``PLACEHOLDERS`` at the bottom of this file.
"""

import concurrent.futures
import functools
import inspect
import json
import html
import math
import os
import pathlib
import re
import shutil
import tempfile

import lesson
from lesson import bench, example, exercise, figures, runner
from lesson.tables import fmt_list, table_rows

from . import lesson_quizzes, lesson_wheel, measure_speed
from .markdown_text import markdown_table

# A placeholder stands alone on its line: {{ name arg arg }}.  Its Markdown is
# indented like the placeholder, so it can sit inside an admonition or a tab.
PLACEHOLDER = re.compile(r"^([ \t]*)\{\{\s*(\w+)((?:[ \t]+[^\s}]+)*)\s*\}\}[ \t]*$", re.M)


# --- Placeholders -----------------------------------------------------------

def table(*scores):
    """The lesson's table for some scores (default: the lesson's own)."""
    scores = [float(s) for s in scores] or example.TABLE_SCORES
    rows, total = table_rows(scores)
    return (markdown_table(rows) + "\n\n"
            + f"Sum of the weights: **{total}**.\n"
            + "{ .lesson-table-caption }")


# The worked example's steps as math; lesson.example words them for a terminal.
STEP_MATH = {
    "dot scores": r"\(q \cdot K_j\) for each key \(j\)",
    "scaled scores": r"\(q \cdot K_j / \sqrt{d_k}\), with \(\sqrt{d_k} = \sqrt{%(d_k)d}\)",
    "weights": r"\(\operatorname{softmax}\) of the scaled scores",
    "output": r"\(\sum_j w_j V_j\): each value times its weight",
    "causal weights": r"mask \([0, -\infty]\) added before softmax",
    "causal output": r"only the first value is seen: \(w_1 V_1\)",
}


def worked_example():
    """The worked example's steps as a Markdown table, formulas set as math."""
    rows = [("step", "what happens", "result")]
    for number, (step, _, values) in enumerate(example.worked_example(), 1):
        rows.append((f"{number}. {step}", STEP_MATH[step] % {"d_k": len(example.q)},
                     f"`{fmt_list(values)}`"))
    return markdown_table(rows, left=2)


def api():
    """API reference: each public function's signature and docstring."""
    parts = []
    for name in lesson.__all__:
        function = getattr(lesson, name)
        module = function.__module__
        parts.append(f"## `{name}`\n\n```python\n{name}{signature(function)}\n```\n\n"
                     f"*Defined in `{module}`.*\n\n{docstring_markdown(inspect.getdoc(function))}")
    return "\n\n".join(parts)


def signature(function):
    """The signature as the source spells it: ``tol=1e-9``, not repr's ``1e-09``."""
    return re.sub(r"(?<=\de[-+])0(?=\d)", "", str(inspect.signature(function)))


def docstring_markdown(doc):
    """A docstring as Markdown: prose stays prose, doctest runs become pycon."""
    out, block = [], []
    for line in doc.splitlines() + [""]:
        if line.startswith(">>>") or (block and line.strip()):
            block.append(line)
            continue
        if block:
            out += ["```pycon", *block, "```", ""]
            block = []
        out.append(line)
    return "\n".join(out)


@functools.lru_cache(maxsize=None)
def _accuracy():
    corpus = bench.accuracy_corpus()
    return corpus, bench.accuracy(corpus, bench.softmax_methods(optional=False))


def accuracy():
    """The accuracy benchmark's summary, measured now."""
    corpus, report = _accuracy()
    rows = [("method", "largest error (ulp)", "mean error (ulp)", "rows it failed on")]
    for name, r in report.items():
        rows.append((f"`{name}`", f"{r['max']:.2f}", f"{r['mean']:.3f}", str(r["failed"])))
    weights = sum(len(row) for _, row in corpus)
    return (markdown_table(rows) + f"\n\n{len(corpus)} rows, {weights} weights, "
            f"measured when this page was built.\n{{ .lesson-table-caption }}")


def accuracy_by_spread():
    """Largest error by the spread of the scores, measured now."""
    _, report = _accuracy()
    rows = [("spread of the scores",) + tuple(f"`{name}`" for name in report)]
    for spread in bench.SPREADS:
        rows.append((f"{spread:g}",) + tuple(f"{r['by_spread'][spread]:.2f}"
                                             for r in report.values()))
    return markdown_table(rows)


def speed():
    """softmax per call at growing lengths, as measured by measure_speed.py.

    The figures are read from ``speed.json``, not timed during the build, so
    the page says the same at every build and says where they were taken.
    """
    measured = json.loads(measure_speed.FIGURES.read_text(encoding="utf-8"))
    names = list(measured["seconds_per_call"][0]["seconds"])
    # One method a row and one length a column, with the unit said once, so
    # five methods and four lengths fit a phone.
    lengths = measured["seconds_per_call"]
    rows = [("µs per call, by scores in the row",) + tuple(f"{row['scores']:,}" for row in lengths)]
    for name in names:
        rows.append((f"`{name}`",) + tuple(microseconds(row["seconds"][name]) for row in lengths))
    machine = measured["machine"]
    libraries = "".join(f", {name} {version}" for name, version in measured["libraries"].items())
    return (markdown_table(rows) + "\n\nTime per call in microseconds (µs), best of three. "
            f"Measured on {measured['taken'][:10]} on a {machine['cores']}-core "
            f"{machine['cpu']} ({machine['system']}, Python {machine['python']}{libraries}, "
            f"load average {machine['load_average']:.1f}) with `{measured['command']}`; "
            "your machine will differ, the proportions less so.\n"
            "{ .lesson-table-caption }")


def microseconds(seconds):
    """A time in µs with three significant figures: 4.05, 192, 48,700.

    >>> microseconds(4.049e-06), microseconds(0.000192), microseconds(0.04872)
    ('4.05', '192', '48,700')
    """
    value = float(f"{seconds * 1e6:.3g}")
    return f"{value:,.{max(0, 2 - math.floor(math.log10(value)))}f}"


def widget():
    """The score widget: the static table, which the widget's script makes live.

    Without JavaScript the reader sees the lesson's table as it is; with it,
    sliders for the same scores (the first exactly 1/sqrt(2)) replace it.
    """
    return (f'<div class="softmax-widget" markdown="1" {lesson_quizzes.widget_attributes()}>\n\n'
            f"{table()}\n\n</div>")


def figure(name):
    """A picture drawn by lesson.figures, with its caption."""
    if name == "bars":
        weights = [row[-1] for row in lesson.softmax_table(example.TABLE_SCORES)]
        svg = figures.weight_bars(weights, alt="Bar chart of the lesson's three weights: "
                                  + ", ".join(f"key {i} {w:.4f}" for i, w in enumerate(weights, 1)))
        caption = ("The lesson's three weights. The largest score takes the largest "
                   "share, but every key keeps some weight.")
    elif name == "worked":
        _, A = lesson.attention(example.q, example.K, example.V)
        svg = figures.heatmap([A], ["q"], ["key 1", "key 2"], alt=(
            f"Heatmap, one query by two keys: weights {A[0]:.2f} and {A[1]:.2f}"))
        caption = ("The worked example's weights: one row, one query, and the row "
                   "sums to 1.")
    elif name == "causal":
        A, M = example.causal_example()
        tokens = list(lesson_quizzes.TOKEN_WORDS)
        svg = figures.heatmap(figures.masked_weights(A, M), tokens, tokens, alt=(
            f"Heatmap of causal self-attention over the tokens {' '.join(tokens)!r}: the "
            f"upper triangle is masked; {tokens[0]!r} puts weight 1.00 on itself; every "
            "row sums to 1"))
        caption = (f"Causal attention over the tokens \u201c{' '.join(tokens)}\u201d: each "
                   "looks only at itself and the tokens before it. Hatched cells are masked "
                   "(\u2212\u221e before softmax, weight exactly 0); a faintly coloured "
                   "cell is a small weight, not a masked one. Each row sums to 1.")
    else:
        raise ValueError(f"unknown figure {name!r}")
    return f'<figure class="lesson-figure-box">{svg}<figcaption>{caption}</figcaption></figure>'


SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "exercise_samples"
PAGES = pathlib.Path(__file__).resolve().parents[1]
CHECKER_PLACEHOLDER = re.compile(r"\{\{\s*checker(?:_json)?\s+(\w+)")

# A sample that never returns costs the checker its time limit.  So every
# sample the pages show is graded once, in the background, from the moment
# the first page is built, while the other pages are built; a sample is graded
# again only if it or the lesson changed (as under `mkdocs serve`).
_GRADING = {}
_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=4)


def _fingerprint(sample):
    files = [SAMPLES / f"{sample}.py"] if sample != "starter" else []
    files += sorted(pathlib.Path(lesson.__file__).parent.glob("*.py"))
    return tuple(os.stat(f).st_mtime_ns for f in files)


def _grade(sample):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "softmax_exercise.py")
        if sample == "starter":
            exercise.write_starter(path)
        else:
            shutil.copy(SAMPLES / f"{sample}.py", path)
        return runner.run(path, shown_as="softmax_exercise.py")


@functools.lru_cache(maxsize=None)
def _shown_samples():
    """Every sample a page shows (a page added later is graded when it asks)."""
    return tuple(sample for page in sorted(PAGES.glob("*.md"))
                 for sample in CHECKER_PLACEHOLDER.findall(page.read_text(encoding="utf-8")))


def _grading(sample):
    """The checker's run on ``sample``, started in the background if not yet started."""
    key = (sample, _fingerprint(sample))
    if key not in _GRADING:
        _GRADING[key] = _POOL.submit(_grade, sample)
    return _GRADING[key]


def start_grading():
    """Start grading, in the background, every sample a page shows."""
    for sample in _shown_samples():
        _grading(sample)


def graded(sample):
    """The checker's result for ``sample`` (``starter`` or a file of the tests'
    samples), graded as ``softmax_exercise.py`` in a scratch folder, as a learner
    would run it."""
    return _grading(sample).result()


def checker(sample, *keep):
    """Real checker output: ``starter`` (untouched) or a sample from the tests.

    ``keep`` names functions to show (default: all); the others are summed
    up in a line each.  The report's lines are not wrapped by the checker:
    the page wraps each once, under its own text.
    """
    result = graded(sample)
    lines = exercise.report_lines(result["file"], result["load"], result["checks"],
                                  functions=keep or exercise.FUNCTIONS)
    _REPORTS.append(report_html(["$ python -m lesson check softmax_exercise.py"] + lines))
    return f"lesson-report-{len(_REPORTS) - 1}"


# Python-Markdown wraps raw HTML inside a tab in a paragraph, so a report
# stands as a token in the Markdown and becomes its HTML in the page's HTML
# (restore_reports, run by the lesson_markdown extension).  Its own stash of
# raw HTML cannot serve: its markers are stripped by the whitespace
# preprocessor, which runs after the placeholders.  The tokens count from 0
# on each page (expand starts afresh), so `mkdocs serve` does not pile up
# every rebuild's reports.
_REPORTS = []
REPORT_TOKEN = re.compile(r"<p>lesson-report-(\d+)</p>")


def checks_table():
    """The checks, as the checker runs them: name, call, and what passes."""
    rows = [("check, and the call it makes", "passes when it")]
    for check in exercise.CHECKS:
        rows.append((f"{check.name}<br>`{check.call_text()}`", check.passes_when()))
    return markdown_table(rows, left=2)


def time_limits():
    """The checker's time limits, in words, from the code."""
    check, load, whole = exercise.time_limits()
    return (f"A check that takes longer than **{check:g} seconds** is stopped and "
            f"reported as never returning (an endless loop, say); that function's "
            f"other checks are then not run, since it would only hang again, and the "
            f"other functions are still checked. Loading your file may take "
            f"{load:g} seconds (importing NumPy takes a moment), and a whole file at "
            f"most {whole:g}. `--time-limit SECONDS` changes the first; the other two "
            f"follow it.")


def checker_json(sample, name):
    """A real --json result for a sample file, with its checks cut to one."""
    result = graded(sample)
    entry = {k: v for k, v in result.items() if k not in ("load", "seconds")}
    entry["checks"] = [c for c in result["checks"] if c["name"] == name.replace("_", " ")]
    text = json.dumps({"checker": "lesson 4", "time_limit": exercise.TIME_LIMIT,
                       "files": [entry]}, indent=2)
    return f"```json\n{text}\n```"


# A report line's indent, then its label ("got:", "not done yet:", "FAIL"):
# a wrapped line hangs under the text after the label.
FIELD = re.compile(r"( *)((?:[a-z][a-z ]{0,20}?: +)|(?:PASS|FAIL)  )?")
MIN_HANG = 4            # a wrapped line with no label is still indented


def report_html(lines):
    """Lines of terminal output as one block; a long line wraps under its own text.

    Each line is a span holding the line and its newline, as Pygments'
    `line_spans` makes them: lesson.css lays the spans out with a hanging
    indent, and the copy button copies exactly the lines.
    """
    spans = []
    for line in lines:
        match = FIELD.match(line)
        hang = len(match.group(1)) + len(match.group(2) or " " * MIN_HANG)
        spans.append(f'<span class="lesson-report-line" style="padding-left:{hang}ch;'
                     f'text-indent:-{hang}ch">{html.escape(line)}\n</span>')
    return ('<div class="language-text highlight lesson-report"><pre><code>'
            + "".join(spans) + "</code></pre></div>")


PLACEHOLDERS = {
    "table": table, "widget": widget, "figure": figure,
    "worked_example": worked_example, "checker": checker,
    "checks_table": checks_table, "time_limits": time_limits, "checker_json": checker_json,
    "accuracy": accuracy, "accuracy_by_spread": accuracy_by_spread, "speed": speed,
    "api": api,
    "quiz": lesson_quizzes.quiz, "answer_box": lesson_quizzes.answer_box,
    "table_source": lesson_quizzes.table_source, "why_softmax": lesson_quizzes.why_softmax,
    "scaling": lesson_quizzes.scaling,
    "download": lesson_wheel.download,
}


def expand(markdown):
    """``markdown`` with every placeholder line replaced by its Markdown."""
    _REPORTS.clear()                    # one page's checker reports at a time
    start_grading()
    def replace(match):
        indent, name, args = match.group(1), match.group(2), match.group(3).split()
        if name not in PLACEHOLDERS:
            raise ValueError(f"unknown placeholder {{{{ {name} }}}} in the line "
                             f"{match.group(0).strip()!r}; known: {', '.join(PLACEHOLDERS)}")
        text = PLACEHOLDERS[name](*args)
        return "\n".join(indent + line if line else line for line in text.splitlines())
    return PLACEHOLDER.sub(replace, markdown)


def restore_reports(text):
    """The page's HTML with each checker report token replaced by its report."""
    return REPORT_TOKEN.sub(lambda m: _REPORTS[int(m.group(1))], text)
