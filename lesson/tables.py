"""The lesson's numbers as text: how the tables and lists show them.

The command line, the site and the tests all format numbers with these, so
a number reads the same wherever a learner meets it.  Only an exact 0 shows
as 0: a weight too small for the digits shown (key 2 of 0, -20, -inf) shows
as 2.1e-9, never as 0 like a masked key.  The page's widget follows the same
rule (softmax-widget.js), and a test holds the two together.

>>> fmt(0.49306869), fmt_list([0.6697615493266569, 0.0])
('0.4931', '[0.669762, 0]')
>>> fmt_list(softmax([0, -20, -math.inf]), 4)
'[1, 2.1e-9, 0]'
"""

import math

from lesson.weights import softmax, softmax_table

TABLE_HEADER = ("key", "score", "score - max", "exp(score - max)", "weight")


def fmt(value, digits=4):
    """A number as the lesson's tables show it: rounded, no trailing zeros.

    >>> fmt(0.49306869), fmt(1.0), fmt(-0.0), fmt(-math.inf), fmt(2.06e-9)
    ('0.4931', '1', '0', '-inf', '2.1e-9')
    """
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("0", "-0") and value != 0:
        return fmt_tiny(value)
    return "0" if text == "-0" else text


def fmt_tiny(value):
    """A number too small for the places shown, to two figures: never 0.

    >>> fmt_tiny(2.0611536e-09), fmt_tiny(-4.5e-05)
    ('2.1e-9', '-4.5e-5')
    """
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def fmt_weight(w):
    """One weight as a column of weights shows it: four decimals, so the column
    reads evenly (0.1310, not 0.131); only an exact 0 or 1 shows without them,
    a weight too small for them as ``fmt`` shows it (never as 0), and one just
    short of 1 as ">0.9999", never as 1.  The pages' scripts show weights by
    the same rule (softmax-widget.js, fmtWeight; the tests hold them alike).

    >>> [fmt_weight(w) for w in (0.131, 0.0, 1.0, 2.6e-9, 0.99999)]
    ['0.1310', '0', '1', '2.6e-9', '>0.9999']
    """
    if w in (0, 1):
        return str(int(w))
    if 0 < w < 0.00005:
        return fmt_tiny(w)
    if 0.99995 <= w < 1:
        return ">0.9999"
    return f"{w:.4f}"


def fmt_list(values, digits=6):
    """A row of numbers as a list, each as ``fmt`` shows it.

    >>> fmt_list([0.6697615493266569, 0.0])
    '[0.669762, 0]'
    """
    return "[" + ", ".join(fmt(v, digits) for v in values) + "]"


def table_rows(scores):
    """The lesson's table as text: (rows, header first; the weights' sum).

    >>> rows, total = table_rows([0, 0])
    >>> for row in rows:
    ...     print(row)
    ...
    ('key', 'score', 'score - max', 'exp(score - max)', 'weight')
    ('1', '0', '0', '1', '0.5')
    ('2', '0', '0', '1', '0.5')
    >>> total
    '1'
    """
    table = softmax_table(scores)
    rows = [TABLE_HEADER]
    for key, columns in enumerate(table, start=1):
        rows.append((str(key),) + tuple(fmt(v) for v in columns))
    return rows, fmt(math.fsum(weight for *_, weight in table))


def show_value(value, digits=6, fixed=False):
    """An answer as the checker's report shows it: floats to ``digits``
    significant digits (or, with ``fixed``, places), inf and nan by name.

    >>> show_value([0.6697615493266569, float("inf")]), show_value(0.5, 3, fixed=True)
    ('[0.669762, inf]', '0.500')
    >>> show_value({"other": "str", "repr": "'TODO'"})
    "'TODO' (a str, not a number)"
    """
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return f"{value:.{digits}f}" if fixed else f"{value:.{digits}g}"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v, digits, fixed) for v in value) + "]"
    if isinstance(value, dict) and "other" in value:
        return f"{value['repr']} (a {value['other']}, not a number)"
    return repr(value)
