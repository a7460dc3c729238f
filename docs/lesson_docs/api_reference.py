"""The API reference page: each public function's signature and docstring.

    {{ api }}    every name in ``lesson.__all__``, its signature as the source
                 spells it, and its docstring with doctest runs as pycon blocks
"""

import inspect
import re

import lesson


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
