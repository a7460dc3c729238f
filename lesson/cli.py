"""The lesson's command line: ``softmax-lesson``, or ``python -m lesson``.

python -m lesson                   the worked example, step by step
python -m lesson table [SCORES]    the table: score, score - max, exp, weight
python -m lesson bench accuracy    softmax's error in ulps against 60 digits
python -m lesson bench speed       what the checks cost; seconds per call
python -m lesson starter [PATH]    write the exercise's four stubs
python -m lesson check PATH ...    grade your four functions (files or folders)
python -m lesson autograder ...    what Gradescope, Exercism and PrairieLearn run

Its usage lines and messages name it as it was run (``program``).
"""

import argparse
import functools
import math
import os
import sys

from lesson import bench, example, speed
from lesson.grader import contract, formats
from lesson.grader.report import printable
from lesson.grader import session
from lesson.grader.session import CHECKER_FAILED
from lesson.grader.workers import MEMORY_LIMIT
from lesson.tables import fmt_list, table_rows


# --- One function a command: the parsed arguments in, the exit code out ----------

def _worked_example(args):
    """No command: the worked example, step by step."""
    print("Worked example: one query, two keys, d_k = 2")
    print(f"  q = {example.q}    K = {example.K}    V = {example.V}")
    print()
    for number, (step, formula, values) in enumerate(example.worked_example(), 1):
        if step == "causal weights":
            print()
            print("Causal variant: only the first key may be seen")
        print(f"{number}. {step:15} {fmt_list(values):22} {formula}")
    return 0


def _table(args):
    rows, total = table_rows(_parse_scores(args.scores) or example.TABLE_SCORES)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(f"sum of weights: {total}")
    return 0


def _bench(args):
    if args.what == "accuracy" and args.quick:
        raise ValueError("--quick is for bench speed only (bench accuracy "
                         "takes about a second as it is)")
    if args.what == "accuracy":
        bench.print_accuracy()
        print()
        speed.print_cost()
    elif args.quick:
        speed.print_speed(budget=0.1, head_sizes=(16, 32, 64))
    else:
        speed.print_speed()
    return 0


def _starter(args):
    path = args.path
    try:
        contract.write_starter(path)
    except FileExistsError:
        print(f"{args.prog} starter: {path} already exists; it was left as "
              f"it is (give another path to start afresh)", file=sys.stderr)
        return 1
    except OSError as error:             # no such folder, no permission, ...
        print(f"{args.prog} starter: cannot write {path}: {error.strerror}",
              file=sys.stderr)
        return 2
    print(f"Wrote {path}. Fill in the four functions, then run:\n"
          f"    {args.prog} check {path}")
    return 0


def _check(args):
    return _reaping(args, session.check, args.paths, args.format,
                    time_limit=args.time_limit, memory_limit=args.memory_limit,
                    jobs=args.jobs, seed=args.seed, sandbox=args.sandbox, points=args.points,
                    output_dir=args.output_dir, results=args.results, prog=f"{args.prog} check")


def _time_limit(text):
    """--time-limit: a finite number of seconds above 0 (argparse's type)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(
            f"{text} is not a time limit: give a number of seconds above 0, such as 2")
    return seconds


def _positive_int(text):
    """A whole number above 0 (argparse's type)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number <= 0:
        raise argparse.ArgumentTypeError(f"{text} is not above 0")
    return number


def _parse_scores(texts):
    """Read scores from the command line; '-inf' is allowed (a masked key)."""
    scores = []
    for text in texts:
        try:
            scores.append(float(text))
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
    return scores


_TIME_LIMIT = dict(type=_time_limit, default=contract.TIME_LIMIT, metavar="SECONDS",
                   help="seconds one check may take (default: %(default)g)")
_POINTS = dict(action="append", default=[], metavar="FUNCTION=POINTS",
               help="gradescope, prairielearn: what each check of FUNCTION is worth "
                    "(default: 1; give it once per function)")

CHECK_DESCRIPTION = """\
Run every check on your softmax, naive_softmax,
rows_normalised and entropy, in a separate process, and say
what passed, what failed and why, with anything your code
printed.  A .py file, or a Jupyter notebook (.ipynb): its
code cells run in order, IPython's %magics and !shell lines
skipped."""

def _check_epilog(limit):
    """check --help's closing text: for teachers, trust, formats, time, exit codes."""
    fresh, count = len(contract.FRESH), len(contract.CHECKS)
    return f"""\
For teachers: give several files, or a class folder: a .py or .ipynb file
per student, or a folder per student (graded as that student's submission,
named by its folder).  In a student's folder the file graded is
softmax_exercise.py (or .ipynb), else the only notebook, else, with no
notebook, the only .py file; a folder where none is chosen is still a line
in the table, saying why.  Anything skipped is named (a dangling link, an
archive, a link to a folder, a folder with no .py file or notebook).  The
checker follows no link out of a submission and reads only regular files:
such a file is that student's line in the table, never read with your
rights.  Every submission is read before the first one runs, and each is
graded from a private copy, --jobs at a time (default: one per core); the
reports come in the files' order, then a table: file, passed, failed, first
failing check.  --results DIR writes each file's JSON as soon as it is
graded (one run at a time: a second run into the same folder stops at once
and says so).

{fresh} of the {count} checks draw their input afresh on every run, so a
file that replays the published answers cannot pass; the report's first
line gives the seed, and --seed N asks the same inputs again.

{_threat_model()}
Everywhere, each worker is limited in memory (--memory-limit), file size
and processes, and nothing it says decides a verdict: the right answers and
the judging stay in the checker.  No sandbox stops a student from handing
in a copy of the published solution.  A course at scale grades on a
platform, one container per submission: see --format and the autograder
command.

--format says what stdout is (default: text, the report):
  json          one JSON object: {{"checker", "time_limit", "files": [{{"file",
                "passed", "failed", "problem", "uses_reference", "checks": [...]}}]}}
                (--json is the same)
  gradescope    Gradescope's results.json
  prairielearn  PrairieLearn's external grader results.json
  exercism      Exercism's test runner results.json (version 3); each check
                gets at most {formats.exercism_time_limit(limit):g} s, so a file fits Exercism's {formats.EXERCISM_BUDGET:g} s
  junit         JUnit XML (GitLab, Jenkins, most CI): one testsuite per file
With several files, gradescope, prairielearn and exercism write one
document per file into --output-dir, and stdout is the table.  --points
FUNCTION=POINTS (e.g. softmax=2) sets what each of a function's checks is
worth for gradescope and prairielearn (default: 1).

A check that runs longer than the time limit is stopped, and that
function's other checks are not run.  Loading a file may take 5 times the
limit (at least 5 s), a whole file 5 times plus 4 s (with the default:
{limit:g} s, {contract.time_limits(limit)[1]:g} s and {contract.time_limits(limit)[2]:g} s).

The exit code is 0 only when every check of every file passed, 1 when
some did not, 2 for a usage error, {CHECKER_FAILED} when the checker itself failed and
gave no grade: bubblewrap could not start its sandbox (its message is
said; --no-sandbox grades without it, each file then running with your
rights), or --memory-limit is too small for Python to start.  A platform's
document then says the grader failed, not the student.  With --format
exercism it is 0 whatever the grade, as Exercism's test runners exit.  The
last line of a report or table is "N passed, M failed"."""
def _threat_model(width=76):
    """What each mode of confinement protects, and what it cannot, as
    check --help says it (``lesson.grader.sandbox.THREAT_MODEL``)."""
    import textwrap
    from lesson.grader.sandbox import THREAT_MODEL
    out = ["Trust: each submission runs in the strongest of three modes this machine",
           "allows; the report's first line and the JSON's \"sandbox\" say which."]
    for mode, said in THREAT_MODEL.items():
        text = (f"{mode}: {said['when']}.  Protects: {said['protects']}.  "
                f"Cannot: {said['cannot']}.")
        out += textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(out)


# --- The command line as data ---------------------------------------------------
# One entry a command: its name, its one-line help, its description (and epilog),
# the function that runs it, and its arguments as (flags, argparse keywords).
# _build_parser() turns the table into argparse's parsers; each command's
# function gets the parsed arguments and returns the exit code.

def _commands():
    """The commands, as data (their texts take their counts from the contract)."""
    limit = contract.TIME_LIMIT
    check_options = [
        (["paths"], dict(nargs="+", metavar="PATH",
                         help="your file (e.g. softmax_exercise.py or a notebook), "
                              "or a folder of them")),
        (["--format"], dict(choices=formats.FORMATS, default="text",
                            help="what to print: " + ", ".join(formats.FORMATS)
                                 + " (default: text; see below)")),
        (["--json"], dict(dest="format", action="store_const", const="json",
                          help="the same as --format json")),
        (["--output-dir"], dict(metavar="DIR",
                                help="gradescope, prairielearn, exercism: write one "
                                     "document per file into DIR, named after its path "
                                     "in the class folder")),
        (["--points"], _POINTS),
        (["--time-limit"], _TIME_LIMIT),
        (["--memory-limit"], dict(type=_positive_int, default=MEMORY_LIMIT, metavar="MIB",
                                  help="MiB of memory each file's Python may use "
                                       "(default: %(default)d)")),
        (["--jobs"], dict(type=_positive_int, default=os.cpu_count() or 1, metavar="N",
                          help="files graded at once (default: the number of cores, "
                               "here %(default)d)")),
        (["--seed"], dict(type=_positive_int, metavar="N",
                          help="the inputs of the checks drawn afresh each run, as in "
                               "the run that printed this seed")),
        (["--results"], dict(metavar="DIR", help="write each file's JSON result into DIR "
                                                 "as soon as it is known")),
        ((["--sandbox"], dict(dest="sandbox", action="store_true", default=None,
                              help="run each file in bubblewrap's sandbox, or stop (exit 2) "
                                   "where it is not installed (default: where it is)")),
         (["--no-sandbox"], dict(dest="sandbox", action="store_false",
                                 help="run each file with your own rights"))),
    ]
    return [
        ("table", "print the table of score, score - max, exp, weight",
         dict(description="Print the lesson's table for one query's scores: key, score, "
                          "score - max, exp(score - max) and weight, to 4 decimals, then "
                          "the sum of the weights.  With no scores, use the lesson's own: "
                          "1/sqrt(2), 0, -1.  '-inf' marks a masked key."),
         _table,
         [(["scores"], dict(nargs="*", metavar="SCORE",
                            help="one score per key, e.g. 2 1 0.5 -inf"))]),
        ("bench", "measure accuracy (ulps) or speed (seconds per call)",
         dict(description="accuracy: the error of each softmax, in ulps, against a 60-digit "
                          "reference over a fixed corpus of rows.  speed: what softmax's "
                          "checks cost, as its time over the bare recipe's (max, exp list, "
                          "sum, divide) on 3 and 1000 scores; then seconds per call of "
                          "softmax and attention at growing sizes.  NumPy and SciPy are "
                          "measured too where installed."),
         _bench,
         [(["what"], dict(choices=["accuracy", "speed"])),
          (["--quick"], dict(action="store_true",
                             help="speed only: shorter timings and smaller sizes"))]),
        ("starter", "write the exercise's starter file",
         dict(description=f"Write the {len(contract.FUNCTIONS)} functions of Part 2 as "
                          f"stubs with their contracts, ready to fill in.  An existing "
                          f"file is never overwritten."),
         _starter,
         [(["path"], dict(nargs="?", default="softmax_exercise.py",
                          help="where to write it (default: softmax_exercise.py)"))]),
        ("check", f"grade your {len(contract.FUNCTIONS)} functions against the lesson",
         dict(formatter_class=argparse.RawDescriptionHelpFormatter,
              description=CHECK_DESCRIPTION, epilog=_check_epilog(limit)),
         _check, check_options),
        ("autograder", "write or run what Gradescope, Exercism, PrairieLearn run",
         dict(description="What a grading platform runs, one container per submission."),
         None, _platforms()),
    ]


def _platforms():
    """autograder's own commands, in the same form as _commands()."""
    return [
        ("gradescope", "write the autograder zip to upload to Gradescope",
         dict(description="Write Gradescope's autograder zip: setup.sh installs the "
                          "lesson, and NumPy for a learner who uses it, from wheels "
                          "inside it, fetching nothing; run_autograder grades "
                          "/autograder/submission/ and writes "
                          "/autograder/results/results.json.  Its README.md says how "
                          "to upload it."),
         _autograder_gradescope,
         [(["zip"], dict(metavar="OUT.zip")), (["--points"], _POINTS),
          (["--time-limit"], _TIME_LIMIT),
          (["--numpy-wheels"], dict(metavar="DIR",
                                    help="put the numpy-*.whl files in DIR into the zip "
                                         "(default: pip downloads NumPy's wheels for the "
                                         "Pythons of Gradescope's Ubuntu images, once)"))]),
        ("exercism", "Exercism's run.sh: grade INPUT_DIR, write OUTPUT_DIR/results.json",
         dict(description="Exercism's test runner contract: grade the solution in "
                          "INPUT_DIR, write OUTPUT_DIR/results.json (version 3) and exit "
                          "0 whatever the grade.  A runner image's bin/run.sh is: "
                          'exec python3 -m lesson autograder exercism "$@"'),
         _autograder_exercism,
         [([name], dict(metavar=name.upper())) for name in ("slug", "input_dir", "output_dir")]),
        ("prairielearn", "PrairieLearn's entrypoint: grade /grade/student",
         dict(description="PrairieLearn's external grader entrypoint: grade the file in "
                          "/grade/student and write /grade/results/results.json.  "
                          "LESSON_AUTOGRADER_ROOT moves /grade (and /autograder)."),
         _autograder_prairielearn,
         [(["--points"], _POINTS), (["--time-limit"], _TIME_LIMIT)]),
    ]


MODULE = "python -m lesson"      # the program's name run as a module, or from Python


def program(argv0):
    """The program's name as it was run, from ``sys.argv[0]``: its script's name
    (``softmax-lesson``), or ``python -m lesson``.

    >>> program("/home/ann/.venv/bin/softmax-lesson"), program("/site/lesson/__main__.py")
    ('softmax-lesson', 'python -m lesson')
    """
    name = os.path.basename(argv0)
    if name.lower().endswith(".exe"):              # Windows' launcher for a script
        name = name[:-len(".exe")]
    return MODULE if not name or name.startswith("-") or name.endswith(".py") else name


def _build_parser(prog=MODULE):
    """argparse's parser, built from _commands(); each command's function is its
    ``run`` default, and a usage error is one line."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Lesson 4, softmax weights. With no command, print the "
                    "worked example step by step.")
    parser.set_defaults(run=_worked_example, command=None)
    _add_commands(parser, _commands(), "command", "COMMAND")
    return parser


def _add_commands(parser, commands, dest, metavar):
    subparsers = parser.add_subparsers(dest=dest, metavar=metavar, required=dest != "command")
    for name, summary, texts, run, arguments in commands:
        command = subparsers.add_parser(name, help=summary, **texts)
        command.error = functools.partial(_usage_error, command)
        if run is None:                                 # a command of commands
            _add_commands(command, arguments, "platform", "PLATFORM")
            continue
        command.set_defaults(run=run)
        for argument in arguments:
            if isinstance(argument[0], tuple):          # options that exclude each other
                group = command.add_mutually_exclusive_group()
                for flags, keywords in argument:
                    group.add_argument(*flags, **keywords)
            else:
                flags, keywords = argument
                command.add_argument(*flags, **keywords)


def _usage_error(command, message):
    """A usage error is one line."""
    command.exit(2, f"{command.prog}: error: {message} (see: {command.prog} --help)\n")


def _autograder_gradescope(args):
    from lesson.grader import bundle
    pythons = _reaping(args, bundle.make_gradescope_zip, args.zip, args.time_limit,
                       formats.points(args.points), args.numpy_wheels)
    print(f"Wrote {printable(args.zip)}, with NumPy for Python {', '.join(pythons)}. "
          f"Upload it on the Gradescope assignment's Configure Autograder page; its "
          f"README.md says how.")
    return 0


def _autograder_exercism(args):
    from lesson.grader import bundle
    return _reaping(args, bundle.run_exercism, args.slug, args.input_dir, args.output_dir)


def _autograder_prairielearn(args):
    from lesson.grader import bundle
    return _reaping(args, bundle.run_prairielearn, time_limit=args.time_limit,
                    points=formats.points(args.points))


def _reaping(args, run, *arguments, **keywords):
    """run(...), then every process it started ended and waited for; as a
    program (not when a program of its own calls main()), this process is
    its workers' subreaper, so their leftovers are its own to reap
    (``workers.as_program``)."""
    from lesson.grader import workers
    if args.as_program:
        return workers.as_program(run, *arguments, **keywords)
    try:
        return run(*arguments, **keywords)
    finally:
        workers.reap_all()


def main(argv=None):
    """Run the command line; return the exit code.

    >>> main(["table", "2", "-inf"])
    key  score  score - max  exp(score - max)  weight
    1    2      0            1                 1
    2    -inf   -inf         0                 0
    sum of weights: 1
    0
    """
    as_program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if (argv[:1] == ["table"] and argv[1:2] != ["--"]
            and not {"-h", "--help"} & set(argv)):
        argv.insert(1, "--")            # so '-inf' and '-1' read as scores
    parser = _build_parser(program(sys.argv[0]) if as_program else MODULE)
    args = parser.parse_args(argv)
    args.as_program = as_program       # this process is the checker: it may adopt orphans
    args.prog = parser.prog
    try:
        return args.run(args)
    except (TypeError, ValueError) as error:
        print(f"{args.prog} {args.command}: error: {error}", file=sys.stderr)
        return 2
