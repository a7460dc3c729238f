"""The lesson's placeholders: Markdown that :mod:`lesson` computes at build time.

A page writes ``{{ name arg arg }}`` alone on a line; :func:`expand` replaces
it with what ``PLACEHOLDERS[name](arg, arg)`` returns, indented like the
placeholder, so it can sit inside an admonition or a tab.  An unknown name
stops the build.  :mod:`lesson_docs.lesson_markdown` runs :func:`expand` on
every page, for MkDocs and for Zensical alike.

Each placeholder's function lives in the module of its job:

    lesson_tables    table, worked_example, table_source
    widget           widget
    explorer         explorer (the attention-matrix explorer)
    lesson_figures   figure
    questions        quiz, answer_box
    why_softmax      why_softmax
    why_scaling      scaling
    checker_output   checker, checker_json, checks_table, time_limits, threat_model
    benchmarks       accuracy, accuracy_by_spread, speed
    api_reference    api
    lesson_wheel     download (the learner's wheel among the site's files)

To add a placeholder: write a function that returns Markdown, and add it to
``PLACEHOLDERS`` below.
"""

import re

from . import (api_reference, benchmarks, checker_output, explorer, lesson_figures,
               lesson_tables, lesson_wheel, questions, why_scaling, why_softmax, widget)

# A placeholder stands alone on its line: {{ name arg arg }}.  Its Markdown is
# indented like the placeholder, so it can sit inside an admonition or a tab.
PLACEHOLDER = re.compile(r"^([ \t]*)\{\{\s*(\w+)((?:[ \t]+[^\s}]+)*)\s*\}\}[ \t]*$", re.M)

PLACEHOLDERS = {
    "table": lesson_tables.table, "widget": widget.widget, "figure": lesson_figures.figure,
    "worked_example": lesson_tables.worked_example, "checker": checker_output.checker,
    "checks_table": checker_output.checks_table, "time_limits": checker_output.time_limits,
    "checker_json": checker_output.checker_json, "threat_model": checker_output.threat_model,
    "accuracy": benchmarks.accuracy, "accuracy_by_spread": benchmarks.accuracy_by_spread,
    "speed": benchmarks.speed, "api": api_reference.api,
    "quiz": questions.quiz, "answer_box": questions.answer_box,
    "table_source": lesson_tables.table_source, "why_softmax": why_softmax.why_softmax,
    "scaling": why_scaling.scaling, "download": lesson_wheel.download,
    "explorer": explorer.explorer,
}


def expand(markdown):
    """``markdown`` with every placeholder line replaced by its Markdown."""
    def replace(match):
        indent, name, args = match.group(1), match.group(2), match.group(3).split()
        if name not in PLACEHOLDERS:
            raise ValueError(f"unknown placeholder {{{{ {name} }}}} in the line "
                             f"{match.group(0).strip()!r}; known: {', '.join(PLACEHOLDERS)}")
        text = PLACEHOLDERS[name](*args)
        return "\n".join(indent + line if line else line for line in text.splitlines())
    return PLACEHOLDER.sub(replace, markdown)
