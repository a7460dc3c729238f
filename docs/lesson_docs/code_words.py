"""Code wraps where code may: never just after a hyphen.

A browser may break a line of code just after a hyphen, as in prose:
``tol=1e-`` / ``9)``, ``-`` / ``inf``, ``--time-`` / ``limit``.  CSS cannot
forbid that break, so each run of code that holds a hyphen between letters,
digits or dots (``1e-9``, ``-inf``, ``--numpy-wheels``, ``lesson-venv``)
goes in a ``<span class="lesson-word">``, which lesson.css keeps on one row.
Such a run is short, so it never needs more than a row (a longer one, a
wheel's file name, still breaks at its hyphens, and a path at its slashes).  Highlighted code is a flat run of Pygments' token spans in
each line's span; a run that crosses tokens holds each token's piece in a
span of that token's class.  The text, and so what is copied, is the same
character for character.

    >>> print(words_in_code('<code>rows_normalised(W, tol=1e-9)</code>'))
    <code>rows_normalised(W, tol=<span class="lesson-word">1e-9</span>)</code>
    >>> print(words_in_code('<code><span class="o">-</span><span class="n">inf</span>]</code>'))
    <code><span class="lesson-word"><span class="o">-</span><span class="n">inf</span></span>]</code>
"""

import re

CODE = re.compile(r"(<code(?:\s[^>]*)?>)(.*?)(</code>)", re.S)
LINE = re.compile(r'(<span id="__span-[^"]*"[^>]*>)(.*?)(</span>)(?=<span id="__span-|$)', re.S)
TOKEN = re.compile(r'<span class="([^"]*)">([^<]*)</span>|([^<]+)|(<[^>]*>)')
HYPHENATED = re.compile(r"[\w.]*(?:-+[\w.]+)+")
LONGEST = 16           # a longer run (a wheel's file name) may need more than a phone's row
SCRIPT = re.compile(r"(<script\b.*?</script>)", re.S)      # a script's text is no code to draw


def words_in_code(page):
    """Every ``<code>`` of a page's HTML, each hyphenated run in a ``lesson-word``
    span.  The checker's reports are left as they are: they lay out their own lines."""
    def one(match):
        opening, inner, closing = match.groups()
        if "lesson-report" in inner or "lesson-word" in inner:
            return match.group(0)
        if LINE.search(inner):
            inner = LINE.sub(lambda line: line.group(1) + _kept(line.group(2)) + line.group(3),
                             inner)
        else:
            inner = _kept(inner)
        return opening + inner + closing
    parts = SCRIPT.split(page)
    return "".join(part if index % 2 else CODE.sub(one, part) for index, part in enumerate(parts))


def _kept(html):
    """A flat run of text and token spans, each hyphenated run in a span; anything
    else (a link, a mark) as it is."""
    pieces = []                          # (class or None, text)
    for token_class, token_text, text, tag in TOKEN.findall(html):
        if tag:
            return html
        pieces.append((token_class or None, token_text if token_class else text))
    whole = "".join(text for _, text in pieces)
    runs = [match.span() for match in HYPHENATED.finditer(whole)
            if len(match.group(0)) <= LONGEST]
    if not runs:
        return html
    out, at, run = [], 0, None           # run: the index of the run being written
    for token_class, text in pieces:
        start = at
        for cut in sorted({at, at + len(text)} | {edge for span in runs for edge in span
                                                  if at < edge < at + len(text)}):
            if cut == start:
                continue
            inside = next((i for i, (a, b) in enumerate(runs) if a <= start < b), None)
            if inside != run:
                out.append("</span>" if run is not None else "")
                out.append('<span class="lesson-word">' if inside is not None else "")
                run = inside
            piece = whole[start:cut]
            out.append(f'<span class="{token_class}">{piece}</span>' if token_class else piece)
            start = cut
        at += len(text)
    return "".join(out + (["</span>"] if run is not None else []))
