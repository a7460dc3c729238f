/* Lesson 4 attention-matrix explorer: every query's row of weights at once.
 *
 * Plain JavaScript, nothing fetched. It makes live every element with
 * data-explorer="attention". The page's build (docs/lesson_docs/explorer.py)
 * wrote the first view with lesson.attention: the grid of weights, each row's
 * sum, the whole matrix's sum and the output O = AV. It put Q, K and V in
 * data-* attributes, with the ValueError lesson.attention raises for each
 * query whose every key is masked. This script adds
 *   - a "causal" checkbox: query i may see keys 0..i only,
 *   - a button in every weight's cell: a click, Enter or Space masks that key
 *     for that query (its score becomes -inf, its weight exactly 0), and
 *     unmasks it again,
 *   - a temperature T: every score is divided by T as well as by sqrt(d_k),
 *   - "Start over", back to the lesson's first view,
 * and works each row out again on every change, with the score widget's
 * softmax, number format and element maker (softmax-widget.js, loaded
 * first, exports them as window.lessonWidget), so the site has one of each.
 */
(function () {
  "use strict";

  var LOG_T_RANGE = 1;          /* the slider holds log10 T: T from 0.1 to 10 */

  var element = window.lessonWidget.element;    /* softmax-widget.js's: one of it */


  function sum(values) { return values.reduce(function (a, b) { return a + b; }, 0); }

  /* One query's scores: q . k / sqrt(d_k), then / T; -inf for a masked key. */
  function scores(q, keys, t, masked) {
    var rootDk = Math.sqrt(q.length);
    return keys.map(function (k, j) {
      if (masked[j]) { return -Infinity; }
      return sum(q.map(function (a, d) { return a * k[d]; })) / rootDk / t;
    });
  }

  /* One query's attention: its weights and output, or null when every key is
     masked (lesson.attention raises then: the lesson's policy). */
  function attentionRow(q, keys, values, t, masked) {
    if (masked.indexOf(false) < 0) { return null; }
    var weights = window.lessonWidget.softmax(scores(q, keys, t, masked));
    var output = values[0].map(function (_, d) {
      return sum(weights.map(function (w, j) { return w * values[j][d]; }));
    });
    return { weights: weights, output: output };
  }

  function Explorer(root, index) {
    this.root = root;
    this.id = "attention-explorer-" + index;
    this.Q = JSON.parse(root.getAttribute("data-queries"));
    this.K = JSON.parse(root.getAttribute("data-keys"));
    this.V = JSON.parse(root.getAttribute("data-values"));
    this.allMasked = JSON.parse(root.getAttribute("data-all-masked"));
    var digits = JSON.parse(root.getAttribute("data-digits"));
    /* A number as the build wrote it: lesson.tables.fmt, to the build's places. */
    this.show = function (value) { return window.lessonWidget.fmt(value, digits); };
    /* A weight: four decimals always, as the widget's (0.1310, not 0.131). */
    this.showWeight = window.lessonWidget.fmtWeight;
    this.columns = root.querySelectorAll(".ax-grid tr")[0].children.length;
    this.build();
    this.startOver();
  }

  Explorer.prototype.build = function () {
    var self = this;
    var root = this.root;
    root.classList.add("is-live");
    var controls = element("div", { "class": "ax-controls" });
    this.causalInput = element("input", { type: "checkbox", id: this.id + "-causal" });
    this.causalInput.addEventListener("change", function () {
      self.causal = self.causalInput.checked;
      self.update();
      self.say(self.causal ? "Causal mask on: each query sees keys up to its own number."
                           : "Causal mask off.");
    });
    var causal = element("label", { "for": this.id + "-causal", "class": "ax-causal" });
    causal.append(this.causalInput, " causal mask: query i sees keys 0 to i only");

    var tId = this.id + "-t";
    this.tInput = element("input", { type: "range", id: tId, min: String(-LOG_T_RANGE),
                                     max: String(LOG_T_RANGE), step: "0.01", value: "0" });
    this.tOutput = element("output", { "for": tId, "class": "ax-t-value" });
    this.tInput.addEventListener("input", function () {
      self.t = Math.pow(10, Number(self.tInput.value));
      self.update();
    });
    var temperature = element("div", { "class": "ax-temperature" });
    temperature.append(element("label", { "for": tId }, "temperature T, every query"),
                       this.tInput, this.tOutput);

    var again = element("button", { type: "button", "class": "md-button" }, "Start over");
    again.addEventListener("click", function () {
      self.startOver();
      self.say("Back to the first view: no mask, T = 1.");
    });
    controls.append(causal, temperature, again);
    var help = element("p", { "class": "ax-help" });
    help.append(element("span", { id: this.id + "-help" },
      "Click a weight, or Tab to it and press Enter or Space, to mask that key for " +
      "that query; again to unmask it. "),
                element("span", { id: tId + "-help" },
      "The temperature T divides every score as well as \u221ad\u2096: below 1 it " +
      "sharpens each row, above 1 it flattens it."));
    this.tInput.setAttribute("aria-describedby", tId + "-help");
    root.querySelector(".ax-scroll").before(controls, help);
    this.status = element("p", { "class": "ax-status", role: "status" });
    root.append(this.status);

    this.rows = Array.prototype.map.call(root.querySelectorAll(".ax-grid tbody tr"),
                                         function (tr, i) { return self.liveRow(tr, i); });
    this.total = root.querySelector(".ax-total");
  };

  /* A row of the grid, its weights made into mask buttons. */
  Explorer.prototype.liveRow = function (tr, i) {
    var self = this;
    var buttons = Array.prototype.map.call(tr.querySelectorAll("td[data-k]"), function (td) {
      var j = Number(td.getAttribute("data-k"));
      var button = element("button", { type: "button", "class": "ax-cell",
                                        "aria-describedby": self.id + "-help" });
      td.textContent = "";
      button.append(element("span"));           /* the weight, on its own colour when masked */
      td.append(button);
      button.addEventListener("click", function () { self.toggle(i, j); });
      return button;
    });
    return { tr: tr, buttons: buttons, sum: tr.querySelector(".ax-sum"),
             output: tr.querySelector(".ax-out"), policy: null };
  };

  /* Back to the first view: no mask, T = 1. */
  Explorer.prototype.startOver = function () {
    var n = this.K.length;
    this.picked = this.Q.map(function () { return new Array(n).fill(false); });
    this.causal = false;
    this.t = 1;
    this.causalInput.checked = false;
    this.tInput.value = "0";
    this.update();
  };

  Explorer.prototype.causallyMasked = function (i, j) { return this.causal && j > i; };

  Explorer.prototype.maskRow = function (i) {
    var self = this;
    return this.picked[i].map(function (picked, j) {
      return picked || self.causallyMasked(i, j);
    });
  };

  /* A click on key j of query i: mask it, or unmask it. */
  Explorer.prototype.toggle = function (i, j) {
    if (this.causallyMasked(i, j)) {
      this.say("Key " + j + " comes after query " + i + ", so the causal mask hides it. " +
               "Untick causal to mask keys yourself.");
      return;
    }
    this.picked[i][j] = !this.picked[i][j];
    var row = this.update()[i];
    this.say("Query " + i + ", key " + j + (this.picked[i][j] ? " masked. " : " unmasked. ") +
             (row ? "Its weights: " + row.weights.map(this.show).join(", ") + "."
                  : this.allMasked[i]));
  };

  /* Work out every row again and show it; returns the rows (null: no weights). */
  Explorer.prototype.update = function () {
    var self = this;
    var rows = this.Q.map(function (q, i) {
      return attentionRow(q, self.K, self.V, self.t, self.maskRow(i));
    });
    rows.forEach(function (row, i) { self.showRow(i, row); });
    var kept = rows.filter(Boolean);
    this.total.textContent = this.show(sum(kept.map(function (row) { return sum(row.weights); })));
    this.tOutput.textContent = "T = " + this.t.toFixed(2);
    this.tInput.setAttribute("aria-valuetext", "T = " + this.t.toFixed(2));
    return rows;
  };

  Explorer.prototype.showRow = function (i, row) {
    var self = this, live = this.rows[i], masked = this.maskRow(i);
    live.buttons.forEach(function (button, j) {
      var w = row ? row.weights[j] : 0;
      var text = row ? self.showWeight(w) : "";
      var state = !masked[j] ? "not masked"
        : self.causallyMasked(i, j) ? "masked by the causal mask" : "masked";
      button.firstChild.textContent = text;
      button.setAttribute("aria-label", (row ? text : "no weight") + ", " + state);
      button.parentNode.classList.toggle("is-masked", masked[j]);
      button.parentNode.style.setProperty("--w", w.toFixed(4));
    });
    live.sum.textContent = row ? this.show(sum(row.weights)) : "none";
    live.output.textContent = row ? "[" + row.output.map(this.show).join(", ") + "]" : "none";
    live.tr.classList.toggle("has-no-weights", !row);
    if (!row && !live.policy) {
      live.policy = element("tr", { "class": "ax-policy" });
      var cell = element("td", { colspan: String(this.columns) });
      cell.append(element("code", {}, this.allMasked[i]));
      live.policy.append(cell);
      live.tr.after(live.policy);
    } else if (row && live.policy) {
      live.policy.remove();
      live.policy = null;
    }
  };

  /* Tell a screen reader what changed, in one short sentence. */
  Explorer.prototype.say = function (text) {
    this.status.textContent = text;
  };

  /* For the lesson's tests, and for curious learners in the console. */
  window.lessonExplorer = { scores: scores, attentionRow: attentionRow, explorers: [] };

  function start() {
    if (!window.lessonWidget) { return; }     /* softmax-widget.js did not load */
    var roots = document.querySelectorAll('[data-explorer="attention"]:not(.is-live)');
    Array.prototype.forEach.call(roots, function (root, i) {
      window.lessonExplorer.explorers.push(new Explorer(root, i));
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
