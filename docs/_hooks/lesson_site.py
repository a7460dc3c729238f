"""MkDocs hook: the lesson's numbers, API reference and math, made at build time.

1. Placeholders such as ``{{ table }}`` in a page's Markdown are replaced by
   Markdown that :mod:`lesson` computes now, so no number is typed in by hand.
   An unknown placeholder stops the build.
2. Math written for ``pymdownx.arithmatex`` (generic mode) is turned into
   MathML with ``latex2mathml``.  Browsers draw MathML themselves, so the
   math renders with no script and no network.
"""

import html
import inspect
import re

from latex2mathml.converter import convert

import lesson
from lesson import example
from lesson.cli import fmt_list, table_rows, weights_sum

# A placeholder stands alone on its line: {{ name arg arg }}.  Its Markdown is
# indented like the placeholder, so it can sit inside an admonition or a tab.
PLACEHOLDER = re.compile(r"^([ \t]*)\{\{\s*(\w+)((?:[ \t]+[^\s}]+)*)\s*\}\}[ \t]*$", re.M)


# --- Placeholders -----------------------------------------------------------

def markdown_table(rows):
    header, *body = rows
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join("---:" for _ in header) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def table(*scores):
    """The lesson's table for some scores (default: the lesson's own)."""
    scores = [float(s) for s in scores] or example.TABLE_SCORES
    rows = table_rows(scores)
    return (markdown_table(rows) + "\n\n"
            + f"Sum of the weights: **{weights_sum(scores)}**.\n"
            + "{ .lesson-table-caption }")


def worked_example():
    """The worked example's steps as a Markdown table."""
    rows = [("step", "what happens", "result")]
    for number, (step, formula, values) in enumerate(example.worked_example(), 1):
        rows.append((f"{number}. {step}", formula, f"`{fmt_list(values)}`"))
    return markdown_table(rows).replace("---:", ":---", 2)


def api():
    """API reference: each public function's signature and docstring."""
    parts = []
    for name in lesson.__all__:
        function = getattr(lesson, name)
        module = function.__module__
        parts.append(f"## `{name}`\n\n```python\n{name}{inspect.signature(function)}\n```\n\n"
                     f"*Defined in `{module}`.*\n\n{docstring_markdown(inspect.getdoc(function))}")
    return "\n\n".join(parts)


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


PLACEHOLDERS = {"table": table, "worked_example": worked_example, "api": api}


def on_page_markdown(markdown, page, config, files):
    def replace(match):
        indent, name, args = match.group(1), match.group(2), match.group(3).split()
        if name not in PLACEHOLDERS:
            raise ValueError(f"{page.file.src_path}: unknown placeholder {{{{ {name} }}}}")
        text = PLACEHOLDERS[name](*args)
        return "\n".join(indent + line if line else line for line in text.splitlines())
    return PLACEHOLDER.sub(replace, markdown)


# --- Math -----------------------------------------------------------------

BLOCK_MATH = re.compile(r'<div class="arithmatex">\s*\\\[(.*?)\\\]\s*</div>', re.S)
INLINE_MATH = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.S)


def mathml(tex, display):
    tex = html.unescape(tex).strip()
    markup = convert(tex, display=display)
    label = html.escape(tex, quote=True)
    return markup.replace("<math ", f'<math alttext="{label}" ', 1)


def on_page_content(content, page, config, files):
    content = BLOCK_MATH.sub(
        lambda m: f'<div class="math-block">{mathml(m.group(1), "block")}</div>', content)
    return INLINE_MATH.sub(lambda m: mathml(m.group(1), "inline"), content)
