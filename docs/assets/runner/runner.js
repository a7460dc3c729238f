/* The Exercises page's editor: check the learner's four functions with real
   Python in the page, and show the report `softmax-lesson check` prints.

   Python is Pyodide (CPython compiled to WebAssembly), shipped with the site.
   Two kinds of Web Worker run it (see worker.js):
     the judge    holds the checker; it never runs the learner's code;
     a learner    loads the learner's file and makes one call per check.
   What to do next, and every rule of time and of checks not run, comes from
   the grader's plan (lesson/grader/plan.py), in the judge's worker, step by
   step: the very plan `softmax-lesson check` follows.  This file does what
   only JavaScript can: it starts the Web Workers, times each step, and stops
   a worker with terminate().  A spare learner worker is always starting, so
   a new run does not wait for Python; each starts from a snapshot of the
   judge's Python as it was before loading anything (worker.js).

   The text is edited in CodeMirror when the page loaded editor.bundle.js
   (editor.mjs, bundled at `npm ci`), else in the page's textarea; either
   way through the same few calls (text, setText, focus, markLines).

   No network: every file comes from this site, but for one: when the
   learner's code imports NumPy, which the site does not ship, the page
   offers one button that loads it from Pyodide's package CDN (the editor's
   data-package-cdn; the file and sha256 of the site's pyodide-lock.json),
   and fetches nothing before that click. */
(function () {
  "use strict";

  const STAGES = {
    runtime: "Starting Python in the page",
    lesson: "Loading the lesson's checker",
  };

  function mount(root) {
    const $ = (selector) => root.querySelector(selector);
    const textarea = $(".lr-code");
    const runButton = $(".lr-run");
    const status = $(".lr-status");
    const progress = $(".lr-progress");
    const report = $(".lr-report");
    const filename = root.dataset.filename;
    const starter = textarea.defaultValue;
    const storageKey = "lesson4:" + filename;
    // ?time-limit=SECONDS&seed=N in the page's address, as the CLI's --time-limit, --seed.
    const address = new URLSearchParams(location.search);
    const timeLimit = address.get("time-limit") || "";
    const seed = address.get("seed") || "";
    const cli = root.dataset.checkCommand;          // the terminal's command for this file
    const runner = new URL(root.dataset.runner, document.baseURI);
    // Seconds a Python may take to start before it is reported (the plan's START_LIMIT).
    const startLimit = Number(root.dataset.startLimit);
    // The grader's statuses, as data (lesson/grader/page.py, STATUSES).
    const statuses = JSON.parse(root.dataset.statuses);
    const files = JSON.parse($(".lr-lesson").textContent);    // the modules that run in the page
    // The package the page may load on request (NumPy), and from where.
    const offered = root.dataset.package ? JSON.parse(root.dataset.package) : null;
    const packageCdn = root.dataset.packageCdn;
    const offer = $(".lr-offer");
    const loadButton = $(".lr-load");
    let numpy = "off";                  // "off", "loading" (after the click), "on"
    // Seconds: each run, each stopped step, and each learner's start (with
    // whether it started from the judge's snapshot).
    const timings = { runs: [], stopped: [], starts: [] };

    // --- The editor: the learner's text, kept in this browser ---------------

    try {
      const saved = localStorage.getItem(storageKey);
      if (saved !== null) textarea.value = saved;
    } catch (error) { /* storage switched off: the starter it is */ }

    // CodeMirror where the page loaded it (editor.bundle.js), else the textarea.
    const editor = window.lessonCodeEditor ? codeEditor() : plainEditor(textarea);

    function keep() {
      try {
        const text = editor.text();
        if (text === starter) localStorage.removeItem(storageKey);
        else localStorage.setItem(storageKey, text);
      } catch (error) { /* storage switched off or full: nothing to keep it in */ }
    }

    function codeEditor() {
      // Its keys are told under it, instead of the textarea's.
      const keys = $(".lr-keys-editor");
      $(".lr-keys-plain").hidden = true;
      keys.hidden = false;
      return window.lessonCodeEditor(textarea, {
        onChange: () => keep(),
        labelledBy: $(".lr-label").id,
        describedBy: `${$(".lr-help").id} ${keys.id}`,
      });
    }

    function plainEditor(area) {
      area.addEventListener("input", () => keep());
      area.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || event.ctrlKey || event.metaKey || event.altKey
            || event.shiftKey || event.isComposing) return;
        // Enter keeps the indent of the line above, and indents after a colon.
        const before = area.value.slice(0, area.selectionStart);
        const line = before.slice(before.lastIndexOf("\n") + 1);
        let indent = line.match(/^[ \t]*/)[0];
        if (/:\s*$/.test(line)) indent += "    ";
        event.preventDefault();
        replaceSelection("\n" + indent);
      });

      function replaceSelection(text) {
        // execCommand keeps the browser's undo (Ctrl+Z) working; setRangeText is the fallback.
        if (!document.execCommand || !document.execCommand("insertText", false, text)) {
          area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
          area.dispatchEvent(new Event("input"));
        }
      }

      return {
        text: () => area.value,
        setText(text) {
          area.focus();
          area.select();
          replaceSelection(text);
          area.setSelectionRange(0, 0);
          area.scrollTop = 0;
        },
        focus: () => area.focus(),
        goTo(number) {                // the caret to the start of that line
          const lines = area.value.split("\n").slice(0, Math.max(number, 1) - 1);
          const at = lines.reduce((sum, line) => sum + line.length + 1, 0);
          area.focus();
          area.setSelectionRange(at, at);
        },
        markLines: () => {},          // a textarea cannot mark a line
        marked: () => [],
      };
    }

    // A link to the editor's section ("Jump to the editor") brings the keys
    // there too, not only the view: the browser would leave focus where it was.
    let heading = root.previousElementSibling;
    while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
    if (heading && heading.id) {
      document.addEventListener("click", (event) => {
        const link = event.target.closest && event.target.closest("a[href]");
        if (link && link.getAttribute("href") === `#${heading.id}`) {
          setTimeout(() => editor.focus(), 0);        // after the browser has scrolled
        }
      });
    }

    $(".lr-reset").addEventListener("click", () => {
      editor.setText(starter);
      editor.focus();
      say("Back to the starter. Ctrl+Z (\u2318+Z on a Mac) in the editor brings your code back.");
    });

    $(".lr-save").addEventListener("click", () => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([editor.text()], { type: "text/x-python" }));
      link.download = filename;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    });

    root.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    });
    runButton.addEventListener("click", () => run());

    // --- Messages ---------------------------------------------------------

    function say(text, kind) {
      status.textContent = text;
      status.dataset.kind = kind || "info";
    }

    function sayWithCode(parts, kind) {
      // parts: strings, and [code] arrays shown as <code>.
      status.replaceChildren(...parts.map((part) => {
        if (typeof part === "string") return document.createTextNode(part);
        const code = document.createElement("code");
        code.textContent = part[0];
        return code;
      }));
      status.dataset.kind = kind || "info";
    }

    function cannotRun(why) {
      runButton.disabled = true;
      progress.hidden = true;
      root.dataset.state = "unavailable";
      sayWithCode([why, " Check your code with the checker instead: save it as ",
                   [filename], " (the button above) and run ", [cli], "."], "warning");
    }

    function failed(reason, what = "could not start") {
      if (root.dataset.state === "failed") return;
      root.dataset.state = "failed";
      runButton.disabled = true;
      progress.hidden = true;
      sayWithCode([`Python in the page ${what}: ${reason}. `,
                   "Reload the page to try again, or check your code with the checker: ",
                   [cli], "."], "alert");
    }

    // --- Where Python cannot run -------------------------------------------

    if (location.protocol === "file:") {
      root.dataset.state = "disk";
      runButton.disabled = true;
      sayWithCode([
        "Python in the page does not run on a page opened from disk: browsers do not start ",
        "its workers from file:// pages. Two ways to check your code: serve the site with ",
        ["python3 -m http.server -d site"], " (from the project's folder) and open ",
        ["http://127.0.0.1:8000/exercises.html"], "; or save it as ", [filename],
        " and run ", [cli], "."], "warning");
      return api();
    }
    if (root.dataset.runtime !== "bundled") {
      cannotRun("Python in the page is not bundled in this build (it was built without npm ci).");
      return api();
    }
    if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
      cannotRun("This browser cannot run Python in the page (it needs WebAssembly and Web Workers).");
      return api();
    }

    // --- Workers ------------------------------------------------------------

    // The judge's snapshot of a Python just started: learners start from it.
    let snapshot = null;

    // A worker of either role, with request/answer as promises.
    function startWorker(role, withPackage = false) {
      const worker = new Worker(new URL("worker.js", runner), { type: "module" });
      const waiting = new Map();
      let dead = null;
      const handle = {
        worker,
        role,
        onProgress: null,
        onPrinted: null,
        ready: null,
        isReady: false,
        ask(message, answer) {
          if (dead) return Promise.reject(dead);
          return new Promise((resolve, reject) => {
            waiting.set(answer, { resolve, reject });
            worker.postMessage(message);
          });
        },
        stop() {
          worker.terminate();
          die(new Error(statuses.stopped));
        },
      };
      function die(error) {
        dead = dead || error;
        for (const { reject } of waiting.values()) reject(dead);
        waiting.clear();
      }
      worker.onmessage = (event) => {
        const message = event.data;
        if (message.type === "progress") {
          if (handle.onProgress) handle.onProgress(message.stage);
          return;
        }
        if (message.type === "snapshot") {
          snapshot = message.snapshot;
          return;
        }
        if (message.type === "printed") {
          if (handle.onPrinted) handle.onPrinted(message);
          return;
        }
        if (message.type === "failed") {
          die(new Error(message.reason));
          return;
        }
        const waiter = waiting.get(message.type);
        if (waiter) {
          waiting.delete(message.type);
          waiter.resolve(message);
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        die(new Error(event.message || `${role} worker could not be loaded`));
      };
      const start = { type: "start", role, files };
      if (withPackage) start.packages = { names: [offered.file.split("-")[0]], from: packageCdn };
      if (role === "learner" && snapshot) start.snapshot = snapshot;        // a copy each
      const began = performance.now();
      handle.ready = handle.ask(start, "ready").then((ready) => {
        handle.isReady = true;
        if (role === "learner") {
          timings.starts.push({ seconds: (performance.now() - began) / 1000,
                                snapshot: ready.snapshot });
        }
        return ready;
      });
      handle.ready.catch(() => {});
      return handle;
    }

    function withinSeconds(promise, seconds) {
      let timer;
      const late = new Promise((resolve) => { timer = setTimeout(() => resolve(statuses.late), seconds * 1000); });
      return Promise.race([promise, late]).finally(() => clearTimeout(timer));
    }

    // The first learner starts once the judge is ready, from the judge's
    // snapshot: a tenth of the CPU of starting both at once, and on a machine
    // with few cores no later.
    const judge = startWorker("judge");
    let spare = null;
    let running = false;

    const starting = judge.ready.then((ready) => {
      spare = startWorker("learner");
      return spare.ready.then(() => ready);
    }).then((ready) => {
      root.dataset.state = "ready";
      runButton.disabled = false;
      progress.hidden = true;
      say(`Python ${ready.version} is ready. Ctrl+Enter or Run the checks.`);
    });
    starting.catch((error) => failed(error.message));

    progress.hidden = false;
    root.dataset.state = "starting";
    say(`${STAGES.runtime} (the first time, the browser downloads `
        + `${root.dataset.runtimeSize} and keeps them)\u2026`);
    judge.onProgress = (stage) => {
      if (root.dataset.state === "starting" && stage !== "runtime") say(`${STAGES[stage]}\u2026`);
    };
    setTimeout(() => {
      if (root.dataset.state === "starting") {
        failed(`it did not answer within ${startLimit} s`);
        judge.stop();
        if (spare) spare.stop();
      }
    }, startLimit * 1000);

    function takeLearner() {
      const worker = spare;
      spare = startWorker("learner", numpy === "on");
      return worker;
    }

    // --- NumPy, loaded from the package CDN only when the learner asks -------

    // Whether the code imports what the page does not ship (the judge's
    // Python reads its imports; nothing of it runs); if so, the offer is made.
    async function needsPackage(source) {
      if (!offered || numpy === "on") return false;
      const { names } = await judge.ask({ type: "imports", source }, "imports");
      if (!names.includes(offered.file.split("-")[0])) return false;
      offerPackage();
      return true;
    }

    // One line, and one button while the learner is online.
    function offerPackage(failure) {
      const host = new URL(packageCdn).host;
      const name = `${offered.name} ${offered.version}`;
      offer.dataset.shown = "yes";
      if (navigator.onLine === false) {
        offer.hidden = true;
        sayWithCode([`Your code imports NumPy, which this page loads from the internet, and `
                     + "you are offline: check it with ", [cli], "."], "warning");
        return;
      }
      loadButton.textContent = `${failure ? "Try again: load" : "Load"} ${name} (${offered.size})`;
      offer.hidden = false;
      if (failure) {
        // A browser says "Failed to fetch" both for a failed request and for a
        // file whose sha256 is not the lock's (and logs which it was).
        const reason = failure.replace(/^The following error occurred while loading \S+: /, "")
          .replace(/^(TypeError: )?Failed to fetch$/,
                   "the download failed, or was not the file this site's Pyodide names");
        sayWithCode([`${name} could not be loaded from ${host} (${reason}): check your code `
                     + "with ", [cli], ", or try again."], "alert");
      } else {
        sayWithCode([`Your code imports NumPy, which this page does not ship: load it from `
                     + `Pyodide's package CDN (${host}) to check it here, or check it with `,
                     [cli], "."], "warning");
      }
    }

    // The click: a learner's Python with NumPy, then the checks.
    async function loadPackage() {
      if (numpy !== "off" || running || root.dataset.state !== "ready") return;
      numpy = "loading";
      offer.hidden = true;
      runButton.disabled = true;
      progress.hidden = false;
      say(`Loading ${offered.name} ${offered.version} (${offered.size}) from `
          + `${new URL(packageCdn).host}\u2026`);
      if (spare) spare.stop();
      spare = startWorker("learner", true);
      try {
        await spare.ready;
        numpy = "on";
        delete offer.dataset.shown;
      } catch (error) {
        numpy = "off";
        spare = startWorker("learner");
        offerPackage(error.message);
      } finally {
        progress.hidden = true;
        runButton.disabled = false;
      }
      if (numpy === "on") run();
    }
    loadButton.addEventListener("click", () => loadPackage());
    for (const event of ["online", "offline"]) {
      window.addEventListener(event, () => {
        if (offer.dataset.shown && numpy === "off") offerPackage();
      });
    }

    // --- A run: load the file, make every call, ask the judge for the report --

    async function run() {
      if (running) return;
      if (root.dataset.state === "starting") {
        say("Python is still starting: your code runs as soon as it is ready.");
        try { await starting; } catch (error) { return; }
      }
      if (root.dataset.state !== "ready" || numpy === "loading") return;
      running = true;
      const source = editor.text();
      try {
        if (await needsPackage(source)) return;     // the offer, instead of a report
      } catch (error) {
        failed(error.message, "stopped working");
        return;
      } finally {
        running = false;
      }
      offer.hidden = true;
      delete offer.dataset.shown;
      running = true;
      runButton.disabled = true;
      const began = performance.now();
      say("Checking\u2026");
      progress.hidden = false;
      try {
        const result = await check(source);
        const seconds = (performance.now() - began) / 1000;
        timings.runs.push(seconds);
        show(result.records, result.traces);
        say(`Checked in ${seconds.toFixed(1)} s: ${result.tally}.`
            + (result.note ? ` ${result.note}` : ""),
            result.failed ? statuses.fail : statuses.pass);
      } catch (error) {
        failed(error.message, "stopped working");
      } finally {
        running = false;
        progress.hidden = true;
        if (root.dataset.state === "ready") runButton.disabled = false;
      }
    }

    // One run: the plan's steps, each carried out and timed, until "done".
    async function check(source) {
      let learner = null;

      // One step in the learner's worker: what happened, for the plan.
      async function inLearner(message, answer, seconds) {
        const streams = { stdout: ["", 0], stderr: ["", 0] };
        learner.onPrinted = (out) => {
          const kept = streams[out.stream];
          if (out.text) kept[0] += out.text;
          kept[1] += out.text ? out.text.length : out.more;
        };
        const began = performance.now();
        let reply;
        try {
          reply = await withinSeconds(learner.ask(message, answer), Math.max(seconds, 0));
        } catch (error) {
          reply = statuses.crashed;                 // the worker died (out of memory, say)
        }
        const took = (performance.now() - began) / 1000;
        if (reply === statuses.late) timings.stopped.push(took);
        return { what: typeof reply === "object" ? answer : reply,
                 text: typeof reply === "object" ? reply.text : "",
                 seconds: took, printed: JSON.stringify(streams) };
      }

      let [what, seconds, keep, request] = (await judge.ask({ type: "begin", timeLimit, seed },
                                                              "step")).step;
      try {
        while (what !== "done") {
          let happened = { what: statuses.stopped, text: "", seconds: 0, printed: "{}" };
          if (what === "load") {
            learner = takeLearner();
            if (!learner.isReady) say("Checking\u2026 (starting a fresh Python for your code)");
            if (await withinSeconds(learner.ready, startLimit) === statuses.late) {
              throw new Error(`a fresh Python did not start within ${startLimit} s`);
            }
            happened = await inLearner({ type: "load", source, filename, keep,
                                         answer: statuses.loaded }, statuses.loaded, seconds);
          } else if (what === "call") {
            happened = await inLearner({ type: "call", request, keep, answer: statuses.reply },
                                       statuses.reply, seconds);
          } else {                                   // "stop": its state is the learner's now
            learner.stop();
            learner = null;
          }
          [what, seconds, keep, request] = (await judge.ask(
            { type: "advance", ...happened }, "step")).step;
        }
      } finally {
        if (learner) learner.stop();
      }
      const finished = await judge.ask({ type: "finish", shownAs: filename, cli, source },
                                       "finished");
      return JSON.parse(finished.drawing);
    }

    // A record's text, with the places of the site it names (record.links:
    // where each is in the text, and its address) as links.
    function linked(record) {
      const parts = [];
      let at = 0;
      for (const [start, end, address] of record.links) {
        const link = document.createElement("a");
        link.textContent = record.text.slice(start, end);
        link.href = address;
        parts.push(record.text.slice(at, start), link);
        at = end;
      }
      return [...parts, record.text.slice(at) + "\n"];
    }

    // One record of the report (lesson/grader/page.py, drawn()) as a span.  A
    // line is not wrapped by the checker: the page wraps it, and a wrapped
    // line hangs under the text after its label (record.wrap).  A field's
    // value is a span of its own, which lesson.css puts under the label on a
    // phone.  A step of a trace (record.at) has its label as a button that
    // takes the keys to the learner's line it ran.
    function recordLine(record, tag = "span") {
      const span = document.createElement(tag);
      span.className = { [statuses.pass]: "lr-pass", [statuses.fail]: "lr-fail" }[record.verdict]
                       || "";
      span.style.setProperty("--hang", `${record.wrap}ch`);
      span.style.setProperty("--lead", `${record.indent}ch`);
      let head = [record.head];
      if (record.at) {
        const label = record.head.trim();
        const at = record.head.indexOf(label);
        const button = document.createElement("button");
        button.type = "button";
        button.className = "lr-step";
        button.textContent = label;
        button.title = `line ${record.at} of your code, in the editor`;
        button.addEventListener("click", () => editor.goTo(record.at));
        head = [record.head.slice(0, at), button, record.head.slice(at + label.length)];
      }
      if (record.field && record.text) {
        const value = document.createElement("span");
        value.className = "lesson-report-value";
        value.textContent = record.text + "\n";
        span.append(...head, value);
      } else {
        span.append(...head, ...linked(record));
      }
      return span;
    }

    // The report: its records, one span a line, and after a traced check's
    // last line its trace (drawing.traces), folded under a summary that says
    // where the learner's values leave the lesson's (its first record).
    function show(records, traces = []) {
      const code = report.querySelector("code");
      const lines = records.map((record) => recordLine(record));
      for (const trace of [...traces].reverse()) {
        const [first, ...rest] = trace.records;
        const block = document.createElement("details");
        block.className = "lr-trace";
        block.append(recordLine(first, "summary"), ...rest.map((record) => recordLine(record)));
        lines.splice(trace.after + 1, 0, block);
      }
      code.replaceChildren(...lines);
      report.hidden = false;
      editor.markLines([...records, ...traces.flatMap((trace) => trace.records)]
        .flatMap((record) => record.lines));
    }

    function api() {
      return { root, timings, editor, run: () => run() };
    }

    return api();
  }

  const runners = [];
  window.lessonRunner = { mount, runners };
  const root = document.currentScript && document.currentScript.closest(".lesson-runner");
  if (root) runners.push(mount(root));
})();
