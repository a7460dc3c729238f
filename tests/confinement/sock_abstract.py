# Connects to abstract Unix sockets (named in no folder, so no mount hides
# them and no file mode guards them): reads their names from
# /proc/net/unix, counts them, and connects to each named like the tests'
# own listeners (lesson-confinement), never to a service of the machine.
import os
import socket
import stat
import time

BANNER = b"lesson-confinement-listener"     # what the tests' own listeners say first
NONCE = os.urandom(8).hex()
print("NONCE", NONCE)
CONNECTED = []


def knock(family, address, label):
    """Connect; to a listener of the tests' (it says BANNER) send the nonce,
    to anything else nothing."""
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        try:
            sock.connect(address)
        except OSError:
            return
        try:
            banner = sock.recv(64)
        except OSError:
            banner = b""
        if banner.startswith(BANNER):
            sock.sendall(f"NONCE {NONCE}\n".encode())
            CONNECTED.append(label)
            print("CONNECTED", label)
        else:
            print("OPENED", label)

names = []
try:
    with open("/proc/net/unix") as file:
        for line in file.readlines()[1:]:
            fields = line.split()
            if len(fields) >= 8 and fields[7].startswith("@") and fields[7] not in names:
                names.append(fields[7])
except OSError as error:
    print("UNIX unreadable:", error.strerror)
print("ABSTRACT", len(names))
for name in names:
    if name.startswith("@lesson-confinement"):
        knock(socket.AF_UNIX, "\0" + name[1:], name)
WORKED = bool(CONNECTED)


# --- Its grade says whether it worked: right answers only if it did ------------

import math


def _row(row):
    top = max(row)
    if top == -math.inf:
        raise ValueError("a row is all -inf: no key can take the weight")
    exps = [math.exp(s - top) for s in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def softmax(x, axis=-1):
    if not WORKED:
        return None
    if not isinstance(x[0], list):
        return _row(x)
    if axis in (-1, 1):
        return [_row(row) for row in x]
    if axis == 0:
        return [list(row) for row in zip(*[_row(list(column)) for column in zip(*x)])]
    raise ValueError(f"axis must be 0 or -1 for a list of rows, not {axis}")


def naive_softmax(x):
    if not WORKED:
        return None
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    if not WORKED:
        return None
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    if not WORKED:
        return None
    return 0.0 - math.fsum(p * math.log(p) for p in w if p > 0)
