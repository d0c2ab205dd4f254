"""The rules goengine plays and KataGo's names for rules (``goengine.ruleset``), checked against
KataGo's own table of names (its ``Rules::parseRulesHelper``, as its docs/Analysis_Engine.md
lists them) and hand-counted handicap bonuses."""

import pytest

from goengine.ruleset import (
    GOENGINE,
    KGS_NAMES,
    NAMES,
    RulesError,
    Ruleset,
    differences,
    goengine_rules,
    parse,
    played,
)

# KataGo's names: (ko, scoring, tax, suicide, button, whiteHandicapBonus), from its rules table
KATAGO = {
    "tromp-taylor": ("POSITIONAL", "AREA", "NONE", True, False, "0"),
    "chinese": ("SIMPLE", "AREA", "NONE", False, False, "N"),
    "chinese-ogs": ("POSITIONAL", "AREA", "NONE", False, False, "N"),
    "chinese-kgs": ("POSITIONAL", "AREA", "NONE", False, False, "N"),
    "japanese": ("SIMPLE", "TERRITORY", "SEKI", False, False, "0"),
    "korean": ("SIMPLE", "TERRITORY", "SEKI", False, False, "0"),
    "aga": ("SITUATIONAL", "AREA", "NONE", False, False, "N-1"),
    "bga": ("SITUATIONAL", "AREA", "NONE", False, False, "N-1"),
    "french": ("SITUATIONAL", "AREA", "NONE", False, False, "N-1"),
    "aga-button": ("SITUATIONAL", "AREA", "NONE", False, True, "N-1"),
    "new-zealand": ("SITUATIONAL", "AREA", "NONE", True, False, "0"),
    "stone-scoring": ("SIMPLE", "AREA", "ALL", False, False, "0"),
    "ancient-territory": ("SIMPLE", "TERRITORY", "ALL", False, False, "0"),
}


@pytest.mark.parametrize("name", sorted(KATAGO))
def test_each_katago_name_reads_as_katago_defines_it(name):
    rules, komi = parse(name)
    assert komi is None
    assert (rules.ko, rules.scoring, rules.tax, rules.suicide, rules.has_button, rules.white_handicap_bonus) == (
        KATAGO[name]
    )


@pytest.mark.parametrize("spelling", ["Tromp_Taylor", "tromp taylor", "TROMPTAYLOR", " tromp-taylor "])
def test_katago_spellings_of_a_name_are_the_same_rules(spelling):
    assert parse(spelling)[0] == NAMES["tromp-taylor"]


@pytest.mark.parametrize("name", ["new zealand", "stone_scoring"])  # as KaTrain writes them
def test_the_names_katrain_sends_are_read(name):
    parse(name)


def test_a_json_object_reads_with_katago_defaults_and_its_komi():
    rules, komi = parse('{"ko":"SIMPLE","scoring":"AREA","whiteHandicapBonus":"N-1","komi":6.5}', allow_komi=True)
    assert rules == Ruleset(ko="SIMPLE", white_handicap_bonus="N-1", suicide=False)
    assert komi == 6.5
    # a territory count taxes sekis unless told otherwise
    assert parse({"scoring": "TERRITORY"})[0].tax == "SEKI"


@pytest.mark.parametrize(
    "bad",
    [
        "chinesish",
        '{"ko": "SOMETIMES"}',
        '{"suicide": "yes"}',
        '{"colour": "blue"}',
        '{"komi": 7.5}',  # komi is kata-set-rules' business only where allowed
        "{not json",
        # json's int() refuses 5,000 digits with a ValueError that is no JSONDecodeError, and its
        # parser recurses into nested lists until RecursionError
        pytest.param('{"komi": ' + "9" * 5000 + "}", id="a-number-of-5000-digits"),
        pytest.param('{"ko": ' + "[" * 100000, id="nested-100000-deep"),
        42,
    ],
)
def test_unreadable_rules_are_refused_with_a_reason(bad):
    with pytest.raises(RulesError):
        parse(bad)


def test_an_option_given_twice_under_its_two_names_is_refused():
    """KataGo spells the scoring rule ``score`` and ``scoring``; given both, which counts? Refused
    (before, the later was taken silently)."""
    with pytest.raises(RulesError, match="rules give the scoring rule twice: score and scoring"):
        parse('{"score": "area", "scoring": "territory"}')
    with pytest.raises(RulesError, match="twice: scoring and score"):
        parse({"scoring": "area", "score": "area"})


def test_rules_that_count_differently_are_played_by_area_with_each_difference_said():
    japanese = differences(NAMES["japanese"])
    assert [w.split(":")[0] for w in japanese] == [
        "goengine counts by area, not territory",
        "goengine counts every point of an area (no tax on groups), not tax seki",
        "goengine plays positional superko, not simple ko",
    ]
    assert differences(NAMES["korean"]) == japanese
    assert differences(NAMES["stone-scoring"])[0] == (
        "goengine counts every point of an area (no tax on groups), not tax all"
    )
    assert "goengine plays without a button (pass stone)" in differences(NAMES["aga-button"])
    assert played(NAMES["japanese"]) == GOENGINE  # and it plays its own rules under them


def test_a_different_ko_rule_or_suicide_is_accepted_with_the_difference_said():
    assert differences(NAMES["chinese-kgs"]) == []
    assert differences(NAMES["chinese"]) == ["goengine plays positional superko, not simple ko"]
    words = differences(NAMES["tromp-taylor"])
    assert words == ["goengine never plays suicide and refuses it in the moves"]
    assert len(differences(NAMES["new-zealand"])) == 2


def test_what_goengine_plays_keeps_only_the_handicap_bonus_of_rules():
    assert played(NAMES["aga"]) == Ruleset(white_handicap_bonus="N-1")
    assert played(NAMES["tromp-taylor"]) == GOENGINE
    assert goengine_rules("N") == played(NAMES["chinese"])
    with pytest.raises(RulesError):
        goengine_rules("2")


@pytest.mark.parametrize(
    ("bonus", "stones", "points"),
    [("0", 4, 0.0), ("N-1", 4, 3.0), ("N", 4, 4.0), ("N", 0, 0.0), ("N", 1, 0.0), ("N-1", 2, 1.0)],
)
def test_the_handicap_bonus_in_points(bonus, stones, points):
    assert goengine_rules(bonus).komi_bonus(stones) == points


def test_the_json_form_is_katagos():
    assert GOENGINE.to_json() == {
        "friendlyPassOk": True,
        "hasButton": False,
        "ko": "POSITIONAL",
        "scoring": "AREA",
        "suicide": False,
        "tax": "NONE",
        "whiteHandicapBonus": "0",
    }
    assert parse(GOENGINE.to_json())[0] == GOENGINE


def test_kgs_names_its_chinese_rules_with_superko():
    assert KGS_NAMES["chinese"] == NAMES["chinese-kgs"]
    assert set(KGS_NAMES) == {"chinese", "aga", "japanese", "new_zealand"}
