"""Every reader can use the built site, in a real browser (headless Chromium).

axe-core finds nothing serious in light or dark, every code colour is
readable, the figures' labels are readable, and keyboard focus shows.  The
measurements come from conftest's `inspected(name, scheme, width)`: each page
state is loaded once per run and axe runs once over it, with every answer and
tab open and every question answered back (test_quiz.py reads the same run
for the lesson's interactive parts).
"""

import pytest

from page_states import FOCUS_TARGETS, PAGES, SCHEMES, TOKEN_CLASSES

# axe-core findings the site accepts, with the reason.  Each is the theme's
# markup, not the lesson's: (rule, CSS selector of the element) -> why.
AXE_EXCEPTIONS = {
    ("aria-dialog-name", ".md-search"):
        "Material's search box is a role=dialog <div> with no name; the theme "
        "renders it and gives no option to name it.",
    ("landmark-unique", ".md-code__nav"):
        "Material wraps each code block's copy button in its own <nav>, so a page "
        "with several code blocks has several unnamed <nav> landmarks.",
}
SERIOUS = {"serious", "critical"}
# Rules that apply to every page of the site: a run that applied fewer read
# less than the page (an empty or half-loaded one), and would find nothing.
AXE_MUST_APPLY = {"color-contrast", "document-title", "html-has-lang", "landmark-one-main",
                  "link-name", "region", "list", "button-name"}


def excepted(rule, node):
    return any(rule == r and selector in " ".join(node["target"])
               for r, selector in AXE_EXCEPTIONS)


def in_token_sample(node):
    """Whether axe's node is in the code-colour sample injected on In code."""
    return "#token-sample" in (node["inside"] or [])


def serious_findings(response, keep=lambda rule, node: True):
    """axe's serious and critical findings, less the listed exceptions."""
    return [f"{v['id']} ({v['impact']}): {n['target']} {n['failureSummary']}"
            for v in response["violations"] if v["impact"] in SERIOUS
            for n in v["nodes"] if not excepted(v["id"], n) and keep(v["id"], n)]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", PAGES + ["404"])
def test_axe_finds_no_serious_violation(inspected, name, scheme):
    """Nothing serious, with every answer and tab open and every question answered back."""
    response = inspected(name, scheme=scheme)["axe", "response"]
    applied = {rule["id"] for kind in ("passes", "violations", "incomplete") for rule in response[kind]}
    assert AXE_MUST_APPLY <= applied, AXE_MUST_APPLY - applied     # axe read the whole page
    findings = serious_findings(response, lambda rule, node: not in_token_sample(node))
    assert not findings, "\n".join(findings)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_code_colour_has_contrast(inspected, scheme):
    """Each token colour reaches 4.5:1 on the code background, even ones no page uses yet."""
    state = inspected("in-code", scheme=scheme)
    checked = state["token_sample"]
    findings = serious_findings(state["axe", "response"],
                                lambda rule, node: rule == "color-contrast" and in_token_sample(node))
    assert not findings, findings
    assert checked == len(TOKEN_CLASSES)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", ["index", "reference"])
def test_figure_labels_have_contrast(inspected, name, scheme):
    """axe does not check text drawn in SVG: the figures' labels reach 4.5:1 here."""
    labels = inspected(name, scheme=scheme)["figure_labels"]
    assert labels, "no figure labels found"
    faint = [(text, round(ratio, 2)) for text, ratio in labels if ratio < 4.5]
    assert not faint, faint


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name, selector, what", FOCUS_TARGETS, ids=[t[2] for t in FOCUS_TARGETS])
def test_keyboard_focus_is_visible(inspected, scheme, name, selector, what):
    """Tab onto the control draws a ring that changes its whole outline by 3:1."""
    ring = inspected(name, scheme=scheme)["focus", selector]
    assert ring["reached"], f"Tab did not reach {selector}"
    # A ring one pixel wide all round the control changes at least its perimeter.
    box = ring["box"]
    perimeter = 2 * (box["width"] + box["height"])
    assert ring["changed"] >= perimeter, \
        f"{what}: focus changes {ring['changed']} pixels by 3:1, fewer than the perimeter {perimeter:.0f}"
