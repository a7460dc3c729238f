"""Going further: a softmax that wins back the digits the max trick loses.

Subtracting the maximum m keeps ``exp`` from overflowing, but it is not
exact.  ``s - m`` is rounded to the nearest float, an absolute error of up
to about |s - m| * 2**-53, and ``exp`` turns an absolute error in its input
into the same *relative* error in its output.  So a key whose score sits 100
below the maximum gets a weight that can be wrong by dozens of units in the
last place (ulp), however carefully the rest is done.

``softmax_compensated`` keeps those lost bits instead of dropping them:

1. TwoSum splits ``s - m`` into the rounded float ``d`` and its exact
   rounding error ``d_err`` (error-free: s - m == d + d_err).
2. exp(d + d_err) is exp(d) * exp(d_err), and exp(d_err) = 1 + d_err to
   far below a float's precision, so the error adds ``exp(d) * d_err``.
3. ``math.fsum`` adds everything exactly; the one division left is
   corrected with an exact product (Dekker's TwoProduct).

What remains is the rounding of ``math.exp`` itself and of the last step:
about 1 ulp at most, instead of |s - m| / 2.

The scores 0.1 and -99.9 are stored as the nearest floats, and the gap
between those two floats is not exactly 100; but the subtraction rounds it
to 100.0, and that lost sliver moves the small weight by 43 ulp:

>>> from lesson import softmax
>>> x = [0.1, -99.9]
>>> x[1] - x[0]
-100.0
>>> softmax(x)[1]
3.720075976020836e-44
>>> softmax_compensated(x)[1]
3.7200759760208147e-44
>>> from lesson.bench import exact_softmax
>>> float(exact_softmax(x)[1])          # the true value, to 60 digits
3.7200759760208147e-44

Functions
---------
two_sum(a, b)                     a + b as a float and its exact rounding error
two_product(a, b)                 a * b as a float and its exact rounding error
softmax_compensated_row(scores)   compensated softmax of one row, no checks
softmax_compensated(x, axis=-1)   the same along an axis, checked like softmax
"""

# --8<-- [start:imports]
import math
# --8<-- [end:imports]

from lesson import _validate


# --8<-- [start:error_free]
def two_sum(a, b):
    """Return (s, err): s = fl(a + b) and a + b == s + err exactly (Knuth).

    >>> two_sum(1.0, 2 ** -60)          # the sum rounds to 1.0; err keeps the rest
    (1.0, 8.673617379884035e-19)
    """
    s = a + b
    b_virtual = s - a
    err = (a - (s - b_virtual)) + (b - b_virtual)
    return s, err


def two_product(a, b):
    """Return (p, err): p = fl(a * b) and a * b == p + err exactly (Dekker).

    >>> p, err = two_product(0.1, 3.0)
    >>> p, err                          # 0.1 * 3 is not quite 0.30000000000000004
    (0.30000000000000004, -2.7755575615628914e-17)
    """
    p = a * b
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    err = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    return p, err


def _split(a):
    """Split a float into two halves of 26 bits each (Veltkamp), a == hi + lo."""
    c = 134217729.0 * a                      # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi
# --8<-- [end:error_free]


# --8<-- [start:softmax_compensated_row]
def softmax_compensated_row(scores):
    """Softmax of one row with the rounding of s - max compensated; no checks.

    Same weights as ``softmax_row`` but for the last digits, which are
    closer to the exact answer.

    >>> softmax_compensated_row([1000.0, 1000.0])
    [0.5, 0.5]
    >>> softmax_compensated_row([0.1, -99.9])[1]       # softmax_row: ...836e-44
    3.7200759760208147e-44
    >>> softmax_compensated_row([0.0, -math.inf])
    [1.0, 0.0]
    """
    top = max(scores)
    exps, fixes = [], []
    for s in scores:
        d, d_err = two_sum(s, -top)          # s - top == d + d_err, exactly
        if d == -math.inf:                   # a masked key, or far below
            exps.append(0.0)
            fixes.append(0.0)
            continue
        e = math.exp(d)
        exps.append(e)
        fixes.append(e * d_err)              # exp(d + d_err) ~ e + e * d_err
    total = math.fsum(exps + fixes)
    if not total > 0.0:       # nan: a score was nan or inf, or all were -inf
        raise ValueError("softmax_compensated_row: scores must be finite "
                         "or -inf, and not all -inf")
    total_err = math.fsum(exps + fixes + [-total])   # what rounding left out
    return [_divide(e, fix, total, total_err) for e, fix in zip(exps, fixes)]


def _divide(e, fix, total, total_err):
    """(e + fix) / (total + total_err), with one rounding at the end."""
    q = e / total
    p, p_err = two_product(q, total)         # q * total == p + p_err, exactly
    remainder = (e - p) - p_err + fix - q * total_err
    return q + remainder / total
# --8<-- [end:softmax_compensated_row]


def softmax_compensated(x, axis=-1):
    """softmax_compensated_row along an axis of x; same contract as softmax.

    Same shapes, axes, masking and errors as ``softmax``; only the last
    digits differ, and they are closer to the exact answer.

    >>> softmax_compensated([1000, 1000])
    [0.5, 0.5]
    >>> softmax_compensated([[0.0, -math.inf], [2.0, 2.0]])
    [[1.0, 0.0], [0.5, 0.5]]
    >>> softmax_compensated([-math.inf] * 2)
    Traceback (most recent call last):
      ...
    ValueError: softmax_compensated: x is all -inf; every query needs at least one key it may see
    """
    return _validate.along_axis("softmax_compensated", "x",
                              softmax_compensated_row, x, axis)
