"""One run of ``python -m lesson check``: the files found, graded side by side,
and what the chosen format prints.

check(paths, form, ...)      grade; print the reports or documents; the exit code
CHECKER_FAILED               the exit code when the checker itself failed (3)

Every submission is read before the first one runs (``classroom.snapshots``).
The reports come in the order of the files, each printed as soon as it and
those before it are graded, so a teacher checking a folder sees them come.
A file the checker failed on (its sandbox did not start) stops the run: no
grade is given, one line says why, and the exit code is CHECKER_FAILED.
"""

import contextlib
import os
import shutil
import sys

from lesson.grader import (classroom, formats, process, report, sandbox as confinement,
                           users, workers)
from lesson.grader.contract import TIME_LIMIT, new_seed
from lesson.grader.report import printable
from lesson.grader.workers import MEMORY_LIMIT

CHECKER_FAILED = 3      # the exit code when the checker itself failed: no grade was given


def check(paths, form="text", *, time_limit=TIME_LIMIT, memory_limit=MEMORY_LIMIT, jobs=1,
          seed=None, sandbox=None, points=(), output_dir=None, results=None,
          prog="python -m lesson check"):
    """Grade each submission; print the reports (or a platform's documents);
    return the exit code: 0 only if every check passed (always 0 for
    Exercism, as its runner exits), 1 if some did not, CHECKER_FAILED.

    The arguments are ``check``'s options (see ``python -m lesson check
    --help``); ``sandbox`` is True (--sandbox), False (--no-sandbox) or None.
    ``prog`` names the command in the lines it prints on stderr.  A misuse
    of the options is a ValueError, before anything is graded.
    """
    points = formats.points(points)
    entries, skipped = classroom.find(paths)
    _refuse_misuse(form, len(entries), points, output_dir, results)
    sandbox = _sandbox(sandbox)
    with _held(results), users.lesson_hidden(sandbox):
        return _graded(entries, skipped, paths, form, time_limit, memory_limit, jobs, seed,
                       sandbox, points, output_dir, results, prog)


def _graded(entries, skipped, paths, form, time_limit, memory_limit, jobs, seed, sandbox,
            points, output_dir, results, prog):
    """``check``'s work, once its options are known to be sound: the exit code."""
    if form == "exercism":
        time_limit = formats.exercism_time_limit(time_limit)
    seed = new_seed() if seed is None else seed
    several = len(entries) > 1
    if hasattr(sys.stdout, "reconfigure"):     # a learner's output on any console
        sys.stdout.reconfigure(errors="backslashreplace")
    if several and sandbox != "bwrap":
        print(f"{prog}: warning: {unconfined(sandbox)}", file=sys.stderr)
    workers.STOPPING.clear()           # a run stopped before (Ctrl+C, the checker's failure)
    read = classroom.snapshots(entries, paths)

    def grade(index):
        entry = entries[index]
        result = process.run(entry.path, time_limit, entry.shown_as, sandbox,
                             memory_limit, seed, snapshot=read[index])
        if entry.problem:                      # no file of the student's folder was chosen
            result["problem"] = entry.problem
        return result
    graded = []
    facts = _run_facts(sandbox, seed, memory_limit, time_limit)
    try:
        if form == "text":
            print(_header(sandbox, seed, memory_limit), end="\n\n", flush=True)
        for result in classroom.grade_all(list(range(len(entries))), grade, jobs,
                                          _saver(results, entries, facts)):
            if formats.checker_failed(result):       # no grade: stop, and say why
                workers.stop_all()
                return _checker_failed(form, result, time_limit, points, facts, prog)
            graded.append(result)
            if form == "text":
                _print_report(result, time_limit, several)
        _print_documents(form, graded, skipped, entries, output_dir, facts, points)
        sys.stdout.flush()
    except KeyboardInterrupt:
        workers.stop_all()
        print(f"{prog}: stopped (Ctrl+C) before every file was checked",
              file=sys.stderr)
        return 130
    except BrokenPipeError:                    # e.g. piped into `head`: stop quietly
        workers.stop_all()
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if form == "exercism":
        return 0
    return 0 if all(r["failed"] == 0 for r in graded) else 1


def _refuse_misuse(form, files, points, output_dir, results):
    """A ValueError in one line for options that do not go together, or an
    output folder that cannot be made: said before any file is graded."""
    if form not in formats.PER_FILE and output_dir is not None:
        raise ValueError(f"--output-dir is for {', '.join(formats.PER_FILE)}; "
                         f"--format {form} writes one document to stdout")
    if form in formats.PER_FILE and output_dir is None and files > 1:
        raise ValueError(f"--format {form} writes one document per submission: give "
                         f"--output-dir DIR for these {files} files")
    if points and form not in ("gradescope", "prairielearn"):
        raise ValueError(f"--points is for gradescope and prairielearn, not --format {form}")
    for option, folder in (("--output-dir", output_dir), ("--results", results)):
        _make_folder(option, folder)


def _print_documents(form, results, skipped, entries, output_dir, facts, points):
    """After the grading: the format's document(s), or the teacher's table."""
    time_limit = facts["time_limit"]
    if form == "json":
        files = [{k: v for k, v in r.items() if k != "load"} for r in results]
        print(formats.json_text(dict(facts, files=files, skipped=_skipped(skipped))))
    elif form == "junit":
        print(formats.junit(results, time_limit))
    elif form in formats.PER_FILE:
        documents = [_document(form, r, time_limit, points) for r in results]
        if output_dir is None:
            print(documents[0])
        else:
            _write_documents(output_dir, entries, documents)
            print("\n".join(_summary(results, skipped)))
    elif len(entries) > 1 or skipped:
        print("\n".join(_summary(results, skipped)))


def _checker_failed(form, result, time_limit, points, facts, prog):
    """The checker failed on a file (its sandbox did not start, say): one line
    on stderr, the grader's error in a platform's document (Gradescope has
    none: its run without a results.json is a failed one), and exit 3."""
    print(f"{prog}: error: {report.visible(result['problem'], keep='')}", file=sys.stderr)
    if form == "json":
        print(formats.json_text(dict(facts, error=result["problem"], files=[], skipped=[])))
    elif form == "junit":
        print(formats.junit([result], time_limit))
    elif form in formats.PER_FILE:
        document = _document(form, result, time_limit, points)
        if document is not None:
            print(document)
    return CHECKER_FAILED


@contextlib.contextmanager
def _held(folder):
    """--results DIR is this run's alone while it runs: the folder itself is
    locked, and a second run writing there finds it held and says so in one
    line (a ValueError) before grading anything.  The lock ends with the
    run, or with its process, however that ends; it leaves no file behind."""
    try:
        import fcntl
    except ImportError:                    # no fcntl: no checker either (see process.grade)
        fcntl = None
    if folder is None or fcntl is None:
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise ValueError(f"--results {printable(folder)}: another check is writing there "
                             f"now, so nothing was graded: wait for it to end, or give "
                             f"another folder") from None
        yield
    finally:
        os.close(descriptor)


def _make_folder(option, folder):
    """--output-dir or --results DIR: made now, or a usage error in one line."""
    if folder is None:
        return
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except FileExistsError:
        raise ValueError(f"{option} {printable(folder)}: that is a file, not a folder") from None
    except OSError as error:
        raise ValueError(f"{option} {printable(folder)}: {error.strerror}") from None


def unconfined(mode):
    """The warning for several submissions graded without the sandbox: what
    they can still reach, and the way out."""
    said = confinement.THREAT_MODEL[mode]
    return (f"bubblewrap (bwrap) is not in use ({said['title']}), so {said['cannot']}. "
            f"Install bubblewrap "
            f"(Debian, Ubuntu: apt-get install bubblewrap) to sandbox each one, or grade "
            f"on a platform (see --help).")


def _sandbox(wanted):
    """"bwrap", "user" or "none", for --sandbox (required), --no-sandbox, or neither."""
    return confinement.mode(wanted)


def _header(sandbox, seed, memory_limit):
    mode = confinement.THREAT_MODEL[sandbox]["title"]
    return (f"lesson 4's checker: {mode}, in at most {memory_limit} MiB; seed {seed} "
            f"(--seed {seed} asks the same inputs again)")


def _run_facts(sandbox, seed, memory_limit, time_limit):
    return {"checker": "lesson 4", "time_limit": time_limit, "sandbox": sandbox,
            "seed": seed, "memory_limit_mib": memory_limit}


def _skipped(skipped):
    return [{"file": name, "why": why} for name, why in skipped]


def _summary(results, skipped):
    """The teacher's table, with each file's name made printable (only here)."""
    lines = report.summary_lines([dict(r, file=printable(r["file"])) for r in results])
    skips = [f"Skipped {printable(name)}: {why}" for name, why in skipped]
    return (skips + [""] if skips else []) + lines


def _saver(folder, entries, facts):
    """--results DIR: each file's JSON written as soon as it is graded (a file
    the checker failed on has no grade, and none is written)."""
    if folder is None:
        return None
    names = classroom.document_names(entries)

    def save(index, result):
        if formats.checker_failed(result):
            return
        entry = {k: v for k, v in result.items() if k != "load"}
        path = os.path.join(folder, names[index])
        part = f"{path}.{os.getpid()}.part"
        _write_private(part, formats.json_text(dict(facts, file=entry)))
        os.replace(part, path)
    return save


def _document(form, result, time_limit, points):
    if form == "exercism":
        return formats.exercism(result, time_limit)
    return getattr(formats, form)(result, points, time_limit)


def _write_documents(folder, entries, documents):
    """One document per submission into folder, named after it; say where."""
    for name, document in zip(classroom.document_names(entries), documents):
        _write_private(os.path.join(folder, name), document + "\n")
        print(f"wrote {printable(os.path.join(folder, name))}")
    print()


def _write_private(path, text):
    """Write a result where only the teacher may read it (0600): a learner's
    code running as a user of its own must not read its classmates'."""
    with open(path, "w", encoding="utf-8",
              opener=lambda name, flags: os.open(name, flags, 0o600)) as file:
        file.write(text)


def _print_report(result, time_limit, several):
    """One file's report, wrapped to a terminal; with several, it names the file
    on its closing line, and a gap follows."""
    records = report.records(result, time_limit, named=several)
    if sys.stdout.isatty():
        lines = report.wrapped(records, max(shutil.get_terminal_size().columns - 1, 40))
    else:
        lines = report.text_lines(records)
    print("\n".join(lines + (["", ""] if several else [])), flush=True)
