"""lesson/grader/process.py: the terminal's checker, its worker processes and sandbox.

A submission is read once (``snapshot``) and graded from that copy; each
file is graded by a fresh worker process, in bubblewrap's sandbox where it
is installed; nothing the learner started outlives the checker.  The
learners' files that fight back are in test_exercise.py, test_learner_corpus.py
and test_hostile_class.py.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid

import pytest

from lesson.grader import bubblewrap, contract, places, process, report, snapshot, users

from helpers import SAMPLES      # tests/learner_corpus and the site's samples
from helpers import MARK, ROOT, check, leftovers, starts_processes


def test_runner_results_are_structured(tmp_path):
    path = tmp_path / "softmax_exercise.py"
    contract.write_starter(str(path))
    result = process.run(str(path))
    assert result["problem"] is None and result["passed"] == 0
    assert {r["message"] for r in result["checks"]} == {
        f"not done yet: {f}() returns None" for f in contract.FUNCTIONS}
    lines = report.text_lines(report.records(result))
    assert lines[-1] == f"0 passed, {len(contract.CHECKS)} failed"


def test_a_submission_is_graded_as_it_was_read(tmp_path):
    """A file changed after it was read (a classmate rewriting it, say) is
    graded as it was: the worker gets the snapshot, never the file."""
    path = tmp_path / "softmax_exercise.py"
    shutil.copy(SAMPLES / "correct_lists.py", path)
    read = snapshot.snapshot(str(path))
    contract.write_starter(str(path.with_name("starter.py")))
    path.write_bytes(path.with_name("starter.py").read_bytes())
    result = process.run(str(path), snapshot=read)
    assert (result["passed"], result["failed"]) == (len(contract.CHECKS), 0)


def test_a_snapshot_says_why_a_file_cannot_be_graded(tmp_path):
    (tmp_path / "notes.txt").write_text("not code")
    assert snapshot.snapshot(str(tmp_path / "notes.txt")) == (
        None, {"status": "not_python", "kind": ".txt"})
    assert snapshot.snapshot(str(tmp_path / "gone.py"))[1]["status"] == "missing"
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (snapshot.MOST_BYTES + 1))
    submission, load = snapshot.snapshot(str(big))
    assert submission is None and load["status"] == "unreadable" and "MiB" in load["message"]


def test_a_students_folder_is_read_with_its_helpers_but_not_its_links(tmp_path):
    folder = tmp_path / "ann"
    (folder / "lib").mkdir(parents=True)
    (folder / ".git").mkdir()
    (folder / "softmax_exercise.py").write_text("import helpers\n")
    (folder / "helpers.py").write_text("SCALE = 1\n")
    (folder / "lib" / "more.py").write_text("")
    (folder / ".git" / "config").write_text("")
    (folder / "elsewhere.py").symlink_to(tmp_path / "outside.py")
    (tmp_path / "outside.py").write_text("SECRET = 1\n")
    submission, _ = snapshot.snapshot(str(folder / "softmax_exercise.py"), folder=str(folder))
    assert submission.main == "softmax_exercise.py"
    assert sorted(submission.files) == ["helpers.py", "lib/more.py", "softmax_exercise.py"]
    flat, _ = snapshot.snapshot(str(folder / "softmax_exercise.py"), folder=str(folder),
                               inside=False)
    assert sorted(flat.files) == ["helpers.py", "softmax_exercise.py"]


def test_the_sandbox_is_built_up_from_nothing():
    """No network, and nothing of the machine shown but the system, /etc's few
    files, the Python running the checker and the libraries it maps: never
    /, never a folder writable, and the lesson hidden wherever it is shown."""
    command = bubblewrap.command([sys.executable, places.HARNESS], hide=[str(ROOT / "tests")])
    assert os.path.basename(command[0]) == "bwrap" and command[-2:] == [sys.executable, "/tmp/.lesson-harness.py"]
    for flag in ("--unshare-net", "--unshare-pid", "--as-pid-1", "--die-with-parent", "--new-session"):
        assert flag in command
    assert "--bind" not in command and "--dev-bind" not in command       # nothing writable
    binds = [tuple(command[i + 1:i + 3]) for i, arg in enumerate(command)
             if arg in ("--ro-bind", "--ro-bind-try")]
    python = {source for source, _ in places.python_paths()} | set(places.mapped_libraries())
    allowed = ({os.devnull, places.HARNESS, "/proc/sys", "/proc/sysrq-trigger"}
               | set(bubblewrap.SYSTEM) | set(bubblewrap.ETC_FILES) | python)
    assert binds and all(source in allowed for source, _ in binds), binds
    assert ("/", "/") not in binds and not any(s.startswith(("/run", "/var", "/srv", "/opt"))
                                               for s, _ in binds)
    # of /usr, its programs, libraries and time zones: never all of it, never
    # /usr/local, /usr/src or /usr/share, where people keep their own things
    assert not any(s in ("/usr", "/usr/local", "/usr/src", "/usr/share")
                   or s.startswith(("/usr/local/src", "/usr/local/share")) for s, _ in binds)
    copies = places.lesson_copies(tuple(seen for _, seen in binds))
    hidden = {command[i + 1] for i, arg in enumerate(command) if arg == "--tmpfs"}
    hidden |= {seen for source, seen in binds if source == os.devnull}
    assert set(copies) <= hidden


def test_run_by_root_the_worker_is_a_user_of_its_own_in_the_sandbox(tmp_path):
    """As root, the learner's code in the sandbox runs as a user of its own,
    with no group and no power, so the kernel caps its processes (it caps no
    process of root's) and no file of root's is its own."""
    if not (bubblewrap.bwrap_starts() and os.geteuid() == 0):
        pytest.skip("needs bubblewrap, run by root")
    if not users.becomes_learner_in_sandbox():
        pytest.skip("the checker's Python is closed to other users: the worker stays root")
    path = tmp_path / "softmax_exercise.py"
    path.write_text("""import os, resource, time
status = open("/proc/self/status").read()
print("who", os.getuid(), os.getgid(), len(os.getgroups()),
      status.split("CapEff:")[1].split()[0], resource.getrlimit(resource.RLIMIT_NPROC)[0])
started = 0
try:
    for _ in range(1000):
        if os.fork() == 0:
            time.sleep(2)
            os._exit(0)
        started += 1
except OSError:
    pass
print("started", started)
""" + (SAMPLES / "correct_lists.py").read_text())
    result = process.run(str(path), sandbox="bwrap")
    who, started = [line.split()[1:] for line in result["stdout"].splitlines()[:2]]
    uid, gid, groups, powers, cap = who
    assert uid != "0" and gid != "0" and groups == "0" and int(powers, 16) == 0, who
    assert int(started[0]) < int(cap) <= 1000, (started, cap)
    assert result["passed"] == 20, result["problem"]


@pytest.mark.parametrize("mode", ["bwrap", "none"])
@pytest.mark.parametrize("number", [signal.SIGKILL, signal.SIGTERM, signal.SIGALRM])
def test_a_signal_the_file_sends_itself_ends_it_in_the_sandbox_as_outside(tmp_path, mode, number):
    """In the sandbox the worker is not its namespace's first process (which
    would ignore these): the same crash, the same words, in every mode."""
    if mode == "bwrap" and not bubblewrap.bwrap_starts():
        pytest.skip("bubblewrap does not start here")
    path = tmp_path / "softmax_exercise.py"
    path.write_text(f"import os\nos.kill(os.getpid(), {int(number)})\nprint('still here')\n")
    result = process.run(str(path), sandbox=mode)
    assert f"(signal {int(number)})" in (result["problem"] or ""), result["problem"]
    assert "still here" not in result["stdout"]


@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_a_warning_names_the_learners_file_as_they_named_it(tmp_path, mode):
    """A warning (NumPy's overflow, say) and __file__ name the file as the
    learner did, with its line: never the checker's folder for it, which the
    learner has not got (the interface of Exercism: no full paths).  (Mode
    "user" loads it the same way, from the learner's home.)"""
    if mode == "bwrap" and not bubblewrap.bwrap_starts():
        pytest.skip("bubblewrap does not start here")
    path = tmp_path / "my_softmax.py"
    path.write_text("import warnings\nprint(__file__)\n\n\n"
                    "def softmax(x, axis=-1):\n"
                    "    warnings.warn('careful', RuntimeWarning)\n    return x\n")
    result = process.run(str(path), sandbox=mode)
    assert result["stdout"] == "my_softmax.py\n", result["problem"]
    said = result["checks"][0]["stderr"]
    assert said.startswith("my_softmax.py:6: RuntimeWarning: careful\n"), said
    assert "warnings.warn('careful'" in said


def test_the_sandboxs_first_process_is_closed_to_the_learner(tmp_path):
    """bubblewrap's own process is not there (--as-pid-1); the first process,
    the harness's guard, holds no file and cannot be read, traced or
    signalled."""
    if not bubblewrap.bwrap_starts():
        pytest.skip("bubblewrap does not start here")
    path = tmp_path / "softmax_exercise.py"
    path.write_text("""import ctypes, os, signal
print("pid", os.getpid(), open("/proc/1/cmdline", "rb").read().split(b"\\0")[0].decode())
for name in ("environ", "mem", "maps", "cwd"):
    try:
        (os.listdir if name == "cwd" else lambda p: open(p, "rb").read(1))(f"/proc/1/{name}")
        print("read", name)
    except OSError as error:
        print("closed", name, error.errno)
try:
    print("files", len(os.listdir("/proc/1/fd")))
except OSError as error:
    print("files", 0, error.errno)
libc = ctypes.CDLL(None, use_errno=True)
print("ptrace", libc.ptrace(16, 1, 0, 0), ctypes.get_errno())       # PTRACE_ATTACH
for number in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.kill(1, number)                  # ignored by pid 1; refused, run by root
    except PermissionError:
        pass
print("alive")
""" + (SAMPLES / "correct_lists.py").read_text())
    result = process.run(str(path), sandbox="bwrap")
    said = result["stdout"].splitlines()
    assert said[0].startswith("pid 2 ") and said[0] != "pid 2 " + bubblewrap.bwrap(), said
    assert [line.split()[:2] for line in said[1:6]] == [
        ["closed", name] for name in ("environ", "mem", "maps", "cwd")] + [["files", "0"]], said
    assert said[6].startswith("ptrace -1 ") and said[7] == "alive", said
    assert result["problem"] is None and result["failed"] == 0, result["problem"]


def test_the_lesson_is_found_wherever_a_site_packages_holds_it(tmp_path):
    """Every copy of the lesson the sandbox would show is hidden: a package,
    a module, its metadata and an editable install's finder, in any
    site-packages under a place shown."""
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    for name in ("lesson/weights.py", "lesson.py", "softmax_weights_lesson-0.1.0.dist-info/RECORD",
                 "__editable___softmax_weights_lesson_0_1_0_finder.py", "numpy/__init__.py"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("")
    found = places.lesson_copies((str(tmp_path / "venv"),))
    assert sorted(os.path.relpath(p, site) for p in found if p.startswith(str(site))) == [
        "__editable___softmax_weights_lesson_0_1_0_finder.py", "lesson", "lesson.py",
        "softmax_weights_lesson-0.1.0.dist-info"]


def test_modules_in_the_learners_folder_shadow_nothing(tmp_path):
    shutil.copy(SAMPLES / "correct_lists.py", tmp_path / "softmax_exercise.py")
    for name in ("json", "numbers", "token", "queue", "select", "lesson"):
        (tmp_path / f"{name}.py").write_text("raise SystemExit('shadowed: ' + __name__)\n")
    (tmp_path / "helpers.py").write_text("SCALE = 1.0\n")
    (tmp_path / "softmax_exercise.py").write_text(
        "import helpers\n" + (tmp_path / "softmax_exercise.py").read_text())
    (tmp_path / "lesson.py").unlink()       # `python -m lesson` in its folder would run it
    code, out, err, _ = check("softmax_exercise.py", cwd=tmp_path)
    assert code == 0 and "shadowed" not in out + err, out + err
    (tmp_path / "lesson.py").write_text("raise SystemExit('shadowed: lesson')\n")
    code, out, err, _ = check(f"{tmp_path.name}/softmax_exercise.py", cwd=tmp_path.parent)
    assert code == 0 and "shadowed" not in out + err, out + err
    shutil.copy(SAMPLES / "correct_lists.py", tmp_path / "json.py")   # a learner's file named json.py
    code, out, _, _ = check(f"{tmp_path.name}/json.py", cwd=tmp_path.parent)
    assert code == 0, out


def test_ctrl_c_stops_the_checker_and_everything_the_learner_started(tmp_path):
    """Ctrl+C while a learner's helpers run: exit 130, one line, nothing left running.

    The file is starts_processes.py with an entropy() that sleeps for a
    minute, graded with a time limit of a minute, so the checker is surely
    still at work when the signal comes, however busy the machine.
    """
    learner = tmp_path / "starts_processes.py"
    mark = f"{MARK}-ctrl-c-{uuid.uuid4().hex}"
    learner.write_text(starts_processes(mark)
                       + "\n\ndef entropy(w):\n    import time\n    time.sleep(60)\n")
    # Ctrl+C reaches a checker that does not ignore it: pytest started by a
    # shell as a background job (`pytest &`) ignores SIGINT, and so, left
    # alone, would every process it starts.
    checker = subprocess.Popen(
        [sys.executable, "-m", "lesson", "check", "--time-limit", "60", str(learner)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 20
    while len(leftovers(mark)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)                                   # its helpers are running
    running = checker.poll() is None
    checker.send_signal(signal.SIGINT)
    out, err = checker.communicate(timeout=30)
    assert running, f"the checker ended before Ctrl+C: {out.decode()[-1500:]}{err.decode()[-800:]}"
    assert checker.returncode == 130, (checker.returncode, out.decode()[-1500:], err.decode()[-800:])
    assert err.decode().strip() == ("python -m lesson check: stopped (Ctrl+C) before "
                                    "every file was checked")
    assert leftovers(mark) == []
