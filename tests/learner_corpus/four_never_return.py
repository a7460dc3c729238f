"""All four functions loop for ever: the report must still come quickly."""


def softmax(x, axis=-1):
    while True:
        pass


def naive_softmax(x):
    while True:
        pass


def rows_normalised(W, tol=1e-9):
    while True:
        pass


def entropy(w):
    while True:
        pass
