"""Dynamic komi: the extra komi a search plays against in handicap games, chosen by name.

A search whose every line wins (the side with the handicap stones) or loses (the side giving
them) cannot tell good moves from slack or desperate ones: the win rates are all near 1 or 0.
Dynamic komi (Baudiš 2011, "Balancing MCTS by Dynamically Adjusting the Komi Value", ICGA
Journal 34; Pachi's ``uct/dynkomi.c``) adds an extra komi to the playouts' score, so the search
sees a game near even, and takes it away as the game goes on, so the real result rules by the
end. The extra komi is in Black's points given to White, as Pachi counts it: a positive value
makes Black's task harder, which is what both sides of a handicap game need (Black stops feeling
safe, White stops feeling lost).

- ``none``: never.
- ``linear`` (the default): in a game with handicap stones, ``value`` points a stone at the
  start (``black_value`` when the engine is Black, ``white_value`` when it is White), but never
  more than a quarter of the board's points (a set-up "handicap" of most of a small board is
  no game to balance), falling linearly to 0 at move ``moves`` (on 19x19; scaled by the board's
  area elsewhere, so 9x9 ends at move 45 with the default 200). Nothing in an even game.
  Black takes 7 points a stone, as in Pachi's linear mode (7 or 8 over the first 100 to 200
  moves). White takes 1, as in Pachi's newer ``uct/dynkomi.c``: enough to make it try harder,
  not so much that it believes a lost game even. Measured on 9x9 giving two stones to GNU Go
  level 1, 40 games each (``docs/results.md``): 7 points a stone won 40.0 %, 1 point 72.5 %,
  none 65.0 %. Black's 7 measured on 19x19 taking four stones from GNU Go level 10 at 200
  playouts a move, 40 games each: 45.0 %, the same as none.
- ``adaptive``: starts as ``linear``; past that, before each of the engine's moves the extra komi
  follows the search's win rate for the engine (Pachi's value-based adaptive mode): above
  ``green`` it gives ``step`` points more to the opponent, below ``red`` it takes ``step`` back,
  never more than ``max_komi`` either way. In an even game too, when chosen.

Where it acts (``goengine.engine.Engine.genmove``): the moves of the game only. Analysis
(``lz-analyze``, ``kata-analyze``, GoGui's commands) searches against the real komi, the score
always counts the real komi, and the search keeps its tree from move to move although the extra
komi changes (as Pachi does). The extra komi of each move is in the log line of the move and in
``kata-analyze``'s ``rootInfo``.

The registry has the shape of the kernels' ones (``goengine.registry``), but this choice is made
in Python, once a move: the kernels only see the komi it gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from goengine.board import BLACK
from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Param, Registry

NONE = 0
LINEAR = 1
ADAPTIVE = 2

DEFAULT_DYNKOMI = "linear"

# parameter slots, shared by linear and adaptive (adaptive starts as linear)
BLACK_VALUE = 0
WHITE_VALUE = 1
MOVES = 2
RED = 3
GREEN = 4
STEP = 5
MAX_KOMI = 6

FULL_BOARD = 19 * 19  # ``moves`` is counted on 19x19 and scaled by the board's area elsewhere
MAX_SHARE = 0.25  # the linear extra komi is at most this share of the board's points


def _linear_params() -> tuple[Param, ...]:
    return (
        Param(
            "black_value", BLACK_VALUE, 7.0, "handicap_komi_as_Black",
            "extra komi at the start, in points a handicap stone, when the engine is Black",
            low=0.0, high=50.0,
        ),
        Param(
            "white_value", WHITE_VALUE, 1.0, "handicap_komi_as_White",
            "extra komi at the start, in points a handicap stone, when the engine is White"
            " (1: docs/results.md, dynamic komi)",
            low=0.0, high=50.0,
        ),
        Param(
            "moves", MOVES, 200.0, "handicap_komi_moves",
            "the move (on 19x19, scaled by the board's area) at which the extra komi reaches 0",
            low=1.0, high=10000.0,
        ),
    )  # fmt: skip


DYNKOMI = Registry(
    "dynamic komi",
    (
        Choice("none", NONE, (), "no extra komi"),
        Choice(
            "linear",
            LINEAR,
            _linear_params(),
            "Baudiš 2011 (ICGA Journal 34), linear handicap compensation; Pachi uct/dynkomi.c (linear)",
        ),
        Choice(
            "adaptive",
            ADAPTIVE,
            (
                *_linear_params(),
                Param("red", RED, 0.45, "adaptive_komi_red", "below this win rate the extra komi moves our way",
                      low=0.0, high=1.0),
                Param("green", GREEN, 0.55, "adaptive_komi_green",
                      "above this win rate the extra komi moves the opponent's way", low=0.0, high=1.0),
                Param("step", STEP, 1.0, "adaptive_komi_step", "points the extra komi moves a move", low=0.0,
                      high=50.0),
                Param("max_komi", MAX_KOMI, 60.0, "adaptive_komi_limit", "the most extra komi either way",
                      low=0.0, high=500.0),
            ),
            "Baudiš 2011 (ICGA Journal 34), value-based situational compensation; Pachi uct/dynkomi.c (adaptive)",
        ),
    ),
    MAX_PARAMS,
    plural="dynamic komi modes",
)  # fmt: skip


@dataclass(frozen=True)
class GameState:
    """What the extra komi of a move depends on: the board size, the handicap stones, the moves
    played so far, the engine's colour, and (for ``adaptive``) the extra komi of the engine's last
    move and the win rate its search found (None before the engine's first move)."""

    size: int
    handicap: int
    moves: int
    color: int
    last_extra: float | None = None
    last_winrate: float | None = None


def linear_komi(values: dict[str, float], state: GameState) -> float:
    """``linear``: value x handicap stones (at most MAX_SHARE of the board's points), falling to 0
    at move ``moves`` scaled to the board."""
    if state.handicap == 0:
        return 0.0
    value = values["black_value"] if state.color == BLACK else values["white_value"]
    points = state.size * state.size
    start = min(value * state.handicap, MAX_SHARE * points)
    end = values["moves"] * points / FULL_BOARD
    return start * max(0.0, end - state.moves) / end


def extra_komi(name: str, overrides, state: GameState) -> float:
    """The extra komi (points given to White, as Pachi counts it) the search of the engine's move
    plays against, for the mode ``name`` with parameter ``overrides``."""
    choice = DYNKOMI.get_choice(name)
    values = DYNKOMI.param_values(name, overrides)
    if choice.id == NONE:
        return 0.0
    linear = linear_komi(values, state)
    if choice.id == LINEAR or state.last_extra is None or state.last_winrate is None or linear > 0.0:
        return linear
    # adaptive, past the linear phase: the engine winning means giving the opponent more, which
    # is more komi to White when the engine is Black and less when it is White
    towards_opponent = 1.0 if state.color == BLACK else -1.0
    extra = state.last_extra
    if state.last_winrate > values["green"]:
        extra += towards_opponent * values["step"]
    elif state.last_winrate < values["red"]:
        extra -= towards_opponent * values["step"]
    return max(-values["max_komi"], min(values["max_komi"], extra))
