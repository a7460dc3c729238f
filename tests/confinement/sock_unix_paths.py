# Connects to Unix sockets on the machine: walks /run, /var/run, the shared
# folders, /opt, /srv, the homes and the class folder's parent (found from
# the checker's working folder and a sandbox's command line) for socket
# files, even on a read-only mount, and counts them.  A student would
# connect to each; this one connects only to those named like the tests'
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


def places():
    found = ["/run", "/var/run", "/tmp", "/var/tmp", "/dev/shm", "/opt", "/srv", "/home", "/root"]
    for pid in (os.getppid(), 1):
        try:
            found.append(os.path.dirname(os.readlink(f"/proc/{pid}/cwd")))
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                found += [os.path.dirname(os.fsdecode(a)) for a in file.read().split(b"\0")
                          if a.startswith(b"/")]
        except OSError:
            pass
    return [p for p in dict.fromkeys(found) if p not in ("/", "/usr", "")]


def sockets(roots, depth=4, seconds=1.5):
    end = time.monotonic() + seconds
    queue = [(root, 0) for root in roots]
    while queue and time.monotonic() < end:
        folder, level = queue.pop(0)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISSOCK(mode):
                yield entry.path
            elif stat.S_ISDIR(mode) and level + 1 < depth and entry.name != "node_modules":
                queue.append((entry.path, level + 1))


found = sorted(set(sockets(places())))
print("SOCKETS", len(found))
for path in found:
    if "lesson-confinement" in os.path.basename(path):
        knock(socket.AF_UNIX, path, path)
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
