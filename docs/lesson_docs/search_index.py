"""What the site's search index reads: no hidden answer, no drawing; words apart.

The search index (MkDocs' and Zensical's) reads every word of a page and
shows the words around a match.  So it would show a solution that the page
keeps closed, and a figure's tick labels run together
(``1.1416642560481216``).  Each element marked ``data-search-exclude`` is
left out, with all it holds:

* every closed ``<details>``: a worked answer, a solution, a question's
  answer and the numbers behind it are closed so that a learner tries
  first; a search result must not open them;
* every ``<svg>`` drawing: its words are its caption's (``<figcaption>``,
  which stays) and its labels', which read as nothing in a line of text;
* the Exercises page's editor: the starter is the starter file.

Math stays in, as a line of text (:func:`lesson_docs.lesson_math.linear`).
A line break (``<br>``) is followed by a newline, which the index reads as
a space: a table cell's ``one-hot is 0<br>entropy(...)`` is two phrases, not
``0entropy``.

    >>> keep_out_of_search('<details class="success"><summary>Show</summary></details>')
    '<details data-search-exclude class="success"><summary>Show</summary></details>'
    >>> keep_out_of_search('<details class="note" open>, <svg viewBox="0 0 1 1">')
    '<details class="note" open>, <svg data-search-exclude viewBox="0 0 1 1">'
    >>> keep_out_of_search("is 0<br><code>entropy</code>")
    'is 0<br>\\n<code>entropy</code>'
"""

import re

CLOSED_DETAILS = re.compile(r"<details(?![^>]*\sopen[\s>=])(?=[\s>])")
DRAWING = re.compile(r"<svg(?=[\s>])")
EDITOR = re.compile(r'<textarea(?=[^>]*class="lr-code")')
LINE_BREAK = re.compile(r"<br\s*/?>(?!\n)")


def keep_out_of_search(page):
    """A page's HTML with what the index must not read marked ``data-search-exclude``."""
    for tag in (CLOSED_DETAILS, DRAWING, EDITOR):
        page = tag.sub(lambda match: match.group(0) + " data-search-exclude", page)
    return LINE_BREAK.sub(lambda match: match.group(0) + "\n", page)
