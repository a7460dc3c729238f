"""The grading platforms' own roots, made here so the grader runs as each platform runs it.

A platform grades a submission in a container of its own, as root, with no
network.  ``Container`` is one, made with bubblewrap (bwrap) run by real
root, so it keeps root's powers as a Docker container does (Docker's
default capabilities, ``DOCKER_CAPABILITIES``), in its own process,
network, IPC and host-name namespaces:

- /usr read-only, and /bin, /lib*, /sbin as the host has them (links or folders);
- a writable copy of /etc of its own (``fresh_etc``), the host's pip settings left out;
- a fresh /proc, /dev and /tmp, an empty /root, /home, /run and /var/tmp,
  each with an image's mode (``FOLDERS``);
- a venv at /opt/venv, whose python3 is first on PATH (``PATH``), as an
  image's python3 is: ``set_up_gradescope`` makes it, and runs the zip's own
  setup.sh in it, with a lent pip and no network;
- the platform's folders (/autograder, /grade, /solution and /output) bound read-write;
- no bubblewrap: its path shows /dev/null, which no one may run, so the
  grader inside cannot find one (as on the platforms).

``DRIVER`` is the platform's own side, run inside by the system's python3:
it runs the entrypoint as root from its folder, reads the results the
moment it ends, lists every process still there, waits, reads them again,
kills what is left, and writes all that to /platform/report.json, a
folder only root may enter.  ``run_gradescope``, ``run_exercism`` and
``run_prairielearn`` lay out one submission's root, run it, and return the
driver's report (``Report``).
"""

import base64
import json
import os
import pathlib
import shutil
import subprocess
import zipfile

SYSTEM_PYTHON = "/usr/bin/python3"
VENV = "/opt/venv"
PATH = f"{VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
DOCKER_CAPABILITIES = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD",
                       "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP",
                       "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"]
# The folders an image has, with its modes: bwrap makes a folder it needs
# (/opt, for /opt/venv) readable by root alone, where no other user could
# reach the venv's Python.
FOLDERS = [("1777", "--tmpfs", "/tmp"), ("0755", "--tmpfs", "/run"), ("0700", "--dir", "/root"),
           ("0755", "--dir", "/home"), ("0755", "--dir", "/opt"), ("0755", "--dir", "/var"),
           ("1777", "--dir", "/var/tmp")]
WAIT = 3                # seconds the driver waits before reading the results again
TIMEOUT = 120           # seconds an entrypoint may run

DRIVER = r'''
import base64, json, os, signal, subprocess, sys, time

spec = json.loads(sys.argv[1])


def read(path):
    try:
        with open(path, "rb") as file:
            return base64.b64encode(file.read()).decode()
    except OSError:
        return None


def others():
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in (1, os.getpid()):
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                if file.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as file:
                command = file.read().replace(b"\0", b" ").decode(errors="replace")
            found.append([int(name), command])
        except (OSError, IndexError):
            continue
    return found


start = time.monotonic()
with open("/platform/stdout", "wb") as out, open("/platform/stderr", "wb") as err:
    try:
        code = subprocess.run(spec["argv"], cwd=spec["cwd"], env=spec["env"],
                              stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                              timeout=spec["timeout"]).returncode
    except subprocess.TimeoutExpired:
        code = "timeout"
seconds = time.monotonic() - start
first = {path: read(path) for path in spec["results"]}
left = others()
time.sleep(spec["wait"])
after = {path: read(path) for path in spec["results"]}
left_after = others()
for pid, _ in left_after:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
report = {"code": code, "seconds": seconds, "first": first, "after": after, "left": left,
          "left_after": left_after, "stdout": read("/platform/stdout"),
          "stderr": read("/platform/stderr")}
with open("/platform/report.json", "w") as file:
    json.dump(report, file)
'''


def fresh_etc(folder):
    """A writable copy of the host's /etc, as an image has its own: links
    kept as links; the host's pip settings (its local index, its
    constraints) and the tests' own files (lesson-confinement-*) left out,
    as no platform's image has them."""
    shutil.copytree("/etc", folder, symlinks=True, ignore=lambda where, names: [
        n for n in names if n in ("pip.conf", "pip") or n.startswith("lesson-confinement")])
    os.chmod(folder, 0o755)
    return folder


def system_links():
    """bwrap's arguments for /bin, /lib*, /sbin: links or folders, as the host has them."""
    out = []
    for name in ("bin", "lib", "lib32", "lib64", "libx32", "sbin"):
        path = f"/{name}"
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
    return out


class Container:
    """A platform's container: the venv and the lent pip in ``folder``, made once
    and shared; each run brings its own /etc and its platform's folders."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.venv = self.folder / "venv"
        self.venv.mkdir(parents=True, exist_ok=True)

    def command(self, argv, binds, etc):
        """bwrap's command line: the container, ``binds`` ([(host folder,
        where inside)], read-write) and ``etc`` as /etc, running argv."""
        out = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        for capability in DOCKER_CAPABILITIES:
            out += ["--cap-add", capability]
        out += ["--ro-bind", "/usr", "/usr"] + system_links()
        out += ["--bind", str(etc), "/etc", "--proc", "/proc", "--dev", "/dev"]
        for mode, kind, path in FOLDERS:            # an image's modes (bwrap's own: 0700)
            out += ["--perms", mode, kind, path]
        out += ["--bind", str(self.venv), VENV, "--ro-bind", "/dev/null", "/usr/bin/bwrap"]
        for source, inside in binds:
            out += ["--bind", str(source), inside]
        return out + ["--"] + list(argv)

    def run(self, argv, binds, etc, env, timeout=300):
        """Run argv inside (no driver): a subprocess.CompletedProcess."""
        return subprocess.run(self.command(argv, binds, etc), capture_output=True, text=True,
                              timeout=timeout, env=env)


def set_up_gradescope(container, zip_path, lent_pip):
    """Unzip Gradescope's zip into source/ and run its setup.sh inside the
    container, as Gradescope builds its image: /opt/venv made with the
    system's python3, first on PATH, this pip lent by PYTHONPATH (nothing is
    fetched: no network).  The source folder, or an AssertionError with
    setup.sh's words."""
    source = container.folder / "gradescope-source"
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(source)
        for info in archive.infolist():                 # extractall drops the modes
            os.chmod(source / info.filename, info.external_attr >> 16 & 0o777)
    etc = fresh_etc(container.folder / "setup-etc")
    script = (f"{SYSTEM_PYTHON} -m venv --without-pip {VENV} && "
              f"bash /autograder/source/setup.sh")
    env = {"PATH": PATH, "HOME": "/root", "LANG": "C.UTF-8", "PYTHONPATH": "/opt/lent",
           "PIP_INDEX_URL": "http://nothing.invalid/", "PIP_CONFIG_FILE": "/dev/null"}
    done = container.run(["bash", "-c", script],
                         [(source, "/autograder/source"), (lent_pip, "/opt/lent")], etc, env)
    assert done.returncode == 0, f"setup.sh failed: {done.stdout[-800:]} {done.stderr[-1500:]}"
    shutil.rmtree(etc)
    return source


class Report:
    """What the driver saw: the exit code, the results when the entrypoint
    ended and after ``WAIT`` (bytes, or None where missing), the processes
    left at its end and after the wait, and what it printed."""

    def __init__(self, data, results):
        self.code, self.seconds = data["code"], data["seconds"]
        self.left, self.left_after = data["left"], data["left_after"]
        decode = lambda text: None if text is None else base64.b64decode(text)  # noqa: E731
        self.first = decode(data["first"][results])
        self.after = decode(data["after"][results])
        self.stdout = (decode(data["stdout"]) or b"").decode("utf-8", "replace")
        self.stderr = (decode(data["stderr"]) or b"").decode("utf-8", "replace")

    def texts(self):
        """Everything a person or the platform reads of this run."""
        return [self.stdout, self.stderr] + [(d or b"").decode("utf-8", "replace")
                                             for d in (self.first, self.after)]


def _drive(container, run_dir, binds, argv, cwd, results):
    """The driver, run inside the container on one submission's folders."""
    etc = fresh_etc(run_dir / "etc")
    platform = run_dir / "platform"
    platform.mkdir(mode=0o700)
    (platform / "driver.py").write_text(DRIVER)
    spec = {"argv": argv, "cwd": cwd, "results": [results], "wait": WAIT, "timeout": TIMEOUT,
            "env": {"PATH": PATH, "HOME": "/root", "LANG": "C.UTF-8"}}
    done = container.run([SYSTEM_PYTHON, "/platform/driver.py", json.dumps(spec)],
                         binds + [(platform, "/platform")], etc, {"PATH": "/usr/bin:/bin"},
                         timeout=TIMEOUT + WAIT + 60)
    report = platform / "report.json"
    assert report.exists(), f"the driver wrote no report: {done.stderr[-1500:]}"
    return Report(json.loads(report.read_text()), results)


def run_gradescope(container, source, run_dir, submission, hidden=None):
    """One Gradescope submission: /autograder with a copy of source/ (and
    ``hidden``, {name: text}: the teacher's files, only root may read),
    run_autograder copied beside it as Gradescope does, submission/ holding
    ``submission`` ({name: bytes}), an empty results/; run_autograder run as
    root from /autograder.  The driver's Report on results/results.json."""
    root = run_dir / "autograder"
    shutil.copytree(source, root / "source", copy_function=lambda a, b: (
        os.link if a.endswith(".whl") else shutil.copy2)(a, b))     # the wheels: big, read only
    for name, text in (hidden or {}).items():
        (root / "source" / name).write_text(text)
        os.chmod(root / "source" / name, 0o600)
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "submission").mkdir()
    for name, data in submission.items():
        (root / "submission" / name).write_bytes(data)
    (root / "results").mkdir()
    return _drive(container, run_dir, [(root, "/autograder")], ["/autograder/run_autograder"],
                  "/autograder", "/autograder/results/results.json")


def run_exercism(container, run_dir, submission, slug="softmax-weights"):
    """One Exercism submission: /solution holding ``submission``, an empty
    /output; the runner's contract run as its run.sh runs it:
    python3 -m lesson autograder exercism SLUG /solution/ /output/."""
    solution, output = run_dir / "solution", run_dir / "output"
    solution.mkdir()
    output.mkdir()
    for name, data in submission.items():
        (solution / name).write_bytes(data)
    return _drive(container, run_dir, [(solution, "/solution"), (output, "/output")],
                  ["python3", "-m", "lesson", "autograder", "exercism", slug, "/solution/",
                   "/output/"], "/", "/output/results.json")


def run_prairielearn(container, run_dir, submission, hidden=None):
    """One PrairieLearn submission: /grade with student/ holding
    ``submission``, tests/ holding ``hidden`` (the course's files, only root
    may read) and an empty results/; the entrypoint run from /grade:
    python3 -m lesson autograder prairielearn."""
    grade = run_dir / "grade"
    for folder in ("student", "tests", "results"):
        (grade / folder).mkdir(parents=True)
    for name, data in submission.items():
        (grade / "student" / name).write_bytes(data)
    for name, text in (hidden or {}).items():
        (grade / "tests" / name).write_text(text)
        os.chmod(grade / "tests" / name, 0o600)
    return _drive(container, run_dir, [(grade, "/grade")],
                  ["python3", "-m", "lesson", "autograder", "prairielearn"], "/grade",
                  "/grade/results/results.json")
