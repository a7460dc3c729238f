import math


def softmax(x, axis=-1):
    top = max(x)
    exps = [math.exp(s - top) for s in x
    return [e / sum(exps) for e in exps]
