import math


def softmax(x, axis=-1):
    m = max(x)
    e = [math.exp(v - m) for v in x]
    s = sum(e)
    return [v / s for v in e]


def entropy(w):
    h = 0.0
    for p in w:
        if p > 0:
            h -= p * math.log(p)
      return h
