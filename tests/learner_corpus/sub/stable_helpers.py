import math


def stable_row(row):
    m = max(row)
    if m == -math.inf:
        raise ValueError("all -inf")
    e = [math.exp(s - m) for s in row]
    t = math.fsum(e)
    return [v / t for v in e]
