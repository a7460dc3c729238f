import math


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            t = softmax([list(c) for c in zip(*x)])
            return [list(r) for r in zip(*t)]
        return [softmax(r) for r in x]
    m = max(x)
    if m == -math.inf:
        raise ValueError("all masked")
    e = [math.exp(v - m) for v in x]
    s = math.fsum(e)
    return [v / s for v in e]


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    if not isinstance(W[0], list):
        W = [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in W)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)


if __name__ == "__main__":
    print("softmax([0.7071, 0]) =", softmax([0.7071, 0]))
    print("softmax([1000, 1000]) =", softmax([1000, 1000]))
    try:
        print(naive_softmax([1000, 1000]))
    except OverflowError as e:
        print("naive overflowed as expected:", e)
    W = softmax([[0.7071, 0], [3, -2]])
    print("rows ok?", rows_normalised(W))
    print("entropy uniform:", entropy([0.25] * 4), "vs ln4 =", math.log(4))
    input("press enter to quit")   # so the window stays open on windows
