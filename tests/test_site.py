"""The built site: strict build, math as MathML, real numbers, real source."""

import html
import inspect
import re

import pytest

import lesson
import lesson.head
import lesson.weights
from lesson import example
from lesson.cli import table_rows

PAGES = ["index", "by-hand", "in-code", "check", "exercises", "reference", "precision", "api"]
RAW_TEX = re.compile(r"\\(frac|sqrt|mathbb|operatorname|infty|top|sum|ln)\b|\\\(|\\\[")


def page(site, name):
    return (site / f"{name}.html").read_text()


def text_of(markup):
    """The visible text of a page's article, without tags or code blocks."""
    article = markup[markup.index("<article"):markup.index("</article>")]
    article = re.sub(r"<(pre|code|math)\b.*?</\1>", " ", article, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", article))


@pytest.mark.parametrize("name", PAGES)
def test_every_page_is_built_with_no_raw_tex(built_site, name):
    markup = page(built_site, name)
    assert not RAW_TEX.search(text_of(markup)), RAW_TEX.search(text_of(markup))
    assert "arithmatex" not in markup      # every formula became MathML


@pytest.mark.parametrize("name", ["index", "by-hand", "in-code", "check", "reference", "precision"])
def test_math_is_mathml(built_site, name):
    assert re.search(r'<math alttext="[^"]+" xmlns="http://www.w3.org/1998/Math/MathML"',
                     page(built_site, name))


def test_double_struck_letters_become_unicode(built_site):
    markup = page(built_site, "reference")
    # MathML Core (what Chromium draws) ignores mathvariant="double-struck".
    assert "<mi>&#x0211D;</mi>" in markup and "double-struck" not in markup


def test_idea_page_table_is_computed_by_lesson(built_site):
    markup = page(built_site, "index")
    rows, _ = table_rows(example.TABLE_SCORES)
    for row in rows[1:]:
        cells = "".join(rf"<td[^>]*>{re.escape(cell)}</td>\s*" for cell in row)
        assert re.search(cells, markup), row
    for seed in ["0.4931", "0.1814", "0.5972", "0.2945", "0.1083"]:
        assert seed in markup


def test_worked_example_table_is_computed_by_lesson(built_site):
    text = text_of(page(built_site, "reference").replace("<code>", "").replace("</code>", ""))
    for step in ["[0.669762, 0.330238]", "[1.339523, 0.660477]", "[2, 0]"]:
        assert step in text


@pytest.mark.parametrize("name, function", [
    ("in-code", "_softmax_row"), ("in-code", "naive_softmax"), ("in-code", "entropy"),
    ("in-code", "rows_normalised"), ("reference", "attention"), ("reference", "causal_mask"),
])
def test_source_on_the_site_is_the_module_source(built_site, name, function):
    module = lesson.weights if name == "in-code" else lesson.head
    source = inspect.getsource(getattr(module, function))
    code = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, name)))
    for line in source.splitlines():
        assert line in code, line


def test_api_page_holds_every_public_docstring(built_site):
    text = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, "api")))
    for name in lesson.__all__:
        doc = inspect.getdoc(getattr(lesson, name))
        assert doc.splitlines()[0] in text
        assert str(inspect.signature(getattr(lesson, name))) in text


def test_no_page_loads_anything_from_the_network(built_site):
    for path in built_site.rglob("*.html"):
        markup = path.read_text()
        for tag in re.findall(r"<(?:script|link|img)\b[^>]*>", markup):
            assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", tag), (path.name, tag)


def test_every_placeholder_was_filled(built_site):
    for name in PAGES:
        assert "{{" not in text_of(page(built_site, name))


def test_precision_page_figures_are_the_benchmarks(built_site):
    from lesson import bench
    report = bench.accuracy(bench.accuracy_corpus(), bench.softmax_methods(optional=False))
    text = text_of(page(built_site, "precision"))
    for name, r in report.items():
        assert f"{r['max']:.2f}" in text and f"{r['mean']:.3f}" in text, name


def test_exercises_page_shows_real_checker_output(built_site):
    from lesson import exercise
    text = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, "exercises")))
    assert f"0 passed, {len(exercise.CHECKS)} failed" in text       # the starter
    assert "not done yet: softmax() returns None" in text
    assert "OverflowError: math range error (your line 8" in text   # forgot the max
    assert "subtract the row maximum" in text
    for check in exercise.CHECKS:                                    # the table of checks
        assert check.call_text() in text and check.passes_when() in text
    assert f"longer than {exercise.TIME_LIMIT:g} seconds" in text
    assert f"never returned: stopped after {exercise.TIME_LIMIT:g} s" in text   # a hang
    assert "printed:  computing entropy of [1.0, 0.0, 0.0]" in text
