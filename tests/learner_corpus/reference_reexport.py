# the lesson package already has these, why write them again :)
from lesson import entropy, naive_softmax, rows_normalised, softmax

__all__ = ["softmax", "naive_softmax", "rows_normalised", "entropy"]
