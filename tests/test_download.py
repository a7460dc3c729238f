"""The lesson, downloaded from its own site: the wheel the pages link.

A learner who found the site and never saw the repository follows the
"Get the lesson" box: download the wheel, install it into a fresh venv, write
the starter and check it, in a folder of their own; and the report's "stuck?"
lines name pages and sections the site has.
"""

import html
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

import lesson.grader.wheel
from helpers import ROOT
from lesson_docs import lesson_wheel

LINK = re.compile(r'<a\b[^>]*\bhref="([^"]+\.whl)"[^>]*>\s*Download the lesson\s*</a>')
BOX_PAGES = ["index", "exercises"]


def wheel_link(site, name):
    """The one "Download the lesson" link of a built page: its target."""
    links = LINK.findall((site / f"{name}.html").read_text())
    assert len(links) == 1, (name, links)
    return links[0]


def test_wheel_holds_the_lesson_and_nothing_else():
    """Every file of lesson/ (and of any subpackage), its metadata, the
    console command; not the site's build code (lesson_docs) or the tests."""
    with zipfile.ZipFile(lesson_wheel.wheel()) as archive:
        names = archive.namelist()
        entry_points = next(archive.read(n).decode() for n in names
                            if n.endswith(".dist-info/entry_points.txt"))
    lesson_files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "lesson").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert {n for n in names if ".dist-info/" not in n} == lesson_files
    assert all(n.startswith("lesson/") or n.split("/")[0].endswith(".dist-info") for n in names)
    assert "softmax-lesson = lesson.cli:main" in entry_points


def test_the_wheel_is_written_again_only_when_lesson_changes():
    assert lesson_wheel.wheel() == lesson_wheel.wheel()         # the cached file
    assert lesson_wheel.wheel().read_bytes() == lesson.grader.wheel.archive()


@pytest.mark.parametrize("name", BOX_PAGES)
def test_pages_link_the_wheel_in_the_site(built_site, name):
    target = wheel_link(built_site, name)
    assert target == f"download/{lesson_wheel.wheel().name}"
    assert (built_site / target).read_bytes() == lesson_wheel.wheel().read_bytes()
    text = html.unescape(re.sub(r"<[^>]+>", "", (built_site / f"{name}.html").read_text()))
    assert f"python -m pip install {lesson_wheel.wheel().name}" in text
    assert "Python 3.9 or newer" in text
    assert "or clone" not in text.lower()   # mkdocs.yml names no repository (the page's
                                            # code may say clone(): the harness's seccomp)


@pytest.mark.parametrize("name", BOX_PAGES)
def test_zensical_site_holds_the_wheel_it_links(zensical_site, name):  # noqa: F811
    """Zensical runs no MkDocs hook: the placeholder put the wheel there."""
    target = wheel_link(zensical_site, name)
    assert (zensical_site / target).read_bytes() == lesson_wheel.wheel().read_bytes()


def test_box_says_to_clone_only_a_named_repository(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                 # the folder of the mkdocs.yml being built
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nrepo_url: https://example.org/softmax\n")
    assert "Or clone [the lesson's repository](https://example.org/softmax)" in \
        lesson_wheel.download()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    assert "clone" not in lesson_wheel.download().lower()


def box_commands(site, name):
    """The commands of a page's "Get the lesson" box, as the page shows them."""
    markup = (site / f"{name}.html").read_text()
    box = markup[markup.index("Download the lesson"):]
    code = re.search(r"<pre\b.*?</pre>", box, re.S).group(0)
    return html.unescape(re.sub(r"<[^>]+>", "", code)).strip().splitlines()


def test_box_commands_install_the_wheel_and_check_the_starter_elsewhere(built_site, tmp_path):
    """The box's commands, as written, on a machine that never saw the
    repository: in the folder the wheel was saved to, a fresh venv, the wheel
    installed into it, then `starter` and `check`."""
    commands = box_commands(built_site, "exercises")
    assert commands == box_commands(built_site, "index")
    download = tmp_path / "Downloads"
    download.mkdir()
    shutil.copy(built_site / wheel_link(built_site, "exercises"), download)
    # python3 is this test run's Python; pip must find everything in the folder.
    env = {"PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}",
           "HOME": str(tmp_path), "LANG": "C.UTF-8", "PIP_NO_INDEX": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    script = "\n".join(["set -e"] + commands[:-1] + [
        'python -c "import lesson; print(lesson.__file__)"',
        'python -c "import lesson_docs" 2>&1 | tail -n 1',
        "set +e", commands[-1], 'echo "exit $?"'])
    result = subprocess.run(["bash", "-c", script], cwd=download, env=env,
                            capture_output=True, text=True, timeout=300)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 0 and lines[-1] == "exit 1", result.stdout + result.stderr
    assert re.fullmatch(r"0 passed, [1-9][0-9]* failed", lines[-2]), lines[-2]
    assert (download / "softmax_exercise.py").is_file()
    where = next(line for line in lines if line.endswith("__init__.py"))
    assert where.startswith(str(download / "lesson-venv")), where        # not the repository
    assert "No module named 'lesson_docs'" in result.stdout
    # Each "stuck?" line leads somewhere this learner can go: a page of the
    # site by its title in the navigation, and a section of it by its heading.
    stuck = [line for line in lines if line.lstrip().startswith("stuck?")]
    assert len(stuck) == 4, lines
    for line in stuck:
        assert ".html" not in line, line                         # no bare relative link
        named = re.fullmatch(r"\s*stuck\? read (.+) \u203a (.+) or see a solution at "
                             r"(.+) \u203a (.+)", line)
        assert named, line
        for title, section in (named.group(1, 2), named.group(3, 4)):
            assert section in site_sections(built_site, title), (title, section)


def site_sections(site, title):
    """The headings of the built page that the site's navigation calls ``title``."""
    import yaml
    config = yaml.safe_load(re.sub(r"!\S+", "", (ROOT / "mkdocs.yml").read_text()))
    page = next(page for entry in config["nav"] for name, page in entry.items() if name == title)
    markup = (site / page.replace(".md", ".html")).read_text(encoding="utf-8")
    return [html.unescape(re.sub(r"<[^>]+>", "", heading))
            for heading in re.findall(r"<h[1-6][^>]*>(.*?)<a class=\"headerlink\"", markup, re.S)]
