"""``bench/ab.py``, the in-process A/B of two kernel versions: where it gets each version's
kernels, how it pairs and compares batches, and its "same moves" verdict. The timing itself is
not asserted (speed is measured, never tested); the batches here are stand-ins."""

import subprocess
from pathlib import Path

import ab  # bench/ab.py: pytest's pythonpath (pyproject.toml) holds bench/
import pytest

ROOT = Path(__file__).resolve().parent.parent


def kernel_sources(folder):
    return {p.name: p.read_text() for p in sorted(folder.glob("*.py"))}


def test_a_source_tree_gives_its_kernels(tmp_path):
    ab.fetch_kernels(str(ROOT), tmp_path / "k")
    assert kernel_sources(tmp_path / "k") == kernel_sources(ROOT / ab.KERNELS)
    assert not (tmp_path / "k" / "__pycache__").exists()


def test_a_git_revision_gives_that_revisions_kernels(tmp_path):
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    ab.fetch_kernels(head.stdout.decode().strip(), tmp_path / "k")
    committed = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"HEAD:{ab.KERNELS}/board.py"], capture_output=True, check=True
    ).stdout.decode()
    assert (tmp_path / "k" / "board.py").read_text() == committed
    assert (tmp_path / "k" / "__init__.py").exists()
    assert not (tmp_path / "extract").exists()


def test_neither_a_tree_nor_a_revision_is_a_clear_error(tmp_path):
    with pytest.raises(SystemExit, match="neither a goengine tree nor a git revision"):
        ab.fetch_kernels("no-such-revision-anywhere", tmp_path / "k")


def batches(seconds, played):
    """A stand-in batch: its CPU seconds and what it played, by seed, and the seeds it was given."""
    seeds = []

    def run(seed):
        seeds.append(seed)
        return seconds[seed % len(seconds)], played(seed)

    return run, seeds


def test_pairs_alternate_share_a_seed_and_ratio_the_medians():
    before, before_seeds = batches([2.0], lambda seed: seed)
    after, after_seeds = batches([1.0, 0.5], lambda seed: seed)  # seed 1: 1.0 s, seed 2: 0.5 s, ...
    row = ab.compare([before, after], pairs=4, work=100)
    assert before_seeds == after_seeds == [0, 1, 2, 3, 4]  # a warm-up, then one seed a pair
    # rates: before 50/s always; after 100, 200, 100, 200 -> ratios 2, 4, 2, 4, median 3
    assert row["before_per_s"] == 50
    assert row["after_per_s"] == 150
    assert row["ratio"] == 3.0
    assert row["ratio_q1"] == 2.0 and row["ratio_q3"] == 4.0
    assert row["same_moves"] is True


def test_one_pair_that_plays_differently_is_reported():
    before, _ = batches([1.0], lambda seed: ("moves", seed))
    after, _ = batches([1.0], lambda seed: ("moves", seed if seed != 3 else -1))
    assert ab.compare([before, after], pairs=4, work=10)["same_moves"] is False
    assert ab.compare([before, after], pairs=2, work=10)["same_moves"] is True  # seed 3 never ran


def test_after_params_set_the_named_parameters_and_refuse_what_is_not_one():
    from goengine.config import SearchConfig

    config = SearchConfig(rule="rave", playout="heavy", prior="movemodel")
    after = ab.with_params(config, ["rule.distance=3", "playout.capture=0.5"])
    assert dict(after.params) == {"distance": 3.0}
    assert dict(after.playout_params)["capture"] == 0.5
    assert config.params == ()  # the before side keeps the defaults
    for text, words in [
        ("distance=3", "KIND.NAME=VALUE"),
        ("tree.distance=3", "KIND.NAME=VALUE"),
        ("rule.distance", "KIND.NAME=VALUE"),
        ("rule.distance=far", "not a number"),
        ("rule.no_such_knob=1", "distance"),  # the error names the parameters the rule has
    ]:
        with pytest.raises(ValueError, match=words):
            ab.with_params(config, [text])


def test_an_after_param_without_search_is_refused(capsys):
    with pytest.raises(SystemExit):
        ab.main(["HEAD", "--after-param", "rule.distance=3"])
    assert "--after-param needs --search" in capsys.readouterr().err
