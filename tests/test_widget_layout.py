"""The score widget's table and plot, as drawn: headers over their numbers,
and the output's label "O" clear of every value circle and label."""

import pytest

# Boxes in the page: every number cell's point-aligned box, its header, and
# the plot's circles and labels.
HEADERS_AND_NUMBERS = """() => {
    const rows = [...document.querySelectorAll('.softmax-widget table tr')];
    const box = e => e.getBoundingClientRect();
    return [...rows[0].children].slice(1).map((th, k) => {
        const cells = rows.slice(1).map(tr => tr.children[k + 1]).filter(td => td.offsetParent);
        const numbers = cells.map(td => { const i = box(td.querySelector('.sw-int')),
                                                f = box(td.querySelector('.sw-frac'));
                                          return [i.left, f.right]; });
        const text = document.createRange(); text.selectNodeContents(th);
        const t = text.getBoundingClientRect();
        return {header: th.textContent, visible: !!th.offsetParent, left: t.left, right: t.right,
                numbers: numbers};
    });
}"""

PLOT = """() => {
    const box = e => { const r = e.getBoundingClientRect();
                       return [r.left, r.top, r.right, r.bottom]; };
    const svg = document.querySelector('.sw-plot');
    return {output: box(svg.querySelector('.sw-output-label')),
            others: [...svg.querySelectorAll('.sw-value-dot, .sw-plot-label:not(.sw-output-label)')]
                    .map(e => [e.textContent || 'circle', box(e)]),
            plot: box(svg)};
}"""


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("width", [1280, 390])
def test_each_header_sits_over_its_numbers(open_page, width):
    view = open_page("index", width=width)
    columns = [c for c in view.page.evaluate(HEADERS_AND_NUMBERS) if c["visible"]]
    assert len(columns) >= 2 and all(c["numbers"] for c in columns), columns  # score, weight at least
    for column in columns:
        left = min(n[0] for n in column["numbers"])
        right = max(n[1] for n in column["numbers"])
        middle = (column["left"] + column["right"]) / 2
        assert abs(middle - (left + right) / 2) < 2, column   # centred over one box
        points = {round(n[0], 1) for n in column["numbers"]}
        assert len(points) == 1, column                         # the same box on every row


@pytest.mark.parametrize("scores", [None, [0.7071, 5, -1], [5, 0, -1], [0, 0, 5], [-5, 5, 5]])
def test_the_output_label_covers_no_value(open_page, scores):
    view = open_page("index")
    page = view.page
    if scores:
        page.evaluate("""scores => { const w = lessonWidget.widgets[0];
            scores.forEach((s, i) => { w.scores[i] = s; w.scoreInputs[i].value = s; }); w.update(); }""",
            scores)
    plot = page.evaluate(PLOT)
    label = plot["output"]
    assert len(plot["others"]) >= 6, plot["others"]        # three value circles, their labels
    for name, box in plot["others"]:
        assert not overlap(label, box), f"O covers {name} for scores {scores}"
    inside = plot["plot"]
    assert inside[0] <= label[0] and label[2] <= inside[2] and inside[1] <= label[1] <= label[3] <= inside[3]
