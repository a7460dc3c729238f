/* Lesson 4 score widget: move the scores, watch the softmax weights.
 *
 * Plain JavaScript, no libraries, nothing fetched: it works from a web
 * server and from a file opened on disk. It enhances every element with
 * class "softmax-widget": the static table inside stays for readers
 * without JavaScript, and is replaced here by sliders, a live table, one
 * bar per weight, their sum and their entropy.
 */
(function () {
  "use strict";

  var MIN_KEYS = 2, MAX_KEYS = 8, SCORE_RANGE = 5;

  /* Stable softmax: subtract the maximum before exp, as lesson.softmax does. */
  function softmax(scores) {
    var top = Math.max.apply(null, scores);
    if (!isFinite(top)) {
      throw new RangeError("softmax: the scores need one finite maximum");
    }
    var exps = scores.map(function (s) { return Math.exp(s - top); });
    var total = exps.reduce(function (a, b) { return a + b; }, 0);  /* >= exp(0) = 1 */
    return exps.map(function (e) { return e / total; });
  }

  /* Entropy in nats, with 0 * ln 0 taken as 0. */
  function entropy(weights) {
    return weights.reduce(function (h, p) {
      return p > 0 ? h - p * Math.log(p) : h;
    }, 0) + 0;
  }

  /* A number as the lesson's tables show it: rounded, no trailing zeros. */
  function fmt(value, digits) {
    if (value === -Infinity) { return "-inf"; }
    var text = value.toFixed(digits === undefined ? 4 : digits);
    if (text.indexOf(".") >= 0) { text = text.replace(/0+$/, "").replace(/\.$/, ""); }
    return text === "-0" ? "0" : text;
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function Widget(root, index) {
    this.root = root;
    this.id = "softmax-widget-" + index;
    this.scores = root.getAttribute("data-scores").trim().split(/\s+/).map(Number);
    this.temperature = 1;
    this.build();
    this.update();
  }

  Widget.prototype.build = function () {
    var self = this;
    this.root.textContent = "";
    this.root.classList.add("is-live");

    this.sliders = element("div", { "class": "sw-sliders" });
    var buttons = element("div", { "class": "sw-buttons" });
    this.addButton = element("button", { type: "button", "class": "md-button" }, "Add a key");
    this.removeButton = element("button", { type: "button", "class": "md-button" },
                                "Remove the last key");
    this.addButton.addEventListener("click", function () { self.resize(+1); });
    this.removeButton.addEventListener("click", function () { self.resize(-1); });
    buttons.append(this.addButton, this.removeButton);

    var temperature = element("div", { "class": "sw-slider sw-temperature" });
    var tLabel = element("label", { "for": this.id + "-t" }, "temperature T");
    this.tInput = element("input", {
      type: "range", id: this.id + "-t", min: "-1", max: "1", step: "0.01", value: "0",
      "aria-describedby": this.id + "-t-help"
    });
    this.tOutput = element("output", { "for": this.id + "-t" });
    this.tInput.addEventListener("input", function () {
      self.temperature = Math.pow(10, Number(self.tInput.value));
      self.update();
    });
    var tHelp = element("p", { id: this.id + "-t-help", "class": "sw-help" },
      "Every score is divided by T before the softmax. A small T sharpens the " +
      "weights towards the largest score; a large T spreads them out.");
    temperature.append(tLabel, this.tInput, this.tOutput);

    this.table = element("table");        /* no class: Material styles it like the others */
    var tableWrap = element("div", { "class": "md-typeset__table sw-table-wrap" });
    tableWrap.append(this.table);
    this.bars = element("div", { "class": "sw-bars", "aria-hidden": "true" });
    this.summary = element("p", { "class": "sw-summary", "aria-live": "polite" });

    this.root.append(this.sliders, buttons, temperature, tHelp, tableWrap, this.bars,
                     this.summary);
    this.buildSliders();
  };

  Widget.prototype.buildSliders = function () {
    var self = this;
    this.sliders.textContent = "";
    this.scoreInputs = this.scores.map(function (score, i) {
      var row = element("div", { "class": "sw-slider" });
      var id = self.id + "-s" + (i + 1);
      var label = element("label", { "for": id }, "score " + (i + 1));
      var input = element("input", {
        type: "range", id: id, min: String(-SCORE_RANGE), max: String(SCORE_RANGE),
        step: "0.01", value: score.toFixed(2), "aria-label": "score of key " + (i + 1)
      });
      var output = element("output", { "for": id }, score.toFixed(2));
      input.addEventListener("input", function () {
        self.scores[i] = Number(input.value);
        output.textContent = Number(input.value).toFixed(2);
        self.update();
      });
      row.append(label, input, output);
      self.sliders.append(row);
      return input;
    });
    this.addButton.disabled = this.scores.length >= MAX_KEYS;
    this.removeButton.disabled = this.scores.length <= MIN_KEYS;
  };

  Widget.prototype.resize = function (change) {
    var n = this.scores.length + change;
    if (n < MIN_KEYS || n > MAX_KEYS) { return; }
    if (change > 0) { this.scores.push(0); } else { this.scores.pop(); }
    this.buildSliders();
    this.update();
    var focus = change > 0 ? this.scoreInputs[this.scoreInputs.length - 1]
                           : (this.removeButton.disabled ? this.addButton : this.removeButton);
    focus.focus();
  };

  Widget.prototype.update = function () {
    var t = this.temperature;
    var scaled = this.scores.map(function (s) { return s / t; });
    var weights = softmax(scaled);
    var top = Math.max.apply(null, scaled);
    this.tOutput.textContent = t.toFixed(2);

    var head = ["key", t === 1 ? "score" : "score / T", "score \u2212 max",
                "exp(score \u2212 max)", "weight"];
    var rows = [head].concat(scaled.map(function (s, i) {
      return [String(i + 1), fmt(s), fmt(s - top), fmt(Math.exp(s - top)), fmt(weights[i])];
    }));
    this.table.textContent = "";
    rows.forEach(function (cells, r) {
      var tr = element("tr");
      cells.forEach(function (cell) { tr.append(element(r === 0 ? "th" : "td", {}, cell)); });
      this.table.append(tr);
    }, this);

    this.bars.textContent = "";
    weights.forEach(function (w, i) {
      var row = element("div", { "class": "sw-bar" });
      var bar = element("span", { "class": "sw-bar-fill" });
      bar.style.width = (100 * w).toFixed(2) + "%";
      var track = element("span", { "class": "sw-bar-track" });
      track.append(bar);
      row.append(element("span", { "class": "sw-bar-label" }, "key " + (i + 1)), track,
                 element("span", { "class": "sw-bar-value" }, fmt(w)));
      this.bars.append(row);
    }, this);

    var total = weights.reduce(function (a, b) { return a + b; }, 0);
    var n = weights.length;
    this.summary.textContent = "Sum of the weights: " + fmt(total) + ". Entropy: " +
      fmt(entropy(weights)) + " nats (0 when one key takes everything, at most ln " + n +
      " = " + fmt(Math.log(n)) + " when all " + n + " are equal).";
  };

  /* For the lesson's tests, and for curious learners in the console. */
  window.lessonWidget = { softmax: softmax, entropy: entropy, fmt: fmt, widgets: [] };

  function start() {
    var roots = document.querySelectorAll(".softmax-widget:not(.is-live)");
    Array.prototype.forEach.call(roots, function (root, i) {
      window.lessonWidget.widgets.push(new Widget(root, i));
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
