"""What a ``>>>`` example's copy button copies: the code that runs, not the session.

A pycon block shows a Python session: prompts, code, and what Python
answered.  Pasted as it is, every line is a SyntaxError, in a file and at
Python's prompt alike (3.13's new prompt does not strip ``>>>`` either).  So
each block carries ``data-copy``, which Material's copy button copies instead
of the text it shows (its ``[data-copy]``): the examples' code, with no
prompts and no output, that runs pasted into an empty file or into Python's
prompt.

That code runs on its own.  A block that uses a name an earlier block on
the page made (``from lesson import softmax`` at the top, ``W = ...`` a
block before) gets those earlier statements first, and theirs in turn; a
name no block makes (a docstring's example uses its module's names) is
imported from ``lesson``, or is a standard module.  A compound statement
(a ``for`` loop, a ``def``) is followed by an empty line, which ends it
at the prompt.

    >>> shown = ">>> x = 2\\n>>> for i in range(x):\\n...     print(i)\\n0\\n1\\n"
    >>> print(Session().copied(">>> y = 1\\n"), end="")
    y = 1
    >>> print(Session().copied(shown), end="")
    x = 2
    for i in range(x):
        print(i)
    <BLANKLINE>
    >>> session = Session()
    >>> _ = session.copied(">>> from lesson import softmax\\n>>> W = softmax([1, 2])\\n")
    >>> print(session.copied(">>> sum(W)\\n1.0\\n"), end="")
    from lesson import softmax
    W = softmax([1, 2])
    sum(W)
"""

import ast
import builtins
import doctest
import html
import re
import sys

import lesson

BLOCK = re.compile(r'(<div class="language-pycon highlight")(><pre><span></span><code>)(.*?)(</code>)',
                   re.S)
TAG = re.compile(r"<[^>]*>")
COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
            ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef) + (
    (ast.Match, ast.TryStar) if sys.version_info >= (3, 11) else ())
STANDARD_MODULES = getattr(sys, "stdlib_module_names", frozenset({"math", "sys", "random"}))


class Statement:
    """One example's code: the names it makes, and the names it needs from before."""

    def __init__(self, source):
        self.source = source.rstrip("\n")
        tree = ast.parse(self.source)
        self.compound = any(isinstance(node, COMPOUND) for node in tree.body)
        self.makes, self.needs = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (self.makes if isinstance(node.ctx, ast.Store) else self.needs).add(node.id)
            elif isinstance(node, ast.alias):
                self.makes.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.makes.add(node.name)
            elif isinstance(node, ast.arg):
                self.makes.add(node.arg)
        self.needs -= self.makes | set(dir(builtins))

    def text(self):
        return self.source + ("\n\n" if self.compound else "\n")


class Session:
    """The pycon blocks of one page, in order: each one's copy runs on its own."""

    def __init__(self):
        self.earlier = []                 # every statement of the blocks before

    def copied(self, shown):
        """The code to copy for a block whose text (prompts and output) is ``shown``."""
        own = [Statement(example.source)
               for example in doctest.DocTestParser().get_examples(shown)]
        made, needed = set(), set()
        for statement in own:
            needed |= statement.needs - made
            made |= statement.makes
        before, unmade = self._statements_making(needed)
        self.earlier += own
        return "".join([_import(name) for name in sorted(unmade)]
                       + [s.text() for s in before + own])

    def _statements_making(self, needed):
        """The earlier statements that make what ``needed`` names, and what they
        need in turn, in page order; and the names none of them makes."""
        chosen, wanted = set(), set(needed)
        for index in range(len(self.earlier) - 1, -1, -1):
            statement = self.earlier[index]
            if statement.makes & wanted:
                chosen.add(index)
                wanted = (wanted - statement.makes) | statement.needs
        return [self.earlier[index] for index in sorted(chosen)], wanted


def _import(name):
    """A name no earlier block makes: the lesson's, or a standard module."""
    if name in lesson.__all__:
        return f"from lesson import {name}\n"
    if name in STANDARD_MODULES:
        return f"import {name}\n"
    return ""                             # unknown: tests/test_pasting.py says which


def mark_copies(page):
    """Every pycon block of a page's HTML, with ``data-copy``: the code that runs."""
    session = Session()

    def mark(match):
        shown = html.unescape(TAG.sub("", match.group(3)))
        code = session.copied(shown)
        return (f'{match.group(1)} data-copy="{html.escape(code, quote=True)}"'
                f"{match.group(2)}{match.group(3)}{match.group(4)}")
    return BLOCK.sub(mark, page)
