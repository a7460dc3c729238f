"""Every Python listing on the site runs on its own, as a learner copies it.

The pages' Markdown is read with its ``--8<--`` snippets resolved by
pymdownx.snippets itself, configured as in mkdocs.yml, so each listing is
exactly what the site shows.  A listing that defines a function, or that
asserts something, is written to an empty folder and run there with
``python -I -S``: no lesson, no site-packages, nothing but the standard
library.  Its doctests run there too.
"""

import ast
import pathlib
import re
import subprocess
import sys
import textwrap

import markdown
import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent>[ \t]*)```python[^\n]*\n(?P<code>.*?)^(?P=indent)```[ \t]*$",
                   re.M | re.S)


def snippets_config():
    """pymdownx.snippets' options as mkdocs.yml sets them."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.snippets" in extension:
            options = extension["pymdownx.snippets"]
            return {"base_path": [str(ROOT / p) for p in options["base_path"]],
                    "check_paths": True,
                    "dedent_subsections": options["dedent_subsections"] == "true"}
    raise AssertionError("mkdocs.yml does not configure pymdownx.snippets")


def resolved(page):
    """A page's Markdown with every snippet included, as the site builds it."""
    md = markdown.Markdown(extensions=["pymdownx.snippets"],
                           extension_configs={"pymdownx.snippets": snippets_config()})
    lines = (ROOT / "docs" / page).read_text().splitlines()
    return "\n".join(md.preprocessors["snippet"].run(lines))


def listings():
    """(id, code) of every python listing that defines a function or asserts."""
    found = []
    for path in sorted((ROOT / "docs").glob("*.md")):
        blocks = FENCE.finditer(resolved(path.name))
        for number, match in enumerate(blocks, 1):
            code = textwrap.dedent(match["code"])
            nodes = list(ast.walk(ast.parse(code)))
            if any(isinstance(n, (ast.FunctionDef, ast.Assert)) for n in nodes):
                found.append((f"{path.stem}-{number}", code))
    return found


LISTINGS = listings()


def test_the_site_has_the_listings_a_learner_copies():
    defined = {node.name for _, code in LISTINGS for node in ast.walk(ast.parse(code))
               if isinstance(node, ast.FunctionDef)}
    assert {"softmax_row", "naive_softmax_row", "sums_to_one", "entropy_row",
            "scaled_scores_row", "attention_row", "softmax_compensated_row"} <= defined
    reference = [code for _, code in LISTINGS if "0.6697615493266569" in code]
    assert len(reference) == 1
    for value in ("0.6697615493266569", "1.3395230986533138", "0.6604769013466862"):
        assert "assert isclose(" in reference[0] and value in reference[0]


@pytest.mark.parametrize("code", [code for _, code in LISTINGS],
                         ids=[name for name, _ in LISTINGS])
def test_listing_runs_alone_with_its_examples(code, tmp_path):
    path = tmp_path / "listing.py"
    path.write_text(code)
    # Importing the file runs it (its asserts too); then its doctests run.
    result = subprocess.run([sys.executable, "-I", "-S", "-m", "doctest", "-v", path.name],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    if ">>>" in code:
        # 3.13 says "N passed.", older Pythons "N passed and 0 failed."
        ran = re.search(r"^(\d+) passed(?: and 0 failed)?\.$", result.stdout, re.M)
        assert ran, result.stdout
        examples = sum(line.lstrip().startswith(">>>") for line in code.splitlines())
        assert int(ran[1]) == examples > 0, result.stdout      # every example ran
