// npm ci runs this (package.json, "postinstall"); it makes what the
// Exercises page's editor needs from node_modules, all kept out of git:
//  - the files that start Pyodide, copied from node_modules/pyodide into
//    docs/assets/runner/pyodide/, where the site builder (MkDocs or Zensical)
//    picks them up like any other asset; docs/lesson_docs/pyodide_assets.py
//    lists the files;
//  - the code editor, docs/assets/runner/editor.mjs bundled with CodeMirror
//    by esbuild into docs/assets/runner/editor.bundle.js.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const runner = join(root, "docs", "assets", "runner");
const from = join(root, "node_modules", "pyodide");
const to = join(runner, "pyodide");
const files = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
               "pyodide-lock.json", "package.json"];

rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
for (const name of files) copyFileSync(join(from, name), join(to, name));
console.log(`Pyodide copied into ${to}`);

// esbuild and CodeMirror are devDependencies: without them (npm ci --omit=dev)
// no editor is bundled, and the page keeps its textarea.
const bundle = join(runner, "editor.bundle.js");
rmSync(bundle, { force: true });
let esbuild = null;
try {
  esbuild = await import("esbuild");
} catch (error) {
  console.log("esbuild is not installed: no code editor bundled; the page keeps its textarea");
}
if (esbuild) {
  esbuild.buildSync({
    entryPoints: [join(runner, "editor.mjs")], outfile: bundle, bundle: true, minify: true,
    format: "iife", target: "es2020", legalComments: "eof", logLevel: "warning",
  });
  console.log(`Code editor bundled into ${bundle}`);
}
