"""Going further: softmax to the nearest float, every weight.

The stable recipe rounds at three steps on the way to each weight:

1. ``s - m`` is rounded to a float: an absolute error of up to about
   |s - m| * 2**-53, which ``exp`` turns into the same *relative* error.
   A key 100 below the maximum gets a weight wrong by dozens of ulps.
2. ``math.exp`` rounds its result, by up to half an ulp of the exp.
3. The sum and the division round.

The best a float can do is the float nearest to the exact weight: an error
of at most half an ulp, every weight *correctly rounded*.
``softmax_compensated`` gives exactly that, in two stages:

1. **Floats with more bits.**  TwoSum keeps the rounding error of
   ``s - m``; ``exp_parts`` computes each exp as two floats, good to
   2**-72 rather than 2**-53, from a table of 2**(j/1024) and a short
   polynomial; ``math.fsum`` adds them exactly; each weight is an exact
   product plus small corrections, rounded once.  The weight before that
   rounding is within 2**-70 of exact: a proven bound.
2. **Ziv's rounding test.**  The float nearest to the exact weight is
   plain to see unless the exact weight could lie on the other side of a
   *midpoint*, halfway between two floats.  With the bound, the test
   ``y == y + t * TEST`` says whether it could.  For the rare weight where
   it could (a few in a million), ``exact_weights`` works it out again in
   ``decimal``, whose ``exp`` is correctly rounded: its own exp first, the
   whole row if need be, at a precision raised until the midpoint is out
   of reach.

So every weight is the exact softmax of the given floats, rounded once to
the nearest float.  The scores 0.1 and -99.9 are stored as the nearest
floats, whose gap is not exactly 100; the subtraction rounds it to 100.0,
and that lost sliver moves the small weight by 43 ulp:

>>> from lesson import softmax
>>> x = [0.1, -99.9]
>>> x[1] - x[0]
-100.0
>>> softmax(x)[1]
3.720075976020836e-44
>>> softmax_compensated(x)[1]
3.7200759760208147e-44
>>> from lesson.bench import exact_softmax
>>> float(exact_softmax(x)[1])          # the true value, to 60 digits, rounded
3.7200759760208147e-44

Functions
---------
two_sum(a, b)                     a + b as a float and its exact rounding error
two_product(a, b)                 a * b as a float and its exact rounding error
exp_parts(scores, top)            exp(s - top) of each score as two floats
exact_total(his, los)             the sum of those exps as two floats
reciprocal(hi, lo)                1 / (hi + lo) as two floats
fast_weights(scores)              the weights in floats, those left in doubt, the total
exact_weights(scores, doubtful)   those weights from decimal, correctly rounded
softmax_compensated_row(scores)   correctly rounded softmax of one row, no checks
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
# The constants come from exact integer arithmetic, in units of 2**-BITS:
# ln(2) = 1/2 + 1/8 + 1/24 + ..., the sum of 1 / (k 2**k), each term rounded
# down (so within 2**-93); 2**(1/32) and 2**(1/1024) are square roots of 2
# taken 5 and 10 times by math.isqrt, and the table holds their products.
LOG_N = 10
N = 2 ** LOG_N                # table entries per power of two: 1024
BITS = 100
LN2 = sum((1 << BITS) // (k << k) for k in range(1, BITS))      # ln(2) * 2**BITS


def _root_of_two(times):
    """2**(1 / 2**times) * 2**BITS, rounded down: repeated square roots."""
    n = 2 << (BITS << times)
    for _ in range(times):
        n = math.isqrt(n)
    return n


def _powers(step, count):
    """step**i for i < count, each in units of 2**-BITS (within count * 2**-BITS)."""
    out = [1 << BITS]
    for _ in range(count - 1):
        out.append(out[-1] * step >> BITS)
    return out


def _head_tail(n, bits, keep):
    """n / 2**bits as two floats: its first ``keep`` bits exactly, then the rest."""
    cut = max(n.bit_length() - keep, 0)
    head = n >> cut << cut
    return head / 2 ** bits, (n - head) / 2 ** bits


def _table_entry(j, two_j):
    """2**(j/N) as t_hi + t_lo, t_hi with 26 bits and the sum within 2**-78;
    then j * ln(2) / N as two floats, the first exact for any j, |j| <= N/2."""
    t_hi, _ = _split(two_j / 2 ** BITS)
    t_lo = (two_j - int(t_hi * 2 ** BITS)) / 2 ** BITS       # one rounding
    j_ln2_hi, j_ln2_lo = (j * x for x in LN2_OVER_N)
    return t_hi, t_lo, j_ln2_hi, j_ln2_lo


LN2_PARTS = _head_tail(LN2, BITS, 42)         # m * first part is exact, |m| < 2**11
LN2_OVER_N = _head_tail(LN2, BITS + LOG_N, 43)   # j * first part exact, |j| <= N/2
N_OVER_LN2 = (N << BITS) / LN2
_FINE = _powers(_root_of_two(10), 32)       # 2**(b/N), b < 32; and N = 32 * 32
_TWO_J = [a * b >> BITS for a in _powers(_root_of_two(5), 32) for b in _FINE]
# TABLE[k % N] is for j = k - N * m, where m = round(k / N): j in [-N/2, N/2)
TABLE = [_table_entry(j, _TWO_J[j]) for j in range(N // 2)] + [
    _table_entry(j - N, _TWO_J[j] >> 1) for j in range(N // 2, N)]
FAR_BELOW = -746.0            # exp(-746) / total < 2**-1076: a weight of 0.0
SCALE = 2.0 ** 600            # every exp is kept SCALE times larger
# POWERS[-m] = (SCALE * 2**m, m * ln 2 as two floats), for m = 0, -1, ..., -1077
POWERS = [(math.ldexp(SCALE, m),) + tuple(m * x for x in LN2_PARTS)
          for m in range(0, -1078, -1)]
SPLITTER = 1.5 * 2 ** 26      # (r + SPLITTER) - SPLITTER: r to a multiple of 2**-26
C3, C4, C5 = 1 / 6, 1 / 24, 1 / 120


def exp_parts(scores, top):
    """exp(s - top) * SCALE of each score as hi + lo, to 2**-72 of its value.

    ``math.exp(s - top)`` is off by up to 2**-53 of its value: a whole ulp
    of a weight, at worst.  Here s - top == d + d_err exactly (TwoSum), and

        k = round(d * N / ln 2),  m = round(k / N),  j = k - N m
        d + d_err = m * ln(2) + j * ln(2) / N + r
        exp(d + d_err) = 2**m * 2**(j/N) * exp(r)

    Each product m * ln(2) and j * ln(2) / N is kept as two floats, the
    first exact, so r = r_hi + r_lo with r_hi exact and |r| <= ln(2) / 2N.
    Then r_hi = r_a + r_b, r_a a multiple of 2**-26 (so it has 15 bits),
    and, with 2**(j/N) = t_hi + t_lo from the table (t_hi has 26 bits),

        2**(j/N) * exp(r) = t_hi * (1 + r_a)                 (exact)
                          + t_hi * (r_b + r_lo + p) + t_lo * (1 + r + p)

    where p = r**2/2 + r**3/6 + r**4/24 + r**5/120 (the next term is below
    2**-78).  The first term is exact: 26 bits times 27 bits.  The rest is
    below 2**-23 of it, so its few roundings are each below 2**-75.  So
    hi = c * t_hi * (1 + r_a), exactly, and lo = c * (the rest), where c is
    the power of two SCALE * 2**m.  SCALE keeps both floats far from
    underflow for every score down to FAR_BELOW; it cancels in the
    division.  A masked key (-inf), or one far below the top, gets 0.0; a
    nan gets lo = nan, which the total then shows.

    >>> his, los = exp_parts([0.0, -100.0], 0.0)
    >>> his[0] / SCALE, los[0]                  # exp(0) == 1
    (1.0, 0.0)
    >>> from decimal import Decimal
    >>> exact = Decimal(-100).exp() * Decimal(SCALE)
    >>> error = (Decimal(his[1]) + Decimal(los[1])) / exact - 1
    >>> abs(error) < 2 ** -72                # math.exp: up to 2**-53
    True
    """
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
        t_hi, t_lo, j_ln2_hi, j_ln2_lo = TABLE[k & (N - 1)]      # k % N
        c, m_ln2_hi, m_ln2_lo = POWERS[-((k + N // 2) >> LOG_N)]   # -m, m = round(k / N)
        r_hi = (d - m_ln2_hi) - j_ln2_hi     # both subtractions exact
        r_lo = d_err - (m_ln2_lo + j_ln2_lo)
        r_a = (r_hi + SPLITTER) - SPLITTER
        r = r_hi + r_lo
        p = r * r * (0.5 + r * (C3 + r * (C4 + r * C5)))
        his.append(c * (t_hi + t_hi * r_a))
        los.append(c * (t_lo + (t_hi * (((r_hi - r_a) + r_lo) + p) + t_lo * (r + p))))
    return his, los
# --8<-- [end:exp_parts]


# --8<-- [start:softmax_compensated_row]
def exact_total(his, los):
    """The sum of hi + lo over the row as (total, err), within 2**-75 of it.

    ``math.fsum`` adds the his with one rounding; fsum again gives what
    that rounding left out.  Each lo is below 2**-23 of its hi: their
    rounded sum (and its sum with the rest) is enough, each rounding within
    2**-76 of the total.

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


# Before its one rounding, each weight (times SCALE) is a + b, within
# WEIGHT_ERROR of exact: 2**-72 from its exp, 2**-72 + 2**-75 from the
# total, 2**-75 from the reciprocal, 2**-74 from the roundings in b.
WEIGHT_ERROR = 2.0 ** -70
TEST = 1 + 2 ** 54 * WEIGHT_ERROR * (1 + 2 ** -10)     # Ziv's test factor
TINY = 2.0 ** -1022 * SCALE   # a weight below 2**-1022 rounds on a coarser grid


def fast_weights(scores):
    """(weights, doubtful, total): each weight in floats, where rounding is
    in doubt, and the sum of exp(s - top) as two floats (for exact_weights).

    Each weight times SCALE is (hi + lo) * (r_hi + r_lo).  hi splits into
    two 26-bit halves, so hi_a * r_hi and hi_b * r_hi are exact; the rest
    is small.  y = a + b is the one rounding, and t = a + b - y exactly.

    The exact weight is within WEIGHT_ERROR * y of a + b = y + t.  It
    rounds to y unless that interval reaches a midpoint, half an ulp from
    y (a quarter, below a power of two).  Ziv's test checks it with one
    addition: y + t * TEST rounds back to y only if t is far enough from
    the midpoint for the error to stay on y's side, since TEST - 1 is a
    little over 2**54 * WEIGHT_ERROR and y is at most 2**54 times that
    half or quarter ulp.  A weight below 2**-1022 is left in doubt too: it
    rounds again, to the fixed spacing of the subnormal floats.

    >>> weights, doubtful, total = fast_weights([0.0, -1.0])
    >>> weights, doubtful
    ([0.7310585786300049, 0.2689414213699951], [])
    >>> round(total[0], 6)                  # 1 + exp(-1), with its lost bits in total[1]
    1.367879
    """
    top = max(scores)
    his, los = exp_parts(scores, top)
    total, err = exact_total(his, los)
    if not total >= SCALE:    # nan: a score was nan or inf, or all were -inf
        raise ValueError("softmax_compensated_row: scores must be finite "
                         "or -inf, and not all -inf")
    total, err = total / SCALE, err / SCALE
    r_hi, r_lo = reciprocal(total, err)
    r = r_hi + r_lo
    weights, doubtful = [], []
    for hi, lo in zip(his, los):
        c = 134217729.0 * hi                 # _split(hi), inlined
        hi_a = c - (c - hi)
        a = hi_a * r_hi
        b = (hi - hi_a) * r_hi + (hi * r_lo + lo * r)
        y = a + b
        weights.append(y / SCALE)            # exact, but below 2**-1022
        t = b - (y - a)                      # a + b == y + t (|b| < |a|)
        if (y != y + t * TEST or y < TINY) and hi:
            doubtful.append(len(weights) - 1)
    return weights, doubtful, (total, err)


def exact_weights(scores, doubtful, total=None, digits=28):
    """{i: the float nearest the exact weight i}, for each i in doubtful.

    In ``decimal``, whose ``exp`` is correctly rounded: with u = 10**(1 -
    digits) / 2, each exp(s - top) is within u of exact (s - top exact
    first), and so is each quotient q.  Two tries:

    1. Each doubtful weight's own exp in decimal, over the fast path's
       ``total`` (computed here if not given), within 2**-72 + 2**-75 of
       exact as every exp is: q is then
       within 2**-71 + 3u of the weight.  Most doubts end here, for the
       cost of one exp each.
    2. The whole row in decimal, the sum exact: q within 4u of the weight
       (keys more than 746 below the top add under 2**-1076 each), so 5u
       of q.  The digits double until every weight is settled.  It ends:
       an exact weight is never a midpoint (it is 1/k, or transcendental).

    >>> exact_weights([0.0, -1.0], [1])
    {1: 0.2689414213699951}
    """
    from decimal import Decimal, localcontext        # only when needed
    top = max(scores)
    if total is None:
        total = [x / SCALE for x in exact_total(*exp_parts(scores, top))]
    found = {}
    with localcontext() as ctx:
        ctx.prec = 1100 + 2 * digits     # s - top, within 746 of 0: exact
        gap = {i: Decimal(scores[i]) - Decimal(top) for i in doubtful}
        fast_total = Decimal(total[0]) + Decimal(total[1])
        u = Decimal(10) ** (1 - digits) / 2
        ctx.prec = digits
        own = {i: gap[i].exp() for i in doubtful}
        left = _settle(found, doubtful, own, fast_total, Decimal(2) ** -71 + 3 * u, digits)
        if left:
            ctx.prec = 1100 + 2 * digits
            gaps = [Decimal(s) - Decimal(top) if s - top >= FAR_BELOW else None
                    for s in scores]
        while left:
            ctx.prec = digits
            exps = [gap.exp() if gap is not None else Decimal(0) for gap in gaps]
            ctx.prec = digits + 400      # exact: each exp a multiple of 10 ** (-digits - 330)
            left = _settle(found, left, exps, sum(exps), 5 * u, digits)
            digits *= 2
            u = Decimal(10) ** (1 - digits) / 2
    return found


def _settle(found, doubtful, exps, total, error, digits):
    """found[i] = float(q), q = exps[i] / total, where q * (1 +- error)
    stays between the midpoints beside it; the rest, still in doubt.

    ``math.nextafter`` finds the neighbouring floats, subnormal or not."""
    from decimal import Decimal, localcontext
    left = []
    for i in doubtful:
        with localcontext() as ctx:
            ctx.prec = digits
            q = exps[i] / total
            ctx.prec = 1100 + 2 * digits         # the midpoints, exactly
            w = float(q)
            below = (Decimal(w) + Decimal(math.nextafter(w, -math.inf))) / 2
            above = (Decimal(w) + Decimal(math.nextafter(w, math.inf))) / 2
            if below < q * (1 - error) and q * (1 + error) < above:
                found[i] = w
            else:
                left.append(i)
    return left


def softmax_compensated_row(scores):
    """Softmax of one row, each weight the float nearest to exact; no checks.

    Same weights as ``softmax_row`` but for the last digits: each is the
    exact softmax of the given floats, correctly rounded.

    >>> softmax_compensated_row([1000.0, 1000.0])
    [0.5, 0.5]
    >>> softmax_compensated_row([0.1, -99.9])[1]       # softmax_row: ...836e-44
    3.7200759760208147e-44
    >>> softmax_compensated_row([0.0, -math.inf])
    [1.0, 0.0]
    """
    weights, doubtful, total = fast_weights(scores)
    if doubtful:
        for i, w in exact_weights(scores, doubtful, total).items():
            weights[i] = w
    return weights
# --8<-- [end:softmax_compensated_row]


def softmax_compensated(x, axis=-1):
    """softmax_compensated_row along an axis of x; same contract as softmax.

    Same shapes, axes, masking and errors as ``softmax``; only the last
    digits differ: every weight is the float nearest to the exact one.

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
