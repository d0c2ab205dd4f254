"""The ``learned`` playout policy (``goengine.kernels.learned``), its neighbourhood codes
(``kernels.neighbourhood``) and its features (``kernels.playout_features``): the codes against a
naive reading of the board, the incremental rates against rates computed from scratch after every
move of whole playouts, and the draws against the model's exact softmax.
"""

from __future__ import annotations

import naive
import numpy as np
import pytest
from helpers import grid_of, make_search, random_position, run, to_rc

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, ZOBRIST, Board
from goengine.kernels import board as kb
from goengine.kernels import learned as kl
from goengine.kernels import neighbourhood as kn
from goengine.kernels import playout as kp
from goengine.kernels import playout_features as kpf
from goengine.kernels.policy import LEARNED
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import table
from goengine.playout_model import FIRST_CLASS, PlayoutModel, canonical_codes
from goengine.playout_training import class_indices, new_model, set_weights, weights_of


def random_model(seed: int, classes: int = 3000, spread: float = 1.0) -> PlayoutModel:
    """A model of ``classes`` known classes with random weights (flags that reject: negative)."""
    rng = np.random.default_rng(seed)
    codes = np.sort(rng.choice(np.unique(canonical_codes()), classes, replace=False)).astype(np.int32)
    model = new_model(codes)
    x = weights_of(model)
    n = model.n_classes
    x[: 2 * n] = rng.normal(0, spread, 2 * n)
    x[2 * n : 2 * n + 14] = rng.normal(0, 0.5, 14)
    x[2 * n + 14 :] = (1.0, -1.5, -1.0)
    set_weights(model, x)
    model.refresh()
    return model


def state_for(board: Board) -> tuple:
    return kl.new_state(board.pts.shape[1], board.size + 2)


@pytest.mark.parametrize(("size", "seed", "moves"), [(5, 1, 12), (9, 2, 40), (9, 3, 70), (13, 4, 90), (19, 5, 160)])
def test_codes_are_the_neighbourhood_read_by_flood_fills(size, seed, moves):
    board, game = random_position(size, seed, moves)
    classes = np.zeros(board.pts.shape[1], dtype=np.int64)
    kn.chain_classes(board.pts, board.meta, classes)
    grid = grid_of(board.pts, size)
    for p in board.points():
        if board.color_at(p) == 0:
            r, c = to_rc(size, p)
            assert kn.code_of(board.pts, size + 2, p, classes) == naive.neighbourhood_code(grid, r, c), (p, str(board))


@pytest.mark.parametrize(("size", "seed", "moves"), [(5, 6, 15), (9, 7, 60), (9, 8, 90), (19, 9, 250)])
def test_eyes_and_suicides_read_from_the_code_are_the_boards(size, seed, moves):
    board, _ = random_position(size, seed, moves)
    classes = np.zeros(board.pts.shape[1], dtype=np.int64)
    kn.chain_classes(board.pts, board.meta, classes)
    for p in board.points():
        if board.color_at(p) != 0:
            continue
        code = kn.code_of(board.pts, size + 2, p, classes)
        for c in (BLACK, WHITE):
            assert kn.is_eye(code, c) == kb.is_eye(board.pts, board.meta, np.int64(p), np.int64(c))
            assert kn.is_suicide(code, c) == (not kb.is_legal(board.pts, board.meta, np.int64(p), np.int64(c))) or (
                p == board.meta[kb.KO] and c == board.meta[kb.KO_COLOR]
            )


def test_swapping_the_colours_twice_gives_the_code_back_and_the_canonical_form_ignores_symmetry():
    canonical = canonical_codes()
    board = Board.from_ascii(
        """
        . X O . .
        X . O . .
        . X . . .
        . . . . .
        . . . . .
        """
    )
    classes = np.zeros(board.pts.shape[1], dtype=np.int64)
    kn.chain_classes(board.pts, board.meta, classes)
    here = kn.code_of(board.pts, 7, coords.point(5, 1, 1), classes)
    assert kn.swap_colours(kn.swap_colours(here)) == here
    mirrored = Board.from_ascii(
        """
        . . O X .
        . . O . X
        . . . X .
        . . . . .
        . . . . .
        """
    )
    kn.chain_classes(mirrored.pts, mirrored.meta, classes)
    there = kn.code_of(mirrored.pts, 7, coords.point(5, 1, 3), classes)
    assert here != there and canonical[here] == canonical[there]
    assert len(np.unique(canonical)) < kn.N_CODES // 7  # about an eighth, less the symmetric ones


def rates_from_scratch(board_pts, board_meta, model, width):
    fresh = kl.new_state(board_pts.shape[1], width)
    kl.start(board_pts, board_meta, model, fresh)
    return fresh


@pytest.mark.parametrize(("size", "seed"), [(5, 1), (9, 2), (9, 3), (13, 4), (19, 5)])
def test_the_rates_kept_move_by_move_are_the_rates_computed_afresh(size, seed):
    """A whole playout of the learned policy, captures and all: after every move the rates, row
    sums and totals of both colours are those ``start`` computes from the position."""
    model = random_model(seed).arrays
    pts, meta = kb.new_board(np.int64(size))
    state = kl.new_state(pts.shape[1], size + 2)
    rng = new_state(seed)
    kl.start(pts, meta, model, state)
    captures = 0
    for _ in range(3 * size * size):
        c = meta[kb.TO_MOVE]
        p = kl.draw(pts, meta, ZOBRIST, model, state, c, rng)
        if p == PASS:
            kb.play_pass(meta, c)
            if meta[kb.PASSES] >= 2:
                break
            continue
        assert kb.is_legal(pts, meta, p, c) and not kb.is_eye(pts, meta, p, c)
        captures += kl.play(pts, meta, ZOBRIST, model, state, p, c)
        fresh = rates_from_scratch(pts, meta, model, size + 2)
        for k in (2, 3, 4):  # rates, row sums, totals
            assert np.array_equal(state[k], fresh[k])
    assert captures > 0


def exact_distribution(board: Board, model: PlayoutModel) -> dict[int, float]:
    """The model's probability of each candidate of the side to move: the softmax of the scores
    ``kernels.playout_features.candidates`` gives the features of (the training's model)."""
    n_points = board.pts.shape[1]
    points = np.zeros(kpf.MAX_CANDIDATES, dtype=np.int64)
    keys = np.zeros(kpf.MAX_CANDIDATES, dtype=np.int64)
    words = np.zeros(kpf.MAX_CANDIDATES, dtype=np.int64)
    n = kpf.candidates(
        board.pts, board.meta, ZOBRIST, canonical_codes(), np.zeros(n_points, dtype=np.int64), points, keys, words
    )
    classes = class_indices(model, keys[:n].astype(np.int32))
    scores = []
    for cls, word in zip(classes, words[:n], strict=True):
        s = model.class_weights[cls]
        if word & kpf.FLAG_RESPONSE:
            s += model.response_weights[cls]
        for t, shift in ((0, kpf.DIST_LAST_SHIFT), (1, kpf.DIST_OWN_SHIFT)):
            d = (word >> shift) & 7
            s += model.distance_weights[t, d] if d else 0.0
        for bit, flag in ((kpf.FLAG_NAKADE, 0), (kpf.FLAG_SELF_ATARI, 1), (kpf.FLAG_FAILED_ESCAPE, 2)):
            s += model.flag_weights[flag] if word & bit else 0.0
        scores.append(s)
    scores = np.array(scores)
    p = np.exp(scores - scores.max())
    return dict(zip(points[:n].tolist(), p / p.sum(), strict=True))


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_the_draws_follow_the_models_softmax(seed):
    """20,000 draws from one position (a last move and the mover's own, self-ataris and escapes
    about) against the exact probabilities: every point within four standard errors, and the
    chi-square of the counts below the 0.999 quantile for its degrees of freedom."""
    board, _ = random_position(9, seed, 45)
    model = random_model(seed, spread=1.5)
    wanted = exact_distribution(board, model)
    pts, meta = board.pts.copy(), board.meta.copy()
    state = state_for(board)
    kl.start(pts, meta, model.arrays, state)
    rng = new_state(seed)
    draws = 20000
    counts: dict[int, int] = {}
    for _ in range(draws):
        p = int(kl.draw(pts, meta, ZOBRIST, model.arrays, state, meta[kb.TO_MOVE], rng))
        counts[p] = counts.get(p, 0) + 1
    assert set(counts) <= set(wanted)
    chi2 = 0.0
    for p, prob in wanted.items():
        got = counts.get(p, 0)
        assert abs(got / draws - prob) <= 4 * np.sqrt(prob * (1 - prob) / draws) + 2e-4, (p, got / draws, prob)
        chi2 += (got - draws * prob) ** 2 / (draws * prob)
    from scipy.stats import chi2 as chi2_distribution

    assert chi2 < chi2_distribution.ppf(0.999, len(wanted) - 1)


def test_with_no_knowledge_every_playable_point_is_as_likely():
    """The uniform model (every weight 0) is the uniform policy: each point that is legal and
    not the mover's eye drawn as often as the others."""
    board, _ = random_position(9, 21, 30)
    model = PlayoutModel.uniform()
    pts, meta = board.pts.copy(), board.meta.copy()
    state = state_for(board)
    kl.start(pts, meta, model.arrays, state)
    rng = new_state(3)
    c = int(meta[kb.TO_MOVE])
    playable = [
        p for p in board.points() if board.is_legal(c, p) and not kb.is_eye(pts, meta, np.int64(p), np.int64(c))
    ]
    draws = 8000
    counts = {p: 0 for p in playable}
    for _ in range(draws):
        counts[int(kl.draw(pts, meta, ZOBRIST, model.arrays, state, np.int64(c), rng))] += 1
    expected = draws / len(playable)
    assert all(abs(n - expected) < 5 * np.sqrt(expected) for n in counts.values())


def test_playouts_end_legally_and_fill_no_eye():
    model = random_model(31).arrays
    for size in (5, 9, 19):
        pts, meta = kb.new_board(np.int64(size))
        scores = np.zeros(50, dtype=np.int64)
        moves = kp.run_playouts(
            pts, meta, ZOBRIST, new_state(size), np.int64(LEARNED), np.zeros(18), (table(), model), np.int64(50),
            np.int64(3 * size * size), scores,
        )  # fmt: skip
        assert 0 < moves < 50 * 3 * size * size and np.all(np.abs(scores) <= size * size)


def test_a_search_with_the_learned_policy_finds_the_capture():
    """The search drives the policy through its own playout loop: a chain of six in atari is
    taken."""
    board = Board.from_ascii(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . X X X . . . .
        . X O O O X . . .
        . X O O O X . . .
        . . X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    search = make_search("rave", playouts=600, playout="learned", prior="none")
    assert search.knowledge[2][1].shape[0] > FIRST_CLASS  # the shipped model, not the stand-in
    result = run(search, board, 7.5)
    assert coords.to_gtp(9, result.best.move) == "E4"
