"""lesson/grader/harness.py: loading a learner's file and calling its functions.

The harness is the one part of the grader that runs the learner's code, in
the checker's worker process and in the page's learner Web Worker alike.
These tests call it in this process, on code of the tests' own that does
nothing harmful; the learners' files that fight back are graded through the
command line (test_exercise.py, test_learner_corpus.py, test_hostile_class.py).
"""

import json
import math
import os
import subprocess
import sys

import pytest

from lesson.grader import contract, harness

from helpers import SAMPLES, call_check   # the learners' files; a check called here


def test_a_call_gets_a_copy_of_the_input():
    first = contract.CHECKS[0]

    def softmax(x, axis=-1):
        x[0] = 99.0                                   # the learner changes its input
        return [0.67, 0.33]
    outcome = call_check(softmax, first)
    assert first.args[0][0] == 0.7071 and outcome == {"value": [0.67, 0.33]}


def test_notebook_source_skips_ipython_syntax_and_keeps_cell_numbers():
    cells = harness.notebook_source((SAMPLES / "notebook.ipynb").read_text())
    assert [number for number, _ in cells] == [2, 4, 5, 6]     # 3 is a %%time cell
    assert cells[0][1].splitlines() == ["pass", "pass", "import math"]


def test_a_failing_notebook_cell_is_noted_and_the_cells_after_it_run():
    cells = [(1, "import math"), (2, "x = 1 / 0"), (3, "def entropy(w):\n    return 0.0\n")]
    module, load = harness.load_learner(cells, "mine.ipynb", module_name="harness_test_cells")
    assert load["status"] == "ok" and module.entropy([1.0]) == 0.0
    [failed] = load["cells"]
    assert failed["status"] == "error" and failed["error"]["where"] == "cell 2, line 1"


def test_exit_at_the_top_level_keeps_what_was_defined_before_it():
    source = "def softmax(x, axis=-1):\n    return x\n\nexit()\n\ndef entropy(w):\n    return 0\n"
    module, load = harness.load_learner(source, "mine.py", module_name="harness_test_exit")
    assert load["status"] == "ok" and load["exited"]["where"] == "line 4"
    assert hasattr(module, "softmax") and not hasattr(module, "entropy")


def test_what_a_call_returns_comes_back_as_plain_data_that_cannot_pass_for_a_number():
    def outcome(value):
        return harness.call(lambda x: value, [[1.0]])
    assert outcome((0.5, 0.5)) == {"value": [0.5, 0.5]}                # a tuple: a list
    assert outcome([True, 1]) == {"value": [True, 1]}                   # a bool stays a bool
    assert outcome(math.inf) == {"value": math.inf}
    for odd in ("0.5", b"0.5", {0.5}, None.__class__):
        assert set(outcome(odd)["value"]) == {"other", "repr"}, odd
    json.dumps(outcome(object()))                                       # always JSON


def test_an_exception_is_named_by_its_kinds_and_the_learners_line():
    source = "import math\n\ndef entropy(w):\n    return -sum(p * math.log(p) for p in w)\n"
    module, _ = harness.load_learner(source, "mine.py", module_name="harness_test_error")
    error = harness.call(module.entropy, [[1.0, 0.0]])["error"]
    assert error["kinds"][:3] == ["ValueError", "Exception", "BaseException"]
    assert "line 4" in json.dumps(error) and "math domain error" in json.dumps(error)


def test_importing_the_lesson_is_seen_at_load_and_in_a_call():
    _, load = harness.load_learner("import lesson\n", "mine.py", module_name="harness_test_ref")
    assert load["uses_reference"] is True

    def softmax(x, axis=-1):
        import lesson                                             # noqa: F401
        return x
    assert harness.call(softmax, [[1.0]]).get("uses_reference") is True


def test_a_module_name_that_would_hide_another_module_is_replaced():
    assert harness.module_name("/work/softmax_exercise.py") == "softmax_exercise"
    assert harness.module_name("/work/ann_softmax.py") == "ann_softmax"
    for taken in ("/work/json.py", "/work/lesson.py", "/work/class.py", "/work/my file.py"):
        assert harness.module_name(taken) == "softmax_exercise", taken


NETWORK_TRIES = """
import socket, sys
sys.path.insert(0, sys.argv[1])
import harness
harness.seal()
tried = {}
for name, family, kind, address in [
        ("tcp", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 9)),
        ("udp6", socket.AF_INET6, socket.SOCK_DGRAM, ("::1", 9)),
        ("netlink", socket.AF_NETLINK, socket.SOCK_RAW, None),
        ("abstract", socket.AF_UNIX, socket.SOCK_STREAM, "\\0lesson-harness-test"),
        ("named", socket.AF_UNIX, socket.SOCK_DGRAM, "/dev/log")]:
    try:
        made = socket.socket(family, kind)
        if kind == socket.SOCK_DGRAM and family == socket.AF_UNIX:
            made.sendto(b"x", address)
        elif address is not None:
            made.connect(address)
        tried[name] = "reached"
    except OSError as error:
        tried[name] = type(error).__name__
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).bind("\\0lesson-harness-bind")
    tried["bind"] = "bound"
except OSError as error:
    tried["bind"] = type(error).__name__
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
KEY_SPEC_USER_KEYRING, KEYCTL_GET_KEYRING_ID = -4, 0
import platform
numbers = harness._SEALED_CALLS[platform.machine()]
keyctl, clone, unshare = numbers[5][-1], numbers[3], numbers[5][5]
tried["keyring"] = (libc.syscall(keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0),
                    ctypes.get_errno())
CLONE_NEWUSER, CLONE_NEWNS, SIGCHLD = 0x10000000, 0x00020000, 17
tried["unshare"] = (libc.syscall(unshare, CLONE_NEWUSER), ctypes.get_errno())
tried["clone"] = (libc.syscall(clone, CLONE_NEWNS | SIGCHLD, 0, 0, 0, 0), ctypes.get_errno())
import os, subprocess, threading
box = []
thread = threading.Thread(target=box.append, args=["ran"])
thread.start()
thread.join()
tried["thread"] = box[0]
tried["subprocess"] = subprocess.run([sys.executable, "-c", "print(2)"], capture_output=True,
                                     text=True).stdout.strip()
child = os.fork()
if child == 0:
    os._exit(3)
tried["fork"] = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
first, second = socket.socketpair()
first.send(b"ok")
tried["socketpair"] = second.recv(2).decode()
import multiprocessing
with multiprocessing.Pool(2) as pool:
    tried["pool"] = pool.map(abs, [-1, -2])
print(tried)
"""


def test_a_sealed_process_has_socketpair_and_nothing_else(tmp_path):
    """The filter a sandboxed learner, or a user of its own, runs under: every
    socket of the network, every Unix socket of the machine (abstract or
    named), the kernel's keyrings and every namespace of its own, refused at
    once; a socketpair, threads, fork, subprocess and multiprocessing still
    work, in the process and those it starts."""
    import platform
    if platform.machine() not in harness._SEALED_CALLS or sys.platform != "linux":
        pytest.skip(f"no filter for {platform.machine()}")
    folder = os.path.dirname(harness.__file__)
    done = subprocess.run([sys.executable, "-c", NETWORK_TRIES, folder], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert eval(done.stdout) == {"tcp": "PermissionError", "udp6": "PermissionError",
                                 "netlink": "PermissionError", "abstract": "PermissionError",
                                 "named": "PermissionError", "bind": "PermissionError",
                                 "keyring": (-1, 13), "unshare": (-1, 13), "clone": (-1, 13),
                                 "thread": "ran", "subprocess": "2", "fork": 3,
                                 "socketpair": "ok", "pool": [1, 2]}
