"""Each move judged by the search of the position it was played in, and the biggest mistakes.

The loss of a move, defined once here and used everywhere (the comments of the review SGF, the
plot, the table):

    loss = value(best move, for the mover) - value(move played, for the mover)

both read from the search of the position the move was played in (``before``), when that search
gave the move played enough visits for its figures to stand for its value
(``Evaluation.value_of``); a move that is the search's own best move loses nothing. A position's
value is its search's figures for its best move (``Evaluation``: the most visited move's win rate
and score lead). Otherwise (a move the search hardly looked at) the move's value is read from the
search of the position it made (``after``): that search is the opponent's, so its win rate w and
lead s count as 1 - w and -s for the mover. The loss comes in two units: win rate (0..1; the
review shows it in percentage points) and score (points). Every figure is taken from Black's side
first (``Evaluation.black_winrate``, ``black_lead``) and its sign turned for White, so the
definition holds whoever moved before.

Why from the search before: the best move's figures flatter the side to move (the search is still
exploring the opponent's replies under it), in every position. Judged against the next position's
search, every move lost a few percent and the curves sawed from move to move with whose turn it
was; two moves of one search are flattered alike, so their difference is the mistake. The value
after each move (``MoveReview.black_winrate_after``, what the plot draws and the SGF's ``SBKV``
holds) is read the same way, so the curves follow the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goengine import coords
from goengine.board import BLACK, WHITE
from goengine.review.evaluate import Evaluation

COLOR_NAMES = {BLACK: "Black", WHITE: "White"}


@dataclass(frozen=True)
class MoveReview:
    """One move: its ``number`` in the game, ``color``, ``point`` (or PASS), and the evaluations
    of the positions ``before`` and ``after`` it."""

    number: int
    color: int
    point: int
    before: Evaluation
    after: Evaluation

    @property
    def sign(self) -> float:
        """+1 for Black's moves, -1 for White's: Black's figures times this are the mover's."""
        return 1.0 if self.color == BLACK else -1.0

    @property
    def played_value(self) -> tuple[float, float] | None:
        """The move's win rate and lead for its player in the search before it, when that search
        gave it enough visits (``Evaluation.value_of``); None otherwise."""
        if self.before.to_move != self.color:
            return None  # a move out of turn: the search before was the other side's
        return self.before.value_of(self.point)

    @property
    def judged_before(self) -> bool:
        """Whether the move is judged by the search of the position it was played in."""
        return self.was_best or self.played_value is not None

    @property
    def black_winrate_after(self) -> float:
        """Black's win rate after the move (module docstring): the move's own in the search before
        it when judged there, else the search after's."""
        if self.was_best:
            return self.before.black_winrate
        value = self.played_value
        if value is None:
            return self.after.black_winrate
        return value[0] if self.color == BLACK else 1.0 - value[0]

    @property
    def black_lead_after(self) -> float:
        """Black's score lead after the move, read as ``black_winrate_after``."""
        if self.was_best:
            return self.before.black_lead
        value = self.played_value
        if value is None:
            return self.after.black_lead
        return value[1] if self.color == BLACK else -value[1]

    @property
    def winrate_loss(self) -> float:
        """The win rate the move gave up, for its player (module docstring), 0..1."""
        return self.sign * (self.before.black_winrate - self.black_winrate_after)

    @property
    def score_loss(self) -> float:
        """The points the move gave up, for its player (module docstring)."""
        return self.sign * (self.before.black_lead - self.black_lead_after)

    @property
    def best(self) -> int:
        """The search's best move in the position before it."""
        return self.before.best

    @property
    def was_best(self) -> bool:
        """Whether the move is the search's best in the position it was played in (searched for
        its player): it loses nothing."""
        return self.point == self.before.best and self.before.to_move == self.color


def review_moves(
    moves: Sequence[tuple[int, int]], evaluations: Sequence[Evaluation], first_number: int = 1
) -> list[MoveReview]:
    """Each of ``moves`` (``(color, point)``) judged by ``evaluations``, one a position: before the
    first move, ..., after the last (``len(moves) + 1`` of them). ``first_number``: the number of
    ``moves[0]`` in the game."""
    if len(evaluations) != len(moves) + 1:
        raise ValueError(f"{len(moves)} moves need {len(moves) + 1} evaluations, not {len(evaluations)}")
    return [
        MoveReview(first_number + i, color, point, evaluations[i], evaluations[i + 1])
        for i, (color, point) in enumerate(moves)
    ]


def curve(evaluations: Sequence[Evaluation], reviews: Sequence[MoveReview]) -> list[tuple[float, float]]:
    """Black's win rate and score lead in every position of the game, as the review shows them:
    the first position's search, then after each move its ``black_winrate_after`` and
    ``black_lead_after`` (module docstring)."""
    first = evaluations[0]
    return [(first.black_winrate, first.black_lead)] + [(r.black_winrate_after, r.black_lead_after) for r in reviews]


def mistakes(reviews: Sequence[MoveReview], color: int, count: int = 5) -> list[MoveReview]:
    """``color``'s ``count`` biggest mistakes, the largest win-rate loss first (ties broken by the
    score loss, then by the earlier move); moves that lost nothing are left out."""
    own = [r for r in reviews if r.color == color and (r.winrate_loss > 0 or r.score_loss > 0)]
    own.sort(key=lambda r: (-r.winrate_loss, -r.score_loss, r.number))
    return own[:count]


def lead_text(black_lead: float) -> str:
    """A score lead as ``B+3.5`` or ``W+0.5`` (``0`` when even at a tenth of a point)."""
    if abs(black_lead) < 0.05:
        return "0"
    return f"{'B' if black_lead > 0 else 'W'}+{abs(black_lead):.1f}"


def table(reviews: Sequence[MoveReview], size: int, count: int = 5) -> str:
    """Each colour's biggest mistakes (``mistakes``) as a text table: move number, the move
    played, the search's best, the win-rate loss (percentage points) and the score loss."""
    lines = []
    for color in (BLACK, WHITE):
        found = mistakes(reviews, color, count)
        lines.append(f"{COLOR_NAMES[color]}'s biggest mistakes:")
        if not found:
            lines.append("  none")
            continue
        lines.append(f"  {'move':>5}  {'played':>6}  {'best':>6}  {'win rate loss':>13}  {'score loss':>10}")
        for r in found:
            lines.append(
                f"  {r.number:>5}  {coords.to_gtp(size, r.point):>6}  {coords.to_gtp(size, r.best):>6}  "
                f"{100 * r.winrate_loss:>11.1f} %  {r.score_loss:>10.1f}"
            )
    return "\n".join(lines)
