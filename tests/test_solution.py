"""The Exercises page's whole solution, and the addresses the report links to.

The solution is a file a learner can paste or download
(docs/assets/solution/softmax_exercise.py, shown on the page with
pymdownx.snippets); the checker must pass it whole, as the page says.
"""

import html
import re
import subprocess
import sys

from lesson.grader import contract, links

from helpers import ROOT

SOLUTION = ROOT / "docs" / "assets" / "solution" / "softmax_exercise.py"


def test_the_solution_passes_every_check(tmp_path):
    path = tmp_path / "softmax_exercise.py"
    path.write_text(SOLUTION.read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "lesson", "check", path.name],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.stdout.rstrip().splitlines()[-1] == f"{len(contract.CHECKS)} passed, 0 failed", \
        result.stdout
    assert result.returncode == 0


def test_the_solution_is_the_standard_library_and_not_the_lesson():
    source = SOLUTION.read_text(encoding="utf-8")
    imports = re.findall(r"^\s*(?:import|from) (\w+)", source, re.M)
    assert imports == ["math"]
    assert set(contract.FUNCTIONS) <= set(re.findall(r"^def (\w+)\(", source, re.M))


def test_the_site_shows_the_solution_behind_a_reveal_and_offers_the_file(built_site):
    page = (built_site / "exercises.html").read_text(encoding="utf-8")
    heading = page.index('id="a-solution"')
    reveal = re.compile(r"<details [^>]*class=\"success\">\s*<summary>Show a solution</summary>"
                        r"(.*?)</details>", re.S).search(page, heading)
    assert reveal, "no closed 'Show a solution' reveal after the a-solution heading"
    shown = html.unescape(re.sub(r"<[^>]+>", "", reveal.group(1)))
    assert SOLUTION.read_text(encoding="utf-8").strip() in shown
    served = built_site / "assets" / "solution" / "softmax_exercise.py"
    assert served.read_bytes() == SOLUTION.read_bytes()
    assert 'href="assets/solution/softmax_exercise.py"' in page


def test_every_link_for_the_report_names_a_page_and_anchor_of_the_site(built_site):
    assert set(links.LESSON_PARTS) == set(contract.FUNCTIONS)
    for address in [links.SOLUTION, *links.LESSON_PARTS.values()]:
        page, _, anchor = address.partition("#")
        path = built_site / page
        assert path.is_file(), f"{address}: no page {page}"
        assert anchor and f'id="{anchor}"' in path.read_text(encoding="utf-8"), \
            f"{address}: no element with id {anchor!r}"


def test_every_place_the_report_names_is_titled_as_the_site_titles_it(built_site):
    """Where the site has no address (links.SITE), a report names each place
    by its page's title in the site's navigation and its section's heading."""
    import yaml
    config = yaml.safe_load(re.sub(r"!\S+", "", (ROOT / "mkdocs.yml").read_text()))
    titles = {page.replace(".md", ".html"): title
              for entry in config["nav"] for title, page in entry.items()}
    assert set(links.PLACES) == {links.SOLUTION, *links.LESSON_PARTS.values()}
    for address, (title, section) in links.PLACES.items():
        page, _, anchor = address.partition("#")
        assert titles[page] == title, address
        markup = (built_site / page).read_text(encoding="utf-8")
        heading = re.search(rf'<h2 id="{anchor}">(.*?)<a class="headerlink"', markup, re.S)
        assert heading and html.unescape(re.sub(r"<[^>]+>", "", heading.group(1))) == section
        assert links.place(address, "") == (f"{title} \u203a {section}", address)


def test_the_site_address_is_said_once():
    """links.SITE is the site's published address; mkdocs.yml's site_url, where
    set, says the same, so the report's links and the site's own agree."""
    import yaml
    config = yaml.safe_load(re.sub(r"!\S+", "", (ROOT / "mkdocs.yml").read_text()))
    assert config.get("site_url") in (None, links.SITE)
    assert links.SITE is None or (links.SITE.startswith("https://") and links.SITE.endswith("/"))
