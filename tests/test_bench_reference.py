"""The benchmarks' speed reference (``bench/reference.py``): parsing its output, the ratios to the
anchors, and what happens without a reference script."""

import pytest
import reference  # bench/reference.py: pytest's pythonpath (pyproject.toml) holds bench/


def fake_script(tmp_path, body):
    script = tmp_path / "fake_yardstick.py"
    script.write_text(body)
    return script


def test_parse_reads_the_reference_lines_and_nothing_else():
    out = (
        "compiling\n9 playouts/s 87400.5 avg moves 100.2 mean score 1.5\n"
        "19 playouts/s 2.1e4 avg moves 430 mean score -3\n"
    )
    assert reference.parse(out) == {9: 87400.5, 19: 21000.0}
    assert reference.parse("no numbers here\n") == {}


def test_ratios_use_the_median_of_the_sitting_and_the_anchor(tmp_path):
    # three runs of a fake reference: 9x9 rates 100, 300, 200 -> median 200
    counter = tmp_path / "n"
    counter.write_text("0")
    script = fake_script(
        tmp_path,
        "from pathlib import Path\n"
        f"p = Path({str(counter)!r}); k = int(p.read_text()); p.write_text(str(k + 1))\n"
        "print('9 playouts/s', [100, 300, 200][k], 'avg moves 100 mean score 0')\n"
        "print('19 playouts/s', [10, 30, 20][k], 'avg moves 400 mean score 0')\n",
    )
    ref = reference.Reference(script)
    for _ in range(3):
        ref.run()
    assert ref.rate(9) == 200 and ref.rate(19) == 20
    # a rate of the anchor's multiple times the reference's median is exactly 1.0x its equivalent
    assert ref.ratio(reference.PACHI_LIGHT[9] * 200, 9, reference.PACHI_LIGHT) == pytest.approx(1.0)
    assert ref.ratio(reference.LIBEGO[19] * 20 / 2, 19, reference.LIBEGO) == pytest.approx(0.5)
    assert ref.ratio(1.0, 13, reference.LIBEGO) is None  # no anchor (nor reference) for 13x13
    assert "median of 3 runs" in ref.describe()


def test_a_missing_reference_gives_no_ratio(monkeypatch, tmp_path):
    monkeypatch.setenv("GOENGINE_YARDSTICK", str(tmp_path / "absent.py"))
    ref = reference.Reference()
    assert not ref.available
    ref.run()  # nothing to run, no error
    assert ref.rate(9) is None and ref.ratio(1.0, 9, reference.LIBEGO) is None
    assert "no reference" in ref.describe()


def test_the_anchors_are_the_first_references_multiples_over_the_yardsticks_rate(monkeypatch):
    """The anchors were measured against the first reference; bench/yardstick.py runs
    YARDSTICK_OVER_FIRST times as fast, so each anchor is that many times fewer of its rate."""
    for anchor, first in ((reference.LIBEGO, {9: 1.08, 19: 1.17}), (reference.PACHI_HEAVY, {9: 0.15, 19: 0.20})):
        for size in (9, 19):
            assert anchor[size] * reference.YARDSTICK_OVER_FIRST[size] == pytest.approx(first[size])
    monkeypatch.delenv("GOENGINE_YARDSTICK", raising=False)
    assert reference.path() == reference.DEFAULT_PATH  # the repository's own yardstick by default


def test_a_reference_that_prints_nothing_useful_is_an_error(tmp_path):
    ref = reference.Reference(fake_script(tmp_path, "print('hello')\n"))
    with pytest.raises(RuntimeError, match="playouts/s"):
        ref.run()


def test_the_playout_bench_names_libego_only_for_uniform(tmp_path):
    import playouts  # bench/playouts.py

    script = fake_script(tmp_path, "print('9 playouts/s 1000 avg moves 100 mean score 0')\n")
    ref = reference.Reference(script)
    ref.run()
    uniform = {"size": 9, "policy": "uniform", "playouts_per_s": 500 * reference.LIBEGO[9]}  # half libego's
    heavy = {"size": 9, "policy": "heavy", "playouts_per_s": 150}
    playouts.add_ratios(uniform, ref)
    playouts.add_ratios(heavy, ref)
    assert uniform["x_reference"] == round(0.5 * reference.LIBEGO[9], 3) and uniform["x_libego"] == 0.5
    assert heavy["x_reference"] == 0.15 and "x_libego" not in heavy


def test_compare_alternates_the_two_references_and_gives_each_ones_median(tmp_path):
    """The conversion of the anchors: both scripts run in turn, the first of each pair
    alternating, and each one's median rate by size."""
    log = tmp_path / "log"
    log.write_text("")

    def script(name, rates9):
        counter = tmp_path / f"{name}.n"
        counter.write_text("0")
        return fake_script(
            tmp_path / name,
            "from pathlib import Path\n"
            f"p = Path({str(counter)!r}); k = int(p.read_text()); p.write_text(str(k + 1))\n"
            f"with open({str(log)!r}, 'a') as f: f.write({name!r})\n"
            f"print('9 playouts/s', {rates9!r}[k], 'avg moves 100 mean score 0')\n"
            "print('19 playouts/s', 10, 'avg moves 400 mean score 0')\n",
        )

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    other, ours = script("a", [100, 300, 200]), script("b", [70, 50, 60])
    assert reference.compare(other, ours, rounds=3) == {9: (200, 60), 19: (10, 10)}
    assert log.read_text() == "abbaab"
