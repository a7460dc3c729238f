// One Python (Pyodide) in a Web Worker, for the Exercises page's editor.
//
// The page starts two kinds of worker from this file:
//   judge    holds the lesson's checker and builds the report.  It never runs
//            a line of the learner's code, so nothing the learner's file does
//            (lesson.softmax = ..., math.exp = ...) can change an expected answer.
//   learner  loads the learner's file and makes the calls, one check at a
//            time, as lesson/runner.py's worker process does.  The page times
//            every call, and ends a worker that does not answer with
//            worker.terminate(); every run gets a fresh worker.
// The runtime is fetched from this site (./pyodide/); the lesson package's
// modules come from the page, which holds them as JSON.  Loads and outcomes
// cross between the workers as JSON text made by Python's json module, so inf
// and nan survive the trip.

const here = new URL(".", import.meta.url);
const FOLDER = "/home/pyodide";             // the learner's file is saved here, as on disk
let python = null;

const GLUE = {
  // The checker's own functions, as `python -m lesson check` uses them.
  judge: `
import json
from lesson import exercise

def judge_plan():
    return json.dumps({"functions": [check.function for check in exercise.CHECKS],
                       "names": [check.name for check in exercise.CHECKS],
                       "limits": exercise.time_limits(exercise.TIME_LIMIT)})

def judge_report(load, outcomes, printed, time_limit, shown_as):
    """The report, from the learner worker's load and outcomes, as lesson.runner makes it."""
    load, outcomes = json.loads(load), json.loads(outcomes)
    outcomes = {int(index): outcome for index, outcome in outcomes.items()}
    for step, streams in json.loads(printed).items():
        target = load if step == "load" else outcomes[int(step)]
        for stream, (text, size) in streams.items():
            target[stream] = exercise.capped(text[:exercise.OUTPUT_LIMIT], size)
    results = exercise.results(load, outcomes, time_limit)
    passed, failed = exercise.counts(results)
    return json.dumps({"lines": exercise.report_lines(shown_as, load, results, time_limit),
                       "passed": passed, "failed": failed})
`,
  // What lesson/runner.py's worker does: read and load the file, then one
  // call per check.  What the code prints reaches the page as it is written.
  learner: `
import json, os, sys
from lesson import exercise

_encode = json.JSONEncoder().encode                 # before the learner's code runs
_streams, _learner = (sys.stdout, sys.stderr), {}


class _exit_is_an_exception:
    """os._exit() in the learner's code raises SystemExit, as in lesson.runner."""

    def __enter__(self):
        def _exit(code):
            raise SystemExit(code)
        self.real, os._exit = os._exit, _exit

    def __exit__(self, *error):
        os._exit = self.real
        for stream in _streams:
            stream.flush()


def learner_load(path):
    sys.argv = [path]
    sys.path.append(os.path.dirname(path))          # helpers import; never ahead of stdlib
    with open(path, "rb") as file:
        source, load = exercise.read_learner(file.read(), path)
    module = None
    if source is not None:
        with _exit_is_an_exception():
            module, load = exercise.load_learner(source, path, "softmax_exercise",
                                                 capture=False)
    _learner["module"] = module
    return [module is not None, _encode(load)]


def learner_call(index):
    check = exercise.CHECKS[index]
    function = getattr(_learner["module"], check.function, None)
    if not callable(function):
        return _encode({"missing": True})
    with _exit_is_an_exception():
        return _encode(exercise.call_check(function, check, capture=False))
`,
};

function post(message) {
  self.postMessage(message);
}

// What the learner's code writes to stdout and stderr goes to the page at
// once, so even a call that never returns has shown what it printed.  After
// 4,000 characters of one stream in one step only that stream's count goes
// on, now and then: a flood on stderr never hides what stdout printed.
const printed = { stdout: { kept: 0, unsent: 0 }, stderr: { kept: 0, unsent: 0 } };
function printer(stream) {
  const decoder = new TextDecoder();
  const count = printed[stream];
  return {
    write(buffer) {
      const text = decoder.decode(buffer, { stream: true });
      if (count.kept < 4000) {
        count.kept += text.length;
        post({ type: "printed", stream, text });
      } else {
        count.unsent += text.length;
        if (count.unsent > 100000) {
          post({ type: "printed", stream, more: count.unsent });
          count.unsent = 0;
        }
      }
      return buffer.length;
    },
  };
}

function newStep() {
  for (const [stream, count] of Object.entries(printed)) {
    if (count.unsent) post({ type: "printed", stream, more: count.unsent });
    count.kept = 0;
    count.unsent = 0;
  }
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
  python = await Promise.race([failedStart(), loadPyodide({ indexURL: runtime.href })]);
  python.setStdin({ stdin: () => null });            // input() meets the end of input
  post({ type: "progress", stage: "lesson" });
  python.FS.mkdirTree("/lesson-site/lesson");
  for (const [name, source] of Object.entries(files)) {
    python.FS.writeFile(`/lesson-site/lesson/${name}`, source);
  }
  python.runPython("import sys; sys.path.insert(0, '/lesson-site')");
  python.runPython(GLUE[role]);
  if (role === "learner") {
    python.setStdout(printer("stdout"));
    python.setStderr(printer("stderr"));
  }
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
                                            message.printed, message.timeLimit, message.shownAs) });
        break;
      case "load": {
        const path = `${FOLDER}/${message.filename}`;
        python.FS.mkdirTree(FOLDER);
        python.FS.writeFile(path, message.source);
        python.FS.chdir(FOLDER);
        newStep();
        const [ok, load] = call("learner_load", path);
        newStep();
        post({ type: "loaded", ok, load });
        break;
      }
      case "call": {
        newStep();
        const outcome = call("learner_call", message.index);
        newStep();
        post({ type: "outcome", index: message.index, outcome });
        break;
      }
    }
  } catch (error) {
    post({ type: "failed", during: message.type, reason: String((error && error.message) || error) });
  }
};
