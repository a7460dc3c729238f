"""Going further: a softmax correct to the last bit, or nearly.

The stable recipe rounds at three steps on the way to each weight:

1. ``s - m`` is rounded to a float: an absolute error of up to about
   |s - m| * 2**-53, which ``exp`` turns into the same *relative* error.
   A key 100 below the maximum gets a weight wrong by dozens of ulps.
2. ``math.exp`` rounds its result, by up to half an ulp of the exp.  An
   ulp is between 2**-53 and 2**-52 of a float, so relative to the weight
   that can be a whole ulp.
3. The sum and the division round.

Winning back (1) and (3) alone leaves (2): measured against mpmath on
67,000 weights, the worst error was 1.50 ulp, of which 0.88 was that
weight's own exp rounding, 0.13 the other exps' roundings carried by the
sum, and 0.48 the final rounding.  So ``softmax_compensated`` keeps the
bits of all three:

1. TwoSum splits ``s - m`` into the float ``d`` and its exact rounding
   error ``d_err``.
2. ``exp_parts`` computes exp(d + d_err) to about 2**-57, not 2**-53, from
   a table of 2**(j/32) to 80 bits and ``math.expm1`` of a small remainder.
3. ``math.fsum`` adds those exps exactly; the reciprocal of the total is
   kept as two floats, so each weight is one exact product plus small
   corrections, rounded once.

What remains is that one final rounding, half an ulp, and a few hundredths
of an ulp besides (a weight below 2**-1022 is rounded twice): within 1 ulp
on every row, where the plain recipe can be off by dozens.  The scores 0.1 and -99.9 are stored as the nearest floats,
whose gap is not exactly 100; the subtraction rounds it to 100.0, and that
lost sliver moves the small weight by 43 ulp:

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
exp_parts(scores, top)            exp(s - top) of each score as two floats
exact_total(his, los)             the sum of those exps as two floats
reciprocal(hi, lo)                1 / (hi + lo) as two floats
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
    """Split a float into two halves of 26 bits each (Veltkamp), a == hi + lo.

    The product of two 26-bit halves has at most 52 bits: it is exact.
    """
    c = 134217729.0 * a                      # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi
# --8<-- [end:error_free]


# --8<-- [start:exp_parts]
def _hi_lo(n, bits):
    """n / 2**bits as floats (hi, lo, fl): hi has 26 bits, hi + lo ~80 bits.

    Python divides one int by another with a single rounding, so each float
    here is the nearest to its exact value.
    """
    hi = _split(n / 2 ** bits)[0]
    return hi, (n - int(hi * 2 ** bits)) / 2 ** bits, n / 2 ** bits


# The constants come from exact integer arithmetic, in units of 2**-BITS:
# ln(2) = 1/2 + 1/8 + 1/24 + ..., the sum of 1 / (k 2**k), each term rounded
# down (so within 2**-93); and 2**(j/32) is five square roots of 2**j, each
# rounded down by math.isqrt, which rounds the whole down (within 2**-100).
N = 32                        # table entries per power of two; 2**5
BITS = 100
LN2 = sum((1 << BITS) // (k << k) for k in range(1, BITS))      # ln(2) * 2**BITS


def _two_to_the(j):
    """2**(j / N) * 2**BITS, rounded down to an integer."""
    n = 1 << (j + N * BITS)
    for _ in range(5):
        n = math.isqrt(n)
    return n


LN2_OVER_N = _hi_lo(LN2, BITS + 5)[:2]                  # ln(2) / N, N = 2**5
N_OVER_LN2 = (N << BITS) / LN2
TABLE = [_hi_lo(_two_to_the(j), BITS) for j in range(N)]       # 2**(j/N)
FAR_BELOW = -746.0            # exp(-746) / total < 2**-1076: a weight of 0.0
SCALE = 2.0 ** 600            # every exp is kept SCALE times larger
POWERS = [math.ldexp(SCALE, -m) for m in range(1100)]          # SCALE * 2**-m


def exp_parts(scores, top):
    """exp(s - top) * SCALE of each score as hi + lo, to about 2**-57.

    ``math.exp(s - top)`` is off by up to 2**-53 of its value: a whole ulp
    of a weight, at worst.  Here s - top == d + d_err exactly (TwoSum), and

        d + d_err = k * ln(2) / N + r           k = round(d * N / ln 2)
        exp(d + d_err) = 2**(k // N) * 2**((k % N) / N) * (1 + expm1(r))
                       = 2**(k // N) * (t_hi + t_lo) * (1 + u)

    The table has 2**(j/N) as t_hi + t_lo to 80 bits, t_hi with 26 of them
    (and as one float t).  |r| <= ln(2) / 2N, so |u| < 0.011, and u's own
    rounding is below 2**-59 of 1 + u.  So hi = c * t_hi, exactly, and
    lo = c * (t_lo + t * u), where c is the power of two SCALE * 2**(k // N).  SCALE keeps hi a float with all its
    26 bits, far from underflow, for every score down to FAR_BELOW; it
    cancels in the division.  A masked key (-inf), or one far below the
    top, gets 0.0; a nan gets lo = nan, which the total then shows.

    >>> his, los = exp_parts([0.0, -100.0], 0.0)
    >>> his[0] / SCALE, los[0]                  # exp(0) == 1
    (1.0, 0.0)
    >>> from decimal import Decimal
    >>> exact = Decimal(-100).exp() * Decimal(SCALE)
    >>> error = (Decimal(his[1]) + Decimal(los[1])) / exact - 1
    >>> abs(error) < 2 ** -57                # math.exp: up to 2**-53
    True
    """
    ln2_hi, ln2_lo = LN2_OVER_N
    his, los = [], []
    for s in scores:
        d = s - top
        if not d >= FAR_BELOW:               # -inf (masked), far below, or nan
            his.append(0.0)
            los.append(0.0 if d < FAR_BELOW else math.nan)
            continue
        # TwoSum, as in two_sum(s, -top) but inlined for speed:
        b_virtual = d - s
        d_err = (s - (d - b_virtual)) - (top + b_virtual)
        k = round(d * N_OVER_LN2)
        # d - k * ln2_hi is exact: k * ln2_hi has at most 26 + 16 bits,
        # and it is within a factor of 2 of d (Sterbenz).
        r = (d - k * ln2_hi) + (d_err - k * ln2_lo)
        t_hi, t_lo, t = TABLE[k % N]
        c = POWERS[-(k // N)]
        his.append(c * t_hi)
        los.append(c * (t_lo + t * math.expm1(r)))
    return his, los
# --8<-- [end:exp_parts]


# --8<-- [start:softmax_compensated_row]
def exact_total(his, los):
    """The sum of hi + lo over the row as (total, err), good to ~2**-59.

    Each hi has 26 bits, and ``math.fsum`` adds them with one rounding;
    fsum again gives what that rounding left out.  Each lo is below 1.2% of
    its hi: their rounded sum is enough.

    >>> exact_total([1.0, 1.0, 1.0], [0.0, 0.0, 2 ** -60])
    (3.0, 8.673617379884035e-19)
    """
    total = math.fsum(his)
    return two_sum(total, math.fsum(his + [-total]) + math.fsum(los))


def reciprocal(hi, lo):
    """1 / (hi + lo) as (r_hi, r_lo), where r_hi has 26 bits.

    With 26 bits, r_hi * h is exact for any 26-bit h.  r_lo is one Newton
    step, (1 - r_hi * (hi + lo)) / hi, the product exact by TwoProduct.

    >>> r_hi, r_lo = reciprocal(3.0, 0.0)
    >>> r_hi, r_hi + r_lo                    # 26 bits, then the float 1 / 3
    (0.3333333358168602, 0.3333333333333333)
    >>> from fractions import Fraction
    >>> error = Fraction(r_hi) + Fraction(r_lo) - Fraction(1, 3)
    >>> abs(error) < 2 ** -80                # 1 / 3 as one float: ~2**-55
    True
    """
    r_hi = _split(1.0 / hi)[0]
    p, p_err = two_product(r_hi, hi)         # r_hi * hi == p + p_err
    return r_hi, ((1.0 - p) - p_err - r_hi * lo) / hi


def softmax_compensated_row(scores):
    """Softmax of one row, each weight within 1 ulp of exact; no checks.

    Same weights as ``softmax_row`` but for the last digits, which are
    the exact answer's, rounded once.

    >>> softmax_compensated_row([1000.0, 1000.0])
    [0.5, 0.5]
    >>> softmax_compensated_row([0.1, -99.9])[1]       # softmax_row: ...836e-44
    3.7200759760208147e-44
    >>> softmax_compensated_row([0.0, -math.inf])
    [1.0, 0.0]
    """
    top = max(scores)
    his, los = exp_parts(scores, top)
    total, err = exact_total(his, los)
    if not total >= SCALE:    # nan: a score was nan or inf, or all were -inf
        raise ValueError("softmax_compensated_row: scores must be finite "
                         "or -inf, and not all -inf")
    # r_hi + r_lo = SCALE / (total + err), so (hi + lo) * (r_hi + r_lo) is
    # the weight times SCALE: hi * r_hi is exact, the rest is small, and
    # their sum is the one rounding.  Dividing by SCALE is exact (but for a
    # weight below 2**-1022, which it rounds again).
    r_hi, r_lo = reciprocal(total / SCALE, err / SCALE)
    r = r_hi + r_lo
    return [(hi * r_hi + (hi * r_lo + lo * r)) / SCALE
            for hi, lo in zip(his, los)]
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
    # One row of floats, the common case, goes straight to the row function.
    return _validate.quick_along_axis("softmax_compensated", "x",
                                      softmax_compensated_row, x, axis)
