"""The ``goengine`` command. The GTP front-end is issue 4; until then the command reports the
version and plays one random game for a look at the board and the playout policy."""

import argparse
import sys

from goengine import __version__


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="goengine", description="Monte-Carlo tree search Go engine.")
    parser.add_argument("--version", action="version", version=f"goengine {__version__}")
    parser.add_argument("--random-game", action="store_true", help="play one uniformly random game and print it")
    parser.add_argument("--size", type=int, default=9, help="board size, 2..19 (default 9)")
    parser.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    if not args.random_game:
        parser.print_help(sys.stderr)
        return 0
    from goengine.board import Board
    from goengine.kernels.rng import new_state

    try:
        board = Board(args.size)
    except ValueError as err:
        parser.error(str(err))
    rng = new_state(args.seed)
    while not board.is_over and len(board.moves) < 3 * args.size * args.size:
        board.play(board.to_move, board.random_move(rng))
    score = board.score(args.komi)
    winner = "B" if score > 0 else "W"
    print(board.render())
    print(f"{len(board.moves)} moves, seed {args.seed}, result {winner}+{abs(score):g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
