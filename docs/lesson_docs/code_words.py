"""Code wraps at its spaces: each word of code is kept whole on a phone.

Inline code, sessions, commands and output, that is; not a source listing
(see ``LEFT_AS_IT_IS``).

A browser may break a line of code after a hyphen (``tol=1e-`` / ``9)``,
``-`` / ``inf``) and, in a session, anywhere in a name.  CSS cannot forbid
the break after a hyphen, so each word (a run with no space) of code on a
page goes in a ``<span class="lesson-word">``, which lesson.css keeps whole:
a line wraps at its spaces, and a word is broken only if it is wider than
the whole line.  Highlighted code is a flat run of Pygments' token spans
in each line's span; a word that crosses tokens holds each token's piece
in a span of that token's class.  The text, and so what is copied, is the
same character for character.

    >>> print(words_in_code('<code>rows_normalised(W, tol=1e-9)</code>'))
    <code><span class="lesson-word">rows_normalised(W,</span> <span class="lesson-word">tol=1e-9)</span></code>
    >>> print(words_in_code('<code><span class="o">-</span><span class="n">inf</span> x</code>'))
    <code><span class="lesson-word"><span class="o">-</span><span class="n">inf</span></span> <span class="lesson-word">x</span></code>
"""

import re

CODE = re.compile(r"(<code(?:\s[^>]*)?>)(.*?)(</code>)", re.S)
# Left as they are: a script's text, which is no code to draw; and a source
# listing, whose lines hang deep (their own indent and 8ch more), so that a
# phone's row holds a few characters and a word must break.
LEFT_AS_IT_IS = re.compile(r'(<script\b.*?</script>|<div class="language-python highlight">'
                           r'<pre>.*?</pre>)', re.S)

LINE = re.compile(r'(<span id="__span-[^"]*"[^>]*>)(.*?)(</span>)(?=<span id="__span-|$)', re.S)
TOKEN = re.compile(r'<span class="([^"]*)">([^<]*)</span>|([^<]+)|(<[^>]*>)')
SPACE = re.compile(r"(\s+)")


def words_in_code(page):
    """Every ``<code>`` of a page's HTML, its words each in a ``lesson-word`` span.
    The checker's reports are left as they are: they lay out their own lines."""
    def one(match):
        opening, inner, closing = match.groups()
        if "lesson-report" in inner or "lesson-word" in inner:
            return match.group(0)
        if LINE.search(inner):
            inner = LINE.sub(lambda line: line.group(1) + _words(line.group(2)) + line.group(3),
                             inner)
        else:
            inner = _words(inner)
        return opening + inner + closing
    parts = LEFT_AS_IT_IS.split(page)
    return "".join(part if index % 2 else CODE.sub(one, part) for index, part in enumerate(parts))


def _words(html):
    """A flat run of text and token spans, its words wrapped; anything else as it is."""
    pieces = []                          # (class or None, text)
    for token_class, token_text, text, tag in TOKEN.findall(html):
        if tag:
            return html                  # not flat (a link, a mark): leave it alone
        pieces.append((token_class or None, token_text if token_class else text))
    out, word = [], []
    for token_class, text in pieces:
        for part in SPACE.split(text):
            if not part:
                continue
            if part.isspace():
                out += _word(word)
                word = []
                out.append(_token(token_class, part))
            else:
                word.append(_token(token_class, part))
    return "".join(out + _word(word))


def _token(token_class, text):
    return f'<span class="{token_class}">{text}</span>' if token_class else text


def _word(parts):
    return [f'<span class="lesson-word">{"".join(parts)}</span>'] if parts else []
