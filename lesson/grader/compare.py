"""Comparing a learner's answers with the lesson's: what counts as the same number.

numbers(value)                   the numbers of a nested list, as floats, or None
matches(got, want)               the same answer: bools exactly, numbers to REL_TOL
shape(value)                     a nested list's shape
rounded(value, places)           every number rounded
raised_one_of(error, names)      was an error one of these exceptions, by its class chain?
digits_to_differ(got, right)     the fewest digits at which two answers show different

The judge, the diagnosis and the report all compare by these rules, so an
answer is "the same" everywhere by one rule.  Numbers are the same when
``math.isclose`` says so at ``REL_TOL`` (with ``ABS_TOL`` near 0): float64
gives about 16 digits, so 1e-9 forgives the order of a sum, not an answer
computed in float32, whose ~7 digits fail.
"""

import math

from lesson._validate import is_number
from lesson.tables import show_value

REL_TOL, ABS_TOL = 1e-9, 1e-12      # "the same number", for every check and mistake


def numbers(value):
    """The numbers of a nested list, as floats, or None if it holds anything
    else (a bool, a string, None, the {"other": ...} of a generator).

    >>> numbers([[1, 2.5], [10 ** 400]]), numbers([0.5, "0.5"]), numbers(True)
    ([1.0, 2.5, inf], None, None)
    """
    if is_number(value):
        return [_as_float(value)]
    if not isinstance(value, list):
        return None
    out = []
    for item in value:
        inner = numbers(item)
        if inner is None:
            return None
        out += inner
    return out


def matches(got, want):
    """Is ``got`` the answer ``want``: bools exactly, numbers to REL_TOL
    (ABS_TOL near 0; nan only as nan), lists item by item, of one shape?

    >>> matches([0.5, 1e-13], [0.5 + 1e-12, 0.0]), matches(1, True), matches(math.nan, math.nan)
    (True, False, True)
    """
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is bool and got == want
    if isinstance(want, list):
        return (isinstance(got, list) and len(got) == len(want)
                and all(matches(g, w) for g, w in zip(got, want)))
    if not (is_number(got) and is_number(want)):
        return False
    got, want = _as_float(got), _as_float(want)
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    return math.isclose(got, want, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def shape(value):
    """A nested list's shape, as nested lists of 0s: [[0, 0], [0, 0]] for 2 x 2."""
    return [shape(v) for v in value] if isinstance(value, list) else 0


def rounded(value, places):
    """Every number of a nested list rounded to ``places`` decimals."""
    if isinstance(value, list):
        return [rounded(v, places) for v in value]
    return round(value, places)


def raised_one_of(error, names):
    """Was the error one of ``names`` (built-in exceptions), by its class chain?

    >>> raised_one_of({"type": "Masked", "kinds": ["mine.Masked", "ValueError"]},
    ...               ("ValueError",))
    True
    """
    kinds = error.get("kinds")
    return isinstance(kinds, list) and any(name in kinds for name in names)


def digits_to_differ(got, right, digits=6):
    """The fewest significant digits (at least ``digits``) at which each
    number of ``got`` that is not the same as ``right``'s shows different.

    >>> digits_to_differ([0.179910034], [0.17991004])
    8
    """
    pairs = [(got, right)]
    flat_got, flat_right = numbers(got), numbers(right)
    if flat_got and flat_right and len(flat_got) == len(flat_right):
        pairs = [(g, r) for g, r in zip(flat_got, flat_right) if not matches(g, r)]
    while digits < 17 and any(show_value(g, digits) == show_value(r, digits)
                              for g, r in pairs):
        digits += 1
    return digits


def _as_float(number):
    try:
        return float(number)
    except OverflowError:                   # an int too large for a float
        return math.inf if number > 0 else -math.inf
