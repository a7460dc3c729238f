"""The tests' shared fixtures, and how their code is compiled and their examples drawn.

rng                a seeded random generator
docs_cache         one folder a run where the site's builds keep what they compute
built_site         the site, built once a run with `mkdocs build --strict`
zensical_site      the same pages built with Zensical, once a run

Hypothesis runs derandomized: the same examples on every run and in CI.
"""

import compileall
import importlib.metadata
import os
import pathlib
import random
import shutil
import subprocess
import sys

# Bytecode: the tests (their assertions rewritten) and the lesson are compiled
# once, into the __pycache__ folders git ignores, and read from there by every
# later pytest process and every Python the tests start, even where
# PYTHONDONTWRITEBYTECODE=1 is set (as on a shared machine): else each of the
# run's hundreds of Pythons compiles them again.  Only while tests/ and lesson/
# are collected (see pytest_make_collect_report): never beside a page's files
# (docs/assets, which the site copies) or a learner's.
DONT_WRITE_BYTECODE = sys.dont_write_bytecode
sys.dont_write_bytecode = False

import pytest
from hypothesis import HealthCheck, settings

from helpers import ROOT, made_once, mkdocs_build, skip_or_fail
from lesson_docs import build_cache

# The same examples on every run; no timing limits, which a busy CI machine
# would trip without any bug.
settings.register_profile("lesson", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("lesson")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """Bytecode written while a file of tests/ or lesson/ is collected, and
    as this Python was told for any other (the docs' doctests, say)."""
    ours = any(pathlib.Path(collector.path).is_relative_to(ROOT / folder)
               and collector.path != ROOT / folder for folder in ("tests", "lesson"))
    sys.dont_write_bytecode = DONT_WRITE_BYTECODE and not ours
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = DONT_WRITE_BYTECODE


def pytest_collection_finish(session):
    """The lesson compiled for the Pythons the tests start (the checker);
    then bytecode is written, or not, as this Python was told."""
    compileall.compile_dir(str(ROOT / "lesson"), quiet=2)
    sys.dont_write_bytecode = DONT_WRITE_BYTECODE


@pytest.fixture
def rng():
    """A seeded random generator, so every run checks the same cases."""
    return random.Random(20261130)


@pytest.fixture(scope="session", autouse=True)
def docs_cache(tmp_path_factory):
    """One folder a run where the site's builds keep what they compute from
    the code (lesson_docs.build_cache): the MkDocs, Zensical and no-npm
    builds, on every worker, run the scaling experiment, the accuracy
    benchmark and the checker on the samples once between them."""
    folder = made_once(tmp_path_factory, "docs-cache", lambda folder: None)
    os.environ[build_cache.VARIABLE] = str(folder)
    return folder


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once per test run with `mkdocs build --strict`."""
    def build(site):
        result = mkdocs_build(ROOT, site)
        assert result.returncode == 0, result.stdout + result.stderr
    return made_once(tmp_path_factory, "site", build)


def zensical_left_out():
    """The marker of the docs extra's Zensical where it excludes this Python, or None."""
    from packaging.requirements import Requirement
    for line in importlib.metadata.requires("softmax-weights-lesson") or ():
        requirement = Requirement(line)
        if requirement.name == "zensical" and not requirement.marker.evaluate({"extra": "docs"}):
            return str(requirement.marker)
    return None


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory):
    """The site built by `zensical build --strict` from a copy of the project.

    Zensical writes the site inside the project, so the project's pages and
    lesson/ (which the pages include) are copied to a scratch folder first.
    """
    command = shutil.which("zensical", path=os.path.dirname(sys.executable))
    if command is None and zensical_left_out():
        pytest.skip(f"Zensical is not installed on Python {sys.version.split()[0]}: "
                    f"pyproject.toml installs it only where {zensical_left_out()}")
    if command is None:
        skip_or_fail("zensical is not installed (pip install -e '.[docs]')")

    def build(project):
        shutil.copy(ROOT / "mkdocs.yml", project)
        for folder in ("docs", "lesson"):
            shutil.copytree(ROOT / folder, project / folder,
                            ignore=shutil.ignore_patterns("__pycache__"))
        result = subprocess.run([command, "build", "--clean", "--strict"], cwd=project,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
    return made_once(tmp_path_factory, "zensical", build) / "site"
