"""The shape of anything chosen by name (``goengine.registry``): a ``Param`` reads what a user gives
(numbers in range, named values by any of their texts, never NaN or infinity) and writes every
value one way; a ``Choice`` finds a parameter by its name or its words; a ``Registry`` refuses
choices whose parameters could land in each other's slots, finds a choice in any case, overrides
defaults by name or words, refuses unknown keys and bad values saying what is allowed, and lays
the values out in the kernels' array by index, whatever order the parameters are declared in.

The registries here are made up for the tests (``SHAPES``), so each rule of the module is seen
alone; the real ones (rules, playout policies, priors) are tested with their kernels.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from goengine import policies, priors, selection
from goengine.registry import Choice, Param, Registry

SCHEDULE = Param(
    "schedule",
    0,
    2.0,
    "weight_schedule",
    choices=(("hand-selected", 1.0), ("hand", 1.0), ("minimum-MSE", 2.0), ("mse", 2.0)),
)
BIAS = Param("b", 2, 0.01, "bias_b", low=0.0, high=1.0)  # declared before index 1: order is free
K = Param("k", 1, 1000.0, "equivalence_k", low=1.0)
SWITCH = Param("on", 0, 1.0, "switch_on", flag=True)
SHAPES = Registry(
    "shape",
    (
        Choice("plain", 0, (), "no parameters"),
        Choice("weighted", 3, (SCHEDULE, BIAS, K), "a paper, eq. 5", needs_amaf=True),
        Choice("switched", 7, (SWITCH,)),
    ),
    max_params=4,
)


# ---- Param: reading and writing values


@pytest.mark.parametrize(
    ("given", "number"),
    [("hand-selected", 1.0), ("hand", 1.0), ("HAND", 1.0), ("  Minimum-mse ", 2.0), ("mse", 2.0), (1.0, 1.0), (2, 2.0)],
)
def test_a_named_value_is_read_by_any_of_its_texts_in_any_case_or_by_its_number(given, number):
    assert SCHEDULE.parse("weighted", given) == number


@pytest.mark.parametrize("given", ["hand selected", "minimum", "", 3.0, 0])
def test_a_value_that_is_none_of_the_named_ones_is_refused_with_the_canonical_names(given):
    with pytest.raises(ValueError) as info:
        SCHEDULE.parse("weighted", given)
    message = str(info.value)
    assert "schedule of weighted must be one of hand-selected, minimum-MSE" in message
    assert ", hand," not in message and "mse," not in message  # the aliases are not offered


def test_the_canonical_names_are_the_first_text_of_each_number_in_order():
    assert SCHEDULE.names == ["hand-selected", "minimum-MSE"]
    assert K.names == []


@pytest.mark.parametrize(("given", "number"), [("0", 0.0), ("1", 1.0), (" 0.5 ", 0.5), (0.25, 0.25), ("1e-3", 0.001)])
def test_a_number_in_range_is_read_with_its_ends_included(given, number):
    assert BIAS.parse("weighted", given) == number


@pytest.mark.parametrize("given", ["-0.01", "1.0001", "2", -1])
def test_a_number_out_of_range_is_refused_with_the_range(given):
    with pytest.raises(ValueError, match=r"b of weighted must be from 0 to 1, got"):
        BIAS.parse("weighted", given)


@pytest.mark.parametrize("given", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_refused_even_without_a_range(given):
    unbounded = Param("c", 0, 1.0, "exploration_c")
    with pytest.raises(ValueError, match="must be finite"):
        unbounded.parse("ucb", given)


@pytest.mark.parametrize("given", ["nan", "inf", "-inf", "1e400", "1_0", "\u0661", "0x1"])
def test_text_that_is_not_a_finite_ascii_number_is_refused(given):
    unbounded = Param("c", 0, 1.0, "exploration_c")
    with pytest.raises(ValueError, match=r"^c of ucb must be a number, got "):
        unbounded.parse("ucb", given)


@pytest.mark.parametrize("given", ["abc", "", None, "1,5", [1.0]])
def test_what_is_not_a_number_is_refused_as_such(given):
    with pytest.raises(ValueError, match=r"k of weighted must be a number, got"):
        K.parse("weighted", given)


def test_every_value_is_written_one_way():
    assert SCHEDULE.format(1.0) == "hand-selected" and SCHEDULE.format(2.0) == "minimum-MSE"
    assert SWITCH.format(1.0) == "1" and SWITCH.format(0.0) == "0" and SWITCH.format(0.3) == "1"
    assert K.format(1000.0) == "1000" and BIAS.format(0.01) == "0.01" and K.format(1e7) == "10000000"
    assert K.format(2.5) == "2.5" and K.format(1e-5) == "1e-05" and K.format(1e300) == "1e+300"
    assert K.format(2**0.5) == "1.4142135623730951"  # in full: it reads back as the same float
    for value in (2**0.5, 0.1 + 0.2, 1 / 3, 5e-324, 123456.789):
        assert float(K.format(value)) == value


# ---- Choice


def test_a_parameter_is_found_by_its_name_or_its_words_in_any_case():
    weighted = SHAPES["weighted"]
    for key in ("b", "B", " bias_b ", "BIAS_B", "Bias_B"):
        assert weighted.param(key) is BIAS, key
    assert weighted.param("schedule") is SCHEDULE and weighted.param("weight_schedule") is SCHEDULE
    assert weighted.param("c") is None and weighted.param("bias") is None
    assert SHAPES["plain"].param("b") is None


def test_defaults_are_keyed_by_short_name():
    assert SHAPES["weighted"].defaults == {"schedule": 2.0, "b": 0.01, "k": 1000.0}
    assert SHAPES["plain"].defaults == {}


# ---- Registry: what it refuses when it is built


@pytest.mark.parametrize(
    "params",
    [
        (Param("a", 0, 1.0, "a_words"), Param("b", 2, 1.0, "b_words")),  # a gap: 0, 2
        (Param("a", 1, 1.0, "a_words"),),  # not from 0
        (Param("a", 0, 1.0, "a_words"), Param("b", 0, 1.0, "b_words")),  # one slot twice
        tuple(Param(f"p{i}", i, 1.0, f"p{i}_words") for i in range(5)),  # more than max_params
    ],
    ids=["gap", "not-from-0", "same-slot", "too-many"],
)
def test_a_choice_whose_indices_are_not_0_to_n_minus_1_within_the_array_is_refused(params):
    with pytest.raises(ValueError, match="parameter indices"):
        Registry("shape", (Choice("bad", 0, params),), max_params=4)


@pytest.mark.parametrize("name", ["Bad", "BAD", " bad", "bad "])
def test_a_choice_name_that_lookup_could_never_find_is_refused(name):
    """``get_choice`` reads any case and strips spaces, so a name must be stored as it finds it."""
    with pytest.raises(ValueError, match="lower case"):
        Registry("shape", (Choice(name, 0, ()),), max_params=4)


@pytest.mark.parametrize(
    "params",
    [
        (Param("a", 0, 1.0, "same_words"), Param("b", 1, 1.0, "same_words")),
        (Param("a", 0, 1.0, "a_words"), Param("A", 1, 1.0, "b_words")),  # names differ only in case
        (Param("a", 0, 1.0, "x_words"), Param("x_words", 1, 1.0, "b_words")),  # one's name is the other's words
    ],
    ids=["same-words", "case", "name-is-words"],
)
def test_two_parameters_that_share_a_key_are_refused(params):
    with pytest.raises(ValueError, match="two parameters share a name"):
        Registry("shape", (Choice("bad", 0, params),), max_params=4)


@pytest.mark.parametrize(
    "choices",
    [(Choice("a", 1), Choice("b", 1)), (Choice("a", 1), Choice("a", 2))],
    ids=["same-id", "same-name"],
)
def test_two_choices_with_one_id_or_one_name_are_refused(choices):
    with pytest.raises(ValueError, match="used twice"):
        Registry("shape", choices, max_params=4)


# ---- Registry: names, overrides, the kernels' array, the text


def test_a_registry_is_a_mapping_of_its_choices_in_their_order():
    assert list(SHAPES) == ["plain", "weighted", "switched"] and len(SHAPES) == 3
    assert SHAPES["weighted"].id == 3 and SHAPES["weighted"].needs_amaf
    assert "weighted" in SHAPES and "WEIGHTED" not in SHAPES  # the mapping is exact; get_choice is not
    assert SHAPES.kind == "shape" and SHAPES.plural == "shapes"
    assert Registry("playout policy", (), 4, plural="playout policies").plural == "playout policies"


def test_get_choice_takes_any_case_and_lists_the_known_names_otherwise():
    assert SHAPES.get_choice(" Weighted ") is SHAPES["weighted"]
    with pytest.raises(ValueError, match=r"unknown shape 'round'; known: plain, weighted, switched"):
        SHAPES.get_choice("round")


def test_an_older_name_selects_its_choice_and_the_help_names_it_once():
    shapes = Registry("shape", (Choice("plain", 1), Choice("model", 2, aliases=("patterns",))), max_params=4)
    assert shapes.get_choice("Patterns") is shapes["model"] and list(shapes) == ["plain", "model"]
    assert shapes.names_help() == "plain, model (or patterns, its older name)"
    with pytest.raises(ValueError, match="an alias is also a name"):
        Registry("shape", (Choice("plain", 1, aliases=("model",)), Choice("model", 2)), max_params=4)


def test_the_move_model_prior_answers_to_its_older_name_patterns():
    """Recorded commands (``--prior patterns``) still select the move model, and the help text
    mentions the older name once."""
    from goengine.config import SearchConfig
    from goengine.gtp import command

    assert SearchConfig(prior="patterns").prior == "movemodel" == SearchConfig().prior
    assert priors.PRIORS["movemodel"].needs_move_model
    assert [name for name, c in priors.PRIORS.items() if c.needs_move_model] == ["movemodel"]
    assert " ".join(command.build_parser().format_help().split()).count("or patterns, its older name") == 1


def test_overrides_by_name_or_words_replace_the_defaults_and_the_rest_stay():
    assert SHAPES.param_values("weighted") == {"schedule": 2.0, "b": 0.01, "k": 1000.0}
    values = SHAPES.param_values("weighted", {"B": "0.5", "weight_schedule": "hand"})
    assert values == {"schedule": 1.0, "b": 0.5, "k": 1000.0}
    assert SHAPES.param_values("weighted", [("k", 3), ("equivalence_k", 7)]) == {
        "schedule": 2.0,
        "b": 0.01,
        "k": 7.0,  # pairs in order: the last one given wins
    }


def test_an_unknown_key_is_refused_with_the_parameters_the_choice_has():
    with pytest.raises(ValueError, match=r"shape weighted has no parameter 'c'; it has: schedule, b, k"):
        SHAPES.param_values("weighted", {"c": 1.0})
    with pytest.raises(ValueError, match=r"shape plain has no parameter 'b'; it has: none"):
        SHAPES.param_values("plain", {"b": 0.5})


def test_a_bad_value_is_refused_and_an_unknown_choice_too():
    with pytest.raises(ValueError, match="b of weighted must be from 0 to 1"):
        SHAPES.param_values("weighted", {"bias_b": 2})
    with pytest.raises(ValueError, match="unknown shape"):
        SHAPES.param_values("round")


def test_the_array_puts_each_value_in_its_slot_and_zeros_after_them():
    array = SHAPES.array("weighted", {"k": 5})
    assert array.dtype == np.float64 and array.shape == (4,)
    assert array.tolist() == [2.0, 5.0, 0.01, 0.0]  # schedule at 0, k at 1, b at 2 (declared b before k)
    assert SHAPES.array("plain").tolist() == [0.0] * 4
    assert SHAPES.array("switched", {"switch_on": 0}).tolist() == [0.0] * 4


def test_describe_writes_every_parameter_in_declared_order_as_format_writes_it():
    assert SHAPES.describe("weighted") == "weighted schedule=minimum-MSE b=0.01 k=1000"
    assert SHAPES.describe("Weighted", {"schedule": "hand", "k": 2.5}) == "weighted schedule=hand-selected b=0.01 k=2.5"
    assert SHAPES.describe("switched", {"on": 0}) == "switched on=0"
    assert SHAPES.describe("plain") == "plain"


@pytest.mark.parametrize("registry", [selection.RULES, policies.POLICIES, priors.PRIORS], ids=lambda r: r.kind)
def test_the_real_registries_describe_and_read_back_their_defaults(registry):
    """Every value ``describe`` writes is read back by ``parse`` as the very same number (UCB1's
    c, sqrt 2, is written in full, not as %g's 1.41421): what a log or a match record shows can be
    given back on the command line and gives the same search."""
    for name, choice in registry.items():
        words = registry.describe(name).split()
        assert words[0] == name == name.lower()
        given = dict(word.split("=", 1) for word in words[1:])
        assert registry.param_values(name, given) == choice.defaults
        assert registry.array(name, given).tolist() == registry.array(name).tolist()
