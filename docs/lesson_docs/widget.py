"""The idea page's score widget: the static table, and the data its script reads.

    {{ widget }}    the lesson's table, which docs/assets/softmax-widget.js
                    replaces with sliders for the same scores

Without JavaScript the reader sees the table as it is.
"""

import html
import json
import math

import lesson
from lesson import example
from lesson.tables import TABLE_HEADER

from .lesson_tables import table

# The value each key carries, drawn by the widget; keys added later take the rest.
WIDGET_VALUES = [[2, 0], [0, 2], [0, -2], [-2, 0], [1, 1], [-1, 1], [-1, -1], [1, -1]]


def widget():
    """The score widget: the static table, which the widget's script makes live.

    Without JavaScript the reader sees the lesson's table as it is; with it,
    sliders for the same scores (the first exactly 1/sqrt(2)) replace it.
    """
    return (f'<div class="softmax-widget" markdown="1" {widget_attributes()}>\n\n'
            f"{table()}\n\n</div>")


def widget_attributes():
    """The widget's data: scores, value vectors, the table's column headers
    (the static table prints the same TABLE_HEADER), and what an all-masked
    row gets."""
    try:
        lesson.softmax([-math.inf, -math.inf])
    except ValueError as error:
        all_masked = f"ValueError: {error}"
    else:                                                      # pragma: no cover
        raise AssertionError("softmax of an all-masked row must raise")
    scores = " ".join(repr(s) for s in example.TABLE_SCORES)
    values = " ".join(f"{x},{y}" for x, y in WIDGET_VALUES)
    headers = html.escape(json.dumps(TABLE_HEADER), quote=True)
    return (f'data-scores="{scores}" data-values="{values}" data-headers="{headers}" '
            f'data-all-masked="{html.escape(all_masked, quote=True)}"')
