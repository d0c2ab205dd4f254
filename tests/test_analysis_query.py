"""Reading KataGo's analysis queries (``goengine.analysis.query``): the turns and who moves at
each, the defaults KataGo documents, and KataGo's error for each kind of bad field."""

from __future__ import annotations

import json

import pytest

from goengine import coords
from goengine.analysis.query import MAX_ECHO_CHARS, MAX_NESTING, Action, Defaults, Query, QueryError, nesting, read
from goengine.board import BLACK, PASS, WHITE
from goengine.ruleset import NAMES, Ruleset


def line(**fields) -> str:
    base = {"id": "q", "moves": [], "rules": "chinese-kgs", "boardXSize": 9, "boardYSize": 9}
    return json.dumps({**base, **fields})


def error_of(text: str) -> QueryError:
    with pytest.raises(QueryError) as caught:
        read(text)
    return caught.value


def test_each_turn_has_the_moves_before_it_and_the_player_to_move():
    moves = [["B", "E5"], ["W", "C3"], ["W", "G7"], ["B", "pass"]]
    query = read(line(moves=moves, analyzeTurns=[0, 1, 2, 3, 4]))
    assert isinstance(query, Query)
    p = lambda v: coords.from_gtp(9, v)  # noqa: E731
    assert [t.number for t in query.turns] == [0, 1, 2, 3, 4]
    assert query.turns[3].moves == ((BLACK, p("E5")), (WHITE, p("C3")), (WHITE, p("G7")))
    # who moves: at turn 0 the first mover, then the opponent of the last move's player, as KataGo
    # replays a game (two White moves in a row are allowed)
    assert [t.to_move for t in query.turns] == [BLACK, WHITE, BLACK, BLACK, WHITE]
    assert query.turns[4].moves[-1] == (BLACK, PASS)


def test_only_the_last_turn_is_analysed_by_default():
    query = read(line(moves=[["B", "E5"], ["W", "C3"]]))
    assert [t.number for t in query.turns] == [2]


@pytest.mark.parametrize(
    ("stones", "expected"),
    [([], BLACK), ([["B", "C3"]], BLACK), ([["B", "C3"], ["B", "G7"]], WHITE), ([["B", "C3"], ["W", "G7"]], BLACK)],
)
def test_who_moves_first_without_moves_is_katagos_default(stones, expected):
    """White after handicap stones (two or more, all Black), else Black."""
    assert read(line(initialStones=stones)).turns[0].to_move == expected


def test_initial_player_is_who_moves_at_turn_zero():
    assert read(line(initialPlayer="w")).turns[0].to_move == WHITE
    assert read(line(initialPlayer="WHITE", moves=[["B", "E5"]], analyzeTurns=[0])).turns[0].to_move == WHITE


def test_komi_comes_from_the_query_the_rules_object_or_area_scoring():
    assert read(line(komi=6)).komi == 6.0
    assert read(line(rules={"ko": "POSITIONAL", "scoring": "AREA", "komi": 5.5})).komi == 5.5
    assert read(line()).komi == 7.5


def test_rules_become_what_goengine_plays_with_their_handicap_bonus():
    assert read(line(rules="aga")).rules == Ruleset(white_handicap_bonus="N-1")
    assert read(line(rules="aga", whiteHandicapBonus="0")).rules == Ruleset(white_handicap_bonus="0")
    assert read(line(rules="tromp-taylor")).rules == Ruleset()


def test_priorities_go_with_their_turns():
    query = read(line(moves=[["B", "E5"]], analyzeTurns=[1, 0], priorities=[5, -2]))
    assert [(t.number, t.priority) for t in query.turns] == [(1, 5), (0, -2)]
    assert [t.priority for t in read(line(moves=[["B", "E5"]], analyzeTurns=[0, 1], priority=3)).turns] == [3, 3]


def test_the_budget_and_perspective_come_from_the_query_its_overrides_or_the_command_line():
    defaults = Defaults(max_visits=500, max_time=2.0, perspective="BLACK", pv_length=7)
    query = read(line(), defaults)
    assert (query.max_visits, query.max_time, query.perspective, query.pv_length) == (500, 2.0, "BLACK", 7)
    overrides = {"maxVisits": 30, "maxTime": 0.5, "reportAnalysisWinratesAs": "white", "analysisPVLen": 3}
    query = read(line(overrideSettings=overrides), defaults)
    assert (query.max_visits, query.max_time, query.perspective, query.pv_length) == (30, 0.5, "WHITE", 3)
    assert read(line(maxVisits=12, overrideSettings={"maxVisits": 30})).max_visits == 12  # the field wins


def test_what_goengine_does_not_act_on_is_warned_of_by_field():
    query = read(line(avoidMoves=[], includeMovesOwnership=True, colour="red", overrideSettings={"cpuct": 1}))
    assert [f for f, _ in query.warnings] == ["avoidMoves", "includeMovesOwnership", "colour", "overrideSettings"]
    assert read(line()).warnings == ()


def test_actions_are_read_with_what_they_end():
    action = read(json.dumps({"id": "t", "action": "terminate", "terminateId": "q", "turnNumbers": [2]}))
    assert isinstance(action, Action)
    assert (action.action, action.terminate_id, action.turns) == ("terminate", "q", (2,))
    assert read(json.dumps({"id": "a", "action": "terminate_all"})).turns is None
    assert read("   ") is None


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"boardXSize": 4, "boardYSize": 4}, "boardXSize", "Must provide an integer from 5 to 19"),
        ({"boardXSize": 9, "boardYSize": 13}, "boardYSize", "goengine plays square boards only"),
        (
            {"rules": "martian"},
            "rules",
            f"Could not use rules: unknown rules 'martian'; known: {', '.join(sorted(NAMES))}",
        ),
        ({"komi": 7.25}, "komi", "Must be a integer or half-integer from -150.0 to 150.0"),
        ({"komi": 151}, "komi", "Must be a integer or half-integer from -150.0 to 150.0"),
        ({"moves": [["B", "Z5"]]}, "moves", "Could not parse board location: Z5"),
        ({"moves": [["X", "E5"]]}, "moves", 'Must be "b" or "w"'),
        ({"moves": "E5"}, "moves", "Must specify an array of [player,location] pairs"),
        (
            {"initialStones": [["B", "E5"], ["W", "E5"]]},
            "initialStones",
            "Invalid initial stones: a point is given twice",
        ),
        ({"analyzeTurns": [-1]}, "analyzeTurns", "Invalid turn number: -1"),
        ({"analyzeTurns": "0"}, "analyzeTurns", "Must specify an array of integers indicating turns to analyze"),
        ({"priorities": [1]}, "priorities", "Can only specify when also specifying analyzeTurns"),
        ({"maxVisits": 0}, "maxVisits", "Must be an integer from 1 to 1.1259e+15"),
        ({"overrideSettings": {"maxTime": -1}}, "overrideSettings", "Must be a number from 0.0 to 1e+20"),
        ({"overrideSettings": []}, "overrideSettings", "Must be an object"),
        ({"includeOwnership": "yes"}, "includeOwnership", "Must be a boolean"),
    ],
)
def test_a_bad_field_is_katagos_error_naming_it(fields, field, words):
    error = error_of(line(**fields))
    assert (error.field, error.message, error.query_id) == (field, words, "q")
    assert error.to_json() == {"error": words, "field": field, "id": "q"}


def test_an_illegal_move_names_its_index_as_katago_does():
    # a suicide, then a ko retaken at once, then a repeat of an earlier whole-board position
    assert error_of(line(initialStones=[["W", "A2"], ["W", "B1"]], moves=[["B", "A1"]])).message == (
        "Illegal move 0: A1"
    )
    ko = [["B", "D5"], ["W", "E5"], ["B", "E4"], ["W", "F4"], ["B", "E6"], ["W", "F6"], ["B", "F5"], ["W", "G5"]]
    ko += [["W", "E5"]]  # White takes the ko: captures F5
    assert read(line(moves=ko)).turns[0].number == len(ko)
    assert error_of(line(moves=[*ko, ["B", "F5"]])).message == f"Illegal move {len(ko)}: F5"


def test_a_line_that_is_no_query_is_a_general_error():
    assert error_of('{"moves": []}').to_json() == {"error": 'Request must have a string "id" field'}
    assert error_of("[]").field is None
    assert error_of("{").message.endswith("could not parse input line as json request: {")


# ---- what Python's reader would choke on or carry (issue 46): an error under the id, never a crash


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("NaN", "NaN is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("1e999", "1e999 is too large for a number"),
        ("9" * 4301, "a number of 4301 characters; at most 100"),
        ("[1, [2, " + "0." + "5" * 120 + "]]", "a number of 122 characters; at most 100"),
    ],
)
def test_a_value_no_query_may_hold_is_an_error_of_its_field_under_the_id(value, message):
    for text in (
        '{"id": "a", "action": "query_version", "v": ' + value + "}",
        line(komi=0.5)[:-1] + ', "maxVisits": ' + value + "}",
    ):
        error = error_of(text)
        assert error.to_json() == {
            "error": message,
            "field": "v" if "action" in text else "maxVisits",
            "id": "a" if "action" in text else "q",
        }


def test_nesting_beyond_the_limit_is_refused_before_parsing_and_the_echo_is_cut():
    deep = "[" * 2000 + "]" * 2000  # Python's reader recursed past its limit on this (RecursionError)
    error = error_of(deep)
    assert error.message.startswith("Nested 2000 deep, at most 64")
    assert error.message.endswith(f"... ({4000 - MAX_ECHO_CHARS} more characters)")
    assert error.field is None and error.query_id is None
    assert nesting('{"a": "[[[[[[" , "b": [[1]]}') == 0  # few brackets: not counted
    assert nesting('"' + "[" * 70 + '"' + "[{}]") == 2  # brackets in a string do not nest
    at_limit = "[" * MAX_NESTING + "]" * (MAX_NESTING - 1) + ",[]]"  # 65 arrays, 64 deep at most
    assert nesting(at_limit) == MAX_NESTING and error_of(at_limit).message.startswith("Request line was valid json")


def test_a_long_bad_line_is_quoted_cut():
    text = '{"id": "x", ' + "z" * 50_000
    error = error_of(text)
    assert len(error.message) < 400 and error.message.endswith(f"({len(text) - MAX_ECHO_CHARS} more characters)")


@pytest.mark.parametrize("rules", ["japanese", "korean", {"scoring": "TERRITORY", "komi": 6.5}])
def test_a_territory_count_is_analysed_by_area_with_a_warning_on_rules(rules):
    """KaTrain's default rules are Japanese: the query is answered, warned that the count is by
    area, as KataGo warns of what it does not do."""
    query = read(line(rules=rules))
    assert isinstance(query, Query) and query.rules.scoring == "AREA"
    said = [words for field, words in query.warnings if field == "rules"]
    assert said and said[0].startswith("goengine counts by area, not territory")
