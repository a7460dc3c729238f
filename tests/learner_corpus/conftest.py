"""Learner files are graded by the checker, never imported or collected by pytest.

Some never finish loading, call input(), exit, fork or leave children running;
``--doctest-modules`` would import them.  The harness is tests/test_learner_corpus.py.
"""

collect_ignore_glob = ["*"]
