"""The built site: strict build, math as MathML, real numbers, real source.

The same pages are built by MkDocs + Material (``built_site``, the site the
README serves) and by Zensical (``zensical_site``): both run the project's
Python-Markdown extension, ``lesson_docs.lesson_markdown``.
"""

import html
import inspect
import json
import re
import subprocess
import sys

import pytest

import lesson
import lesson.head
import lesson.weights
from lesson import example
from lesson.tables import table_rows
from lesson_docs import api_reference, benchmarks, lesson_site, measure_speed
from helpers import ROOT
from page_states import PAGES

RAW_TEX = re.compile(r"\\(frac|sqrt|mathbb|operatorname|infty|top|sum|ln)\b|\\\(|\\\[")


def page(site, name):
    return (site / f"{name}.html").read_text()


def text_of(markup):
    """The visible text of a page's article, without tags or code blocks."""
    article = markup[markup.index("<article"):markup.index("</article>")]
    article = re.sub(r"<(pre|code|math)\b.*?</\1>", " ", article, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", article))


@pytest.mark.parametrize("name", PAGES)
def test_every_page_is_built_with_no_raw_tex(built_site, name):
    markup = page(built_site, name)
    assert not RAW_TEX.search(text_of(markup)), RAW_TEX.search(text_of(markup))
    assert "arithmatex" not in markup      # every formula became MathML


@pytest.mark.parametrize("name", ["index", "by-hand", "in-code", "check", "reference", "precision"])
def test_math_is_mathml_named_in_words(built_site, name):
    formulas = re.findall(r"<math\b[^>]*>", page(built_site, name))
    assert formulas
    for tag in formulas:
        assert 'xmlns="http://www.w3.org/1998/Math/MathML"' in tag
        label = html.unescape(re.search(r'aria-label="([^"]+)"', tag).group(1))
        assert "\\" not in label and "{" not in label and "^" not in label, label


def test_double_struck_letters_become_unicode(built_site):
    markup = page(built_site, "reference")
    # MathML Core (what Chromium draws) ignores mathvariant="double-struck".
    assert "<mi>\u211d</mi>" in markup and "double-struck" not in markup


def test_function_names_and_unary_minus_are_spaced_as_in_tex(built_site):
    # 0 ln 0: a thin space on both sides of ln, and U+2061 FUNCTION APPLICATION.
    assert ('<mn>0</mn><mspace width="0.1667em" /><mi>ln</mi><mo>\u2061</mo>'
            '<mspace width="0.1667em" /><mn>0</mn>') in page(built_site, "in-code")
    # [0, -inf] in the worked example: the minus sits with its symbol, with no space.
    minus = '<mrow><mo lspace="0" rspace="0">\u2212</mo><mi>\u221e</mi></mrow>'
    assert f'<mn>0</mn><mo>,</mo>{minus}' in page(built_site, "reference")
    # m = max_j s_j: max is a name (<mi>), not an operator spaced like "=".
    assert ("<mo>=</mo><msub><mi>max</mi><mi>j</mi></msub><mo>\u2061</mo>"
            in page(built_site, "index"))


def test_idea_page_table_is_computed_by_lesson(built_site):
    markup = page(built_site, "index")
    rows, _ = table_rows(example.TABLE_SCORES)
    assert len(rows) == len(example.TABLE_SCORES) + 1, rows      # a header, a row per key
    for row in rows[1:]:
        cells = "".join(rf"<td[^>]*>{re.escape(cell)}</td>\s*" for cell in row)
        assert re.search(cells, markup), row
    for seed in ["0.4931", "0.1814", "0.5972", "0.2945", "0.1083"]:
        assert seed in markup


def test_worked_example_table_is_computed_by_lesson(built_site):
    text = text_of(page(built_site, "reference").replace("<code>", "").replace("</code>", ""))
    text = " ".join(text.split())                   # a word of code is a span of its own
    for step in ["[0.669762, 0.330238]", "[1.339523, 0.660477]", "[2, 0]"]:
        assert step in text


def test_worked_example_formulas_are_math_not_ascii(built_site):
    markup = page(built_site, "reference")
    table = markup[markup.index("dot scores"):markup.index("</table>", markup.index("dot scores"))]
    rows = re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)
    assert len(rows) == len(example.worked_example()) - 1       # the first row is cut above
    assert table.count("<math") >= len(rows)
    assert not re.search(r"sqrt\(| \. | x value|-inf", text_of("<article>" + table + "</article>"))


@pytest.mark.parametrize("name, function", [
    ("in-code", "softmax_row"), ("in-code", "naive_softmax_row"), ("in-code", "entropy_row"),
    ("in-code", "sums_to_one"), ("reference", "attention_row"), ("reference", "scaled_scores_row"),
])
def test_source_on_the_site_is_the_module_source(built_site, name, function):
    module = lesson.weights if name == "in-code" else lesson.head
    source = inspect.getsource(getattr(module, function))
    code = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, name)))
    for line in source.splitlines():
        assert line in code, line


def test_api_page_holds_every_public_docstring(built_site):
    text = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, "api")))
    for name in lesson.__all__:
        doc = inspect.getdoc(getattr(lesson, name))
        assert doc.splitlines()[0] in text
        assert api_reference.signature(getattr(lesson, name)) in text


def test_api_page_spells_numbers_as_the_source_does(built_site):
    text = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, "api")))
    assert "tol=1e-9" in text and "1e-09" not in text


def test_no_page_loads_anything_from_the_network(built_site):
    tags = 0
    for path in built_site.rglob("*.html"):
        markup = path.read_text()
        for tag in re.findall(r"<(?:script|link|img)\b[^>]*>", markup):
            assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", tag), (path.name, tag)
            tags += 1
    assert tags >= len(PAGES), "the pages load no script, stylesheet or image at all"


def test_every_placeholder_was_filled(built_site):
    for name in PAGES:
        assert "{{" not in text_of(page(built_site, name))


def test_precision_page_figures_are_the_benchmarks(built_site):
    from lesson import bench
    report = bench.accuracy(bench.accuracy_corpus(), bench.softmax_methods(optional=False))
    text = text_of(page(built_site, "precision"))
    for name, r in report.items():
        assert f"{r['max']:.2f}" in text and f"{r['mean']:.3f}" in text, name


def test_speed_table_shows_the_saved_measurements(built_site):
    figures = json.loads(measure_speed.FIGURES.read_text(encoding="utf-8"))
    markup = page(built_site, "precision")
    text = " ".join(text_of(markup).split())
    table = markup[markup.index("µs per call, by scores in the row"):]
    table = table[:table.index("</table>")]
    cells = [re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S)]
    for row in figures["seconds_per_call"]:
        for name, seconds in row["seconds"].items():
            assert benchmarks.microseconds(seconds) in cells, (row["scores"], name)
    assert "Time per call in microseconds (µs)" in text and not re.search(r"\d ?us\b", text)
    assert f"Measured on {figures['taken'][:10]}" in text and figures["machine"]["cpu"] in text
    # Every method the lesson times is in the saved figures.
    timed = set(bench_methods()) - {"naive_softmax"}
    assert timed <= set(figures["seconds_per_call"][0]["seconds"])


def bench_methods():
    from lesson import bench
    return bench.softmax_methods(optional=False)


def test_exercises_page_shows_real_checker_output(built_site):
    from lesson.grader import contract as exercise, judge
    text = html.unescape(re.sub(r"<[^>]+>", "", page(built_site, "exercises")))
    assert f"0 passed, {len(exercise.CHECKS)} failed" in text       # the starter
    assert "not done yet: softmax() returns None" in text
    assert "OverflowError: math range error (your line 8" in text   # forgot the max
    assert "subtract the row maximum" in text
    from lesson_docs.checker_output import SEED
    for check in exercise.checks_for(SEED):                          # the table of checks
        assert check.call_text() in text and judge.passes_when(check) in text
    assert f"longer than {exercise.TIME_LIMIT:g} seconds" in text
    assert f"never returned: stopped after {exercise.TIME_LIMIT:g} s" in text   # a hang
    assert "printed:  computing entropy of [1.0, 0.0, 0.0]" in text


# --- The formulas in a real browser -------------------------------------------

def test_math_spacing_as_drawn_by_chromium(untouched):
    """Measure the gaps Chromium draws: ln spaced from its argument, unary minus tight."""
    gaps = """(selector) => [...document.querySelectorAll(selector)].map(math => {
        const boxes = [...math.querySelectorAll('mi, mn, mo')]
            .filter(e => e.textContent.trim() && e.textContent !== '\u2061')
            .map(e => [e.textContent, e.getBoundingClientRect()]);
        const em = parseFloat(getComputedStyle(math).fontSize);
        return boxes.slice(1).map(([text, box], i) =>
            [boxes[i][0], text, (box.left - boxes[i][1].right) / em, math.textContent]);
    })"""
    in_code = untouched("in-code").page.evaluate(gaps, "p math")
    ln = [gap for formula in in_code for gap in formula if gap[0] == "ln"]
    assert ln and all(g > 0.12 for _, _, g, _ in ln), ln             # TeX: a thin space
    reference = untouched("reference").page.evaluate(gaps, "td math")
    unary = [g for formula in reference for a, b, g, _ in formula if a == "\u2212" and b == "\u221e"]
    assert unary and all(g < 0.06 for g in unary), unary          # -inf, not - inf
    index = [gap for formula in untouched("index").page.evaluate(gaps, "p math") for gap in formula]
    binary = [g for a, b, g, text in index if (a, b) == ("\u2212", "m") and "\u2264" in text]
    assert binary and all(g > 0.15 for g in binary), binary       # s_i - m <= 0: spaced
    unary = [g for a, b, g, text in index if (a, b) == ("\u2212", "m") and len(text) == 3]
    assert unary and all(g < 0.06 for g in unary), unary          # e^{-m}: tight


def test_chromium_names_every_formula_in_words(untouched):
    """Chromium ignores alttext; the aria-label gives each <math> its name."""
    page = untouched("index").page
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    names = [node.get("name", {}).get("value", "") for node in nodes
             if node.get("role", {}).get("value") == "MathMLMath"]
    assert len(names) == page.locator("math").count() > 0
    assert "w sub i equals the fraction e to the power s sub i, over the sum over j equals " \
           "1 to n of e to the power s sub j, end of fraction" in names
    assert all(name and "\\" not in name for name in names), names


# --- The same pages built by Zensical -----------------------------------------

@pytest.mark.parametrize("name", PAGES)
def test_zensical_fills_every_placeholder_and_sets_math(zensical_site, built_site, name):
    markup = page(zensical_site, name)
    assert "{{" not in text_of(markup)
    assert not RAW_TEX.search(text_of(markup)) and "arithmatex" not in markup
    if "<math" in page(built_site, name):                          # as MkDocs sets it
        assert re.search(r'<math [^>]*aria-label="[^"]+"', markup)


def test_zensical_pages_hold_the_computed_numbers(zensical_site, built_site):
    for seed in ["0.5972", "0.2945", "0.1083"]:
        assert seed in page(zensical_site, "index")
    assert "0.669762" in page(zensical_site, "reference")
    # The same numbers as the MkDocs build: tables are filled by the same code.
    for name in ["index", "reference", "precision", "exercises"]:
        # Zensical's search reads data-search-exclude and leaves it out of the page.
        cells = re.findall(r"<td[^>]*>(.*?)</td>",
                           page(built_site, name).replace(' data-search-exclude=""', ""))
        assert cells, name
        assert cells == re.findall(r"<td[^>]*>(.*?)</td>", page(zensical_site, name)), name


def test_an_unknown_placeholder_stops_the_build():
    with pytest.raises(ValueError, match=r"unknown placeholder \{\{ tabel \}\}"):
        lesson_site.expand("Some text.\n\n    {{ tabel 1 2 }}\n")
    expanded = lesson_site.expand("    {{ table 1 2 }}")
    assert expanded.startswith("    | key |") and "0.7311" in expanded   # indented, args read


def test_the_build_does_no_work_at_import_and_expands_without_processes():
    """Importing the extension starts nothing, and a placeholder that needs no
    checker run starts no thread and no process."""
    code = ("import multiprocessing, threading\n"
            "import lesson_docs.lesson_markdown\n"
            "from lesson_docs import lesson_site\n"
            "assert threading.active_count() == 1\n"
            "lesson_site.expand('{{ table }}\\n\\n{{ quiz shift }}')\n"
            "assert threading.active_count() == 1 and not multiprocessing.active_children()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# --- What search finds --------------------------------------------------------

CLOSED = re.compile(r"<details(?![^>]*\sopen)[^>]*>(.*?)</details>", re.S)


def search_text(site):
    """{page: every word the site's search index holds for it, as one text}:
    MkDocs' search/search_index.json, or Zensical's search.json."""
    found = {}
    mkdocs = site / "search" / "search_index.json"
    index = json.loads((mkdocs if mkdocs.is_file() else site / "search.json").read_text())
    for doc in index.get("docs") or index["items"]:
        name = doc["location"].split("#")[0] or "index.html"
        found[name] = found.get(name, "") + "\n" + html.unescape(
            re.sub(r"<[^>]+>", "", doc["title"] + "\n" + doc["text"]))
    return found


def test_search_shows_no_closed_answer_and_reads_math_as_text(built_site):
    """A closed answer or solution is closed so that a learner tries first:
    none of its lines is in the search index (unless the page shows that line
    in the open too).  A formula is in the index as a line of text, never as
    its MathML's symbols run together (``H(w)=−∑iwiln⁡wi``)."""
    searched_as_a_learner_needs(built_site)


def test_zensical_search_shows_no_closed_answer_and_reads_math_as_text(zensical_site):
    searched_as_a_learner_needs(zensical_site)


def searched_as_a_learner_needs(built_site):
    indexed = {name: " ".join(text.split()) for name, text in search_text(built_site).items()}
    hidden_lines = 0
    for path in sorted(built_site.glob("*.html")):
        markup = path.read_text(encoding="utf-8")
        shown = " ".join(html.unescape(re.sub(r"<[^>]+>", "", CLOSED.sub("", markup))).split())
        for block in CLOSED.findall(markup):
            for line in html.unescape(re.sub(r"<[^>]+>", "", block)).splitlines():
                line = " ".join(line.split())
                if len(line) > 24 and line not in shown:
                    hidden_lines += 1
                    assert line not in indexed.get(path.name, ""), f"{path.name}: {line!r}"
    assert hidden_lines > 50
    entropy = indexed["in-code.html"]
    assert "H(w) = −∑ᵢ wᵢ ln wᵢ" in entropy and "∑iwi" not in entropy
    assert "q·k = ∑ⱼ₌₁^dₖ qⱼkⱼ adds up dₖ terms" in indexed["why-scaling.html"]
    assert not re.search(r"\d{12,}", indexed["why-scaling.html"])      # no tick labels run together
    assert "one-hot is 0 entropy(" in " ".join(indexed["exercises.html"].split())


def test_one_name_for_the_command(built_site, tmp_path):
    """The starter, the solution, every page and the editor's messages name
    the checker one way: `softmax-lesson check`, the command pip installs,
    which no `lesson.py` in the learner's folder can shadow."""
    from lesson.cli import main
    starter = tmp_path / "softmax_exercise.py"
    assert main(["starter", str(starter)]) == 0
    texts = {"the starter": starter.read_text(encoding="utf-8"),
             "the solution": (ROOT / "docs/assets/solution/softmax_exercise.py").read_text()}
    texts.update((path.name, html.unescape(re.sub(r"<script.*?</script>", "",   # not the
                                                  path.read_text(encoding="utf-8"), flags=re.S)))
                 for path in built_site.glob("*.html"))                    # modules' sources
    for where, text in texts.items():
        assert "python -m lesson check" not in text, where
    assert "softmax-lesson check softmax_exercise.py" in texts["the starter"]
    assert 'data-check-command="softmax-lesson check softmax_exercise.py"' in texts["exercises.html"]
