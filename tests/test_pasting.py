"""Every example can be pasted, statement by statement, into Python's prompt.

A learner copies the lines after `>>> ` and `... ` into the interactive
interpreter.  There a compound statement (a `for` loop, a `try`, a `def`)
ends only at an empty line: a `for` loop followed straight by the next
statement is a SyntaxError at the prompt, though doctest accepts it.  So an
example's compound statement ends with a bare `...` line, as in the Python
tutorial.  The prompt's own parser (code.InteractiveConsole) reads the lines
here; nothing is run.
"""

import code
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"^[ \t]*(>>>|\.\.\.)(?: |$)(.*)$")
PYCON = re.compile(r"^([ \t]*)```pycon[^\n]*\n(.*?)^\1```", re.M | re.S)


class Prompt(code.InteractiveConsole):
    """The interactive prompt, reading pasted lines without running them."""

    def __init__(self):
        super().__init__()
        self.errors = []

    def runcode(self, code_object):
        pass

    def showsyntaxerror(self, filename=None, **kwargs):
        self.errors.append(self.buffer[:])


def sessions():
    """(where, text) for every docstring-bearing file and every pycon block."""
    for path in sorted((ROOT / "lesson").glob("*.py")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "docs").glob("*.md")):
        for number, match in enumerate(PYCON.finditer(path.read_text(encoding="utf-8"))):
            yield f"{path.relative_to(ROOT).as_posix()} pycon block {number}", match.group(2)


def pasted_lines(text):
    """The lines a learner pastes: each prompt line without its prompt."""
    return [m.group(2) for m in map(PROMPT.match, text.splitlines()) if m]


def syntax_errors(lines):
    prompt = Prompt()
    for line in lines:
        prompt.push(line)
    prompt.push("")
    return prompt.errors


def test_the_prompt_parser_catches_an_unfinished_loop():
    assert syntax_errors(["for x in [1]:", "    print(x)", "x"])
    assert not syntax_errors(["for x in [1]:", "    print(x)", "", "x"])


SESSIONS = dict(sessions())


@pytest.mark.parametrize("where", SESSIONS)
def test_every_example_pastes_into_the_prompt(where):
    text = SESSIONS[where]
    prompts = [line for line in text.splitlines() if line.lstrip().startswith(">>>")]
    read = [m for m in map(PROMPT.match, prompts) if m]
    assert len(read) == len(prompts), f"{where}: prompts not read: {len(prompts) - len(read)}"
    errors = syntax_errors(pasted_lines(text))
    assert not errors, f"{where}: a SyntaxError at the prompt after {errors[0]}"
