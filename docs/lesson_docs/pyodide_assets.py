"""The Exercises page's editor, which checks code with Python in the page.

``<div class="lesson-runner"></div>`` on a page becomes the editor: the
learner's file, opened with the lesson's real starter, a Run button, and the
place where the checker's report appears.  The modules of the ``lesson``
package that run in the page go into it with the editor, as JSON, so the
page's Python runs the very code that ``softmax-lesson check`` runs: the
judge's worker gets what ``lesson.grader.page`` imports, the learner's
worker only ``lesson/grader/harness.py`` (``page_files``).

The Python is Pyodide (CPython compiled to WebAssembly), from the npm
package ``pyodide``.  ``npm ci`` installs it and copies the files that start
it into ``docs/assets/runner/pyodide/`` (``copy_pyodide.mjs``, kept out of
git), and the site builder copies them into the site like any other asset.
Without them the site still builds; the editor is still there, and says that
Python in the page is not bundled in this build and how to check with
``softmax-lesson check`` instead.

NumPy is not shipped: the site stays offline.  When a learner's code imports
it, the editor offers one button that loads it from Pyodide's package CDN
(``PACKAGE_CDN``, the one setting of where), the file and sha256 that the
shipped ``pyodide-lock.json`` names, and nothing is fetched before the click.

This is a Python-Markdown extension, so MkDocs and Zensical both run it
(``markdown_extensions: - lesson_docs.pyodide_assets``).
"""

import html
import json
import modulefinder
import pathlib
import re

from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor

from lesson.grader import contract
from lesson.grader.page import STATUSES
from lesson.grader.plan import START_LIMIT

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUNTIME_IN_PROJECT = pathlib.Path("docs", "assets", "runner", "pyodide")
LESSON = ROOT / "lesson"

# What loadPyodide() fetches to start CPython with its standard library: the
# loader, the Emscripten glue, the interpreter, the stdlib and the package
# index it reads at start-up.  copy_pyodide.mjs copies these (and the
# package's package.json, for its version) and nothing else.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")

MARKER = re.compile(r'<div class="lesson-runner">\s*</div>')
FILENAME = "softmax_exercise.py"
CHECK_COMMAND = f"softmax-lesson check {FILENAME}"      # what the editor says to run instead
RUNNER = "assets/runner/"          # from the Exercises page, at the site's root

# Where "Load NumPy" fetches the wheel that the shipped pyodide-lock.json
# names (its file_name, checked against its sha256): Pyodide's package CDN
# for the bundled version.  The one setting of where; the tests point a copy
# of the built page at a server of their own.
PACKAGE_CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"

# The bytes of each wheel the editor may offer, by the sha256 the lock gives
# it (the lock gives no sizes): what the button says it downloads.  A Pyodide
# whose lock names another NumPy stops the build until its size is here (the
# CDN's Content-Length for PACKAGE_CDN + file_name).  Pyodide 314.0.7's
# numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl:
WHEEL_BYTES = {"a292c1f5d7d8a2208cd5e94fc467604c131cabcd2fc14fed6eefde121e7fabdf": 2_960_568}
OFFERED = "numpy"                  # the one package the editor offers to load
EDITOR_BUNDLE = "editor.bundle.js"  # in RUNNER: CodeMirror, bundled by copy_pyodide.mjs


def runtime_folder():
    """Where the project being built keeps the runtime that ``npm ci`` copies.

    The site builder copies it from the project it builds: MkDocs and Zensical
    run in the folder of ``mkdocs.yml``, which may be another copy of the
    project than the one this package was installed from.
    """
    here = pathlib.Path.cwd()
    return (here if (here / "mkdocs.yml").is_file() else ROOT) / RUNTIME_IN_PROJECT


def editor_bundled(folder=None):
    """Whether ``npm ci`` bundled the code editor (CodeMirror, ``editor.mjs``)
    into ``editor.bundle.js``; without it the page edits in its textarea."""
    return ((folder or runtime_folder()).parent / EDITOR_BUNDLE).is_file()


def runtime_version(folder=None):
    """The bundled Pyodide version, or None when ``npm ci`` has not been run."""
    folder = folder or runtime_folder()
    if not all((folder / name).is_file() for name in RUNTIME_FILES + ("package.json",)):
        return None
    return json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]


JUDGE = "lesson.grader.page"        # what the judge's worker imports
HARNESS = "lesson_harness.py"       # the learner's worker's name for the harness


def page_modules(folder=LESSON):
    """The lesson's modules that run in the page, by path in the package:
    ``lesson.grader.page`` and all it imports (not the command line, the
    benchmarks, the figures or the terminal's process handling).

    >>> sorted(page_modules())[:3]
    ['__init__.py', '_validate.py', 'compensated.py']
    """
    finder = modulefinder.ModuleFinder(path=[str(folder.parent)])
    script = folder / "grader" / "page.py"
    finder.run_script(str(script))
    files = [script] + [pathlib.Path(module.__file__) for name, module in finder.modules.items()
                        if name == "lesson" or name.startswith("lesson.")]
    return {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(set(files))}


def page_files():
    """What the page's workers are given: {"modules": {path in the lesson
    package: source}, "judge": the module the judge's worker imports,
    "harness": [the harness's path among the modules, the name the learner's
    worker imports it by]}.  The learner's worker gets the harness alone."""
    return {"modules": page_modules(), "judge": JUDGE,
            "harness": ["grader/harness.py", HARNESS[:-3]]}


def megabytes(size):
    """A download's size as the editor says it: whole megabytes.

    >>> megabytes(2_960_568), megabytes(13_411_000)
    ('3 MB', '13 MB')
    """
    return f"{size / 1e6:.0f} MB"


def offered_package(folder=None):
    """What the editor needs to offer NumPy: {"name", "version", "file", "size"},
    read from the shipped pyodide-lock.json, or None without the runtime."""
    folder = folder or runtime_folder()
    if runtime_version(folder) is None:
        return None
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"][OFFERED]
    if entry["depends"]:
        raise ValueError(f"pyodide-lock.json: {OFFERED} depends on {entry['depends']}, "
                         f"which the editor does not offer")
    if entry["sha256"] not in WHEEL_BYTES:
        raise ValueError(f"pyodide_assets.WHEEL_BYTES has no size for {entry['file_name']} "
                         f"(sha256 {entry['sha256']}): add its Content-Length from "
                         f"{PACKAGE_CDN.format(version=runtime_version(folder))}"
                         f"{entry['file_name']}")
    return {"name": "NumPy", "version": entry["version"], "file": entry["file_name"],
            "size": megabytes(WHEEL_BYTES[entry["sha256"]])}


def editor(version=None, code_editor=None):
    """The editor's HTML.

    Without JavaScript it is a textarea holding the starter; runner.js makes
    it live, in CodeMirror when ``npm ci`` bundled it (``code_editor``, found
    by default), else in the textarea.  Each way's keys are told under it.
    Everything the script needs comes from its attributes and the JSON of
    the lesson's modules.
    """
    if code_editor is None:
        code_editor = editor_bundled()
    starter = contract.STARTER.format(name=FILENAME)
    size = (sum((runtime_folder() / name).stat().st_size for name in RUNTIME_FILES)
            if version else 0)
    package = offered_package() if version else None
    data = {
        "runner": RUNNER,
        "runtime": "bundled" if version else "missing",
        "runtime-size": megabytes(size),
        "filename": FILENAME,
        "check-command": CHECK_COMMAND,
        "start-limit": f"{START_LIMIT:g}",
        "statuses": json.dumps(STATUSES),
    }
    if package:
        data.update({"package-cdn": PACKAGE_CDN.format(version=version),
                     "package": json.dumps(package)})
    attributes = " ".join(f'data-{key}="{html.escape(value)}"' for key, value in data.items())
    credit = (f'<p class="lr-credit">Python in this page is <a href="https://pyodide.org/">'
              f"Pyodide</a> {version} (CPython compiled to WebAssembly; Mozilla Public "
              f"License 2.0), shipped with the site.</p>\n") if version else ""
    editor_keys, editor_script = "", ""
    if code_editor:
        editor_keys = """<p class="lr-help lr-keys lr-keys-editor" id="lesson-runner-editor-keys" hidden>
Enter keeps the indent, and deepens it after a colon; Tab and Shift+Tab indent
and dedent, and Backspace removes one level. To leave the editor with the
keyboard, press Escape, then Tab.</p>
"""
        editor_script = f'<script src="{RUNNER}{EDITOR_BUNDLE}"></script>\n'
    # "</" cannot end the script element early once it is written "<\/".
    sources = json.dumps(page_files()).replace("</", "<\\/")
    return f"""<div class="lesson-runner" {attributes}>
<link rel="stylesheet" href="{RUNNER}runner.css">
<label class="lr-label" id="lesson-runner-label" for="lesson-runner-code">Your <code>{FILENAME}</code></label>
<p class="lr-help" id="lesson-runner-help">Ctrl+Enter (&#8984;+Enter on a Mac) or the
<em>Run the checks</em> button checks it. Your text is kept in this browser
until you reset it.</p>
<textarea id="lesson-runner-code" class="lr-code" rows="22" wrap="off" spellcheck="false"
 autocomplete="off" autocapitalize="off" aria-describedby="lesson-runner-help lesson-runner-keys">{html.escape(starter)}</textarea>
<p class="lr-help lr-keys lr-keys-plain" id="lesson-runner-keys">Indent with spaces: Enter keeps
the indent of the line above, and Tab moves on to the buttons.</p>
{editor_keys}<div class="lr-controls">
<button type="button" class="md-button md-button--primary lr-run" disabled>Run the checks</button>
<button type="button" class="md-button lr-reset">Reset to starter</button>
<button type="button" class="md-button lr-save">Save as {FILENAME}</button>
</div>
<div class="lr-status" role="status" aria-live="polite">Checking in the page needs
JavaScript. You can still copy this code into <code>{FILENAME}</code> and run
<code>{CHECK_COMMAND}</code>.</div>
<div class="lr-offer" hidden><button type="button" class="md-button md-button--primary lr-load"></button></div>
<progress class="lr-progress" hidden></progress>
<pre class="lr-report" tabindex="0" aria-label="The checker's report" hidden><code></code></pre>
{credit}<script type="application/json" class="lr-lesson">{sources}</script>
{editor_script}<script src="{RUNNER}runner.js"></script>
</div>"""


# --- Python-Markdown (MkDocs and Zensical) ------------------------------------

class EditorPostprocessor(Postprocessor):
    """The marker -> the editor, once the page is HTML."""

    def run(self, text):
        if not MARKER.search(text):
            return text
        markup = editor(runtime_version())
        return MARKER.sub(lambda match: markup, text)


class EditorExtension(Extension):
    def extendMarkdown(self, md):
        # After the raw HTML stash is restored (30): the marker is raw HTML.
        md.postprocessors.register(EditorPostprocessor(md), "lesson_runner", 20)


def makeExtension(**kwargs):
    return EditorExtension(**kwargs)
