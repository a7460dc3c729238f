# Connects to TCP listeners on the loopback (127.0.0.1, or every address):
# reads the listening ports from /proc/net/tcp and tcp6, counts them, and
# connects on 127.0.0.1 to each in 47100-47199, where the tests open
# theirs: a student would try every port; this one never touches a service
# of the machine.
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

ports = []
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    try:
        with open(table) as file:
            lines = file.readlines()[1:]
    except OSError:
        continue
    for line in lines:
        fields = line.split()
        address, port = fields[1].rsplit(":", 1)
        loopback = address in ("0100007F", "00000000") or set(address) <= {"0"} or \
            address == "00000000000000000000000001000000"
        if fields[3] == "0A" and loopback and int(port, 16) not in ports:   # 0A: LISTEN
            ports.append(int(port, 16))
print("LISTENING", len(ports))
for port in ports:
    if 47100 <= port <= 47199:
        knock(socket.AF_INET, ("127.0.0.1", port), f"127.0.0.1:{port}")
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
