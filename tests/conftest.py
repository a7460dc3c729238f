"""Shared fixtures for the lesson's tests."""

import copy
import random

import pytest

# Learners' sample files: graded by the checker, never imported by pytest
# (one has a syntax error, one never finishes loading).
collect_ignore_glob = ["exercise_samples/*"]


@pytest.fixture
def rng():
    """A seeded random generator, so every run checks the same cases."""
    return random.Random(20261130)


def snapshot(*args):
    """Deep copies of the arguments, to prove later that nothing changed them."""
    return copy.deepcopy(args)


ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site built once per test run with `mkdocs build --strict`."""
    import os
    import subprocess
    import sys

    site = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return site
