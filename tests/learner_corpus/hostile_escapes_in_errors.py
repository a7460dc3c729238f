# An error whose class name ends in a right-to-left override and whose
# message clears the screen, paints twenty green PASS lines, sets the
# window title and hides what follows: the report must show all of it
# escaped, never written to the teacher's terminal.
FAKE = "\x1b[H\x1b[2J\x1b]0;all good\x07" + "".join(
    f"  \x1b[32mPASS\x1b[0m  check {i}\r\n" for i in range(20)) + "\x1b[8m"


class E(ValueError):
    pass


E.__name__ = E.__qualname__ = "ValueError\u202e"


def softmax(x, axis=-1):
    raise E(FAKE[:480])


def naive_softmax(x):
    raise E(FAKE[:100])


def rows_normalised(W, tol=1e-9):
    return None


def entropy(w):
    return None
