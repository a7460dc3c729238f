"""The lesson, downloaded from its own site: the wheel the pages link.

A learner who found the site and never saw the repository follows the
"Get the lesson" box: download the wheel, install it into a fresh venv, write
the starter and check it, in a folder of their own.
"""

import html
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from lesson_docs import lesson_wheel
from test_site import zensical_site  # noqa: F401  (the Zensical build, made once per run)

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


def test_the_wheel_is_built_again_only_when_lesson_changes():
    assert lesson_wheel.wheel() == lesson_wheel.wheel()         # the cached file
    files = lesson_wheel.wheel_inputs()
    assert set(lesson_wheel.METADATA) <= set(files)
    assert 'include = ["lesson", "lesson.*"]' in files["pyproject.toml"].decode()
    assert "lesson_docs" not in files["pyproject.toml"].decode()


def test_a_pyproject_without_its_setuptools_table_stops_the_build():
    with pytest.raises(ValueError, match=r"expected one \[tool.setuptools\] table, found 0"):
        lesson_wheel.learner_pyproject('[project]\nname = "x"\n')


@pytest.mark.parametrize("name", BOX_PAGES)
def test_pages_link_the_wheel_in_the_site(built_site, name):
    target = wheel_link(built_site, name)
    assert target == f"download/{lesson_wheel.wheel().name}"
    assert (built_site / target).read_bytes() == lesson_wheel.wheel().read_bytes()
    text = html.unescape(re.sub(r"<[^>]+>", "", (built_site / f"{name}.html").read_text()))
    assert f"python -m pip install {lesson_wheel.wheel().name}" in text
    assert "Python 3.9 or newer" in text
    assert "clone" not in text.lower()      # mkdocs.yml names no repository


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


def test_downloaded_wheel_installs_and_checks_the_starter_elsewhere(built_site, tmp_path):
    """The box's steps on a machine that never saw the repository: a fresh venv,
    the wheel from the site, then `starter` and `check` in a folder of one's own."""
    download = tmp_path / "Downloads"
    download.mkdir()
    wheel = download / os.path.basename(wheel_link(built_site, "exercises"))
    shutil.copy(built_site / wheel_link(built_site, "exercises"), wheel)
    venv = tmp_path / "lesson-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # This environment's pip installs into the venv (quicker than ensurepip in it).
    result = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                             "-q", "--no-index", "--disable-pip-version-check", str(wheel)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path),
           "VIRTUAL_ENV": str(venv), "LANG": "C.UTF-8"}              # as after activate

    def run(*command):
        return subprocess.run(command, cwd=download, env=env, capture_output=True, text=True,
                              timeout=300)
    where = run("python", "-c", "import lesson; print(lesson.__file__)")
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    assert "No module named 'lesson_docs'" in run("python", "-c", "import lesson_docs").stderr
    starter = run("softmax-lesson", "starter")
    assert starter.returncode == 0, starter.stdout + starter.stderr
    check = run("softmax-lesson", "check", "softmax_exercise.py")
    assert check.returncode == 1, check.stdout + check.stderr
    assert re.search(r"^0 passed, [1-9][0-9]* failed$", check.stdout.strip().splitlines()[-1])
