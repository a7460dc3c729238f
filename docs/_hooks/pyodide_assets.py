"""MkDocs hook: the Exercises page's editor, which checks code with Python in the page.

1. ``<div class="lesson-runner"></div>`` on a page becomes the editor: the
   learner's file, opened with the lesson's real starter, a Run button, and
   the place where the checker's report appears.
2. After the build, the Pyodide runtime (CPython compiled to WebAssembly,
   from the npm package ``pyodide`` that ``npm ci`` installs into
   ``node_modules/``) and the ``lesson`` package's ``.py`` files are copied
   into ``assets/runner/``.  The page fetches nothing from anywhere else.

Without ``node_modules/pyodide`` the site still builds.  The editor is still
there, and says that Python in the page is not bundled in this build and how
to check with ``python -m lesson check`` instead.
"""

import html
import json
import pathlib
import posixpath
import re
import shutil

from lesson import exercise

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
LESSON = ROOT / "lesson"

# What loadPyodide() fetches to start CPython with its standard library: the
# loader, the Emscripten glue, the interpreter, the stdlib and the package
# index it reads at start-up.  Nothing else from the npm package is needed.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")

MARKER = re.compile(r'<div class="lesson-runner">\s*</div>')
FILENAME = "softmax_exercise.py"


def runtime_version(folder=PYODIDE):
    """The bundled Pyodide version, or None when ``npm ci`` has not been run."""
    if not all((folder / name).is_file() for name in RUNTIME_FILES):
        return None
    return json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]


def lesson_files(folder=LESSON):
    """The lesson package's modules, as the page's Python needs them."""
    return sorted(path.name for path in folder.glob("*.py"))


def editor(base, version):
    """The editor's HTML.  ``base`` leads from the page to the site's root.

    Without JavaScript it is a textarea holding the starter; runner.js makes
    it live.  Everything the script needs comes from these attributes.
    """
    starter = exercise.STARTER.format(name=FILENAME)
    runner = posixpath.join(base, "assets/runner/")
    size = sum((PYODIDE / name).stat().st_size for name in RUNTIME_FILES) if version else 0
    data = {
        "runner": runner,
        "runtime": "bundled" if version else "missing",
        "runtime-megabytes": f"{size / 1e6:.0f}",
        "lesson-files": " ".join(lesson_files()),
        "filename": FILENAME,
    }
    credit = (f'<p class="lr-credit">Python in this page is <a href="https://pyodide.org/">'
              f"Pyodide</a> {version} (CPython compiled to WebAssembly; Mozilla Public "
              f"License 2.0), shipped with the site.</p>\n") if version else ""
    attributes = " ".join(f'data-{key}="{html.escape(value)}"' for key, value in data.items())
    return f"""<div class="lesson-runner" {attributes}>
<link rel="stylesheet" href="{runner}runner.css">
<label class="lr-label" for="lesson-runner-code">Your <code>{FILENAME}</code></label>
<p class="lr-help" id="lesson-runner-help">Ctrl+Enter (&#8984;+Enter on a Mac) or the
<em>Run the checks</em> button checks it. Indent with spaces: Enter keeps the
indent of the line above, and Tab moves on to the buttons. Your text is kept
in this browser until you reset it.</p>
<textarea id="lesson-runner-code" class="lr-code" rows="22" wrap="off" spellcheck="false"
 autocomplete="off" autocapitalize="off" aria-describedby="lesson-runner-help">{html.escape(starter)}</textarea>
<div class="lr-controls">
<button type="button" class="md-button md-button--primary lr-run" disabled>Run the checks</button>
<button type="button" class="md-button lr-reset">Reset to starter</button>
<button type="button" class="md-button lr-save">Save as {FILENAME}</button>
</div>
<div class="lr-status" role="status" aria-live="polite">Checking in the page needs
JavaScript. You can still copy this code into <code>{FILENAME}</code> and run
<code>python -m lesson check {FILENAME}</code>.</div>
<progress class="lr-progress" hidden></progress>
<pre class="lr-report" tabindex="0" aria-label="The checker's report" hidden><code></code></pre>
{credit}<script src="{runner}runner.js"></script>
</div>"""


# --- MkDocs events ------------------------------------------------------------

def on_page_content(content, page, config, files):
    if not MARKER.search(content):
        if page.file.src_uri == "exercises.md":
            raise ValueError('exercises.md: the editor\'s <div class="lesson-runner"></div> is missing')
        return content
    base = posixpath.relpath(".", posixpath.dirname(page.url) or ".")
    return MARKER.sub(lambda m: editor(base, runtime_version()), content)


def on_post_build(config):
    """Copy the runtime (when installed) and the lesson package into the site."""
    runner = pathlib.Path(config["site_dir"]) / "assets" / "runner"
    target = runner / "lesson"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in lesson_files():
        shutil.copy2(LESSON / name, target / name)
    target = runner / "pyodide"
    shutil.rmtree(target, ignore_errors=True)
    if runtime_version():
        target.mkdir(parents=True)
        for name in RUNTIME_FILES:
            shutil.copy2(PYODIDE / name, target / name)
