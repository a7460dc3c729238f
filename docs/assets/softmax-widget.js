/* Lesson 4 score widget: move the scores, watch the weights and the output.
 *
 * Plain JavaScript, no libraries, nothing fetched: it works from a web
 * server and from a file opened on disk. It enhances every element with
 * class "softmax-widget". The static table inside stays for readers without
 * JavaScript; here it is replaced by
 *   - a slider per score, and a mask toggle per key (score -inf, weight 0),
 *     and "Reset" back to the lesson's own scores (the first exactly 1/sqrt(2)),
 *   - "shift every score by c" (the weights do not move) and temperature T,
 *   - a live table with the static table's own column headers,
 *   - one bar per weight, their sum and entropy,
 *   - the value vectors and the output O = sum_i w_i v_i, drawn in 2-D.
 * The page's build puts the scores, the values, the table's column headers
 * (lesson.tables.TABLE_HEADER) and the lesson's message for an all-masked row
 * in data-* attributes, all from the lesson module.
 */
(function () {
  "use strict";

  var MIN_KEYS = 2, MAX_KEYS = 8, SCORE_RANGE = 5, SHIFT_RANGE = 5;
  var SCORE_STEP = 0.01;          /* an arrow key moves a score by this much */
  var WEIGHT_DECIMALS = 4;        /* every weight in a list shows this many */
  var SVG = "http://www.w3.org/2000/svg";

  /* Stable softmax: subtract the maximum before exp, as lesson.softmax does.
     A score of -inf (a masked key) gets weight exactly 0. */
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

  /* The output: the values averaged with the weights, sum_i w_i v_i. */
  function mix(weights, values) {
    return [0, 1].map(function (j) {
      return weights.reduce(function (total, w, i) { return total + w * values[i][j]; }, 0);
    });
  }

  /* A number as the lesson's tables show it (lesson/tables.py: fmt): rounded,
     no trailing zeros; one too small for the places shown, to two figures
     (2.1e-9), so only an exact 0 shows as 0. */
  function fmt(value, digits) {
    if (value === -Infinity) { return "-inf"; }
    var text = value.toFixed(digits === undefined ? 4 : digits);
    if (text.indexOf(".") >= 0) { text = text.replace(/0+$/, "").replace(/\.$/, ""); }
    if ((text === "0" || text === "-0") && value !== 0) { return fmtTiny(value); }
    return text === "-0" ? "0" : text;
  }

  /* lesson/tables.py: fmt_tiny. */
  function fmtTiny(value) {
    return value.toExponential(1).replace("e+", "e");
  }

  /* A weight (or an exp) between 0 and 1, as lesson/tables.py: fmt_weight
     shows it (the tests hold the two alike): four decimals, so a column
     reads evenly; only an exact 0 or 1 without them. */
  function fmtWeight(value) {
    if (value === 0 || value === 1) { return String(value); }
    if (value > 0 && value < 0.00005) { return fmtTiny(value); }
    if (value < 1 && value >= 0.99995) { return ">0.9999"; }
    return value.toFixed(WEIGHT_DECIMALS);
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function svgElement(tag, attributes) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    return node;
  }

  /* A number cell whose decimal point lines up with the ones above it. */
  function numberCell(text) {
    var td = element("td");
    var dot = text.indexOf(".");
    td.append(element("span", { "class": "sw-int" }, dot < 0 ? text : text.slice(0, dot)),
              element("span", { "class": "sw-frac" }, dot < 0 ? "" : text.slice(dot)));
    return td;
  }

  function Widget(root, index) {
    this.root = root;
    this.id = "softmax-widget-" + index;
    /* The lesson's scores, kept exactly (the first is 1/sqrt(2), not 0.71). */
    this.lessonScores = root.getAttribute("data-scores").trim().split(/\s+/).map(Number);
    this.scores = this.lessonScores.slice();
    this.values = root.getAttribute("data-values").trim().split(/\s+/).map(function (pair) {
      return pair.split(",").map(Number);
    });
    this.allMasked = root.getAttribute("data-all-masked");
    this.masked = this.scores.map(function () { return false; });
    /* The column headers are lesson.tables.TABLE_HEADER, which the static
       table prints too, so no text changes when this script runs. */
    this.headers = JSON.parse(root.getAttribute("data-headers"));
    this.shift = 0;
    this.temperature = 1;
    this.build();
    this.update();
  }

  /* A labelled slider row: label, range input, its value; returns the input. */
  Widget.prototype.slider = function (parent, name, label, min, max, step, value, onInput,
                                      current) {
    var id = this.id + "-" + name;
    var input = element("input", {
      type: "range", id: id, min: String(min), max: String(max), step: String(step),
      value: String(value)
    });
    var output = element("output", { "for": id, "class": "sw-value" });
    input.addEventListener("input", function () { onInput(Number(input.value), output); });
    if (step === "any") { keyboardSteps(input, min, max, onInput, current); }
    parent.append(element("label", { "for": id, "class": "sw-label" }, label), input, output);
    input.output = output;
    return input;
  };

  /* A slider that holds any value (the lesson's 1/sqrt(2) exactly): the arrow
     keys move it by SCORE_STEP from where it is, Page Up and Down by ten
     steps, Home and End to the ends; dragging lands on a multiple of the step.
     current() is the value the widget holds: a range input keeps only 15
     significant digits, so stepping starts from the widget's own number. */
  function keyboardSteps(input, min, max, onInput, current) {
    var moves = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1,
                  PageUp: 10, PageDown: -10 };
    input.addEventListener("keydown", function (event) {
      var value = current();
      if (event.key in moves) {
        value += moves[event.key] * SCORE_STEP;
      } else if (event.key === "Home" || event.key === "End") {
        value = event.key === "Home" ? min : max;
      } else {
        return;
      }
      event.preventDefault();
      value = Math.min(max, Math.max(min, Math.round(value * 1e12) / 1e12));
      input.value = String(value);
      onInput(value);
    });
    input.addEventListener("pointerup", function () { input.snap = false; });
    input.addEventListener("pointerdown", function () { input.snap = true; });
  }

  Widget.prototype.build = function () {
    var self = this;
    this.root.textContent = "";
    this.root.classList.add("is-live");

    this.sliders = element("div", { "class": "sw-controls" });
    var buttons = element("div", { "class": "sw-buttons" });
    this.addButton = element("button", { type: "button", "class": "md-button" }, "Add a key");
    this.removeButton = element("button", { type: "button", "class": "md-button" },
                                "Remove the last key");
    this.resetButton = element("button", { type: "button", "class": "md-button" }, "Reset");
    this.resetButton.setAttribute("aria-describedby", this.id + "-reset-help");
    this.addButton.addEventListener("click", function () { self.resize(+1); });
    this.removeButton.addEventListener("click", function () { self.resize(-1); });
    this.resetButton.addEventListener("click", function () { self.reset(); });
    buttons.append(this.addButton, this.removeButton, this.resetButton,
                   element("span", { id: this.id + "-reset-help", "class": "sw-help" },
                           "Reset: the lesson's scores, T = 1, c = 0, no masks."));

    var global = element("div", { "class": "sw-controls sw-global" });
    this.shiftInput = this.slider(global, "c", "shift c", -SHIFT_RANGE, SHIFT_RANGE, 0.1, 0,
      function (value) { self.shift = value; self.update(); });
    this.shiftInput.setAttribute("aria-describedby", this.id + "-c-help");
    global.append(element("p", { id: this.id + "-c-help", "class": "sw-help" },
      "c is added to every score. Watch the weight column: it does not move, " +
      "because e^(s + c) = e^c \u00b7 e^s and e^c cancels in the division."));
    this.tInput = this.slider(global, "t", "temperature T", -1, 1, 0.01, 0, function (value) {
      self.temperature = Math.pow(10, value);
      self.update();
    });
    this.tInput.setAttribute("aria-describedby", this.id + "-t-help");
    global.append(element("p", { id: this.id + "-t-help", "class": "sw-help" },
      "Every score is divided by T before the softmax. A small T sharpens the " +
      "weights towards the largest score; a large T spreads them out."));

    this.table = element("table");        /* no class: Material styles it like the others */
    var tableWrap = element("div", { "class": "md-typeset__table sw-table-wrap" });
    tableWrap.append(this.table);
    var narrowNote = element("p", { "class": "sw-help sw-narrow-note" },
      "On a screen this narrow the " + this.headers[3] + " column is left out: each " +
      "weight is that exp divided by the sum of the exps.");
    this.bars = element("div", { "class": "sw-bars", "aria-hidden": "true" });
    this.summary = element("p", { "class": "sw-summary" });
    this.live = element("p", { "class": "sw-live", "aria-live": "polite" });

    var output = element("div", { "class": "sw-output" });
    this.plot = svgElement("svg", { viewBox: "-125 -125 250 250", width: "240", height: "240",
                                    "class": "sw-plot", "aria-hidden": "true" });
    this.mixText = element("p", { "class": "sw-mix" });
    var words = element("div", { "class": "sw-output-text" });
    words.append(element("p", { "class": "sw-output-title" },
                         "The output: the values, averaged with the weights"), this.mixText,
                 element("p", { "class": "sw-help" },
                         "Each key carries a value vector v (the hollow circles, sized by " +
                         "weight). The output O (the filled dot) is their weighted " +
                         "average, so it is pulled towards the keys with the most weight."));
    output.append(this.plot, words);

    this.root.append(this.sliders, buttons, global, tableWrap, narrowNote, this.bars, this.summary,
                     output, this.live);
    this.buildSliders();
  };

  Widget.prototype.buildSliders = function () {
    var self = this;
    this.sliders.textContent = "";
    this.maskInputs = [];
    this.scoreInputs = this.scores.map(function (score, i) {
      var input = self.slider(self.sliders, "s" + (i + 1), "score " + (i + 1),
                              -SCORE_RANGE, SCORE_RANGE, "any", String(score),
                              function (value) {
                                /* A drag lands on a multiple of the step; keys step exactly. */
                                if (input.snap) {
                                  value = Math.round(value / SCORE_STEP) * SCORE_STEP;
                                  value = Number(value.toFixed(2));
                                }
                                self.scores[i] = value;
                                self.update();
                              },
                              function () { return self.scores[i]; });
      var id = self.id + "-m" + (i + 1);
      var mask = element("input", { type: "checkbox", id: id, "aria-label": "mask key " + (i + 1) });
      mask.checked = self.masked[i];
      mask.addEventListener("change", function () {
        self.masked[i] = mask.checked;
        self.update();
      });
      var label = element("label", { "for": id, "class": "sw-mask" });
      label.append(mask, document.createTextNode(" mask"));
      self.sliders.append(label);
      self.maskInputs.push(mask);
      return input;
    });
    this.addButton.disabled = this.scores.length >= MAX_KEYS;
    this.removeButton.disabled = this.scores.length <= MIN_KEYS;
  };

  Widget.prototype.resize = function (change) {
    var n = this.scores.length + change;
    if (n < MIN_KEYS || n > MAX_KEYS) { return; }
    if (change > 0) {
      this.scores.push(0);
      this.masked.push(false);
    } else {
      this.scores.pop();
      this.masked.pop();
    }
    this.buildSliders();
    this.update();
    var focus = change > 0 ? this.scoreInputs[this.scoreInputs.length - 1]
                           : (this.removeButton.disabled ? this.addButton : this.removeButton);
    focus.focus();
  };

  /* Back to the lesson's table: its scores exactly, T = 1, c = 0, no masks. */
  Widget.prototype.reset = function () {
    this.scores = this.lessonScores.slice();
    this.masked = this.scores.map(function () { return false; });
    this.shift = 0;
    this.temperature = 1;
    this.shiftInput.value = "0";
    this.tInput.value = "0";
    this.buildSliders();
    this.update();
  };

  /* The scores softmax sees: shifted by c, divided by T, -inf where masked. */
  Widget.prototype.effectiveScores = function () {
    var c = this.shift, t = this.temperature, masked = this.masked;
    return this.scores.map(function (s, i) { return masked[i] ? -Infinity : (s + c) / t; });
  };

  /* The static table's headers, with "score" renamed to what the column holds. */
  Widget.prototype.headerRow = function () {
    var c = this.shift, t = this.temperature;
    var score = c === 0 ? "score" : "(score + c)";
    score = t === 1 ? score.replace(/^\((.*)\)$/, "$1") : score + "/T";
    return this.headers.map(function (header, i) {
      return i === 0 ? header : header.replace(/\bscore\b/, score);
    });
  };

  Widget.prototype.update = function () {
    var self = this;
    var scaled = this.effectiveScores();
    var anyVisible = this.masked.indexOf(false) >= 0;
    var weights = anyVisible ? softmax(scaled) : null;
    var top = Math.max.apply(null, scaled);

    this.scoreInputs.forEach(function (input, i) {
      input.output.textContent = self.masked[i] ? "-inf" : fmt(self.scores[i]);
      input.setAttribute("aria-valuetext", self.masked[i] ? "masked" : fmt(self.scores[i]));
      input.classList.toggle("is-masked", self.masked[i]);
    });
    this.shiftInput.output.textContent = this.shift.toFixed(1);
    this.tInput.output.textContent = this.temperature.toFixed(2);
    this.tInput.setAttribute("aria-valuetext", "T = " + this.temperature.toFixed(2));

    this.table.textContent = "";
    var head = element("tr");
    this.headerRow().forEach(function (text) { head.append(element("th", {}, text)); });
    this.table.append(head);
    scaled.forEach(function (s, i) {
      var tr = element("tr", self.masked[i] ? { "class": "is-masked" } : {});
      var cells = anyVisible
        ? [fmt(s), fmt(s - top), fmtWeight(Math.exp(s - top)), fmtWeight(weights[i])]
        : ["-inf", "none", "none", "none"];
      tr.append(element("td", {}, String(i + 1)));
      cells.forEach(function (text) { tr.append(numberCell(text)); });
      self.table.append(tr);
    });

    this.bars.textContent = "";
    (weights || []).forEach(function (w, i) {
      var row = element("div", { "class": "sw-bar" });
      var bar = element("span", { "class": "sw-bar-fill" });
      bar.style.width = (100 * w).toFixed(2) + "%";
      var track = element("span", { "class": "sw-bar-track" });
      track.append(bar);
      row.append(element("span", { "class": "sw-bar-label" }, "key " + (i + 1)), track,
                 element("span", { "class": "sw-bar-value" }, fmtWeight(w)));
      self.bars.append(row);
    });

    var values = this.values.slice(0, this.scores.length);
    if (!weights) {
      this.summary.textContent = "Every key is masked, so there are no weights: " +
        "lesson.softmax raises " + this.allMasked + ".";
      this.output = null;
      this.mixText.textContent = "No output: a query needs at least one key it may see.";
      this.drawPlot(values, null, null);
      this.announce("Every key is masked: no weights.");
      return;
    }
    var total = weights.reduce(function (a, b) { return a + b; }, 0);
    var n = weights.length;
    this.summary.textContent = "Sum of the weights: " + fmt(total) + ". Entropy: " +
      fmt(entropy(weights)) + " nats (0 when one key takes everything, at most ln " + n +
      " = " + fmt(Math.log(n)) + " when all " + n + " are equal).";
    var output = mix(weights, values);
    this.output = output;
    this.mixText.textContent = "O = " + weights.map(function (w, i) {
      return fmtWeight(w) + " \u00b7 [" + values[i].join(", ") + "]";
    }).join(" + ") + " = [" + output.map(function (o) { return fmt(o); }).join(", ") +
      "], worked with the weights before rounding, so a last digit can differ " +
      "from the rounded terms.";
    this.drawPlot(values, weights, output);
    this.announce("Weights " + weights.map(function (w) { return fmtWeight(w); }).join(", "));
  };

  /* Tell a screen reader the weights once, after the slider stops moving. */
  Widget.prototype.announce = function (text) {
    var live = this.live;
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(function () {
      if (live.textContent !== text) { live.textContent = text; }
    }, 600);
  };

  /* Values as hollow circles sized by weight, the output as a filled dot. */
  Widget.prototype.drawPlot = function (values, weights, output) {
    var svg = this.plot, scale = 40;     /* 40 px per unit: values lie in [-2.5, 2.5] */
    svg.textContent = "";
    [["-105", "0", "105", "0"], ["0", "-105", "0", "105"]].forEach(function (a) {
      svg.append(svgElement("line", { x1: a[0], y1: a[1], x2: a[2], y2: a[3], "class": "sw-axis" }));
    });
    function radius(w) { return 4 + 14 * Math.sqrt(w); }
    values.forEach(function (v, i) {
      var x = v[0] * scale, y = -v[1] * scale;
      var w = weights ? weights[i] : 0;
      svg.append(svgElement("line", { x1: "0", y1: "0", x2: String(x), y2: String(y),
                                      "class": "sw-value-line" }));
      var dot = svgElement("circle", { cx: String(x), cy: String(y), r: radius(w).toFixed(1),
                                       "class": "sw-value-dot" + (w === 0 ? " is-zero" : "") });
      svg.append(dot);
      /* The label sits beyond the circle, on the far side from the origin. */
      var length = Math.sqrt(x * x + y * y) || 1, r = radius(w) + 10;
      var label = svgElement("text", { x: (x + r * x / length).toFixed(1),
                                       y: (y + r * y / length + 5).toFixed(1),
                                       "text-anchor": "middle", "class": "sw-plot-label" });
      label.textContent = "v" + (i + 1);
      svg.append(label);
    });
    if (output) {
      var ox = output[0] * scale, oy = -output[1] * scale;
      svg.append(svgElement("line", { x1: "0", y1: "0", x2: ox.toFixed(2), y2: oy.toFixed(2),
                                      "class": "sw-output-line" }));
      svg.append(svgElement("circle", { cx: ox.toFixed(2), cy: oy.toFixed(2), r: "6",
                                        "class": "sw-output-dot" }));
      /* "O" goes beside its dot, square to the output line (so not on it),
         on the side away from the nearest value, and clear of that value's
         circle, which the output is inside when one key takes nearly all. */
      var length = Math.sqrt(ox * ox + oy * oy);
      var side = length > 1 ? [-oy / length, ox / length] : [1, 0];
      var nearest = 0, best = Infinity;
      values.forEach(function (v, i) {
        var d = Math.pow(v[0] * scale - ox, 2) + Math.pow(-v[1] * scale - oy, 2);
        if (d < best) { best = d; nearest = i; }
      });
      var near = values[nearest];
      if ((near[0] * scale - ox) * side[0] + (-near[1] * scale - oy) * side[1] > 0) {
        side = [-side[0], -side[1]];
      }
      var away = Math.max(14, radius(weights[nearest]) + 12);
      var lx = Math.min(115, Math.max(-115, ox + away * side[0]));
      var ly = Math.min(118, Math.max(-110, oy + away * side[1] + 5));
      var label = svgElement("text", { x: lx.toFixed(2), y: ly.toFixed(2),
                                       "text-anchor": "middle",
                                       "class": "sw-plot-label sw-output-label" });
      label.textContent = "O";
      svg.append(label);
    }
  };

  /* For the lesson's tests, and for curious learners in the console. */
  window.lessonWidget = { softmax: softmax, entropy: entropy, fmt: fmt, fmtWeight: fmtWeight,
                          element: element,
                          mix: mix, widgets: [] };

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
