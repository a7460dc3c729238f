import math


def softmax(x, axis=-1):
    m = max(x)
    e = [math.exp(v - m) for v in x]
    s = sum(e)
    return [v / s for v in e]


def naive_softmax(x)
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]
