"""The lesson's command line.

python -m lesson                   the worked example, step by step
python -m lesson table [SCORES]    the table: score, score - max, exp, weight
python -m lesson bench accuracy    softmax's error in ulps against 60 digits
python -m lesson bench speed       what the checks cost; seconds per call
python -m lesson starter [PATH]    write the exercise's four stubs
python -m lesson check PATH        grade your four functions
"""

import argparse
import os
import sys

from lesson import bench, example, exercise
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
        exercise.write_starter(path)
    except FileExistsError:
        print(f"python -m lesson starter: {path} already exists; it was left as "
              f"it is (give another path to start afresh)", file=sys.stderr)
        return 1
    print(f"Wrote {path}. Fill in the four functions, then run:\n"
          f"    python -m lesson check {path}")
    return 0


def _check_file(path, time_limit):
    if not os.path.isfile(path):
        print(f"python -m lesson check: no file {path}", file=sys.stderr)
        return 2
    lines, passed, failed = exercise.grade(path, time_limit)
    print("\n".join(lines))
    return 0 if failed == 0 else 1


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
        description="Run every check on your softmax, naive_softmax, "
                    "rows_normalised and entropy, in a separate process, and "
                    "say what passed, what failed and why.  The exit code is "
                    "0 only when every check passes.")
    check.add_argument("path", help="your file, e.g. softmax_exercise.py")
    check.add_argument("--time-limit", type=float, default=exercise.TIME_LIMIT,
                       metavar="SECONDS",
                       help="seconds a check may take (default: %(default)g)")
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
        elif args.command == "bench" and args.what == "accuracy":
            bench.print_accuracy()
        elif args.command == "bench" and args.quick:
            bench.print_speed(budget=0.1, head_sizes=(16, 32, 64))
        elif args.command == "bench":
            bench.print_speed()
        elif args.command == "starter":
            return _write_starter(args.path)
        elif args.command == "check":
            return _check_file(args.path, args.time_limit)
        else:
            _print_worked_example()
    except (TypeError, ValueError) as error:
        print(f"python -m lesson {args.command}: error: {error}", file=sys.stderr)
        return 2
    return 0
