"""Every example can be pasted, statement by statement, into Python's prompt.

A learner copies the lines after `>>> ` and `... ` into the interactive
interpreter.  There a compound statement (a `for` loop, a `try`, a `def`)
ends only at an empty line: a `for` loop followed straight by the next
statement is a SyntaxError at the prompt, though doctest accepts it.  So an
example's compound statement ends with a bare `...` line, as in the Python
tutorial.  The prompt's own parser (code.InteractiveConsole) reads the lines
here; nothing is run.

The site's copy buttons copy a session's code without its prompts and
output; that code, pasted alone at a fresh prompt, runs (the last test).
"""

import code
import contextlib
import doctest
import html
import io
import pathlib
import re
import sys

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


# --- What the copy buttons copy (lesson_docs.pasteable) --------------------------

COPY = re.compile(r'<div class="language-pycon highlight"( data-copy="([^"]*)")?>'
                  r'<pre><span></span><code>(.*?)</code>', re.S)


class RunningPrompt(code.InteractiveConsole):
    """Python's prompt, running what is pasted; it keeps each exception's type."""

    def __init__(self):
        super().__init__({"__name__": "__console__"})
        self.raised = []

    def showtraceback(self):
        self.raised.append(sys.exc_info()[0].__name__)

    def showsyntaxerror(self, filename=None, **kwargs):
        self.raised.append("SyntaxError")


def copies(site):
    """(where, what the session shows, what its copy button copies) for every pycon block."""
    for path in sorted(site.glob("*.html")):
        for number, match in enumerate(COPY.finditer(path.read_text(encoding="utf-8"))):
            shown = html.unescape(re.sub(r"<[^>]*>", "", match.group(3)))
            copied = html.unescape(match.group(2)) if match.group(1) else None
            yield f"{path.name} block {number}", shown, copied


def test_every_session_copies_code_that_runs_on_its_own(built_site):
    """Each `>>>` block's copy button copies its code (lesson_docs.pasteable): no
    prompt and no output.  Pasted alone, line by line, at a fresh prompt, it
    raises exactly the exceptions the session shows; run as a file, it runs up
    to the first of them.  The earlier blocks' names it uses come with it."""
    blocks = list(copies(built_site))
    assert len(blocks) > 40
    for where, shown, copied in blocks:
        assert copied is not None, f"{where}: no data-copy"
        assert not re.search(r"^(>>>|\.\.\.)( |$)", copied, re.M), f"{where}: a prompt:\n{copied}"
        expected = [e.exc_msg.split(":")[0].split(".")[-1].strip()
                    for e in doctest.DocTestParser().get_examples(shown) if e.exc_msg]
        prompt = RunningPrompt()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            for line in copied.splitlines() + [""]:
                prompt.push(line)
        assert prompt.raised == expected, f"{where}: raised {prompt.raised}\n{copied}"
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(copied, where, "exec"), {"__name__": "__main__"})
        except Exception as error:                       # noqa: BLE001 (the session's own)
            assert expected and type(error).__name__ == expected[0], f"{where}: {error!r}"
        else:
            assert not expected, f"{where}: as a file it raised none of {expected}"
