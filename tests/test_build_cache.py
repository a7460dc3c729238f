"""lesson_docs.build_cache: what a build computes from the code, kept for the
next build of the same code, and only when LESSON_DOCS_CACHE asks."""

import os
import subprocess
import sys

from lesson_docs import build_cache


def counted():
    calls = []

    def compute():
        calls.append(1)
        return {"spread": [1.5, float("inf")], "rows": (1, 2)}
    return calls, compute


def test_unset_every_build_computes(monkeypatch):
    monkeypatch.delenv(build_cache.VARIABLE, raising=False)
    calls, compute = counted()
    assert build_cache.kept("figure", compute) == build_cache.kept("figure", compute)
    assert len(calls) == 2


def test_set_the_same_code_computes_once_and_gives_back_the_same_value(monkeypatch, tmp_path):
    monkeypatch.setenv(build_cache.VARIABLE, str(tmp_path / "cache"))
    calls, compute = counted()
    first = build_cache.kept("figure", compute)
    assert build_cache.kept("figure", compute) == first == compute()
    assert type(build_cache.kept("figure", compute)["rows"]) is tuple     # kept as it was
    assert len(calls) == 2                           # the first build, and compute() above
    other_calls, other = counted()
    build_cache.kept("another figure", other)        # each name its own
    assert len(other_calls) == 1


def test_changed_code_computes_again(monkeypatch, tmp_path):
    monkeypatch.setenv(build_cache.VARIABLE, str(tmp_path / "cache"))
    code = tmp_path / "code"
    code.mkdir()
    (code / "lesson.py").write_text("SCALE = 1\n")
    monkeypatch.setattr(build_cache, "CODE", (code,))
    calls, compute = counted()
    build_cache.kept("figure", compute)
    build_cache.kept("figure", compute)
    (code / "lesson.py").write_text("SCALE = 2\n")
    build_cache.kept("figure", compute)
    (code / "__pycache__").mkdir()                   # bytecode is not the code
    (code / "__pycache__" / "lesson.pyc").write_bytes(b"\0")
    build_cache.kept("figure", compute)
    assert len(calls) == 2


def test_two_builds_at_once_compute_once(monkeypatch, tmp_path):
    """The second waits for the first's result (a lock per result)."""
    folder = tmp_path / "cache"
    script = ("import sys, time\n"
              "from lesson_docs import build_cache\n"
              "def compute():\n"
              "    print('computed', flush=True)\n"
              "    time.sleep(0.5)\n"
              "    return 42\n"
              "print(build_cache.kept('slow figure', compute))\n")
    env = dict(os.environ, **{build_cache.VARIABLE: str(folder)})
    builds = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                               env=env) for _ in range(2)]
    outputs = [build.communicate(timeout=60)[0].split() for build in builds]
    assert sorted(outputs) == [["42"], ["computed", "42"]]
    assert sorted(p.suffix for p in folder.iterdir()) == [".lock", ".pickle"]
