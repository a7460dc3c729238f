// One Python (Pyodide) in a Web Worker, for the Exercises page's editor.
//
// The page starts two kinds of worker from this file:
//   judge    imports lesson.grader.page: the plan, the judging and the report.
//            It never runs a line of the learner's code, so nothing the
//            learner's file does (math.exp = ...) can change an expected answer.
//   learner  imports the grader's harness alone (lesson/grader/harness.py, by
//            the name lesson_harness), loads the learner's file and makes one
//            call per request, as the terminal's worker process does.
// The runtime is fetched from this site (./pyodide/); the modules come from
// the page, which holds them as JSON.  A learner's worker loads a package
// (NumPy) only when the page asks, after the learner's click: from the
// package CDN the page names, the file and sha256 of the site's
// pyodide-lock.json (Pyodide's loadPackage fetches it with that integrity).  Replies cross between the workers as
// the JSON text Python's json module makes, so inf and nan survive the trip.

const here = new URL(".", import.meta.url);
const FOLDER = "/home/pyodide";             // the learner's file is saved here, as on disk
const LESSON = "/lesson-site";              // the judge's copy of the lesson package
const HARNESS = "/lesson-harness";          // the learner's copy of the harness
let python = null;
let module = null;                          // the Python module this worker calls

function post(message) {
  self.postMessage(message);
}

// What the learner's code writes to stdout and stderr goes to the page at
// once, so even a call that never returns has shown what it printed.  Past
// `keep` characters of one stream in one step, only that stream's count goes
// on, now and then: a flood on stderr never hides what stdout printed.
const printed = { stdout: { kept: 0, unsent: 0 }, stderr: { kept: 0, unsent: 0 } };
let keep = 0;
function printer(stream) {
  const decoder = new TextDecoder();
  const count = printed[stream];
  return {
    write(buffer) {
      const text = decoder.decode(buffer, { stream: true });
      if (count.kept < keep) {
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

function newStep(limit) {
  for (const [stream, count] of Object.entries(printed)) {
    if (count.unsent) post({ type: "printed", stream, more: count.unsent });
    count.kept = 0;
    count.unsent = 0;
  }
  if (limit !== undefined) keep = limit;
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

function writeFiles(folder, files) {
  for (const [name, source] of Object.entries(files)) {
    const path = `${folder}/${name}`;
    python.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    python.FS.writeFile(path, source);
  }
}

// Pyodide's time.sleep spins a core until the time is up.  Atomics.wait on
// a shared WebAssembly memory sleeps instead; a worker may wait so without
// cross-origin isolation where the browser lets it make that memory
// (Chromium does).  Where it may not, this is null and Pyodide's sleep stays.
function sleeper() {
  try {
    const cell = new Int32Array(new WebAssembly.Memory({ shared: true, initial: 1, maximum: 1 }).buffer);
    Atomics.wait(cell, 0, 0, 0);
    return (milliseconds) => { Atomics.wait(cell, 0, 0, milliseconds); };
  } catch (error) {
    return null;
  }
}

// Python starts from its first state in seconds of CPU; from a memory
// snapshot of that state (the judge makes one as it starts, and the page
// hands it to each learner worker started after) in a tenth of that.  The
// snapshot is taken before a line of the lesson is loaded: a learner's
// Python holds what a fresh one holds, and nothing else.  What the page is
// told: Python's version, and whether it started from the snapshot.
async function start(role, files, snapshot, packages) {
  post({ type: "progress", stage: "runtime" });
  const runtime = new URL("pyodide/", here);
  // A missing file is named at once, before a 10 MB download starts.
  await Promise.all(["pyodide.asm.wasm", "python_stdlib.zip"].map(async (name) => {
    const response = await fetch(new URL(name, runtime), { method: "HEAD" });
    if (!response.ok) throw new Error(`${name} is missing from the site (HTTP ${response.status})`);
  }));
  const { loadPyodide } = await import(new URL("pyodide.mjs", runtime).href);
  const options = { indexURL: runtime.href };
  if (packages) options.packageBaseUrl = packages.from;         // only after the click
  if (role === "judge") options._makeSnapshot = true;
  else if (snapshot) options._loadSnapshot = snapshot;
  // Each attempt watches for its own failure: a warning the first one left
  // must not fail the second.
  const attempt = () => Promise.race([failedStart(), loadPyodide(options)]);
  try {
    python = await attempt();
  } catch (error) {                     // a snapshot this browser cannot load: start afresh
    if (!options._loadSnapshot) throw error;
    delete options._loadSnapshot;
    python = await attempt();
  }
  if (role === "judge") {
    try {
      const made = python.makeMemorySnapshot();
      self.postMessage({ type: "snapshot", snapshot: made }, [made.buffer]);
    } catch (error) { /* no snapshot: each learner starts afresh */ }
  }
  python.setStdin({ stdin: () => null });            // input() meets the end of input
  post({ type: "progress", stage: "lesson" });
  const sys = python.pyimport("sys");
  if (role === "judge") {
    writeFiles(`${LESSON}/lesson`, files.modules);
    sys.path.insert(0, LESSON);
    module = python.pyimport(files.judge);
  } else {
    const [path, name] = files.harness;
    writeFiles(HARNESS, { [`${name}.py`]: files.modules[path] });
    sys.path.insert(0, HARNESS);
    module = python.pyimport(name);
    if (packages) await loadPackages(packages.names);
    const wait = sleeper();
    if (wait) module.sleep_with(wait);
    python.setStdout(printer("stdout"));
    python.setStderr(printer("stderr"));
  }
  const version = sys.version.split(" ")[0];
  sys.destroy();
  return { version, snapshot: Boolean(options._loadSnapshot) };
}

// Pyodide's loadPackage reports a failed download in a message, not by
// throwing: a package that did not load is an error, with what Pyodide said.
async function loadPackages(names) {
  const said = [];
  await python.loadPackage(names, { checkIntegrity: true, messageCallback: () => {},
                                    errorCallback: (text) => said.push(text) });
  const missing = names.filter((name) => !(name in python.loadedPackages));
  if (missing.length) throw new Error(said.join(" ") || `${missing.join(", ")} did not load`);
}

// The top-level modules a source imports, read by Python's parser (not run).
function imports(source) {
  const find = python.pyimport("pyodide.code").find_imports;
  try {
    const found = find(source);
    try { return found.toJs(); } finally { found.destroy(); }
  } catch (error) {
    return [];                                      // a syntax error: the checker says so
  } finally {
    find.destroy();
  }
}

// Call a function of this worker's module; a Python list comes back as an array.
function call(name, ...args) {
  const fn = module[name];
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
        post({ type: "ready", ...await start(message.role, message.files, message.snapshot,
                                             message.packages) });
        break;
      case "imports":                               // judge: what a source imports
        post({ type: "imports", names: imports(message.source) });
        break;
      case "begin":                                 // judge: a new run's first step
        post({ type: "step", step: call("begin", message.timeLimit, message.seed) });
        break;
      case "advance":                               // judge: what happened -> the next step
        post({ type: "step", step: call("advance", message.what, message.text,
                                        message.seconds, message.printed) });
        break;
      case "finish":                                // judge: the report's records
        post({ type: "finished",
               drawing: call("finish", message.shownAs, message.cli, message.source) });
        break;
      case "load": {                                // learner: load the file
        const path = `${FOLDER}/${message.filename}`;
        python.FS.mkdirTree(FOLDER);
        python.FS.writeFile(path, message.source);
        python.FS.chdir(FOLDER);
        newStep(message.keep);
        const text = call("load_here", path);
        newStep();
        post({ type: message.answer, text });          // the statuses are the page's data
        break;
      }
      case "call": {                                // learner: one request
        newStep(message.keep);
        const text = call("answer_here", message.request);
        newStep();
        post({ type: message.answer, text });
        break;
      }
    }
  } catch (error) {
    post({ type: "failed", reason: String((error && error.message) || error) });
  }
};
