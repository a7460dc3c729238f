"""The checker against a corpus of real learners' files (issue 9).

Every case in tests/learner_corpus/manifest.json says what
``python -m lesson check --json`` must report for one learner file: how many
checks pass, which fail and how, what went wrong while loading, whether it
leaned on the lesson's own functions, how long the checker may take, and
that nothing the learner started outlives the checker.

All the checker runs start together, once per session, and each test reads
its own case from the results, so the slow cases (files that hang) cost
their time limit once, not once per test.  See tests/learner_corpus/README.md.
"""

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from helpers import CHECKER, CORPUS, HARD_CAP, Run
from lesson.grader import reading
from helpers import misspoken

MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
KEYS = MANIFEST["checks"]
CASES = MANIFEST["cases"]
STATUSES = {"pass", "fail", "error", "timeout", "not run", "missing"}
CHECK_FIELDS = {"function", "name", "input", "passed", "status", "expected", "got",
                "hint", "mistakes", "stdout", "stderr"}
FILE_FIELDS = {"file", "passed", "failed", "problem", "uses_reference", "checks"}
OUTPUT_CAP = 100_000        # characters of learner output one check may carry
BATCH_SECONDS_PER_FILE = 2  # the issue: a correct file is graded in <= 2 s

# --- Running the checker ------------------------------------------------------

# --- Planning the runs ----------------------------------------------------------

def _generated_files(root):
    """Copies of a correct file under names a shell accepts but a checker may not."""
    source = (CORPUS / "correct_loops.py").read_bytes()
    paths = {}
    for case in CASES:
        name = case["run"].get("name")
        if case["run"]["group"] != "generated":
            continue
        if name.startswith("b:"):
            raw = name[2:].encode("ascii").decode("unicode_escape").encode("latin-1")
            path = os.fsencode(root) + b"/" + raw
        else:
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(source)
        paths[case["id"]] = path
    return paths


def plan(tmp_root):
    """Every checker run, and which case reads which file of which run."""
    runs, where = [], {}
    batch = [c for c in CASES if c["run"]["group"] == "batch"]
    for part in (batch[0::4], batch[1::4], batch[2::4], batch[3::4]):
        run = Run("batch", [c["file"] for c in part], CORPUS)
        runs.append(run)
        for index, case in enumerate(part):
            where[case["id"]] = (run, index)
    generated = _generated_files(tmp_root)
    if generated:
        ids = list(generated)
        run = Run("generated", [generated[i] for i in ids], tmp_root)
        runs.append(run)
        for index, case_id in enumerate(ids):
            where[case_id] = (run, index)
    human = {}
    for case in CASES:
        spec = case["run"]
        cwd = {None: CORPUS, "<tmp>": tmp_root}.get(spec.get("cwd")) or CORPUS / spec["cwd"]
        arg = spec.get("arg", case["file"])
        if arg == "<absolute>":
            arg = str(CORPUS / case["file"])
        if spec["group"] == "alone":
            run = Run(case["id"], [arg], cwd, spec.get("time_limit"))
            runs.append(run)
            where[case["id"]] = (run, 0)
        if case.get("human"):
            if spec["group"] == "batch":
                cwd, arg = CORPUS, case["file"]
            run = Run(case["id"] + " (human)", [arg], cwd, spec.get("time_limit"), human=True)
            run.solo = bool(case.get("human_max_seconds"))
            runs.append(run)
            human[case["id"]] = run
    return runs, where, human


@pytest.fixture(scope="session")
def results(tmp_path_factory):
    """Run the checker on the whole corpus once: slow cases side by side."""
    runs, where, human = plan(tmp_path_factory.mktemp("names"))
    together = [r for r in runs if not r.solo]
    first = {"hang_four": 0, "batch": 1}       # the longest runs start first
    together.sort(key=lambda r: first.get(r.label, 2))
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda r: r(), together))
    for run in runs:
        if run.solo:
            run()                          # wall time without the corpus competing
    return where, human, runs


def file_result(results, case):
    where, _, _ = results
    run, index = where[case["id"]]
    assert run.json_error is None, f"{run.label}: stdout is not one JSON object: {run.json_error}"
    files = run.report["files"]
    if case.get("folder"):
        return run, files
    args = run.paths
    assert len(files) == len(args), f"{run.label}: {len(args)} paths given, {len(files)} results"
    result = files[index]
    if isinstance(args[index], str):
        assert os.path.basename(result["file"]) == os.path.basename(args[index]), \
            f"results come in the order the paths were given: {result['file']} vs {args[index]}"
    return run, result


def ids(case):
    return case["id"]


# --- The tests ------------------------------------------------------------------

@pytest.mark.parametrize("case", [c for c in CASES if not c.get("folder")], ids=ids)
def test_verdicts(results, case):
    run, result = file_result(results, case)
    assert FILE_FIELDS <= set(result), f"missing fields: {FILE_FIELDS - set(result)}"
    checks = {f"{c['function']}: {c['name']}": c for c in result["checks"]}
    assert sorted(checks) == sorted(KEYS) and len(result["checks"]) == len(KEYS)
    for key, check in checks.items():
        assert CHECK_FIELDS <= set(check), f"{key}: missing fields {CHECK_FIELDS - set(check)}"
        assert check["status"] in STATUSES, f"{key}: status {check['status']!r}"
        assert check["passed"] is (check["status"] == "pass"), f"{key}: {check}"
    passed = sum(c["passed"] for c in checks.values())
    assert (result["passed"], result["failed"]) == (passed, len(KEYS) - passed)

    summary = {k: (c["status"], c["got"]) for k, c in checks.items() if not c["passed"]}
    expected = case["passed"]
    if isinstance(expected, list):
        assert expected[0] <= passed <= expected[1], summary
    else:
        assert passed == expected, summary
    open_ = set(case.get("unasserted", []))
    failing = set(case["failing"] if "failing" in case else KEYS if expected == 0 else [])
    for key, check in checks.items():
        if key in open_:
            continue
        assert check["passed"] is (key not in failing), \
            f"{key}: {'should fail' if key in failing else 'should pass'}; got {check['status']}: {check['got']!r}"
    for key, wanted in case.get("statuses", {}).items():
        allowed = wanted if isinstance(wanted, list) else [wanted]
        assert checks[key]["status"] in allowed, f"{key}: {checks[key]['status']} not in {allowed}"
    if case.get("statuses_all"):
        assert {c["status"] for c in checks.values()} <= set(case["statuses_all"])
    for key, pattern in case.get("got", {}).items():
        assert re.search(pattern, str(checks[key]["got"])), f"{key}: got {checks[key]['got']!r}"


@pytest.mark.parametrize("case", [c for c in CASES if not c.get("folder")], ids=ids)
def test_problem_and_reference_flag(results, case):
    run, result = file_result(results, case)
    problem = case.get("problem")
    if problem is None:
        assert result["problem"] is None, result["problem"]
    elif problem != "any":
        assert isinstance(result["problem"], str) and re.search(problem, result["problem"]), \
            f"problem {result['problem']!r} does not match {problem!r}"
        assert "Traceback (most recent call last)" not in result["problem"]
    if case.get("problem_one_line"):
        assert "\n" not in result["problem"].strip(), result["problem"]
    assert result["uses_reference"] is case.get("uses_reference", False)


@pytest.mark.parametrize("case", [c for c in CASES if not c.get("folder")], ids=ids)
def test_failures_show_what_differs(results, case):
    """Expected and got of a failed answer never print the same."""
    run, result = file_result(results, case)
    assert len(result["checks"]) == len(KEYS)
    compared = 0
    for check in result["checks"]:
        for stream in ("stdout", "stderr"):
            assert len(check[stream] or "") <= OUTPUT_CAP, f"{check['name']}: {stream} not capped"
        if result["uses_reference"]:
            continue               # the lesson's own answers: expected is got
        if check["status"] == "fail" and check["expected"] is not None and check["got"] is not None:
            assert str(check["expected"]) != str(check["got"]), check
            compared += 1
    failed = sum(c["status"] == "fail" for c in result["checks"])
    assert compared == (0 if result["uses_reference"] else failed), \
        f"{failed - compared} failed answers show no expected or no got"


@pytest.mark.parametrize("case", [c for c in CASES if not c.get("folder")], ids=ids)
def test_hints_name_only_the_mistakes_the_file_makes(results, case):
    """A hint names a usual mistake only when the answers prove it (issue 25):
    the ones the case's file makes ("mistakes"), or those its answers cannot
    be told from; a file that makes none is named none."""
    run, result = file_result(results, case)
    said = [(c["mistakes"], c["hint"]) for c in result["checks"] if not c["passed"]]
    named = set().union(*(set(names) for names, _ in said))
    assert named == set(case.get("mistakes", [])), said
    if case["category"] == "correct":
        assert not any(c["hint"] for c in result["checks"]), result["checks"]


@pytest.mark.parametrize("case", [c for c in CASES if not c.get("folder")
                                  and c["file"].endswith(".py")], ids=ids)
def test_hints_speak_the_dialect_of_the_code(results, case):
    """Lists or NumPy, rows or columns (issue 39): a function written with lists
    is told nothing in NumPy's words, and a check of columns hears no "each row"."""
    run, result = file_result(results, case)
    path = CORPUS / case["file"]
    assert misspoken(result["checks"], reading.facts(path.read_bytes(), path.name)) == []


@pytest.mark.parametrize("case", [c for c in CASES if c.get("stdout") or c.get("stderr")], ids=ids)
def test_learner_output_is_shown_next_to_its_check(results, case):
    run, result = file_result(results, case)
    checks = {f"{c['function']}: {c['name']}": c for c in result["checks"]}
    for stream in ("stdout", "stderr"):
        for key, text in case.get(stream, {}).items():
            assert text in (checks[key][stream] or ""), f"{key}: {stream} {checks[key][stream]!r}"


@pytest.mark.parametrize("case", [c for c in CASES if c["run"]["group"] != "batch"], ids=ids)
def test_wall_time(results, case):
    where, _, _ = results
    run, _ = where[case["id"]]
    limit = case.get("max_seconds", 10)
    assert run.seconds <= limit, f"{run.label}: {run.seconds:.1f} s > {limit} s"


def test_batch_wall_time(results):
    _, _, runs = results
    for run in runs:
        if run.label == "batch":
            files = len(run.paths)
            assert run.seconds <= BATCH_SECONDS_PER_FILE * files, f"{files} files in {run.seconds:.1f} s"


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_no_process_left_behind(results, case):
    where, human, _ = results
    run, _ = where[case["id"]]
    for each in [run] + ([human[case["id"]]] if case["id"] in human else []):
        assert not each.hard_capped, f"{each.label}: the checker never finished ({HARD_CAP} s)"
        assert each.survivors == [], f"{each.label}: still running after the checker ended: {each.survivors}"
    if case.get("spawns"):        # the file did start its processes: it says so
        assert "(corpus) started" in json.dumps(file_result(results, case)[1]), \
            "the learner file's processes never started"


def test_json_runs_are_one_object_with_the_right_exit_code(results):
    _, _, runs = results
    for run in runs:
        if run.human:
            continue
        assert run.json_error is None, f"{run.label}: {run.json_error}"
        report = run.report
        assert report["checker"] == "lesson 4"
        assert isinstance(report["time_limit"], float) and report["time_limit"] > 0
        if run.time_limit is not None:
            assert report["time_limit"] == run.time_limit
        everything_passed = all(f["failed"] == 0 for f in report["files"])
        assert (run.returncode == 0) is everything_passed, f"{run.label}: exit {run.returncode}"
        assert "Traceback (most recent call last)" not in run.stderr, f"{run.label}: {run.stderr[-2000:]}"


@pytest.mark.parametrize("case", [c for c in CASES if c.get("human")], ids=ids)
def test_human_report_ends_with_the_count(results, case):
    _, human, _ = results
    run = human[case["id"]]
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    passed = case["passed"]
    assert lines and lines[-1] == f"{passed} passed, {len(KEYS) - passed} failed", run.stdout[-1500:]
    assert (run.returncode == 0) is (passed == len(KEYS)), f"exit {run.returncode}"
    assert "Traceback (most recent call last)" not in run.stdout + run.stderr
    # nothing the file made reaches the terminal as a control character (an
    # escape code, a right-to-left override): the report shows them escaped
    odd = {c for c in run.stdout + run.stderr if not c.isprintable() and c not in "\n\t"}
    assert not odd, sorted(odd)
    if case.get("human_max_seconds"):
        assert run.seconds <= case["human_max_seconds"], f"{run.seconds:.1f} s"


@pytest.mark.parametrize("case", [c for c in CASES if c.get("folder")], ids=ids)
def test_a_folder_of_submissions(results, case):
    run, files = file_result(results, case)
    got = {os.path.basename(f["file"]): f["passed"] for f in files}
    assert got == case["folder"]
    assert run.returncode != 0


def test_manifest_names_real_files_and_checks():
    assert len(KEYS) == 20 and len(set(KEYS)) == 20
    assert len({c["id"] for c in CASES}) == len(CASES)
    for case in CASES:
        assert (CORPUS / case["file"]).exists(), case["file"]
        for key in case.get("failing", []) + case.get("unasserted", []) + list(case.get("statuses", {})):
            assert key in KEYS, (case["id"], key)


@pytest.mark.parametrize("limit", ["inf", "0", "-1", "nan"])
def test_a_bad_time_limit_is_a_usage_error(limit):
    """Rejected in one short message before any learner code runs."""
    result = subprocess.run(
        [sys.executable, "-m", "lesson", "check", "--json", "--time-limit", limit, "correct_loops.py"],
        cwd=CORPUS, env=dict(os.environ, PYTHONPATH=CHECKER, PYTHONDONTWRITEBYTECODE="1"),
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert "Traceback" not in result.stderr and "time-limit" in result.stderr.strip().splitlines()[-1]


def test_the_untouched_starter_is_the_starter_the_checker_writes():
    """starter_untouched.py must stay exactly what `python -m lesson starter` writes."""
    from lesson.grader.contract import STARTER
    path = CORPUS / "starter_untouched.py"
    assert path.read_text(encoding="utf-8") == STARTER.format(name=path.name)
