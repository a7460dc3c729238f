import math
import sys

print("loading my softmax file...")
print("python version", sys.version.split()[0])


def softmax(x, axis=-1):
    print("debug: softmax got", x, "axis", axis)
    if isinstance(x[0], list):
        if axis == 0:
            cols = [softmax(list(c)) for c in zip(*x)]
            return [list(r) for r in zip(*cols)]
        return [softmax(r) for r in x]
    m = max(x)
    print("debug: max is", m)
    if m == float("-inf"):
        raise ValueError("all -inf row")
    e = [math.exp(v - m) for v in x]
    return [v / math.fsum(e) for v in e]


def naive_softmax(x):
    print("naive! (should blow up on big numbers)", file=sys.stderr)
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    sums = [math.fsum(r) for r in rows]
    print("row sums:", sums)
    return all(abs(s - 1) <= tol for s in sums)


def entropy(w):
    total = 0.0
    for p in w:
        if p > 0:
            total -= p * math.log(p)
    print(f"entropy of {w} = {total}")
    return total


print("softmax test:", softmax([0.7071, 0]))
print("done loading")
