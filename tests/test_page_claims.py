"""What the pages claim is true for the numbers they print.

A page that says ``softmax([0.7071, 0, -1]) = [0.5972, 0.2945, 0.1083]``
must be right for 0.7071 itself, to the precision shown, not only for the
1/sqrt(2) it stands for.  These tests read every such claim in the built
pages and in the questions' data, and work it out again with ``lesson``.
They also run each ``>>>`` block that imports from ``lesson`` on its own, so
a block never leans on names another block imported.
"""

import doctest
import html
import math
import pathlib
import re
import textwrap

import pytest

import lesson
from lesson import example
from lesson_docs import explorer, markdown_text, questions, why_scaling, why_softmax  # the site build's

ROOT = pathlib.Path(__file__).resolve().parents[1]

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|[-+]?inf"
LIST = rf"\[\s*(?:{NUMBER})(?:\s*,\s*(?:{NUMBER}))*\s*\]"
SOFTMAX = re.compile(rf"softmax\(({LIST})\)\s*=\s*({LIST})")
REWORKED = re.compile(rf"softmax\(({LIST})\)\s*=\s*{LIST}; doubled, ({LIST}); halved, ({LIST})")
DIVIDED = re.compile(rf"({LIST}) sum to ({NUMBER}), so dividing gives ({LIST})"
                     rf"|Divided by their sum, ({LIST}) become ({LIST})")
# Claims about inputs the text names rather than prints: the lesson's scores
# (example.TABLE_SCORES), the worked example's q, K and V (example.q, .K, .V),
# and the scaling experiment (why_scaling.scaling_experiment).
TEMPERATURE = re.compile(rf"T = ({NUMBER}) gives ({LIST})")
MASKED = re.compile(rf"attention\(q, K, V, mask=({LIST})\) gives weights ({LIST}) "
                    rf"and output ({LIST})")
ZEROED = re.compile(rf"softmax gives ({LIST}), and zeroing the second leaves ({LIST}), "
                    rf"which sums to ({NUMBER})")
MATRIX = rf"\[\s*{LIST}(?:\s*,\s*{LIST})*\s*\]"
ROW_SUMS = re.compile(rf"attention\(Q, K, V\) with Q = ({MATRIX}), K = ({MATRIX}): the rows "
                      rf"sum to ((?:{NUMBER})(?:, (?:{NUMBER}))*), the whole matrix to ({NUMBER})")
# The explorer's matrix (lesson_docs.explorer's Q, K, V) under the causal mask.
CAUSAL_ROWS = re.compile(rf"With the causal mask the rows sum to ((?:{NUMBER})(?:, (?:{NUMBER}))*): "
                         rf"({NUMBER}) in all")
SCALING = re.compile(rf"With dk = (\d+): largest weight ({NUMBER}) unscaled, ({NUMBER}) scaled")
KINDS = {"SOFTMAX": SOFTMAX, "REWORKED": REWORKED, "DIVIDED": DIVIDED, "TEMPERATURE": TEMPERATURE,
         "MASKED": MASKED, "ZEROED": ZEROED, "ROW_SUMS": ROW_SUMS, "CAUSAL_ROWS": CAUSAL_ROWS,
         "SCALING": SCALING}


def plain(text):
    """Page text as a learner reads it: no tags, real characters, ASCII minus."""
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return text.replace("\u2212", "-").replace("\u221e", "inf")


def numbers(shown):
    return re.findall(NUMBER, shown)


def value(text):
    return float(text.replace("inf", "Infinity")) if "inf" in text else float(text)


def agrees(text, exact):
    """Whether ``text`` is ``exact`` rounded to the digits ``text`` shows."""
    if "inf" in text:
        return value(text) == exact
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    if exponent:
        significant = len(mantissa.lstrip("+-").replace(".", "").lstrip("0"))
        scale = 10 ** (int(exponent) - (significant - 1))
        return abs(exact - value(text)) <= 0.5 * scale * (1 + 1e-9)
    return abs(exact - value(text)) <= 0.5 * 10 ** -decimals * (1 + 1e-12)


def check_list(shown, exact, where):
    texts = numbers(shown)
    assert len(texts) == len(exact), f"{where}: {shown} has {len(texts)} numbers, not {len(exact)}"
    wrong = [(t, e) for t, e in zip(texts, exact) if not agrees(t, e)]
    assert not wrong, f"{where}: {shown} is not {exact} to the digits shown"


def claims(text, where):
    """Check every claim in ``text``; return how many there were."""
    text, count = plain(text), 0
    for scores, weights in SOFTMAX.findall(text):
        check_list(weights, lesson.softmax([value(s) for s in numbers(scores)]),
                   f"{where}: softmax({scores})")
        count += 1
    for scores, doubled, halved in REWORKED.findall(text):
        s = [value(x) for x in numbers(scores)]
        check_list(doubled, lesson.softmax([2 * x for x in s]), f"{where}: doubled {scores}")
        check_list(halved, lesson.softmax([x / 2 for x in s]), f"{where}: halved {scores}")
        count += 1
    for scores, total, divided, scores2, divided2 in DIVIDED.findall(text):
        s = [value(x) for x in numbers(scores or scores2)]
        if total:
            assert agrees(total, math.fsum(s)), f"{where}: {scores} do not sum to {total}"
        check_list(divided or divided2, [x / math.fsum(s) for x in s],
                   f"{where}: {scores or scores2} divided by their sum")
        count += 1
    return count + named_claims(text, where)


def named_claims(text, where):
    """Check every claim about an input the text names; return how many there were."""
    count = 0
    for t, weights in TEMPERATURE.findall(text):
        check_list(weights, lesson.softmax([x / value(t) for x in example.TABLE_SCORES]),
                   f"{where}: the lesson's scores at T = {t}")
        count += 1
    for mask, weights, output in MASKED.findall(text):
        out, w = lesson.attention(example.q, example.K, example.V,
                                  mask=[value(m) for m in numbers(mask)])
        check_list(weights, w, f"{where}: weights with mask {mask}")
        check_list(output, out, f"{where}: output with mask {mask}")
        count += 1
    for weights, zeroed, total in ZEROED.findall(text):
        _, w = lesson.attention(example.q, example.K, example.V)
        check_list(weights, w, f"{where}: the worked example's weights")
        check_list(zeroed, [w[0], 0.0], f"{where}: the second weight zeroed")
        assert agrees(total, w[0]), f"{where}: {zeroed} does not sum to {total}"
        count += 1
    for Q, K, sums, total in ROW_SUMS.findall(text):
        rows = [[value(x) for x in numbers(row)] for row in re.findall(LIST, Q)]
        keys = [[value(x) for x in numbers(row)] for row in re.findall(LIST, K)]
        _, A = lesson.attention(rows, keys, keys)
        check_list(sums, [math.fsum(row) for row in A], f"{where}: the rows' sums")
        assert agrees(total, math.fsum(map(math.fsum, A))), f"{where}: the whole matrix"
        count += 1
    for sums, total in CAUSAL_ROWS.findall(text):
        Q, K, V = explorer.Q, explorer.K, explorer.V
        _, A = lesson.attention(Q, K, V, mask=lesson.causal_mask(len(Q), len(K)))
        check_list(sums, [math.fsum(row) for row in A], f"{where}: the causal rows' sums")
        assert agrees(total, math.fsum(map(math.fsum, A))), f"{where}: the causal matrix"
        count += 1
    for d_k, raw, scaled in SCALING.findall(text):
        [row] = [r for r in why_scaling.scaling_experiment() if r["d_k"] == int(d_k)]
        assert agrees(raw, row["top_raw"]) and agrees(scaled, row["top_scaled"]), \
            f"{where}: d_k = {d_k} gives {row['top_raw']}, {row['top_scaled']}"
        count += 1
    return count


def test_the_checker_catches_the_old_mistake():
    # The slip these tests were written for: 0.71 printed, 1/sqrt(2) computed.
    with pytest.raises(AssertionError):
        claims("softmax([0.71, 0, -1]) = [0.5972, 0.2945, 0.1083]", "example")
    with pytest.raises(AssertionError):
        claims("[0.71, 0, -1] sum to -0.2929, so dividing gives [-2.41, 0, 3.41]", "example")
    assert claims("softmax([0.7071, 0, -1]) = [0.5972, 0.2945, 0.1083]", "example") == 1
    assert claims("softmax([2, \u2212100]) = [1.0, 5.03e-45]", "example") == 1
    with pytest.raises(AssertionError):             # T = 1, not 0.1
        claims("T = 0.1 gives [0.5972, 0.2945, 0.1083]", "example")
    assert claims("T = 1 gives [0.5972, 0.2945, 0.1083]", "example") == 1


@pytest.mark.parametrize("name", sorted(questions.QUIZZES))
def test_every_claim_in_a_question_is_true_for_the_numbers_it_prints(name):
    legend, options, worked = questions.QUIZZES[name]()
    text = " ".join([legend, worked] + [f"{t} {why}" for t, _, why in options])
    # Every question works its numbers out; a pattern that matched none of
    # them would be checking nothing.
    assert claims(text, f"quiz {name}") > 0, f"quiz {name}: no claim found to check"


def test_every_claim_on_the_built_pages_is_true_for_the_numbers_it_prints(built_site):
    texts = {page: page.read_text(encoding="utf-8") for page in built_site.glob("*.html")}
    found = {page.stem: claims(text, page.name) for page, text in texts.items()}
    # The questions on these pages make such claims; a pattern that found none
    # would be checking nothing.
    assert found["index"] >= 3 and found["why-softmax"] >= 3
    unmatched = [name for name, kind in KINDS.items()
                 if not any(kind.search(plain(text)) for text in texts.values())]
    assert not unmatched, f"no page makes these claims any more: {unmatched}"


def test_why_exponentiate_table_is_true_for_the_scores_it_prints():
    table = plain(why_softmax.why_softmax("compare"))
    rows = [line.split("|")[1:-1] for line in table.splitlines() if line.startswith("| [")]
    assert len(rows) == 3
    quotients = 0
    for scores, divided, weights, argmax in rows:
        s = [value(x) for x in numbers(scores)]
        check_list(weights, lesson.softmax(s), f"softmax of {scores}")
        if math.fsum(s):
            check_list(divided, [x / math.fsum(s) for x in s], f"{scores} divided by their sum")
            quotients += 1
        # One number of decimals in each list, so a column reads evenly.
        for shown in (divided, weights):
            assert len({len(t.partition(".")[2]) for t in numbers(shown)}) <= 1, shown
    assert quotients == 2, "two rows divide by their sum; one sums to 0"


def test_lists_of_weights_share_one_number_of_decimals():
    for name in ("shift", "double", "argmax", "mask", "temperature"):
        legend, options, worked = questions.QUIZZES[name]()
        # The weights: every list but the scores fed to softmax and the outputs.
        lists = re.findall(rf"(?<!softmax\()(?<!output )({LIST})", plain(worked))
        assert lists, f"quiz {name}: no list of weights found"
        for shown in lists:
            places = {len(t.partition(".")[2]) for t in numbers(shown) if "e" not in t}
            assert len(places) <= 1, f"quiz {name}: {shown}"
    assert "[0.6000, 0.2940, 0.1060]" == markdown_text.weights_listed([0.6, 0.294, 0.106])


FENCE = re.compile(r"^([ \t]*)```pycon\n(.*?)^\1```", re.M | re.S)


def blocks():
    for page in sorted((ROOT / "docs").glob("*.md")):
        for number, match in enumerate(FENCE.finditer(page.read_text(encoding="utf-8")), 1):
            source = textwrap.dedent(match.group(2))
            if re.search(r"^>>> (from|import) ", source, re.M):
                yield pytest.param(page.name, source, id=f"{page.stem}-{number}")


@pytest.mark.parametrize("page, source", list(blocks()))
def test_a_block_that_imports_runs_on_its_own(page, source):
    """A block with its own imports must not lean on names from another block."""
    test = doctest.DocTestParser().get_doctest(source, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
