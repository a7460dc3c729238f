"""The site's Markdown extension and its math, string in and string out, one case per feature.

As pymdown-extensions tests its extensions: a few lines of Markdown through
Python-Markdown with ``lesson_docs.lesson_markdown`` (and the extensions the
site lists beside it), the HTML compared with what it must hold.  No site is
built; the whole build's own checks are in test_site.py.
"""

import re

import markdown
import pytest

from lesson_docs import checker_output, lesson_math
from lesson_docs.lesson_markdown import lead


def html(text):
    """``text`` as the site's pages turn Markdown into HTML, the lesson's extension first."""
    return markdown.markdown(
        text, extensions=["lesson_docs.lesson_markdown", "admonition", "tables",
                          "pymdownx.superfences", "pymdownx.highlight", "pymdownx.arithmatex"],
        extension_configs={"pymdownx.arithmatex": {"generic": True},
                           "pymdownx.highlight": {"line_spans": "__span"}})


def cells(markup):
    return re.findall(r"<td[^>]*>(.*?)</td>", markup)


# --- Placeholders: Markdown the lesson computes -------------------------------------

def test_a_placeholder_becomes_the_lessons_table_with_its_numbers():
    markup = html("{{ table 1 2 }}\n")
    assert "<table>" in markup and "{{" not in markup
    assert cells(markup) == ["1", "1", "-1", "0.3679", "0.2689",
                             "2", "2", "0", "1", "0.7311"]


def test_a_placeholder_indented_in_an_admonition_stays_inside_it():
    markup = html("!!! note\n\n    {{ table 1 2 }}\n\nAfter.\n")
    note = markup[markup.index('<div class="admonition note">'):markup.index("<p>After.</p>")]
    assert "<table>" in note and "0.7311" in note


def test_a_placeholder_in_running_text_is_left_as_text():
    """A placeholder stands alone on its line; one inside a sentence is prose."""
    assert "{{ table }}" in html("Write {{ table }} on a line of its own.\n")


def test_an_unknown_placeholder_stops_the_build_naming_it():
    with pytest.raises(ValueError, match=r"unknown placeholder \{\{ tabel \}\} in the line"):
        html("{{ tabel 1 }}\n")


# --- Math: LaTeX in, MathML out --------------------------------------------------------

def test_inline_math_becomes_mathml_with_its_words():
    markup = html("Weights \\(w_i = e^{s_i}\\) here.\n")
    assert '<math display="inline"' in markup and "arithmatex" not in markup
    assert 'aria-label="w sub i equals e to the power s sub i"' in markup
    assert "<msub><mi>w</mi><mi>i</mi></msub>" in markup


def test_block_math_becomes_a_block_of_mathml():
    markup = html("\\[\\ln w\\]\n")
    assert '<div class="math-block"><math display="block"' in markup
    assert 'aria-label="the natural log of w"' in markup


@pytest.mark.parametrize("tex, holds", [
    ("\\ln w", '<mi>ln</mi><mo>\u2061</mo><mspace width="0.1667em" /><mi>w</mi>'),
    ("\\max_j s_j", '<msub><mi>max</mi><mi>j</mi></msub><mo>\u2061</mo><mspace width="0.1667em" />'),
    ("[-1000, -1000]", '<mrow><mo lspace="0" rspace="0">\u2212</mo><mn>1000</mn></mrow>'),
    ("-\\infty", '<mo lspace="0" rspace="0">\u2212</mo><mi>\u221e</mi>'),
    ("0/0", '<mn>0</mn><mo lspace="0" rspace="0">/</mo><mn>0</mn>'),
])
def test_the_math_is_spaced_as_tex_spaces_it(tex, holds):
    """A function name is a name, with no operator space and a thin space
    after it; a unary minus is grouped with its operand, unspaced; infinity
    is a name, not an operator; a slash has no binary space."""
    assert holds in lesson_math.mathml(tex, "inline")


@pytest.mark.parametrize("tex, words", [
    ("w_i = \\frac{e^{s_i}}{\\sum_j e^{s_j}}",
     "w sub i equals the fraction e to the power s sub i, over the sum over j of e to the "
     "power s sub j, end of fraction"),
    ("H(w) = -\\sum_i w_i \\ln w_i",
     "H (w) equals minus the sum over i of w sub i the natural log of w sub i"),
    ("[-1000, -1000]", "[minus 1000, minus 1000]"),
])
def test_each_formula_is_said_in_words(tex, words):
    made = lesson_math.mathml(tex, "block")
    assert re.search(r'aria-label="([^"]*)"', made).group(1) == words
    assert re.search(r'alttext="([^"]*)"', made).group(1) == words


def test_text_with_no_math_is_left_alone():
    text = "<p>No math: 2 &lt; 3, and a $ sign.</p>"
    assert lesson_math.replace_math(text) == text


# --- Code: each line knows its own indent -------------------------------------------

def test_each_line_of_code_is_told_its_indent_after_the_prompt():
    markup = html("```python\n>>> def f(x):\n...     return [\n...         x]\n```\n")
    assert re.findall(r'style="--lead:(\d+)ch"', markup) == ["4", "8", "12"]


@pytest.mark.parametrize("line, columns", [
    ("x = 1", 0), ("    return x", 4), (">>> x", 4), ("...     y", 8), ("... ", 4),
    ("&gt;&gt;&gt; x", 4),
])
def test_lead_counts_the_prompt_and_the_indent(line, columns):
    assert lead(line) == columns


# --- Reports: raw HTML that waits as a token ---------------------------------------

def test_a_report_token_comes_back_as_its_report_even_inside_a_tab():
    report = '<div class="lesson-report"><pre>FAIL  x &lt; y</pre></div>'
    markup = html(f"!!! note\n\n    {checker_output.report_token(report)}\n")
    assert report in markup and "lesson-report-" not in markup.replace("lesson-report\"", "")
