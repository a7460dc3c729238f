/* The Exercises page's code editor: CodeMirror 6 in place of the textarea.

   This is the source; `npm ci` bundles it with CodeMirror, from the
   committed lockfile, into editor.bundle.js beside it (copy_pyodide.mjs runs
   esbuild; the bundle is kept out of git).  pyodide_assets.py loads the
   bundle when it is there, before runner.js, which then edits through it;
   without it runner.js keeps the textarea.

   What CodeMirror gives: Python highlighting (in the site's code colours),
   Enter that keeps the indent and deepens it after a colon, Tab and
   Shift+Tab that indent and dedent, Backspace that removes one indent level
   in leading spaces, bracket matching, undo, and its accessible tab handling:
   Escape, then Tab, moves focus on. */
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, keymap, lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  HighlightStyle, LanguageSupport, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting,
} from "@codemirror/language";
import { pythonLanguage } from "@codemirror/lang-python";
import { tags } from "@lezer/highlight";

// Material's code colours (lesson.css sets them for contrast, light and dark).
const colours = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--md-code-hl-keyword-color)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--md-code-hl-string-color)" },
  { tag: tags.number, color: "var(--md-code-hl-number-color)" },
  { tag: [tags.bool, tags.null, tags.self], color: "var(--md-code-hl-constant-color)" },
  { tag: tags.comment, color: "var(--md-code-hl-comment-color)" },
  { tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName)),
          tags.definition(tags.className)], color: "var(--md-code-hl-function-color)" },
  { tag: [tags.operator, tags.punctuation], color: "var(--md-code-hl-operator-color)" },
]);

// The lines a report names, marked until the next report.
const markLines = StateEffect.define();
const markedLines = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    marks = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(markLines)) continue;
      const doc = transaction.state.doc;
      const numbers = [...new Set(effect.value)].filter((n) => n >= 1 && n <= doc.lines);
      marks = Decoration.set(numbers.map((n) => Decoration.line({ class: "lr-marked" })
        .range(doc.line(n).from)), true);
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/* Put CodeMirror in place of `textarea` (hidden, not removed), with its
   text; onChange() is called after every change of the text, and the ids
   name the label and help that screen readers read.  Returns what runner.js
   edits through, as it edits a textarea. */
function codeEditor(textarea, { onChange, labelledBy, describedBy }) {
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        history(),
        new LanguageSupport(pythonLanguage),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(colours),
        markedLines,
        keymap.of([
          { key: "Mod-Enter", run: () => true },   // runs the checks (runner.js), adds no line
          ...defaultKeymap, ...historyKeymap, indentWithTab,
        ]),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(); }),
        EditorView.editorAttributes.of({ class: "lr-editor" }),
        EditorView.contentAttributes.of({
          "aria-labelledby": labelledBy,
          "aria-describedby": describedBy,
          spellcheck: "false", autocorrect: "off", autocapitalize: "off",
          tabindex: "0",      // focusable as axe counts it, so its scroller is reachable
        }),
      ],
    }),
  });
  textarea.after(view.dom);
  textarea.hidden = true;
  return {
    view,
    text: () => view.state.doc.toString(),
    // One undoable change (Ctrl+Z in the editor brings the old text back),
    // and no line marked: the report was about the old text.
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text },
                      selection: { anchor: 0 }, scrollIntoView: true, effects: markLines.of([]) });
    },
    focus: () => view.focus(),
    // The keys to the start of line ``number``, scrolled into view (a step of a trace).
    goTo(number) {
      const line = view.state.doc.line(Math.min(Math.max(number, 1), view.state.doc.lines));
      view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
      view.focus();
    },
    markLines: (numbers) => view.dispatch({ effects: markLines.of(numbers) }),
    marked: () => {
      const found = [];
      view.state.field(markedLines).between(0, view.state.doc.length, (from) => {
        found.push(view.state.doc.lineAt(from).number);
      });
      return found;
    },
  };
}

window.lessonCodeEditor = codeEditor;
