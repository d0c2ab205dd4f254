"""The playout-policy registry (``goengine.policies``): the names ``uniform`` and ``heavy``, their
ids the kernel's constants (``goengine.kernels.policy``), heavy's parameters each in the slot its
kernel reads, with their defaults, ranges and on/off switch; the default policy; an unknown name or
parameter refused with a message naming the choices; and the name and parameters reaching the
search's kernel settings. What each rule of the heavy policy plays is ``test_heavy_policy.py``'s.
"""

from __future__ import annotations

import numpy as np
import pytest

from goengine.config import SearchConfig, with_param, with_setting
from goengine.engine import Engine
from goengine.kernels import policy as kpolicy
from goengine.kernels import search as ksearch
from goengine.policies import DEFAULT_POLICY, POLICIES
from goengine.search import KernelSettings

#: heavy's parameters: the kernel's slot and the default of each
HEAVY = {
    "capture": (kpolicy.HEAVY_CAPTURE, 0.9),
    "escape": (kpolicy.HEAVY_ESCAPE, 0.9),
    "pattern": (kpolicy.HEAVY_PATTERN, 0.9),
    "nakade": (kpolicy.HEAVY_NAKADE, 0.8),
    "capture_any": (kpolicy.HEAVY_CAPTURE_ANY, 0.0),
    "self_atari": (kpolicy.HEAVY_SELF_ATARI, 0.9),
    "self_atari_stones": (kpolicy.HEAVY_SELF_ATARI_STONES, 1.0),
    "ladders": (kpolicy.HEAVY_LADDERS, 1.0),
    "two_libs": (kpolicy.HEAVY_TWO_LIBS, 0.0),
    "self_atari_redirect": (kpolicy.HEAVY_SELF_ATARI_REDIRECT, 0.0),
    "last_good_reply": (kpolicy.HEAVY_LAST_GOOD_REPLY, 0.0),
    "nakade_size": (kpolicy.HEAVY_NAKADE_SIZE, 3.0),
    "ko_retake": (kpolicy.HEAVY_KO_RETAKE, 0.0),
    "pattern_second": (kpolicy.HEAVY_PATTERN_SECOND, 0.0),
    "pattern_extra": (kpolicy.HEAVY_PATTERN_EXTRA, 0.0),
    "reply_late": (kpolicy.HEAVY_REPLY_LATE, 0.0),
    "two_libs_miai": (kpolicy.HEAVY_TWO_LIBS_MIAI, 0.0),
    "two_libs_counter": (kpolicy.HEAVY_TWO_LIBS_COUNTER, 0.0),
}
PROBABILITIES = [
    "capture",
    "escape",
    "pattern",
    "nakade",
    "capture_any",
    "self_atari",
    "two_libs",
    "last_good_reply",
    "ko_retake",
]


def test_the_policies_are_uniform_and_heavy_with_the_kernels_ids():
    assert {name: choice.id for name, choice in POLICIES.items()} == {
        "uniform": kpolicy.UNIFORM,
        "heavy": kpolicy.HEAVY,
        "learned": kpolicy.LEARNED,
    }
    assert list(POLICIES) == ["uniform", "heavy", "learned"]


def test_every_policy_the_kernel_dispatches_has_a_name():
    assert sorted(choice.id for choice in POLICIES.values()) == list(range(kpolicy.N_POLICIES))


def test_the_registry_fits_the_kernels_parameter_rows():
    assert POLICIES.max_params == ksearch.MAX_PARAMS
    assert (POLICIES.kind, POLICIES.plural) == ("playout policy", "playout policies")


def test_the_default_is_heavy_and_the_configurations_default_too():
    assert DEFAULT_POLICY == "heavy"
    assert SearchConfig().playout == DEFAULT_POLICY


def test_uniform_has_no_parameters_and_heavy_has_each_in_its_kernel_slot_with_its_default():
    assert POLICIES["uniform"].params == ()
    heavy = POLICIES["heavy"]
    assert {p.name: (p.index, p.default) for p in heavy.params} == HEAVY
    expected = np.zeros(ksearch.MAX_PARAMS)
    for slot, default in HEAVY.values():
        expected[slot] = default
    assert np.array_equal(POLICIES.array("heavy"), expected)
    assert np.array_equal(POLICIES.array("uniform"), np.zeros(ksearch.MAX_PARAMS))


def test_an_override_lands_in_its_own_slot_only():
    array = POLICIES.array("heavy", {"nakade": 0.25, "read_ladders": 0})
    assert array[kpolicy.HEAVY_NAKADE] == 0.25 and array[kpolicy.HEAVY_LADDERS] == 0.0
    untouched = [slot for name, (slot, _) in HEAVY.items() if name not in ("nakade", "ladders")]
    assert np.array_equal(array[untouched], POLICIES.array("heavy")[untouched])


@pytest.mark.parametrize("name", PROBABILITIES)
def test_a_probability_is_taken_from_0_to_1_and_refused_outside(name):
    assert POLICIES.param_values("heavy", {name: "0"})[name] == 0.0
    assert POLICIES.param_values("heavy", {name: "1"})[name] == 1.0
    for bad in ("-0.1", "1.5"):
        with pytest.raises(ValueError, match=rf"^{name} of heavy must be from 0 to 1, got '{bad}'$"):
            POLICIES.param_values("heavy", {name: bad})


def test_self_atari_stones_is_a_number_of_stones_up_to_a_full_board():
    assert POLICIES.param_values("heavy", {"self_atari_max_stones": "361"})["self_atari_stones"] == 361.0
    with pytest.raises(ValueError, match=r"self_atari_stones of heavy must be from 0 to 361, got '362'"):
        POLICIES.param_values("heavy", {"self_atari_stones": "362"})


def test_ladders_is_an_on_off_switch_written_1_or_0():
    ladders = POLICIES["heavy"].param("read_ladders")
    assert ladders.flag and ladders.name == "ladders"
    assert (ladders.format(1.0), ladders.format(0.0), ladders.format(5.0)) == ("1", "0", "1")


def test_heavy_is_described_with_every_parameter_in_the_kernels_order():
    assert POLICIES.describe("heavy", {"capture": 0.5}) == (
        "heavy capture=0.5 escape=0.9 pattern=0.9 nakade=0.8 capture_any=0 self_atari=0.9 self_atari_stones=1 "
        "ladders=1 two_libs=0 self_atari_redirect=0 last_good_reply=0 nakade_size=3 "
        "ko_retake=0 pattern_second=0 pattern_extra=0 reply_late=0 two_libs_miai=0 two_libs_counter=0"
    )
    assert POLICIES.describe("uniform") == "uniform"


def test_every_parameter_has_words_for_the_page_and_a_description():
    for param in POLICIES["heavy"].params:
        assert param.words != param.name and param.doc, param.name


def test_an_unknown_policy_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match=r"^unknown playout policy 'moggy'; known: uniform, heavy, learned$"):
        POLICIES.get_choice("moggy")
    with pytest.raises(ValueError, match=r"unknown playout policy 'moggy'; known: uniform, heavy, learned"):
        SearchConfig(playout="moggy")
    with pytest.raises(ValueError, match=r"unknown playout policy 'light'"):
        with_setting(SearchConfig(), "playout_policy", "light")


def test_a_policy_is_read_in_any_case():
    assert SearchConfig(playout="UNIFORM").playout == "uniform"
    assert POLICIES.get_choice(" Heavy ").name == "heavy"


def test_a_parameter_the_policy_lacks_is_refused_naming_the_ones_it_has():
    with pytest.raises(ValueError, match=r"playout policy uniform has no parameter 'capture'; it has: none"):
        SearchConfig(playout="uniform", playout_params=(("capture", 0.5),))
    with pytest.raises(
        ValueError,
        match=r"playout policy heavy has no parameter 'atari'; it has: capture, escape, pattern, nakade, "
        r"capture_any, self_atari, self_atari_stones, ladders",
    ):
        with_param(SearchConfig(), "playout", "atari", "0.5")


def test_choosing_a_policy_starts_its_parameters_from_their_defaults():
    config = with_param(SearchConfig(playout="heavy"), "playout", "nakade", "0.1")
    assert config.playout_params == (("nakade", 0.1),)
    again = with_setting(with_setting(config, "playout", "uniform"), "playout", "heavy")
    assert again.playout_params == ()


@pytest.mark.parametrize("name", ["uniform", "heavy", "learned"])
def test_the_named_policy_and_its_parameters_reach_the_kernels_settings(name):
    overrides = (("escape", 0.3),) if name == "heavy" else ()
    kernel = KernelSettings.of(SearchConfig(playout=name, playout_params=overrides))
    assert kernel.settings[ksearch.POLICY] == POLICIES[name].id
    assert np.array_equal(kernel.params[ksearch.POLICY_PARAMS], POLICIES.array(name, dict(overrides)))


def test_the_policies_play_different_playouts_from_the_same_seed():
    """200 playouts on the empty 5x5, one thread, seed 7: the root's statistics differ, so the name
    chosen changes the playouts the kernels play."""
    stats = []
    for name in ("uniform", "heavy", "learned"):
        engine = Engine()
        engine.configure(SearchConfig(playout=name, playouts=200, seed=7))
        engine.new_game(5)
        stats.append([(s.move, s.visits, s.wins) for s in engine.analyze().stats])
        engine.close()
    assert stats[0] != stats[1] and stats[1] != stats[2] and stats[0] != stats[2]
