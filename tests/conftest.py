"""Shared fixtures for the lesson's tests."""

import copy
import random

import pytest


@pytest.fixture
def rng():
    """A seeded random generator, so every run checks the same cases."""
    return random.Random(20261130)


def snapshot(*args):
    """Deep copies of the arguments, to prove later that nothing changed them."""
    return copy.deepcopy(args)
