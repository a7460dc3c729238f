"""lesson_docs.charts: SVG drawn from the lesson's numbers."""

import re
import xml.etree.ElementTree as ET

from lesson import softmax
from lesson_docs import charts as figures
from lesson.example import TABLE_SCORES, causal_example

SVG = "{http://www.w3.org/2000/svg}"


def test_bars_are_well_formed_and_proportional_to_the_weights():
    weights = softmax(TABLE_SCORES)
    root = ET.fromstring(figures.weight_bars(weights, alt="bars"))
    heights = [float(r.get("height")) for r in root.iter(SVG + "rect")]
    assert len(heights) == 3
    for h, w in zip(heights, weights):
        assert abs(h / heights[0] - w / weights[0]) < 1e-3
    labels = [t.text for t in root.iter(SVG + "text")]
    assert [f"{w:.4f}" for w in weights] == [t for t in labels if re.fullmatch(r"0\.\d{4}", t)]
    assert root.find(SVG + "title").text == "bars" and root.get("role") == "img"


def test_causal_heatmap_hatches_exactly_the_masked_cells():
    A, M = causal_example()
    grid = figures.masked_weights(A, M)
    root = ET.fromstring(figures.heatmap(grid, list("abcd"), list("abcd"), alt="causal"))
    hatched = [r for r in root.iter(SVG + "rect") if r.get("fill") == "url(#hatch)"]
    assert len(hatched) == sum(m == float("-inf") for row in M for m in row) == 6
    numbers = [t.text for t in root.iter(SVG + "text") if re.fullmatch(r"\d\.\d\d", t.text)]
    assert len(numbers) == 10 and numbers[0] == "1.00"


def test_a_zero_weight_that_is_not_masked_is_drawn_as_a_weight():
    root = ET.fromstring(figures.heatmap([[1.0, 0.0]], ["q"], ["a", "b"], alt="x"))
    assert not [r for r in root.iter(SVG + "rect") if r.get("fill") == "url(#hatch)"]
    assert "0.00" in [t.text for t in root.iter(SVG + "text")]


def test_alt_text_is_escaped():
    svg = figures.weight_bars([1.0], alt='a "quoted" <tag> & more')
    root = ET.fromstring(svg)
    assert root.get("aria-label") == 'a "quoted" <tag> & more'
