"""Markdown that the build-time modules write: one place for a table's form,
and for how a list of scores or weights is printed."""

from lesson import example
from lesson.tables import fmt, fmt_list, fmt_tiny


def markdown_table(rows, left=1):
    """A Markdown table: the first ``left`` columns of text, the rest figures.

    >>> print(markdown_table([("key", "weight"), ("1", "0.5")]))
    | key | weight |
    | :--- | ---: |
    | 1 | 0.5 |
    """
    header, *body = rows
    align = [":---" if i < left else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def compact(markdown):
    """A table kept narrow enough for a phone (see widget.css)."""
    return f'<div class="lesson-compact" markdown="1">\n\n{markdown}\n\n</div>'


def listed(values, digits=4):
    """A list of scores as the pages print them: ``fmt`` to ``digits`` places.

    >>> listed([0.70710678, 0.0, -1.0])
    '[0.7071, 0, -1]'
    """
    return fmt_list(values, digits)


def weights_listed(values, digits=4):
    """A list of weights, each with the same number of decimals, so a list reads
    evenly: [0.5972, 0.2940, 0.1083], not [0.5972, 0.294, 0.1083].  A weight too
    small for those decimals is shown as the lesson's tables show it
    (``lesson.tables.fmt_tiny``), never as 0.

    >>> weights_listed([0.6, 0.29403, 2.6e-9]), weights_listed([1.0, 0.0])
    ('[0.6000, 0.2940, 2.6e-9]', '[1.0000, 0.0000]')
    >>> weights_listed([-0.0, 0.5], 2)
    '[0.00, 0.50]'
    """
    def one(w):
        if w != 0 and abs(w) < 0.5 * 10 ** -digits:
            return fmt_tiny(w)
        text = f"{w:.{digits}f}"
        return text.lstrip("-") if float(text) == 0 else text
    return "[" + ", ".join(one(w) for w in values) + "]"


def shown_scores():
    """The lesson's scores as the pages print them: 1/sqrt(2) to four places.

    Every equation on a page is worked from these printed numbers, so that
    softmax([0.7071, 0, -1]) = [...] is true for the 0.7071 a learner reads.

    >>> shown_scores()
    [0.7071, 0.0, -1.0]
    """
    return [float(fmt(s)) for s in example.TABLE_SCORES]
