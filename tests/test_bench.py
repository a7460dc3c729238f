"""The benchmarks run and print figures; nothing here asserts a time."""

import math

import pytest

from lesson import attention, bench, softmax, speed
from lesson.cli import main


def test_accuracy_corpus_is_fixed_and_covers_the_issue():
    a, b = bench.accuracy_corpus(), bench.accuracy_corpus()
    assert a == b
    lengths = {len(row) for _, row in a}
    assert min(lengths) == 2 and max(lengths) == 256
    assert {spread for spread, _ in a} >= set(bench.SPREADS)


def test_adversarial_corpus_has_every_kind_the_issue_names():
    corpus = bench.adversarial_corpus()
    assert corpus == bench.adversarial_corpus()
    kinds = {kind: [row for k, row in corpus if k == kind] for kind in bench.ADVERSARIAL}
    assert [kind for kind, rows in kinds.items() if not rows] == []
    assert max(len(row) for row in kinds["long"]) >= 1000
    assert all(max(row) - min(row) >= 100 for row in kinds["wide"])
    assert all(len(set(row)) < len(row) for row in kinds["ties"])
    assert any(len(row) >= 1000 and len(set(row)) <= 4 for row in kinds["ties"])
    assert all(row.count(-math.inf) >= len(row) // 2 for row in kinds["masked"])
    for row in kinds["subnormal"]:
        assert any(0 < w < 2.0 ** -1022 for w in bench.exact_softmax(row))


def test_accuracy_report_has_every_method_and_the_cost(capsys, monkeypatch):
    short = bench.accuracy_corpus()[:12]          # the whole corpus takes a second
    hard = [(kind, row[-50:]) for kind, row in bench.adversarial_corpus()]
    monkeypatch.setattr(bench, "accuracy_corpus", lambda: short)
    monkeypatch.setattr(bench, "adversarial_corpus", lambda: hard)
    quick = speed.cost_ratios
    monkeypatch.setattr(speed, "cost_ratios", lambda sizes, budget: quick(sizes, 0.001, 1))
    assert main(["bench", "accuracy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in ("softmax", "softmax_compensated", "naive_softmax"):
        assert any(line.startswith(name + " ") for line in lines)
    assert "random rows" in lines[2] and "adversarial rows" in lines[2]
    assert any(line.startswith("Largest error (ulp) on adversarial rows") for line in lines)
    assert [line.split()[0] for line in lines[-3:]] == ["3", "100", "1000"]
    assert all(line.endswith("x") for line in lines[-3:])


def test_speed_rows_and_attention_give_positive_times():
    rows = speed.speed_rows(sizes=(3, 10), budget=0.01, optional=False)
    assert [n for n, _ in rows] == [3, 10]
    assert all(t > 0 for _, times in rows for t in times.values())
    heads = speed.speed_attention(sizes=(2, 4), d=4, budget=0.01, optional=False)
    assert all(math.isfinite(t) and t > 0 for _, times in heads for t in times.values())


def test_the_recipe_is_the_yardstick_and_the_ratio_compares_the_two(capsys):
    row = [0.5, -1.25, 3.0, -math.inf]
    assert speed.recipe_softmax(row) == pytest.approx(softmax(row), rel=1e-15)
    [(n, ratio, times)] = speed.speed_ratios((3,), budget=0.01, rounds=2)
    assert n == 3 and ratio == times["softmax"] / times["recipe"] > 0
    speed.print_speed(0.001, row_sizes=(3,), head_sizes=(2,), d=2, optional=False,
                      ratio_sizes=(3, 1000))
    lines = capsys.readouterr().out.splitlines()
    assert "bare recipe" in lines[0]
    assert [line.split()[0] for line in lines[2:4]] == ["3", "1000"]
    assert all(line.endswith("x") for line in lines[2:4])


def test_numpy_attention_agrees_with_lesson():
    pytest.importorskip("numpy")        # in the test extra: a skip says it is missing
    head = speed.numpy_attention()
    Q = [[1.0, 0.0], [0.5, -2.0], [3.0, 1.0]]
    V = [[2.0, -1.0], [3.0, 0.0], [-4.0, 5.0]]
    O1, A1 = attention(Q, Q, V)
    O2, A2 = head(Q, Q, V)
    for lesson_rows, numpy_rows in ((A1, A2), (O1, O2)):
        assert len(lesson_rows) == len(numpy_rows) == 3
        for mine, theirs in zip(lesson_rows, numpy_rows):
            assert mine == pytest.approx(theirs, rel=1e-12, abs=1e-15)
