// npm ci runs this (package.json, "postinstall"): copy the files that start
// Pyodide from node_modules/pyodide into docs/assets/runner/pyodide/, where
// the site builder (MkDocs or Zensical) picks them up like any other asset.
// The folder is kept out of git; docs/lesson_docs/pyodide_assets.py lists the files.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const from = join(root, "node_modules", "pyodide");
const to = join(root, "docs", "assets", "runner", "pyodide");
const files = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
               "pyodide-lock.json", "package.json"];

rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
for (const name of files) copyFileSync(join(from, name), join(to, name));
console.log(`Pyodide copied into ${to}`);
