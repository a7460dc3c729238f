"""The benchmarks run and print figures; nothing here asserts a time."""

import math

from lesson import bench
from lesson.cli import main


def test_accuracy_corpus_is_fixed_and_covers_the_issue():
    a, b = bench.accuracy_corpus(), bench.accuracy_corpus()
    assert a == b
    lengths = {len(row) for _, row in a}
    assert min(lengths) == 2 and max(lengths) == 256
    assert {spread for spread, _ in a} >= set(bench.SPREADS)


def test_accuracy_report_has_every_method(capsys):
    assert main(["bench", "accuracy"]) == 0
    out = capsys.readouterr().out
    for name in ("softmax", "softmax_compensated", "naive_softmax"):
        assert any(line.startswith(name + " ") for line in out.splitlines())


def test_speed_rows_and_attention_give_positive_times():
    rows = bench.speed_rows(sizes=(3, 10), budget=0.01, optional=False)
    assert [n for n, _ in rows] == [3, 10]
    assert all(t > 0 for _, times in rows for t in times.values())
    heads = bench.speed_attention(sizes=(2, 4), d=4, budget=0.01, optional=False)
    assert all(math.isfinite(t) and t > 0 for _, times in heads for t in times.values())


def test_numpy_attention_agrees_with_lesson_when_numpy_is_installed():
    head = bench.numpy_attention()
    if head is None:
        return
    from lesson import attention
    Q = [[1.0, 0.0], [0.5, -2.0]]
    O1, A1 = attention(Q, Q, [[2.0], [3.0]])
    O2, A2 = head(Q, Q, [[2.0], [3.0]])
    assert all(math.isclose(a, b) for r1, r2 in zip(A1, A2) for a, b in zip(r1, r2))
