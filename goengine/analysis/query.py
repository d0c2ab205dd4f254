"""Reading one line of KataGo's JSON analysis protocol: a query (``Query``) or an action
(``Action``), or the error KataGo would give for it (``QueryError``), with the warnings for the
fields goengine reads but does not act on.

The fields and their checks follow KataGo's ``docs/Analysis_Engine.md`` and its parser
(``cpp/command/analysis.cpp``); what goengine cannot do is refused by name rather than done
another way: a rectangular board, a size outside 5..19. Rules of another count (Japanese,
Korean: territory) are played and counted by area with a warning that says so, as every
difference of the rules is (``goengine.ruleset``). Fields KataGo knows that goengine has no use for (``avoidMoves``,
``includeMovesOwnership``, a network's settings in ``overrideSettings``, ...) are accepted with a
warning that says so, as KataGo warns of a field it does not use; an unknown field too.

The position of every turn is checked here, by replaying the moves with the full rules, so an
illegal move is an error of the query (``Illegal move N: LOC``, KataGo's words, which KaTrain
looks for) before anything is searched.

A line is refused, with an error under its id where it has one, and the server goes on, when it
holds what no query needs and Python's reader would choke on or carry: a line longer than
MAX_LINE_BYTES (``server.input_lines`` reads no more of it), nesting deeper than MAX_NESTING, a
number of more than MAX_NUMBER_CHARS characters, or NaN and Infinity (not JSON, though Python's
reader takes them). An error quotes at most MAX_ECHO_CHARS of the line.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace

from goengine import coords
from goengine.analysis.outline import outline
from goengine.board import BLACK, PASS, WHITE, IllegalMove
from goengine.config import BOARD_SIZES
from goengine.game import Game, GameError
from goengine.ruleset import RulesError, Ruleset, differences, played
from goengine.ruleset import parse as parse_rules

PERSPECTIVES = ("BLACK", "WHITE", "SIDETOMOVE")
ACTIONS = ("query_version", "clear_cache", "terminate", "terminate_all", "query_models")
MAX_PV_LENGTH = 1000  # KataGo's bound on analysisPVLen
MAX_LINE_BYTES = 16 << 20  # a line at most; a 19x19 query of 10,000 moves is about 200 KB
MAX_NESTING = 64  # arrays and objects inside each other; a query of KataGo's nests 4 deep
MAX_NUMBER_CHARS = 100  # a number's characters at most (Python refuses integers of 4,300 digits)
MAX_ECHO_CHARS = 200  # what an error quotes of the line it refuses

# what a query may hold and goengine acts on
QUERY_FIELDS = {
    "id",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "analysisPVLen",
    "includeOwnership",
    "includeOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "overrideSettings",
    "reportDuringSearchEvery",
    "firstReportDuringSearchAfter",
    "priority",
    "priorities",
}
# fields of KataGo's that goengine reads past, with why (the warning's words)
IGNORED_FIELDS = {
    "includeMovesOwnership": "goengine keeps no ownership map per move",
    "includeMovesOwnershipStdev": "goengine keeps no ownership map per move",
    "avoidMoves": "goengine's search cannot exclude moves",
    "allowMoves": "goengine's search cannot exclude moves",
    "rootPolicyTemperature": "goengine has no policy network",
    "rootFpuReductionMax": "goengine has no first-play urgency reduction",
}
# overrideSettings keys goengine acts on; the others KataGo knows are warned of as unused
OVERRIDES = {"reportAnalysisWinratesAs", "maxVisits", "maxTime", "analysisPVLen"}


class QueryError(Exception):
    """A query KataGo would answer with ``{"error": message, "field": field, "id": id}`` (a
    general error, without field and id, when the line is not a query at all)."""

    def __init__(self, message: str, field: str | None = None, query_id: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.query_id = query_id

    def to_json(self) -> dict:
        answer = {"error": self.message}
        if self.field is not None:
            answer["field"] = self.field
        if self.query_id is not None:
            answer["id"] = self.query_id
        return answer


@dataclass(frozen=True)
class Defaults:
    """What a query gets for a field it leaves out: the command line's settings (``-override-config``
    and the engine's budget)."""

    max_visits: int | None = None
    max_time: float | None = None
    perspective: str = "SIDETOMOVE"  # KataGo's built-in default of reportAnalysisWinratesAs
    pv_length: int = 15  # KataGo's analysisPVLen: the moves of a PV after the first


@dataclass(frozen=True)
class Action:
    """An action line (``query_version``, ``terminate``, ...): its id, its name, the query as
    received (KataGo echoes it), and for the terminations which id and turns they end."""

    query_id: str
    action: str
    raw: dict
    terminate_id: str | None = None
    turns: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Turn:
    """One position to analyse: the query's turn number, its priority, the moves before it (the
    query's ``moves[:turn]``) and the side to move there (at turn 0 the first player, after it
    the opponent of the last move's player)."""

    number: int
    priority: int
    moves: tuple[tuple[int, int], ...]
    to_move: int


@dataclass(frozen=True)
class Query:
    """An analysis query, checked: the board, komi and rules, the set-up stones, the turns to
    analyse (``Turn``), the budget and what each response includes; ``warnings`` are
    ``(field, message)`` pairs to send before the results."""

    query_id: str
    size: int
    komi: float
    rules: Ruleset  # what goengine plays under the query's rules (``ruleset.played``)
    stones: tuple[tuple[int, int], ...]
    turns: tuple[Turn, ...]
    max_visits: int | None = None
    max_time: float | None = None
    perspective: str = "SIDETOMOVE"
    pv_length: int = 15
    ownership: bool = False
    ownership_stdev: bool = False
    policy: bool = False
    pv_visits: bool = False
    report_every: float | None = None
    first_report_after: float | None = None
    warnings: tuple[tuple[str, str], ...] = field(default=())


def read(line: str, defaults: Defaults | None = None) -> Query | Action | None:
    """The query or action of one input line (None for a blank line); QueryError otherwise."""
    text = line.strip()
    if not text:
        return None
    depth = nesting(text)
    if depth > MAX_NESTING:
        message = f"Nested {depth} deep, at most {MAX_NESTING}: could not parse input line: {echo(text)}"
        raise QueryError(message, query_id=readable_id(text))
    try:
        request = json.loads(text, parse_constant=_constant, parse_int=_integer, parse_float=_float)
    except (json.JSONDecodeError, RecursionError) as error:
        message = f"{error} - could not parse input line as json request: {echo(text)}"
        raise QueryError(message, query_id=readable_id(text)) from None
    if not isinstance(request, dict):
        raise QueryError(f"Request line was valid json but was not an object, ignoring: {echo(text)}")
    query_id = request.get("id")
    if not isinstance(query_id, str):
        raise QueryError('Request must have a string "id" field')
    for key, value in request.items():
        bad = _unreadable(value)
        if bad is not None:
            raise QueryError(bad.why, key, query_id)
    if "action" in request:
        return _action(request, query_id)
    return _query(request, query_id, defaults or Defaults())


def echo(text: str) -> str:
    """``text`` as an error quotes it: whole up to MAX_ECHO_CHARS, else cut, saying how much."""
    if len(text) <= MAX_ECHO_CHARS:
        return text
    return f"{text[:MAX_ECHO_CHARS]}... ({len(text) - MAX_ECHO_CHARS} more characters)"


def nesting(text: str) -> int:
    """How deep the arrays and objects of ``text`` (a JSON line) nest, strings aside: counted
    before parsing, since Python's reader recurses once a level, in one pass linear in the
    line (``outline``). A text with no more brackets than MAX_NESTING cannot nest deeper, and is
    not counted (0)."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return 0
    return outline(text).depth


def readable_id(text: str) -> str | None:
    """The ``id`` of a line refused before it was parsed (too deep, not JSON, cut off), when its
    outermost object has one that reads as a string: the error then names it, so a client
    waiting on that id is answered (``outline``)."""
    return outline(text, find_id=True).query_id


class _Unreadable:
    """A value the JSON reader met that no query may hold (NaN, a number too long), kept in its
    place so that the error can name the query's id and field."""

    def __init__(self, why: str):
        self.why = why


def _constant(word: str) -> _Unreadable:
    return _Unreadable(f"{word} is not a JSON number")


def _integer(text: str) -> int | _Unreadable:
    if len(text) > MAX_NUMBER_CHARS:
        return _Unreadable(f"a number of {len(text)} characters; at most {MAX_NUMBER_CHARS}")
    return int(text)


def _float(text: str) -> float | _Unreadable:
    if len(text) > MAX_NUMBER_CHARS:
        return _Unreadable(f"a number of {len(text)} characters; at most {MAX_NUMBER_CHARS}")
    value = float(text)
    return value if math.isfinite(value) else _Unreadable(f"{text} is too large for a number")


def _unreadable(value) -> _Unreadable | None:
    """The first ``_Unreadable`` in ``value`` (a parsed JSON value, at most MAX_NESTING deep)."""
    if isinstance(value, _Unreadable):
        return value
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        found = _unreadable(item)
        if found is not None:
            return found
    return None


def _action(request: dict, query_id: str) -> Action:
    name = request["action"]
    if name not in ACTIONS:
        raise QueryError(f"'action' field must be one of {', '.join(ACTIONS)}", "action", query_id)
    terminate_id = None
    turns = None
    if name == "terminate":
        terminate_id = request.get("terminateId")
        if not isinstance(terminate_id, str):
            raise QueryError(
                'Requests for a terminate action must have a string "terminateId" field', "terminateId", query_id
            )
    if name in ("terminate", "terminate_all") and "turnNumbers" in request:
        numbers = request["turnNumbers"]
        if not isinstance(numbers, list) or not all(_is_int(n) for n in numbers):
            raise QueryError(
                "If provided, must be an array of integers indicating turns to terminate", "turnNumbers", query_id
            )
        turns = tuple(numbers)
    return Action(query_id, name, request, terminate_id, turns)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _flag(request: dict, key: str, query_id: str) -> bool:
    value = request.get(key, False)
    if not isinstance(value, bool):
        raise QueryError("Must be a boolean", key, query_id)
    return value


def _player(value, key: str, query_id: str) -> int:
    word = value.lower() if isinstance(value, str) else None
    if word in ("b", "black"):
        return BLACK
    if word in ("w", "white"):
        return WHITE
    raise QueryError('Must be "b" or "w"', key, query_id)


def _stones(request: dict, key: str, size: int, query_id: str, allow_pass: bool) -> list[tuple[int, int]]:
    """``[["B", "Q16"], ...]`` as ``(color, point)``."""
    value = request.get(key, [])
    what = "Must specify an array of [player,location] pairs"
    if not isinstance(value, list):
        raise QueryError(what, key, query_id)
    stones = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], str):
            raise QueryError(what, key, query_id)
        color = _player(item[0], key, query_id)
        try:
            point = coords.from_gtp(size, item[1])
        except ValueError:
            raise QueryError(f"Could not parse board location: {item[1]}", key, query_id) from None
        if point == PASS and not allow_pass:
            raise QueryError("Pass is not a stone", key, query_id)
        stones.append((color, point))
    return stones


def _query(request: dict, query_id: str, defaults: Defaults) -> Query:
    warnings = []
    for key in request:
        if key in IGNORED_FIELDS:
            warnings.append((key, f"ignored: {IGNORED_FIELDS[key]}"))
        elif key not in QUERY_FIELDS:
            warnings.append((key, "Unexpected or unused field, do you have a typo?"))

    sizes = []
    for key in ("boardXSize", "boardYSize"):
        value = request.get(key)
        if not _is_int(value) or value not in BOARD_SIZES:
            raise QueryError(f"Must provide an integer from {BOARD_SIZES[0]} to {BOARD_SIZES[-1]}", key, query_id)
        sizes.append(value)
    if sizes[0] != sizes[1]:
        raise QueryError("goengine plays square boards only", "boardYSize", query_id)
    size = sizes[0]

    if "rules" not in request:
        raise QueryError(
            'Must specify rules string, such as "chinese" or "tromp-taylor", or a JSON object with detailed '
            "rules parameters.",
            "rules",
            query_id,
        )
    try:
        rules, rules_komi = parse_rules(request["rules"], allow_komi=True)
        if "whiteHandicapBonus" in request:
            bonus, _ = parse_rules({"whiteHandicapBonus": request["whiteHandicapBonus"]})
            rules = replace(rules, white_handicap_bonus=bonus.white_handicap_bonus)
        for words in differences(rules):
            warnings.append(("rules", words))
    except RulesError as error:
        raise QueryError(f"Could not use rules: {error}", "rules", query_id) from None

    komi = request.get("komi", rules_komi)
    if komi is None:
        komi = 7.5  # KataGo's for area scoring, the only scoring goengine accepts
    if not _is_number(komi) or not -150 <= komi <= 150 or (2 * komi) != int(2 * komi):
        raise QueryError("Must be a integer or half-integer from -150.0 to 150.0", "komi", query_id)

    stones = _stones(request, "initialStones", size, query_id, allow_pass=False)
    moves = _stones(request, "moves", size, query_id, allow_pass=True)
    if "moves" not in request:
        raise QueryError("Must specify an array of [player,location] pairs", "moves", query_id)
    if "initialPlayer" in request:
        first = _player(request["initialPlayer"], "initialPlayer", query_id)
    elif moves:
        first = moves[0][0]
    else:  # KataGo's: White after handicap stones, else Black
        first = WHITE if stones and all(c == BLACK for c, _ in stones) and len(stones) >= 2 else BLACK

    numbers = request.get("analyzeTurns", [len(moves)])
    if not isinstance(numbers, list) or not all(_is_int(n) for n in numbers):
        raise QueryError("Must specify an array of integers indicating turns to analyze", "analyzeTurns", query_id)
    for n in numbers:
        if not 0 <= n <= len(moves):
            raise QueryError(f"Invalid turn number: {n}", "analyzeTurns", query_id)
    priorities = _priorities(request, numbers, query_id)

    overrides = request.get("overrideSettings", {})
    if not isinstance(overrides, dict):
        raise QueryError("Must be an object", "overrideSettings", query_id)
    unused = [key for key in overrides if key not in OVERRIDES]
    if unused:
        warnings.append(("overrideSettings", f"Unknown or unused config params: {','.join(unused)}"))
    perspective = str(overrides.get("reportAnalysisWinratesAs", defaults.perspective)).upper()
    if perspective not in PERSPECTIVES:
        raise QueryError(
            f"Could not set settings: reportAnalysisWinratesAs must be one of {', '.join(PERSPECTIVES)}",
            "overrideSettings",
            query_id,
        )

    max_visits = _bounded(request, overrides, "maxVisits", defaults.max_visits, 1, 2**50, query_id, integer=True)
    max_time = _bounded({}, overrides, "maxTime", defaults.max_time, 0.0, 1e20, query_id, integer=False)
    pv_length = _bounded(request, overrides, "analysisPVLen", defaults.pv_length, 1, MAX_PV_LENGTH, query_id, True)
    report_every = _bounded(request, {}, "reportDuringSearchEvery", None, 0.001, 1e6, query_id, integer=False)
    first_report = _bounded(request, {}, "firstReportDuringSearchAfter", None, 0.001, 1e6, query_id, integer=False)

    turns = _turns(size, komi, rules, stones, first, moves, numbers, priorities, query_id)
    return Query(
        query_id=query_id,
        size=size,
        komi=float(komi),
        rules=played(rules),
        stones=tuple(stones),
        turns=turns,
        max_visits=max_visits,
        max_time=max_time,
        perspective=perspective,
        pv_length=pv_length,
        ownership=_flag(request, "includeOwnership", query_id),
        ownership_stdev=_flag(request, "includeOwnershipStdev", query_id),
        policy=_flag(request, "includePolicy", query_id),
        pv_visits=_flag(request, "includePVVisits", query_id),
        report_every=report_every,
        first_report_after=first_report,
        warnings=tuple(warnings),
    )


def _priorities(request: dict, numbers: list[int], query_id: str) -> list[int]:
    """Each turn's priority: ``priorities`` (one a turn) or ``priority`` (all alike), default 0."""
    if "priority" in request and "priorities" in request:
        raise QueryError("Cannot specify both priority and priorities", "priorities", query_id)
    if "priorities" in request:
        values = request["priorities"]
        if "analyzeTurns" not in request:
            raise QueryError("Can only specify when also specifying analyzeTurns", "priorities", query_id)
        if not isinstance(values, list) or not all(_is_int(v) for v in values):
            raise QueryError("Must be an array of integers", "priorities", query_id)
        if len(values) != len(numbers):
            raise QueryError("Must be of matching length to analyzeTurns", "priorities", query_id)
        return values
    value = request.get("priority", 0)
    if not _is_int(value):
        raise QueryError("Must be an integer", "priority", query_id)
    return [value] * len(numbers)


def _bounded(request: dict, overrides: dict, key: str, default, lo, hi, query_id: str, integer: bool):
    """A number from the query (or its ``overrideSettings``), within [lo, hi]."""
    where = key if key in request else "overrideSettings"
    value = request.get(key, overrides.get(key, default))
    if value is None:
        return None
    ok = _is_int(value) if integer else _is_number(value)
    if not ok or not lo <= value <= hi:
        kind = "an integer" if integer else "a number"
        raise QueryError(f"Must be {kind} from {lo} to {hi:g}", where, query_id)
    return int(value) if integer else float(value)


def _turns(size, komi, rules, stones, first, moves, numbers, priorities, query_id) -> tuple[Turn, ...]:
    """Each turn to analyse, after the whole game has been replayed once with the full rules:
    the set-up stones must make a position, and every move must be legal."""
    game = Game(size, komi, played(rules))
    try:
        if stones:
            game.setup(stones, first)
    except GameError as error:
        raise QueryError(f"Invalid initial stones: {error}", "initialStones", query_id) from None
    for k, (color, point) in enumerate(moves):
        try:
            game.play(color, point)
        except IllegalMove:
            where = coords.to_gtp(size, point)
            raise QueryError(f"Illegal move {k}: {where}", "moves", query_id) from None
    # who moves at turn n, as KataGo replays a game: the first player at turn 0, then the
    # opponent of the last move's player, whoever plays the next move
    turns = []
    for n, priority in zip(numbers, priorities, strict=True):
        to_move = 3 - moves[n - 1][0] if n > 0 else first
        turns.append(Turn(n, priority, tuple(moves[:n]), to_move))
    return tuple(turns)
