"""Input checks shared by every public function in ``lesson``.

Each check names the calling function, the problem and where it is, so a
learner reads ``softmax: x[1][2] is nan; scores must be finite or -inf``
instead of a ``nan`` three steps later.  Wrong kinds of thing raise
``TypeError``; right kinds with bad values raise ``ValueError``.

The checks also copy: ``array`` returns a fresh flat list of floats, so
nothing the lesson computes can touch the caller's lists.
"""

import math

_INF = math.inf
_NEG_INF = -math.inf


def array(name, arg, x, *, allow_neg_inf=False):
    """Check a rectangular nested list of real numbers; return (shape, flat).

    ``shape`` is a tuple of lengths, one per nesting level; ``flat`` holds
    the entries as floats in row-major order.

    >>> array("f", "x", [[1, 2], [3, 4]])
    ((2, 2), [1.0, 2.0, 3.0, 4.0])
    >>> array("f", "x", [[1, 2], [3]])
    Traceback (most recent call last):
      ...
    ValueError: f: x is ragged: x[1] has 1 entries, x[0] has 2
    """
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"{name}: {arg} must be a list of numbers, "
                        f"not {type(x).__name__}")
    shape = []
    probe = x
    while isinstance(probe, (list, tuple)):
        if not probe:
            raise ValueError(f"{name}: {arg}{'[0]' * len(shape)} is empty")
        shape.append(len(probe))
        probe = probe[0]
    flat = []
    _walk(name, arg, x, tuple(shape), (), flat, allow_neg_inf)
    return tuple(shape), flat


def _walk(name, arg, node, shape, index, flat, allow_neg_inf):
    """Check one node of a nested list against shape, appending its numbers.

    Locations such as ``x[1][2]`` are spelled out only when something is
    wrong, so checking a long row of good floats stays cheap.
    """
    depth = len(index)
    if not isinstance(node, (list, tuple)):
        if _is_number(node):
            raise ValueError(f"{name}: {arg} is ragged: {_at(arg, index)} is a "
                             f"number, {_at(arg, (0,) * depth)} is a list")
        raise TypeError(f"{name}: {_at(arg, index)} must be a list of numbers, "
                        f"not {type(node).__name__}")
    if len(node) != shape[depth]:      # never at depth 0: x set shape[0]
        raise ValueError(f"{name}: {arg} is ragged: {_at(arg, index)} has "
                         f"{len(node)} entries, {_at(arg, (0,) * depth)} has "
                         f"{shape[depth]}")
    if depth < len(shape) - 1:
        for i, child in enumerate(node):
            _walk(name, arg, child, shape, index + (i,), flat, allow_neg_inf)
        return
    for i, value in enumerate(node):
        if type(value) is float and _NEG_INF < value < _INF:
            flat.append(value)                     # the common case, fast
        elif isinstance(value, (list, tuple)):
            raise ValueError(f"{name}: {arg} is ragged: {_at(arg, index + (i,))} "
                             f"is a list, {_at(arg, (0,) * (depth + 1))} is a number")
        else:
            flat.append(number(name, _at(arg, index + (i,)), value,
                               allow_neg_inf=allow_neg_inf))


def _at(arg, index):
    """Spell a location: _at("x", (1, 2)) is 'x[1][2]'."""
    return arg + "".join(f"[{i}]" for i in index)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def number(name, where, value, *, allow_neg_inf=False):
    """Return value as a float, or raise: it must be a real, finite number.

    ``-inf`` passes only where ``allow_neg_inf`` says so (scores and masks).

    >>> number("f", "x[0]", 3)
    3.0
    >>> number("f", "x[0]", float("nan"))
    Traceback (most recent call last):
      ...
    ValueError: f: x[0] is nan; numbers must be finite
    """
    if not _is_number(value):
        kind = "a bool" if isinstance(value, bool) else repr(value)
        raise TypeError(f"{name}: {where} is {kind}, not a number")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(f"{name}: {where} is too large for a float") from None
    if value == _NEG_INF and allow_neg_inf:
        return value
    if not math.isfinite(value):
        rule = ("scores must be finite or -inf" if allow_neg_inf
                else "numbers must be finite")
        raise ValueError(f"{name}: {where} is {value}; {rule}")
    return value


def axis(name, axis, ndim):
    """Return axis as an index in range(ndim); negative axes count from the end.

    >>> axis("f", -1, 2)
    1
    >>> axis("f", 2, 2)
    Traceback (most recent call last):
      ...
    ValueError: f: axis 2 is out of range for x with 2 dimensions
    """
    if not _is_number(axis) or isinstance(axis, float):
        raise TypeError(f"{name}: axis must be an int, not {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        dims = "dimension" if ndim == 1 else "dimensions"
        raise ValueError(f"{name}: axis {axis} is out of range "
                         f"for x with {ndim} {dims}")
    return axis % ndim


def size(name, arg, value, *, least=0):
    """Check a size: an int, at least ``least``.

    >>> size("f", "n_k", 0, least=1)
    Traceback (most recent call last):
      ...
    ValueError: f: n_k is 0; it must be at least 1
    """
    if not _is_number(value) or isinstance(value, float):
        raise TypeError(f"{name}: {arg} must be an int, "
                        f"not {type(value).__name__}")
    if value < least:
        raise ValueError(f"{name}: {arg} is {value}; it must be at least {least}")
    return value


def tolerance(name, tol):
    """Check a tolerance: a finite number, zero or more.

    >>> tolerance("f", -1e-9)
    Traceback (most recent call last):
      ...
    ValueError: f: tol is -1e-09; it must be zero or more
    """
    tol = number(name, "tol", tol)
    if tol < 0:
        raise ValueError(f"{name}: tol is {tol}; it must be zero or more")
    return tol


def rows(flat, width):
    """Cut a flat list into consecutive rows of ``width`` entries.

    >>> rows([1, 2, 3, 4, 5, 6], 3)
    [[1, 2, 3], [4, 5, 6]]
    """
    return [flat[i:i + width] for i in range(0, len(flat), width)]


def nest(flat, shape):
    """Rebuild a nested list of the given shape from a flat row-major list.

    >>> nest([1, 2, 3, 4, 5, 6, 7, 8], (2, 2, 2))
    [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    """
    if len(shape) == 1:
        return list(flat)
    return [nest(row, shape[1:]) for row in rows(flat, len(flat) // shape[0])]
