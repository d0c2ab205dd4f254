"""The review SGF: the game as the file has it, with the review's figures on its main line.

Every node of a reviewed move carries, after its own comment:
- ``SBKV``, Black's win rate in the position after the move (``MoveReview.black_winrate_after``:
  the move's own figures in the search before it, as the loss reads them), a percentage rounded to two
  decimals (``55.25``): the property Sabaki writes while it evaluations and reads back into its
  win-rate graph (``src/modules/sabaki.js`` and ``src/components/sidebars/WinrateGraph.js``
  in SabakiHQ/Sabaki: the graph's point at a node's depth is its ``SBKV``); the node before the
  first move (the root) carries the first position's;
- a comment: Black's win rate and the score lead after the move and which search they come from,
  the move's loss (``goengine.review.losses``), the search's best move in its place with its figures and line;
- when the best move was another, that line as a variation beside the move (at most
  ``LINE_MOVES`` moves), so a viewer can step through it.

The root's comment says how the review was made: the budget, the komi, the count.
"""

from __future__ import annotations

from collections.abc import Sequence

from goengine import coords, sgf, version
from goengine.board import BLACK, WHITE
from goengine.review.evaluate import Evaluation
from goengine.review.gamefile import ReviewGame
from goengine.review.losses import COLOR_NAMES, MoveReview, lead_text

LINE_MOVES = 10  # moves of the best line written as a variation and in the comment


def sbkv(black_winrate: float) -> str:
    """Black's win rate as Sabaki writes ``SBKV``: a percentage rounded to two decimals, with no
    trailing zeros (JavaScript's ``(Math.round(x * 100) / 100).toString()``)."""
    value = round(100.0 * black_winrate, 2)
    return f"{value:.2f}".rstrip("0").rstrip(".")


def position_text(black_winrate: float, black_lead: float) -> str:
    """``Black 55.2 %, B+3.5``: a position's win rate for Black and its score lead."""
    return f"Black {100 * black_winrate:.1f} %, {lead_text(black_lead)}"


def line(evaluation: Evaluation, moves: int = LINE_MOVES) -> tuple[tuple[int, int], ...]:
    """The best line of ``evaluation`` as moves ``(color, point)``, from its side to move on."""
    color = evaluation.to_move
    result = []
    for point in evaluation.pv[:moves]:
        result.append((color, point))
        color = WHITE if color == BLACK else BLACK
    return tuple(result)


def move_note(size: int, review: MoveReview) -> sgf.Note:
    """The note of one move's node (module docstring)."""
    before = review.before
    name = f"{'B' if review.color == BLACK else 'W'} {coords.to_gtp(size, review.point)}"
    mover = COLOR_NAMES[review.color]
    best = coords.to_gtp(size, before.best)
    mover_rate = before.winrate if before.to_move == review.color else 1 - before.winrate
    best_line = " ".join(coords.to_gtp(size, p) for _, p in line(before))
    text = [
        f"goengine: {position_text(review.black_winrate_after, review.black_lead_after)} "
        f"({'the move in the search before it' if review.judged_before else 'the search after it'})",
        f"Move {review.number} ({name}): loss {100 * review.winrate_loss:.1f} % of {mover}'s win rate, "
        f"{review.score_loss:.1f} points.",
    ]
    if review.was_best:
        text.append(f"It is the search's best move ({mover} {100 * mover_rate:.1f} %): {best_line}")
    else:
        text.append(f"Best: {best} ({mover} {100 * mover_rate:.1f} %, {lead_text(before.black_lead)}): {best_line}")
    variation = () if review.was_best else line(before)
    return sgf.Note(
        comment="\n".join(text),
        properties=(("SBKV", sbkv(review.black_winrate_after)),),
        variation=variation,
        variation_comment=f"goengine's best instead of move {review.number}: {best} "
        f"({mover} {100 * mover_rate:.1f} %, {lead_text(before.black_lead)})",
    )


def header(game: ReviewGame, budget: str, white_handicap_bonus: str = "0") -> str:
    """The root's comment: who reviewed, at what budget, with which komi and count."""
    return (
        f"Reviewed by goengine {version.full()} at {budget} a position, {game.terms(white_handicap_bonus)}. "
        "SBKV on each node: Black's win rate after its move (Sabaki's graph). A move's loss: its "
        "player's win rate and score with the search's best move, less those of the move played, both "
        "from the search of the position it was played in (from the search after it when the move had "
        "too few visits there); the search's best move loses nothing."
    )


def review_sgf(
    game: ReviewGame,
    evaluations: Sequence[Evaluation],
    reviews: Sequence[MoveReview],
    budget: str,
    white_handicap_bonus: str = "0",
) -> bytes:
    """The review SGF of ``game``: its file with the notes of ``reviews`` (one a move) and the
    first position's ``SBKV`` on the node before the first move; ``budget`` in words, the
    handicap bonus the review counted (``ReviewGame.terms``)."""
    start = sgf.Note(
        comment=f"goengine, before move {game.first_number}: "
        f"{position_text(evaluations[0].black_winrate, evaluations[0].black_lead)}",
        properties=(("SBKV", sbkv(evaluations[0].black_winrate)),),
    )
    notes = [move_note(game.size, review) for review in reviews]
    return sgf.annotate(game.data, notes, start=start, header=header(game, budget, white_handicap_bonus))
