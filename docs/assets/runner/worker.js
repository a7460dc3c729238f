// One Python (Pyodide) in a Web Worker, for the Exercises page's editor.
//
// The page starts two kinds of worker from this file:
//   judge    holds the lesson's checker and builds the report.  It never runs
//            a line of the learner's code, so nothing the learner's file does
//            (lesson.softmax = ..., math.exp = ...) can change an expected answer.
//   learner  loads the learner's file and makes the calls, one check at a
//            time.  The page times every call and ends a worker that does not
//            answer with worker.terminate(); every run gets a fresh worker.
// Everything is fetched from this site: the runtime from ./pyodide/ and the
// lesson package from ./lesson/.  Values cross between the workers as JSON
// text made by Python's json module, so inf and nan survive the trip.

const here = new URL(".", import.meta.url);
let python = null;
let stray = [];          // what reached the real stdout/stderr (sys.__stdout__)

const GLUE = {
  // The checker's own functions, as `python -m lesson check` uses them.
  judge: `
import json
from lesson import exercise

def judge_plan():
    return json.dumps([check.function for check in exercise.CHECKS])

def judge_report(load, outcomes, stray, time_limit, shown_as):
    load, outcomes, stray = json.loads(load), json.loads(outcomes), json.loads(stray)
    outcomes = {int(index): outcome for index, outcome in outcomes.items()}
    results = exercise.results(load, outcomes, time_limit)
    lines = exercise.report_lines(shown_as, load, results, time_limit)
    passed = sum(1 for result in results if result["passed"])
    return json.dumps({"lines": lines, "passed": passed, "failed": len(results) - passed})
`,
  // Loads the learner's file in a fresh module and makes one call at a time.
  learner: `
import json
from lesson import exercise

_dumps, _checks, _learner = json.dumps, list(exercise.CHECKS), {}

def learner_load(source, filename):
    load, module = exercise.load_learner(source, filename)
    _learner["module"] = module
    return [load.get("load") == "ok", _dumps(load)]

def learner_call(index):
    check = _checks[index]
    function = getattr(_learner["module"], check.function, None)
    return _dumps(exercise.call_check(function, check))
`,
};

// TEMPORARY until the checker's seam (issue 9) lands: the same names, made
// from the old checker's internals.
const SHIM = `
from lesson import exercise as _ex
import types, sys, traceback, copy
if not hasattr(_ex, "results"):
    def load_learner(source, filename, module_name="softmax_exercise"):
        module = types.ModuleType(module_name)
        module.__file__ = filename
        sys.modules[module_name] = module
        try:
            exec(compile(source, filename, "exec"), module.__dict__)
        except SyntaxError as error:
            return {"load": "syntax", "line": error.lineno, "message": error.msg,
                    "code": (error.text or "").strip()}, module
        except BaseException as error:
            return {"load": "error", "error": _ex._error(filename, error)}, module
        return {"load": "ok"}, module
    def call_check(function, check):
        if not callable(function):
            return {"missing": True}
        try:
            return {"value": _ex._plain(function(*copy.deepcopy(check.args), **check.kwargs))}
        except Exception as error:
            return {"error": _ex._error(check.function, error)}
    def results(load, outcomes, time_limit):
        problem = None if load.get("load") == "ok" else load
        out = []
        for index, check in enumerate(_ex.CHECKS):
            ok, details = _ex._verdict(check, outcomes.get(index), problem, time_limit)
            out.append({"function": check.function, "name": check.name, "passed": ok, "details": details})
        return out
    def report_lines(shown_as, load, results, time_limit):
        problem = None if load.get("load") == "ok" else load
        lines = [f"Checking {shown_as} against lesson 4's contract", ""]
        if problem is not None:
            lines += [_ex._load_problem(problem, time_limit), ""]
        for function in _ex.FUNCTIONS:
            lines.append(function)
            for r in results:
                if r["function"] == function:
                    lines.append(f"  {'PASS' if r['passed'] else 'FAIL'}  {r['name']}")
                    lines += [f"        {line}" for line in r["details"]]
            lines.append("")
        passed = sum(r["passed"] for r in results)
        lines.append(f"{passed} passed, {len(results) - passed} failed")
        return lines
    _ex.load_learner, _ex.call_check, _ex.results, _ex.report_lines = load_learner, call_check, results, report_lines
`;

function post(message) {
  self.postMessage(message);
}

// Pyodide reports a failed start (a file that will not load, too little
// memory) with console.warn and then waits for ever: turn that into an error.
function failedStart() {
  return new Promise((resolve, reject) => {
    const warn = console.warn.bind(console);
    let failing = false;
    console.warn = (...args) => {
      warn(...args);
      const text = args.map(String).join(" ");
      if (failing) reject(new Error(text));
      if (/instantiation failed|^Aborted/i.test(text)) failing = true;
    };
  });
}

async function start(role, files) {
  post({ type: "progress", stage: "runtime" });
  const runtime = new URL("pyodide/", here);
  // A missing file is named at once, before a 10 MB download starts.
  await Promise.all(["pyodide.asm.wasm", "python_stdlib.zip"].map(async (name) => {
    const response = await fetch(new URL(name, runtime), { method: "HEAD" });
    if (!response.ok) throw new Error(`${name} is missing from the site (HTTP ${response.status})`);
  }));
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  python = await Promise.race([failedStart(), loadPyodide({
    indexURL: runtime.href,
    stdout: (line) => stray.push(line),
    stderr: (line) => stray.push(line),
  })]);
  python.setStdin({ stdin: () => null });            // input() meets the end of input
  post({ type: "progress", stage: "lesson" });
  python.FS.mkdirTree("/lesson-site/lesson");
  await Promise.all(files.map(async (name) => {
    const response = await fetch(new URL(`lesson/${name}`, here));
    if (!response.ok) throw new Error(`lesson/${name}: HTTP ${response.status}`);
    python.FS.writeFile(`/lesson-site/lesson/${name}`, await response.text());
  }));
  python.runPython("import sys; sys.path.insert(0, '/lesson-site')");
  python.runPython(SHIM);
  python.runPython(GLUE[role]);
  stray = [];
  return python.runPython("import sys; sys.version.split()[0]");
}

// Call a glue function; a Python list comes back as a JavaScript array.
function call(name, ...args) {
  const fn = python.globals.get(name);
  try {
    const result = fn(...args);
    if (result && typeof result.toJs === "function") {
      try { return result.toJs(); } finally { result.destroy(); }
    }
    return result;
  } finally {
    fn.destroy();
  }
}

function takeStray() {
  const lines = stray;
  stray = [];
  return lines;
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    switch (message.type) {
      case "start":
        post({ type: "ready", version: await start(message.role, message.files) });
        break;
      case "plan":
        post({ type: "plan", plan: call("judge_plan") });
        break;
      case "report":
        post({ type: "report", report: call("judge_report", message.load, message.outcomes,
                                            message.stray, message.timeLimit, message.shownAs) });
        break;
      case "load": {
        const [ok, load] = call("learner_load", message.source, message.filename);
        post({ type: "loaded", ok, load, stray: takeStray() });
        break;
      }
      case "call":
        post({ type: "outcome", index: message.index, outcome: call("learner_call", message.index),
               stray: takeStray() });
        break;
    }
  } catch (error) {
    post({ type: "failed", during: message.type, reason: String((error && error.message) || error) });
  }
};
