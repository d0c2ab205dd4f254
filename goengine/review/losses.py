"""Each move judged by the searches of the positions before and after it, and the biggest mistakes.

The loss of a move, defined once here and used everywhere (the comments of the review SGF, the
plot's marks, the table):

    loss = value(before, for the mover) - value(after, for the mover)

where ``before`` is the position the move was played in and ``after`` the one it made, and a
position's value is its search's figures for the best move there (``Evaluation``: the most
visited move's win rate and score lead). ``value(before)`` is what the mover could expect with
the search's best move; ``value(after)`` is what the mover can expect after the move played,
seen from the mover (the search there is the opponent's: its win rate w and lead s count as
1 - w and -s for the mover). The loss comes in two units: win rate (0..1; the review shows it
in percentage points) and score (points). A move as good as the search's best loses about 0;
a loss can come out below 0 when the search found more after the move than before it (a move
it had underrated). Every figure is taken from Black's side first (``Evaluation.black_winrate``,
``black_lead``) and its sign turned for White, so the definition holds whoever moved before.

The best move's figures flatter the side to move a little (the search is still exploring the
opponent's replies under it), in the position before a move and, for the opponent, in the
position after: at small budgets every move seems to lose a few percent. The ranking of the
mistakes and the large losses are what to read.
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
    def winrate_loss(self) -> float:
        """The win rate the move gave up, for its player (module docstring), 0..1."""
        return self.sign * (self.before.black_winrate - self.after.black_winrate)

    @property
    def score_loss(self) -> float:
        """The points the move gave up, for its player (module docstring)."""
        return self.sign * (self.before.black_lead - self.after.black_lead)

    @property
    def best(self) -> int:
        """The search's best move in the position before it."""
        return self.before.best

    @property
    def was_best(self) -> bool:
        return self.point == self.before.best


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
