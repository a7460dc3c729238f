"""The lesson's command line.

python -m lesson                   the worked example, step by step
python -m lesson table [SCORES]    the table: score, score - max, exp, weight
python -m lesson bench accuracy    softmax's error in ulps against 60 digits
python -m lesson bench speed       what the checks cost; seconds per call
python -m lesson starter [PATH]    write the exercise's four stubs
python -m lesson check PATH ...    grade your four functions (files or folders)
"""

import argparse
import json
import math
import os
import shutil
import sys
import textwrap

from lesson import bench, example
from lesson.grader import contract, report
from lesson.tables import fmt_list, table_rows


def _print_table(scores):
    rows, total = table_rows(scores)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(f"sum of weights: {total}")


def _print_worked_example():
    print("Worked example: one query, two keys, d_k = 2")
    print(f"  q = {example.q}    K = {example.K}    V = {example.V}")
    print()
    for number, (step, formula, values) in enumerate(example.worked_example(), 1):
        if step == "causal weights":
            print()
            print("Causal variant: only the first key may be seen")
        print(f"{number}. {step:15} {fmt_list(values):22} {formula}")


def _write_starter(path):
    try:
        contract.write_starter(path)
    except FileExistsError:
        print(f"python -m lesson starter: {path} already exists; it was left as "
              f"it is (give another path to start afresh)", file=sys.stderr)
        return 1
    except OSError as error:             # no such folder, no permission, ...
        print(f"python -m lesson starter: cannot write {path}: {error.strerror}",
              file=sys.stderr)
        return 2
    print(f"Wrote {path}. Fill in the four functions, then run:\n"
          f"    python -m lesson check {path}")
    return 0


def _check(paths, time_limit, as_json):
    """Grade each file; print the reports (or JSON); 0 only if every check passed.

    Each report is printed as soon as its file is graded, so a teacher
    checking a folder sees them come.
    """
    from lesson.grader import process
    if hasattr(sys.stdout, "reconfigure"):     # a learner's output on any console
        sys.stdout.reconfigure(errors="backslashreplace")
    results = []
    try:
        for path in paths:
            results.append(process.run(path, time_limit, shown_as=_printable(path)))
            if not as_json:
                _print_report(results[-1], time_limit, several=len(paths) > 1)
        if as_json:
            files = [{k: v for k, v in r.items() if k != "load"} for r in results]
            print(json.dumps({"checker": "lesson 4", "time_limit": time_limit,
                              "files": files}, indent=1, allow_nan=False))
        elif len(results) > 1:
            print("\n".join(report.summary_lines(results)))
        sys.stdout.flush()
    except KeyboardInterrupt:
        print("python -m lesson check: stopped (Ctrl+C) before every file was checked",
              file=sys.stderr)
        return 130
    except BrokenPipeError:                    # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0 if all(r["failed"] == 0 for r in results) else 1


def _print_report(result, time_limit, several):
    from lesson.grader import process
    lines = process.report(result, time_limit)
    if several:                      # name the file on its closing line; a gap after
        lines = lines[:-1] + [f"{result['file']}: {lines[-1]}", "", ""]
    print("\n".join(_wrapped(lines)), flush=True)


def _printable(path):
    """A path as text any terminal or JSON reader takes: a byte that is not
    UTF-8 (from a name made elsewhere) is shown as \\xe9.

    >>> _printable("caf\\udce9.py")
    'caf\\\\xe9.py'
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _wrapped(lines):
    """Report lines wrapped to a terminal's width, each under its own text."""
    if not sys.stdout.isatty():
        return lines
    width = max(shutil.get_terminal_size().columns - 1, 40)
    out = []
    for line in lines:
        out += textwrap.wrap(line, width, subsequent_indent=" " * report.hang(line),
                             break_long_words=False, break_on_hyphens=False,
                             drop_whitespace=True) or [line]
    return out


def _check_paths(texts):
    """The files to check: each PATH, or a folder's .py and .ipynb files, sorted."""
    paths = []
    for text in texts:
        if os.path.isdir(text):
            found = sorted(os.path.join(text, name) for name in os.listdir(text)
                           if name.lower().endswith(contract.SOURCE_KINDS)
                           and not name.startswith(".")
                           and os.path.isfile(os.path.join(text, name)))
            if not found:
                raise ValueError(f"no .py or .ipynb files in the folder {text} "
                                 f"(folders inside it are not searched)")
            paths += found
        elif os.path.exists(text):
            paths.append(text)
        else:
            raise ValueError(f"no file {text}")
    return paths


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


def _parse_scores(texts):
    """Read scores from the command line; '-inf' is allowed (a masked key)."""
    scores = []
    for text in texts:
        try:
            scores.append(float(text))
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
    return scores


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="python -m lesson",
        description="Lesson 4, softmax weights. With no command, print the "
                    "worked example step by step.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    table = commands.add_parser(
        "table", help="print the table of score, score - max, exp, weight",
        description="Print the lesson's table for one query's scores: "
                    "key, score, score - max, exp(score - max) and weight, "
                    "to 4 decimals, then the sum of the weights.  With no "
                    "scores, use the lesson's own: 1/sqrt(2), 0, -1.  "
                    "'-inf' marks a masked key.")
    table.add_argument("scores", nargs="*", metavar="SCORE",
                       help="one score per key, e.g. 2 1 0.5 -inf")
    bench = commands.add_parser(
        "bench", help="measure accuracy (ulps) or speed (seconds per call)",
        description="accuracy: the error of each softmax, in ulps, against a "
                    "60-digit reference over a fixed corpus of rows.  speed: "
                    "what softmax's checks cost, as its time over the bare "
                    "recipe's (max, exp list, sum, divide) on 3 and 1000 "
                    "scores; then seconds per call of softmax and attention "
                    "at growing sizes.  NumPy and SciPy are measured too "
                    "where installed.")
    bench.add_argument("what", choices=["accuracy", "speed"])
    bench.add_argument("--quick", action="store_true",
                       help="speed only: shorter timings and smaller sizes")
    starter = commands.add_parser(
        "starter", help="write the exercise's starter file",
        description="Write the four functions of Part 2 as stubs with their "
                    "contracts, ready to fill in.  An existing file is never "
                    "overwritten.")
    starter.add_argument("path", nargs="?", default="softmax_exercise.py",
                         help="where to write it (default: softmax_exercise.py)")
    check = commands.add_parser(
        "check", help="grade your four functions against the lesson",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run every check on your softmax, naive_softmax,\n"
                    "rows_normalised and entropy, in a separate process, and say\n"
                    "what passed, what failed and why, with anything your code\n"
                    "printed.  A .py file, or a Jupyter notebook (.ipynb): its\n"
                    "code cells run in order, IPython's %magics and !shell lines\n"
                    "skipped.",
        epilog=f"""\
For teachers: give several files, or a folder of submissions (its .py and
.ipynb files; folders inside it are not searched).  Each file gets its
report, then a table: file, passed, failed, first failing check.  With
--json, stdout is one JSON object for autograders: {{"checker", "time_limit",
"files": [{{"file", "passed", "failed", "problem", "uses_reference", "checks":
[{{"function", "name", "input", "passed", "status", "expected", "got",
"hint", "stdout", "stderr"}}, ...]}}, ...]}}.

A check that runs longer than the time limit is stopped, and that
function's other checks are not run.  Loading a file may take 5 times the
limit (at least 5 s), a whole file 5 times plus 4 s (with the default:
{contract.TIME_LIMIT:g} s, {contract.time_limits()[1]:g} s and {contract.time_limits()[2]:g} s).

The exit code is 0 only when every check of every file passed, 1 when
some did not, 2 for a usage error.  The last line is "N passed, M failed".""")
    check.add_argument("paths", nargs="+", metavar="PATH",
                       help="your file (e.g. softmax_exercise.py or a notebook), "
                            "or a folder of them")
    check.add_argument("--json", action="store_true",
                       help="print one JSON object with every check's result")
    check.add_argument("--time-limit", type=_time_limit, default=contract.TIME_LIMIT,
                       metavar="SECONDS",
                       help="seconds one check may take (default: %(default)g)")
    check.error = lambda message: check.exit(   # a usage error is one line
        2, f"{check.prog}: error: {message} (see: {check.prog} --help)\n")
    return parser


def main(argv=None):
    """Run the command line; return the exit code.

    >>> main(["table", "2", "-inf"])
    key  score  score - max  exp(score - max)  weight
    1    2      0            1                 1
    2    -inf   -inf         0                 0
    sum of weights: 1
    0
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if (argv[:1] == ["table"] and argv[1:2] != ["--"]
            and not {"-h", "--help"} & set(argv)):
        argv.insert(1, "--")            # so '-inf' and '-1' read as scores
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "table":
            _print_table(_parse_scores(args.scores) or example.TABLE_SCORES)
        elif args.command == "bench" and args.what == "accuracy" and args.quick:
            raise ValueError("--quick is for bench speed only (bench accuracy "
                             "takes about a second as it is)")
        elif args.command == "bench" and args.what == "accuracy":
            bench.print_accuracy()
        elif args.command == "bench" and args.quick:
            bench.print_speed(budget=0.1, head_sizes=(16, 32, 64))
        elif args.command == "bench":
            bench.print_speed()
        elif args.command == "starter":
            return _write_starter(args.path)
        elif args.command == "check":
            return _check(_check_paths(args.paths), args.time_limit, args.json)
        else:
            _print_worked_example()
    except (TypeError, ValueError) as error:
        print(f"python -m lesson {args.command}: error: {error}", file=sys.stderr)
        return 2
    return 0
