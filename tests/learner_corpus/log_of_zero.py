"""entropy takes log(0); only entropy is written so far."""
import math


def entropy(w):
    total = 0.0
    for p in w:
        total -= p * math.log(p)
    return total
