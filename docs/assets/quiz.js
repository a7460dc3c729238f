/* Lesson 4 questions that answer back.
 *
 * Plain JavaScript, nothing fetched: works from a web server and from disk.
 * Every answer and explanation was computed by the lesson's Python code when
 * the site was built; this script only shows the right one at the right time.
 *
 * - form.lesson-quiz: native radio buttons in a fieldset. Choosing an option
 *   (by mouse, or arrow keys) shows at once whether it is right, and why: the
 *   explanation comes from the option's entry in "Show the answer", which is
 *   what a reader without JavaScript opens instead.
 * - form.lesson-answer: a box for a by-hand answer, hidden without JavaScript.
 *   It accepts 0.670, .67, 0.6698, 0,670 or 67% where the question asks for 3
 *   decimals ("0.5 each", "1/2" or "[0.5, 0.5]" where it asks for each
 *   weight), and names the mistake behind common wrong answers.
 */
(function () {
  "use strict";

  function setFeedback(box, verdict, html) {
    box.className = box.className.replace(/\s*is-(right|wrong|close)/g, "") +
      (verdict ? " is-" + verdict : "");
    box.innerHTML = html;
  }

  /* --- Multiple choice ------------------------------------------------- */

  function startQuiz(form) {
    var feedback = form.querySelector(".quiz-feedback");
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.addEventListener("change", function (event) {
      var input = event.target;
      if (input.type !== "radio") { return; }
      var right = input.getAttribute("data-right") === "true";
      var why = form.querySelector('li[data-option="' + input.value + '"] .quiz-why');
      var options = form.querySelectorAll(".quiz-option");
      Array.prototype.forEach.call(options, function (label) {
        label.classList.remove("is-right", "is-wrong");
      });
      input.parentNode.classList.add(right ? "is-right" : "is-wrong");
      setFeedback(feedback, right ? "right" : "wrong",
        "<strong>" + input.value + (right ? ": right." : ": not quite.") + "</strong> " +
        (why ? why.innerHTML : ""));
    });
  }

  /* --- Answer boxes ------------------------------------------------------ */

  /* The numbers in what a learner typed: "0.670", ".67", "0,670", "1/2",
     "50%", "0.5 each", "[0.5, 0.5]", "0.5 and 0.5", "half". A lone number with
     a comma, "0,670", has a decimal comma; inside brackets, "[1,1]", commas
     separate a list. */
  function numbers(text) {
    var listed = /[\[\]]/.test(text);
    var cleaned = text.replace(/\b(each|both|apiece|and)\b/gi, " ")
      .replace(/\b(a |one )?half\b/gi, "0.5")
      .replace(/[\[\]()]/g, " ").trim();
    if (!listed && /^[+\-\u2212]?\d*,\d+$/.test(cleaned)) {   /* 0,670: a decimal comma */
      cleaned = cleaned.replace(",", ".");
    }
    cleaned = cleaned.replace(/(\d)\s+%/g, "$1%");          /* "50 %" is "50%" */
    var parts = cleaned.split(/[\s,;]+/).filter(function (p) { return p !== ""; });
    return parts.map(function (part) {
      var percent = /%$/.test(part);
      if (percent) { part = part.slice(0, -1); }
      var x;
      var fraction = /^([+\-\u2212]?\d*\.?\d+)\/(\d*\.?\d+)$/.exec(part);
      if (fraction) {
        x = Number(fraction[1].replace("\u2212", "-")) / Number(fraction[2]);
      } else {
        x = /^[+\-\u2212]?(\d+\.?\d*|\.\d+)(e[+\-]?\d+)?$/i.test(part)
          ? Number(part.replace("\u2212", "-")) : NaN;
      }
      return percent ? x / 100 : x;
    });
  }

  /* What the learner typed, shown back as text, never as markup. */
  function escape(text) {
    var span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }

  function close(x, value, tolerance) {
    return Math.abs(x - value) <= tolerance * (1 + 1e-9);
  }

  /* What to say about an answer: [verdict, html]. */
  function judge(spec, text) {
    var lower = text.trim().toLowerCase();
    if (lower === "") { return ["", "Type your answer first."]; }
    var hasWord = spec.words.some(function (word) { return lower.indexOf(word) >= 0; });
    if (hasWord) { return ["wrong", spec.wordsSay]; }
    if (spec.notEach && /\b(each|both|apiece)\b/.test(lower)) { return ["wrong", spec.notEach]; }
    var xs = numbers(lower);
    if (xs.length === 0 || xs.some(isNaN)) {
      return ["wrong", "Type a number, such as 0.25."];
    }
    if (xs.length !== 1 && xs.length !== spec.each) {
      return ["wrong", spec.each === 1 ? "Type one number." :
        "Type one number (each weight), or all " + spec.each + " of them."];
    }
    if (xs.every(function (x) { return close(x, spec.answer, spec.tolerance); })) {
      return ["right", "Right: " + spec.shown + (spec.decimals ?
        " (" + spec.answer.toFixed(6) + " before rounding to " + spec.decimals + " decimals)." :
        ".") + " Open the worked answer below to check your route."];
    }
    var wrong = xs.filter(function (x) { return !close(x, spec.answer, spec.tolerance); })[0];
    for (var i = 0; i < spec.diagnoses.length; i++) {
      var d = spec.diagnoses[i];
      if (close(wrong, d.value, d.tolerance)) { return ["wrong", d.says]; }
    }
    if (spec.decimals && close(wrong, spec.answer, 3 * spec.tolerance)) {
      /* Only the cut-off answer (0.669 for 0.669762) gets the rounding advice. */
      var scale = Math.pow(10, spec.decimals);
      var cut = Math.trunc(spec.answer * scale) / scale;
      if (Math.abs(wrong - cut) < 1e-9) {
        return ["close", "Close. To " + spec.decimals + " decimals the answer is " +
          spec.shown + ": round " + spec.answer.toFixed(spec.decimals + 3) +
          " to the nearest, rather than cutting it off."];
      }
      return ["close", "Close, but not " + escape(text.trim()) + ". Keep more digits " +
        "in the exps and their sum, and round only at the end."];
    }
    return ["wrong", "Not " + escape(text.trim()) + ". " + spec.hint];
  }

  function startAnswer(form) {
    var spec = JSON.parse(form.getAttribute("data-answer"));
    var input = form.querySelector("input");
    var feedback = form.querySelector(".answer-feedback");
    form.hidden = false;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var result = judge(spec, input.value);
      setFeedback(feedback, result[0], result[1]);
      input.setAttribute("aria-invalid", result[0] === "right" || !result[0] ? "false" : "true");
    });
  }

  /* For the lesson's tests, and for curious learners in the console. */
  window.lessonQuiz = { numbers: numbers, judge: judge };

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form.lesson-quiz"), startQuiz);
    Array.prototype.forEach.call(document.querySelectorAll("form.lesson-answer"), startAnswer);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
