"""Pictures of attention as SVG text, drawn from the lesson's own numbers.

The site's build draws them (lesson_figures, why_softmax, why_scaling);
nothing of the lesson itself does, so they live with the build, not in the
lesson's package (or its wheel).

Standard library only: each function returns a string of SVG markup.  The
colours are CSS variables with plain fallbacks (the light page's values in
``docs/assets/``), so the same picture reads on a light or a dark page; each
picture carries its own alt text.

    weight_bars     one bar per key, its height the weight
    heatmap         a grid of weights, masked cells hatched
    masked_weights  None where a mask is -inf: what heatmap hatches
    line_chart      lines of (x, y) points, with axes, ticks and a legend

>>> svg = weight_bars([0.5972, 0.2945, 0.1083], alt="Three weights")
>>> svg.startswith("<svg") and 'aria-label="Three weights"' in svg
True
"""

import math
from html import escape

INK = "var(--md-default-fg-color, #222)"
FAINT = "var(--md-default-fg-color--lighter, #999)"
FILL = "var(--lesson-figure-fill, #3949ab)"
SECOND = "var(--lesson-figure-second, #c2185b)"
GREY = "var(--md-default-fg-color--light, #555)"
PAPER = "var(--md-default-bg-color, #fff)"
# A line chart's series, by number: the figure fill, the second colour, grey.
LINE_COLOURS = (FILL, SECOND, GREY)


def _svg(width, height, alt, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(alt)}" '
            f'class="lesson-figure" font-family="sans-serif" font-size="13">'
            f"<title>{escape(alt)}</title>{body}</svg>")


def _text(x, y, text, anchor="middle", fill=INK, size=None, weight=None, transform=None):
    extra = ((f' font-size="{size}"' if size else "") + (f' font-weight="{weight}"' if weight else "")
             + (f' transform="{transform}"' if transform else ""))
    return (f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" fill="{fill}"'
            f'{extra}>{escape(text)}</text>')


def weight_bars(weights, labels=None, alt="Attention weights"):
    """A bar chart: one bar per key, its height the weight, its value on top.

    >>> svg = weight_bars([0.75, 0.25], labels=["key 1", "key 2"])
    >>> svg.count("<rect"), "0.75" in svg
    (2, True)
    """
    labels = labels or [f"key {i}" for i in range(1, len(weights) + 1)]
    bar, gap, top, plot = 56, 28, 24, 160
    width = gap + len(weights) * (bar + gap)
    body = [f'<line x1="{gap / 2:g}" y1="{top + plot}" x2="{width - gap / 2:g}" '
            f'y2="{top + plot}" stroke="{FAINT}"/>']
    for i, (w, label) in enumerate(zip(weights, labels)):
        x = gap + i * (bar + gap)
        h = plot * w
        body.append(f'<rect x="{x}" y="{top + plot - h:.2f}" width="{bar}" '
                    f'height="{h:.2f}" fill="{FILL}" rx="2"/>')
        body.append(_text(x + bar / 2, top + plot - h - 6, f"{w:.4f}"))
        body.append(_text(x + bar / 2, top + plot + 18, label, fill=FAINT))
    return _svg(width, top + plot + 28, alt, "".join(body))


def heatmap(A, row_labels, column_labels, alt="Attention weights"):
    """A grid of weights: row i is query i, column j key j.

    Darker means more weight, and every cell shows its number.  A weight of
    exactly 0 from a mask (passed as None in ``A``) is drawn hatched and
    marked -inf, so it never looks like a small weight.

    >>> svg = heatmap([[1.0, 0.0]], ["q"], ["k1", "k2"], alt="x")
    >>> "hatch" in svg, "1.00" in svg
    (False, True)
    >>> "hatch" in heatmap([[1.0, None]], ["q"], ["k1", "k2"], alt="x")
    True
    """
    cell, left, top = 64, 72, 40
    width = left + cell * len(column_labels) + 8
    height = top + cell * len(row_labels) + 8
    body = ['<defs><pattern id="hatch" width="8" height="8" '
            'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            f'<line x1="0" y1="0" x2="0" y2="8" stroke="{FAINT}" stroke-width="3"/>'
            '</pattern></defs>'] if any(w is None for row in A for w in row) else []
    for j, label in enumerate(column_labels):
        body.append(_text(left + cell * j + cell / 2, top - 12, label, fill=FAINT))
    for i, (row, label) in enumerate(zip(A, row_labels)):
        y = top + cell * i
        body.append(_text(left - 10, y + cell / 2 + 5, label, anchor="end", fill=FAINT))
        for j, w in enumerate(row):
            x = left + cell * j
            if w is None:
                body.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" '
                            f'height="{cell - 2}" fill="url(#hatch)" stroke="{FAINT}"/>')
                body.append(f'<rect x="{x + cell / 2 - 15}" y="{y + cell / 2 - 10}" '
                            f'width="30" height="20" rx="4" fill="{PAPER}"/>')
                body.append(_text(x + cell / 2, y + cell / 2 + 5, "\u2212\u221e", size=13))
                continue
            body.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" '
                        f'height="{cell - 2}" fill="{FILL}" '
                        f'fill-opacity="{0.06 + 0.94 * w:.3f}" stroke="{FAINT}" '
                        f'stroke-opacity="0.4"/>')
            ink = "#fff" if w > 0.45 else INK
            body.append(_text(x + cell / 2, y + cell / 2 + 5, f"{w:.2f}", fill=ink,
                              weight="bold" if w == max(v or 0 for v in row) else None))
    return _svg(width, height, alt, "".join(body))


def masked_weights(A, mask):
    """A with None where the mask is -inf: what ``heatmap`` draws hatched.

    >>> masked_weights([[1.0, 0.0]], [[0.0, -math.inf]])
    [[1.0, None]]
    """
    return [[None if m == -math.inf else w for w, m in zip(a_row, m_row)]
            for a_row, m_row in zip(A, mask)]


def line_chart(series, x_range, y_range, x_ticks, y_ticks, x_label, y_label, alt):
    """A line chart: ``series`` of (name, [(x, y), ...], dash pattern, colour number).

    A tick is a number, or (number, label).  A series of fewer than 12 points
    also marks each point; the legend names every series with its line.

    >>> svg = line_chart([("y = x", [(0, 0), (1, 1)], "", 0)], x_range=(0, 1),
    ...                  y_range=(0, 1), x_ticks=(0, 1), y_ticks=(0, 1),
    ...                  x_label="x", y_label="y", alt="A straight line")
    >>> svg.count("<polyline"), svg.count("<circle"), ">y = x</text>" in svg
    (1, 2, True)
    """
    width, height, left, right, top, bottom = 320, 262, 46, 12, 14, 74
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(x):
        return left + (x - x_range[0]) / (x_range[1] - x_range[0]) * plot_w

    def py(y):
        return top + plot_h - (y - y_range[0]) / (y_range[1] - y_range[0]) * plot_h

    def text(x, y, words, anchor="middle", transform=None):
        return _text(round(x, 1), round(y, 1), words, anchor, size=11, transform=transform)

    body = [f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
            f'stroke="{FAINT}"/>']
    for tick in x_ticks:
        x, label = tick if isinstance(tick, tuple) else (tick, f"{tick:g}")
        body.append(f'<line x1="{px(x):.1f}" y1="{top}" x2="{px(x):.1f}" '
                    f'y2="{top + plot_h}" stroke="{FAINT}" stroke-opacity="0.35"/>')
        body.append(text(px(x), top + plot_h + 14, label))
    for tick in y_ticks:
        y, label = tick if isinstance(tick, tuple) else (tick, f"{tick:g}")
        body.append(f'<line x1="{left}" y1="{py(y):.1f}" x2="{left + plot_w}" '
                    f'y2="{py(y):.1f}" stroke="{FAINT}" stroke-opacity="0.35"/>')
        # A label is centred on its line; the lowest sits on it, clear of the
        # x axis's labels under the corner (0 above, -4 below, not touching).
        lift = 0 if y == y_range[0] else 4
        body.append(text(left - 5, py(y) + lift, label, anchor="end"))
    body.append(text(left + plot_w / 2, top + plot_h + 30, x_label))
    body.append(text(12, top + plot_h / 2, y_label,
                     transform=f"rotate(-90 12 {top + plot_h / 2:.1f})"))
    legend_y = top + plot_h + 50
    legend_x = left
    for name, points, dash, number in series:
        colour = LINE_COLOURS[number]
        if legend_x + 30 + 6 * len(name) > width:          # the legend wraps
            legend_x, legend_y = left, legend_y + 17
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                    f'stroke-width="2.2"{style}/>')
        if len(points) < 12:
            body += [f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>'
                     for x, y in points]
        body.append(f'<line x1="{legend_x}" y1="{legend_y - 4}" x2="{legend_x + 22}" '
                    f'y2="{legend_y - 4}" stroke="{colour}" stroke-width="2.2"{style}/>')
        body.append(text(legend_x + 26, legend_y, name, anchor="start"))
        legend_x += 38 + 6 * len(name)
    return _svg(width, height, alt, "".join(body))
