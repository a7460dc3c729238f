"""Input checks and axis walking, shared by every public function in ``lesson``.

This is the plumbing a learner can skip: the math lives in ``weights``,
``head`` and ``compensated``, each with its own checked public functions
that call these.  Each check names the calling function, the problem and where it is, so a
learner reads ``softmax: x[1][2] is nan; scores must be finite or -inf``
instead of a ``nan`` three steps later.  Wrong kinds of thing raise
``TypeError``; right kinds with bad values raise ``ValueError``.

The checks also copy: ``array`` returns a fresh flat list of floats, so
nothing the lesson computes can touch the caller's lists.
"""

import math

# The policy for a query with no key to see, in every message that states it.
ALL_MASKED = "every query needs at least one key it may see"


def array(name, arg, x, *, allow_neg_inf=False):
    """Check a rectangular nested list of real numbers; return (shape, flat).

    ``shape`` is a tuple of lengths, one per nesting level; ``flat`` holds
    the entries as floats in row-major order.

    >>> array("f", "x", [[1, 2], [3, 4]])
    ((2, 2), [1.0, 2.0, 3.0, 4.0])
    >>> array("f", "x", [[1, 2], [3]])
    Traceback (most recent call last):
      ...
    ValueError: f: x is ragged: x[1] has 1 entry, x[0] has 2
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
        if is_number(node):
            raise ValueError(f"{name}: {arg} is ragged: {_at(arg, index)} is a "
                             f"number, {_at(arg, (0,) * depth)} is a list")
        raise TypeError(f"{name}: {_at(arg, index)} must be a list of numbers, "
                        f"not {type(node).__name__}")
    if len(node) != shape[depth]:      # never at depth 0: x set shape[0]
        raise ValueError(f"{name}: {arg} is ragged: {_at(arg, index)} has "
                         f"{count(len(node), 'entry', 'entries')}, "
                         f"{_at(arg, (0,) * depth)} has {shape[depth]}")
    if depth < len(shape) - 1:
        for i, child in enumerate(node):
            _walk(name, arg, child, shape, index + (i,), flat, allow_neg_inf)
        return
    for i, value in enumerate(node):
        if type(value) is float and -math.inf < value < math.inf:
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


def is_number(value):
    """A real number: an int or a float, not a bool (the lesson's and the grader's rule)."""
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
    if not is_number(value):
        kind = "a bool" if isinstance(value, bool) else repr(value)
        raise TypeError(f"{name}: {where} is {kind}, not a number")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(f"{name}: {where} is too large for a float") from None
    if value == -math.inf and allow_neg_inf:
        return value
    if not math.isfinite(value):
        rule = ("scores must be finite or -inf" if allow_neg_inf
                else "numbers must be finite")
        raise ValueError(f"{name}: {where} is {value}; {rule}")
    return value


def axis_index(name, axis, ndim):
    """Return axis as an index in range(ndim); negative axes count from the end.

    >>> axis_index("f", -1, 2)
    1
    >>> axis_index("f", 2, 2)
    Traceback (most recent call last):
      ...
    ValueError: f: axis 2 is out of range for x with 2 dimensions
    """
    if not is_number(axis) or isinstance(axis, float):
        raise TypeError(f"{name}: axis must be an int, not {type(axis).__name__}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name}: axis {axis} is out of range "
                         f"for x with {count(ndim, 'dimension')}")
    return axis % ndim


def size(name, arg, value, *, least=0):
    """Check a size: an int, at least ``least``.

    >>> size("f", "n_k", 0, least=1)
    Traceback (most recent call last):
      ...
    ValueError: f: n_k is 0; it must be at least 1
    """
    if not is_number(value) or isinstance(value, float):
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


def count(n, singular, plural=None):
    """n and a noun, singular or plural as n needs: '1 row', '2 rows'.

    >>> count(1, "entry", "entries"), count(3, "entry", "entries"), count(0, "key")
    ('1 entry', '3 entries', '0 keys')
    """
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def along_axis(name, arg, row_function, x, axis):
    """Check x, then apply row_function to every 1-D slice of x along axis.

    row_function is a softmax of one row (``softmax_row``, say).  A slice
    that is all -inf is an error naming the slice, never nan.

    >>> def total(row):
    ...     return [sum(row)] * len(row)
    ...
    >>> along_axis("f", "x", total, [[1, 2], [3, 4]], 0)
    [[4.0, 6.0], [4.0, 6.0]]
    >>> along_axis("f", "x", total, [[1, -math.inf], [2, -math.inf]], 0)
    Traceback (most recent call last):
      ...
    ValueError: f: column 1 is all -inf; every query needs at least one key it may see
    """
    shape, flat = array(name, arg, x, allow_neg_inf=True)
    axis = axis_index(name, axis, len(shape))
    result = flat[:]
    for line in lines(shape, axis):
        row = flat[line]
        if max(row) == -math.inf:
            where = describe(line, shape, axis, arg)
            raise ValueError(f"{name}: {where} is all -inf; {ALL_MASKED}")
        result[line] = row_function(row)
    return nest(result, shape)


def quick_along_axis(name, arg, row_function, x, axis):
    """along_axis, but one plain row of floats goes straight to row_function.

    That row, the common case, needs only the checks a softmax row function
    makes as it computes (no nan, no inf, not all -inf: a ValueError), so it
    costs little more than the math.  Anything else, and any error, takes
    the full check, which says what is wrong and where.

    >>> double = lambda row: [2 * s for s in row]
    >>> quick_along_axis("f", "x", double, [1.0, 2.0], -1)
    [2.0, 4.0]
    """
    if type(axis) is int and axis == -1 and _is_row_of_floats(x):
        try:
            return row_function(x)
        except ValueError:
            pass
    return along_axis(name, arg, row_function, x, axis)


def lines(shape, axis):
    """A slice of the flat row-major list for each 1-D line along axis.

    Stepping along ``axis`` moves by its stride, the product of the lengths
    after it.  Lines start in blocks of ``shape[axis] * stride`` entries,
    at every offset below the stride.

    >>> list(lines((2, 3), 1))
    [slice(0, 3, 1), slice(3, 6, 1)]
    >>> list(lines((2, 3), 0))
    [slice(0, 6, 3), slice(1, 7, 3), slice(2, 8, 3)]
    """
    stride = math.prod(shape[axis + 1:])
    block = shape[axis] * stride
    for outer in range(0, math.prod(shape), block):
        for start in range(outer, outer + stride):
            yield slice(start, start + block, stride)


def describe(line, shape, axis, arg):
    """Name a line for an error message: 'row 2', 'column 0', 'x[1, :, 0]'.

    >>> describe(slice(3, 6, 1), (2, 3), 1, "x"), describe(slice(1, 7, 3), (2, 3, 1), 1, "x")
    ('row 1', 'x[0, :, 0]')
    """
    index, rest = [], line.start
    for n in reversed(shape):
        rest, i = divmod(rest, n)
        index.insert(0, i)
    if len(shape) == 1:
        return arg
    if len(shape) == 2:
        return f"row {index[0]}" if axis == 1 else f"column {index[1]}"
    parts = [":" if k == axis else str(i) for k, i in enumerate(index)]
    return f"{arg}[{', '.join(parts)}]"


def _is_row_of_floats(x):
    """True if x is a plain list of floats: the quick path can take it.

    Anything else (ints, tuples, nesting, junk) takes the checked path,
    which accepts what it should and explains what it does not.
    """
    if type(x) is not list:
        return False
    for s in x:
        if type(s) is not float:
            return False
    return True
