"""Python-Markdown extension: the lesson's numbers and math, made at build time.

Listed in ``mkdocs.yml`` under ``markdown_extensions`` as
``lesson_docs.lesson_markdown``, so MkDocs with Material and Zensical (which
runs Python-Markdown extensions but not MkDocs hooks) build the same pages:

1. Placeholders such as ``{{ table }}`` are replaced, before any other
   Markdown is read, by Markdown that :mod:`lesson` computes now
   (:mod:`lesson_docs.lesson_site`), so no number is typed in by hand.  An
   unknown placeholder stops the build.
2. Math written for ``pymdownx.arithmatex`` (generic mode) becomes MathML
   (:mod:`lesson_docs.lesson_math`) once the page is HTML.
3. Each line of highlighted code is told its own indent, so a long line
   wraps under its own start, not under the block's (``lesson.css``).
4. Each ``>>>`` block gets what its copy button copies: the code that runs
   (:mod:`lesson_docs.pasteable`).
5. Closed answers, drawings and the editor are kept out of the search index
   (:mod:`lesson_docs.search_index`).
6. Each word of code is kept whole when a line wraps (:mod:`lesson_docs.code_words`).

``lesson_docs`` is this folder, installed by ``pip install -e ".[docs]"``
(see ``pyproject.toml``), so the extension imports from any working folder.
"""

import html
import re

from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from .lesson_math import mark_math_in_headings, replace_math
from .checker_output import restore_reports
from .lesson_site import expand
from .code_words import words_in_code
from .pasteable import mark_copies
from .search_index import keep_out_of_search


class PlaceholderPreprocessor(Preprocessor):
    """``{{ name args }}`` lines -> the Markdown that ``lesson`` computes."""

    def run(self, lines):
        return expand("\n".join(lines)).split("\n")


class HeadingMathTreeprocessor(Treeprocessor):
    """Math in a heading -> marked, so its MathML's own text names the heading."""

    def run(self, root):
        mark_math_in_headings(root)


class MathPostprocessor(Postprocessor):
    """Arithmatex's ``\\(...\\)`` and ``\\[...\\]`` -> MathML."""

    def run(self, text):
        return replace_math(text)


class ReportPostprocessor(Postprocessor):
    """Checker report tokens -> the reports' HTML (raw HTML in a tab would be
    wrapped in a paragraph, so a report waits as a token until here)."""

    def run(self, text):
        return restore_reports(text)


# One line of highlighted code: mkdocs.yml's `line_spans` opens each with this.
LINE_SPAN = re.compile(r'<span id="__span-[0-9-]+">')
TAG = re.compile(r"<[^>]*>")
PROMPT = re.compile(r"(?:>>>|\.\.\.)(?: |$)")


def lead(start):
    """Columns before a code line's first character: its indent, after the
    session prompt (`>>> `, `... `) if it has one.  ``start`` is the line's
    HTML from its beginning (any tail; the line's own text comes first)."""
    text = html.unescape(TAG.sub("", start)).split("\n", 1)[0]
    prompt = PROMPT.match(text)
    rest = text[prompt.end():] if prompt else text
    return len(text) - len(rest) + len(rest) - len(rest.lstrip(" "))


def mark_code_indents(text):
    """Each indented code line's span gets ``style="--lead:Nch"``."""
    def mark(match):
        columns = lead(text[match.end():match.end() + 600])
        if not columns:
            return match.group(0)
        return match.group(0)[:-1] + f' style="--lead:{columns}ch">'
    return LINE_SPAN.sub(mark, text)


class CodeIndentPostprocessor(Postprocessor):
    """Code lines -> code lines that know their indent (a wrapped line hangs
    under its own text)."""

    def run(self, text):
        return mark_code_indents(text)


class CopyPostprocessor(Postprocessor):
    """Each pycon block -> the same, with the code its copy button copies."""

    def run(self, text):
        return mark_copies(text)


class CodeWordsPostprocessor(Postprocessor):
    """Code -> code whose words wrap whole."""

    def run(self, text):
        return words_in_code(text)


class SearchPostprocessor(Postprocessor):
    """What the search index must not read -> marked ``data-search-exclude``."""

    def run(self, text):
        return keep_out_of_search(text)


class LessonExtension(Extension):
    def extendMarkdown(self, md):
        # Before snippets (32), whitespace (30) and fenced code (25): the
        # Markdown a placeholder makes is read like the page's own.
        md.preprocessors.register(PlaceholderPreprocessor(md), "lesson_placeholders", 40)
        # After inline Markdown (20) made Arithmatex's spans, before toc (5) names headings.
        md.treeprocessors.register(HeadingMathTreeprocessor(md), "lesson_heading_math", 10)
        # After the raw HTML stash is restored (30), so Arithmatex's output is there.
        md.postprocessors.register(MathPostprocessor(md), "lesson_math", 25)
        md.postprocessors.register(ReportPostprocessor(md), "lesson_reports", 24)
        md.postprocessors.register(CodeIndentPostprocessor(md), "lesson_code_indents", 23)
        md.postprocessors.register(CopyPostprocessor(md), "lesson_copies", 22)
        md.postprocessors.register(CodeWordsPostprocessor(md), "lesson_code_words", 21)
        # After the editor (lesson_docs.pyodide_assets, 20) is in the page.
        md.postprocessors.register(SearchPostprocessor(md), "lesson_search", 19)


def makeExtension(**kwargs):
    return LessonExtension(**kwargs)
