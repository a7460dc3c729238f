"""Hostile classmates (issue 18): a class folder in which some students attack
the checker or each other, graded with and without bubblewrap.

Each file in tests/hostile_class/ is one hostile submission, its first
comment saying what it tries; tests/hostile_class/classmates/ are honest
ones (with the class folder's odd names added here: a newline in a name,
a link out of the folder, which is refused, a dangling link).  The hostile files sort first,
so they run before (and, with --jobs, beside) the classmates.

For each mode the whole class is graded in ONE checker run, under
tests/reaper.py, and the honest classmates alone in another; all runs
start together at first use.  The tests then assert, for each mode:

- each hostile file's own verdict (no forged pass, the limit it hit);
- each classmate's grade equals its grade alone (same seed);
- the class folder, and the file a link points at, are byte-for-byte unchanged;
- no process is left (the reaper found none);
- nothing is left on disk (the checker's temporary folder is empty, no
  file a hostile one wrote is left), and the checker's own files and
  site-packages are unchanged;
- the checker's JSON is whole and its exit code its own (not killed or stopped).

Only guaranteed with bwrap.  Without a sandbox a submission runs with the
teacher's rights, and the checker promises only what it does itself: it
reads every file before any runs, grades a private copy, is its workers'
subreaper, kills what they leave, and cleans up.  So:

- the cases in BWRAP_ONLY (killing or stopping the checker, a killer left
  behind, a .pth in site-packages, appending to the grader, writing to the
  checker's stdout through /proc, remounting the system writable, writing
  /proc/sys) run only in the sandbox: without it they would reach the
  checker, or the machine the tests run on (each does nothing outside it);
- the cases in HARMS_FOLDER (rewriting or deleting classmates' files,
  planting lesson.py, copying a classmate's work) do reach the class folder
  through /proc/<checker>/cwd without a sandbox, as root; they are graded in
  a class of their own there, where the grades are still asserted to equal
  the grades alone (the snapshot), but the folder is not asserted unchanged
  and harm_copy_classmate's verdict is not asserted;
- forge_lesson_by_path finds the lesson's files from its own command line
  and runs them, with no import for the watch to see: without a sandbox it
  passes (the lesson is on disk, readable); only its verdict in the sandbox
  is asserted;
- forge_watch_removed imports the installed lesson once its watch is gone,
  without a sandbox; that run's grade is asserted to say so, not to pass.
"""

import hashlib
import os
import pathlib
import shutil
import site
import sysconfig
import tempfile
import threading

import pytest

from lesson.grader import bubblewrap, contract
from helpers import ROOT, Run

CORPUS = ROOT / "tests" / "hostile_class"
SEED = 4242
TIME_LIMIT = 2            # the default: no case hangs, and a loaded machine must not time out a classmate
HARD_CAP = 120              # seconds before a checker run counts as stopped
HOSTILE = sorted(p.stem for p in CORPUS.glob("*.py"))
BWRAP_ONLY = {"forge_proc_stdout", "harm_pth", "harm_grader_append", "harm_kill_checker",
              "harm_stop_checker", "harm_killer_daemon", "harm_remount_root", "harm_sysctl"}
HARMS_FOLDER = {"harm_rewrite_classmates", "harm_plant_lesson", "harm_copy_classmate"}
MODES = ["bwrap", "none"]
DISK_PLACES = ["/tmp", "/var/tmp", "/dev/shm", "/"]  # where res_disk_1gib, harm_remount_root write
HAS_BWRAP = bubblewrap.bwrap_starts()


def _hostile_in(mode, group):
    """The hostile files of one run: ``group`` "class" or "harms_folder"."""
    if group == "alone":
        return []
    if mode == "bwrap":
        return HOSTILE if group == "class" else []
    names = set(HOSTILE) - BWRAP_ONLY
    return sorted(names & HARMS_FOLDER if group == "harms_folder" else names - HARMS_FOLDER)


def _build(folder, outside, hostile):
    """A class folder: the hostile files, then the classmates (zz_...)."""
    folder.mkdir(parents=True)
    for name in hostile:
        shutil.copy(CORPUS / f"{name}.py", folder / f"{name}.py")
    for path in sorted((CORPUS / "classmates").rglob("*")):
        if path.is_file() and path.name != "outside_fay.py":
            target = folder / path.relative_to(CORPUS / "classmates")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
    shutil.copy(CORPUS / "classmates" / "zz_bob.py", folder / "zz_eve\nlee.py")
    os.symlink(outside / "fay.py", folder / "zz_fay.py")            # a link out of the folder
    os.symlink(outside / "nothing.py", folder / "zz_gus.py")        # a link to nothing


def tree(folder):
    """Every entry under folder: {relative path: bytes, or ("link", target), or "dir"}."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder)
            if os.path.islink(path):
                out[relative] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                out[relative] = "dir"
            else:
                out[relative] = pathlib.Path(path).read_bytes()
    return out


def _fingerprint():
    """The checker's own files (their hashes) and site-packages' .pth files."""
    out = {}
    for path in sorted((ROOT / "lesson").rglob("*.py")):
        out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    places = set(site.getsitepackages()) | {site.getusersitepackages(),
                                            sysconfig.get_paths()["purelib"]}
    for place in sorted(places):     # its .pth files (not all of it: pip may run meanwhile)
        out[place] = (sorted(n for n in os.listdir(place) if n.endswith(".pth") or
                             "hostile18" in n) if os.path.isdir(place) else None)
    return out


def _left_on_disk():
    """The files a hostile one may have left where all may write: each with
    its inode and time of change, so one written anew is told apart."""
    found = set()
    for place in DISK_PLACES:
        try:
            for name in os.listdir(place):
                if "hostile18" in name:
                    info = os.lstat(os.path.join(place, name))
                    found.add((place, name, info.st_ino, info.st_mtime_ns))
        except OSError:
            pass
    return found


class ClassRun(Run):
    """One checker run over a class folder (the harness's Run, under
    tests/reaper.py), with the folder as it was before and after."""

    def __init__(self, root, mode, group):
        self.mode, self.group = mode, group
        folder = root / f"{mode}-{group}" / "class"
        self.outside = root / "outside"         # the same for every run: its notes agree
        self.tmp = root / f"{mode}-{group}" / "tmp"
        self.tmp.mkdir(parents=True)
        self.hostile = _hostile_in(mode, group)
        _build(folder, self.outside, self.hostile)
        self.before = tree(folder), tree(self.outside)
        flag = "--sandbox" if mode == "bwrap" else "--no-sandbox"
        super().__init__(f"{mode}-{group}", ["."], folder, TIME_LIMIT,
                         options=[flag, "--seed", str(SEED)], env={"TMPDIR": str(self.tmp)},
                         hard_cap=HARD_CAP)

    def __call__(self):
        super().__call__()              # stopped at HARD_CAP: SIGSTOP reached it, say
        self.files = {f["file"]: f for f in (self.report or {}).get("files", [])}
        self.after = tree(self.cwd), tree(self.outside)
        self.tmp_left = sorted(os.listdir(self.tmp))
        return self


class _Runs:
    """Every run, started together at first use; ``get(mode, group)`` waits for one."""

    def __init__(self):
        self.lock, self.runs, self.threads = threading.Lock(), None, {}

    def start(self):
        with self.lock:
            if self.runs is not None:
                return
            self.root = pathlib.Path(tempfile.mkdtemp(prefix="lesson-hostile-test-"))
            self.fingerprint, self.on_disk = _fingerprint(), _left_on_disk()
            (self.root / "outside").mkdir()
            shutil.copy(CORPUS / "classmates" / "outside_fay.py", self.root / "outside" / "fay.py")
            groups = [("bwrap", "class"), ("bwrap", "alone")] if HAS_BWRAP else []
            groups += [("none", "class"), ("none", "harms_folder"), ("none", "alone")]
            self.runs = {key: ClassRun(self.root, *key) for key in groups}
            for key, run in self.runs.items():
                self.threads[key] = threading.Thread(target=run, daemon=True)
                self.threads[key].start()

    def get(self, mode, group):
        self.start()
        if (mode, group) not in self.runs:
            pytest.skip("bubblewrap (bwrap) is not installed or cannot run here")
        self.threads[(mode, group)].join()
        return self.runs[(mode, group)]

    def all_done(self):
        self.start()
        for thread in self.threads.values():
            thread.join()
        return self.runs


RUNS = _Runs()


@pytest.fixture(scope="module", autouse=True)
def _cleanup():
    yield
    if RUNS.runs is not None:
        RUNS.all_done()
        shutil.rmtree(RUNS.root, ignore_errors=True)
        for place, name, *_ in _left_on_disk() - RUNS.on_disk:     # a failure's, written anew
            os.remove(os.path.join(place, name))


def grade(result):
    """What a teacher reads of one file's grade (not its time)."""
    return {"passed": result["passed"], "failed": result["failed"],
            "problem": result["problem"], "uses_reference": result["uses_reference"],
            "note": result.get("note"), "stdout": result["stdout"], "stderr": result["stderr"],
            "checks": [(c["name"], c["status"], c["got"], c["message"]) for c in result["checks"]]}


def statuses(result):
    return {c["name"]: c["status"] for c in result["checks"]}


# --- What each hostile file must get -----------------------------------------------

def _no_pass(result, mode):
    assert result["passed"] == 0, grade(result)


def _isinstance(result, mode):
    assert result["passed"] == 0
    masked = [c for c in result["checks"] if c["name"] == "all -inf row raises"][0]
    assert masked["status"] == "error" and "RuntimeError" in masked["got"], masked


def _lookup(result, mode):
    failed = {name for name, status in statuses(result).items() if status != "pass"}
    assert failed == set(contract.FRESH), grade(result)


def _watch(result, mode):
    if mode == "bwrap":
        assert result["passed"] == 0, grade(result)
    else:                      # the installed lesson is importable: it must not count
        assert result["uses_reference"] is True and result["passed"] == 0, grade(result)


def _memory(result, mode):
    assert "used more than 1024 MiB of memory" in (result["problem"] or ""), grade(result)


def _segfault(result, mode):
    assert "segmentation fault (signal 11)" in (result["problem"] or ""), grade(result)


def _long_line(result, mode):
    assert result["passed"] == 0
    assert "private pipe" in (result["problem"] or ""), grade(result)


def _sysctl(result, mode):
    assert result["passed"] == 0 and "writable: False" in result["stdout"], grade(result)


def _no_pass_in_sandbox(result, mode):
    """Without a sandbox it reads what it likes, with the teacher's rights."""
    if mode == "bwrap":                    # the class folder, the lesson: hidden
        assert result["passed"] == 0, grade(result)
    else:                                  # any grade, but a whole one
        assert result["passed"] + result["failed"] == len(result["checks"]) == len(
            contract.CHECKS), grade(result)


VERDICTS = {"forge_every_fd": _no_pass, "forge_no_import": _no_pass,
            "forge_watch_removed": _watch, "forge_isinstance": _isinstance,
            "forge_json_encoder": _no_pass, "forge_lookup_table": _lookup,
            "forge_proc_stdout": _no_pass, "harm_rewrite_classmates": _no_pass,
            "harm_plant_lesson": _no_pass, "harm_copy_classmate": _no_pass_in_sandbox,
            "forge_lesson_by_path": _no_pass_in_sandbox,
            "harm_pth": _no_pass, "harm_grader_append": _no_pass,
            "harm_kill_checker": _no_pass, "harm_stop_checker": _no_pass,
            "harm_killer_daemon": _no_pass, "harm_remount_root": _no_pass,
            "harm_sysctl": _sysctl, "res_memory_6gib": _memory,
            "res_disk_1gib": _no_pass, "res_segfault": _segfault,
            "res_setsid_escape": _no_pass, "res_long_line": _long_line}
CLASSMATES = ["./zz_ann/softmax_exercise.py", "./zz_bob.py", "./zz_cat.py", "./zz_dan.py",
              "./zz_eve\nlee.py", "./zz_fay.py"]


def test_every_hostile_file_has_a_verdict():
    assert set(VERDICTS) == set(HOSTILE)


def _cases():
    for mode in MODES:
        for name in HOSTILE:
            if mode == "bwrap" or name not in BWRAP_ONLY:
                group = "harms_folder" if mode == "none" and name in HARMS_FOLDER else "class"
                yield pytest.param(mode, group, name, id=f"{mode}-{name}")


@pytest.mark.parametrize("mode, group, name", list(_cases()))
def test_hostile_file_gets_its_own_verdict(mode, group, name):
    run = RUNS.get(mode, group)
    assert run.report is not None, (run.returncode, run.stdout[:500], run.stderr[-1500:])
    VERDICTS[name](run.files[f"./{name}.py"], mode)


@pytest.mark.parametrize("mode, group", [(m, g) for m in MODES
                                         for g in (["class"] if m == "bwrap"
                                                   else ["class", "harms_folder"])])
def test_the_checker_ends_whole_and_leaves_nothing(mode, group):
    run = RUNS.get(mode, group)
    alone = RUNS.get(mode, "alone")
    assert not run.hard_capped, f"the checker was stopped: {run.stderr[-1500:]}"
    assert run.returncode == 1, (run.returncode, run.stderr[-1500:])   # some fail; not killed
    assert run.report is not None, run.stdout[:500]
    assert sorted(run.files) == sorted([f"./{n}.py" for n in run.hostile] + CLASSMATES)
    assert run.report["skipped"] == [{"file": "./zz_gus.py", "why": "a link to nothing "
                                      "(it points at a file that is not there)"}]
    assert run.survivors == [], "left running"
    assert run.tmp_left == [], "left in the checker's temporary folder"
    for name in CLASSMATES:
        assert grade(run.files[name]) == grade(alone.files[name]), name
    if mode == "bwrap" or group != "harms_folder":
        assert run.after == run.before, "the class folder changed"


def test_the_class_folders_odd_files_are_graded_as_such():
    for mode in MODES:
        if mode == "bwrap" and not HAS_BWRAP:
            continue
        files = RUNS.get(mode, "alone").files
        assert "line 2" in files["./zz_dan.py"]["problem"], files["./zz_dan.py"]["problem"]
        assert files["./zz_fay.py"]["passed"] == 0 and "does not follow it" in \
            files["./zz_fay.py"]["problem"], files["./zz_fay.py"]["problem"]
        assert files["./zz_eve\nlee.py"]["passed"] == 20
        assert files["./zz_ann/softmax_exercise.py"]["passed"] == 20


def test_nothing_outside_the_class_changed():
    """The grader's files, site-packages, and the places a hostile file writes to."""
    RUNS.all_done()
    assert _fingerprint() == RUNS.fingerprint
    assert _left_on_disk() == RUNS.on_disk
