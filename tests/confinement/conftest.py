"""pytest never imports the confinement corpus: each file attacks as it loads,
so only the checker runs them, in tests/test_confinement.py."""

collect_ignore_glob = ["*.py"]
