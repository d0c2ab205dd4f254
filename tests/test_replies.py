"""The last good replies with forgetting (``goengine.kernels.replies``, LGRF-2): the kernel that
learns them against a slow reference written from Baier and Drake's description, the playout
rule that plays them (``kernels.policy.last_good_reply``) on positions with known answers, and a
search that teaches them: the table fills with points of the board, and starts afresh when the
board size changes.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import NO_REPLIES

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, ZOBRIST, Board
from goengine.config import Budget, SearchConfig, SearchRequest
from goengine.kernels import policy as kpolicy
from goengine.kernels.replies import learn_replies, new_replies, no_previous
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import table
from goengine.policies import POLICIES, learns_replies
from goengine.search import Search

PATTERNS = table()


def naive_learn(table: dict, seq: list[int], first_color: int, black_wins: bool) -> None:
    """Baier and Drake's update on a dict ``(colour, previous or None, move) -> reply``: each move
    after the first two, by the player who won, becomes the reply to the move before it and to the
    two before; by the player who lost, it is deleted where it is the stored reply."""
    for t in range(2, len(seq)):
        m, prev, prev2 = seq[t], seq[t - 1], seq[t - 2]
        if m == PASS or prev == PASS:
            continue
        color = first_color if t % 2 == 0 else 3 - first_color
        keys = [(color, None, prev)] + ([(color, prev2, prev)] if prev2 != PASS else [])
        for key in keys:
            if (color == BLACK) == black_wins:
                table[key] = m
            elif table.get(key) == m:
                del table[key]


def as_dict(replies: np.ndarray) -> dict:
    none = no_previous(replies)
    found = {}
    for color, a, b in zip(*np.nonzero(replies != PASS), strict=True):
        found[(int(color), None if a == none else int(a), int(b))] = int(replies[color, a, b])
    return found


def test_learning_and_forgetting_match_the_papers_rule_on_random_iterations():
    rnd = random.Random(7)
    points = list(range(12, 40)) + [PASS]  # few points, so moves repeat and replies get forgotten
    replies, expected = new_replies(), {}
    for _ in range(400):
        seq = [rnd.choice(points) for _ in range(rnd.randrange(2, 30))]
        first, black_wins = rnd.choice((BLACK, WHITE)), rnd.random() < 0.5
        learn_replies(replies, np.array(seq, dtype=np.int64), np.int64(len(seq)), np.int64(first), black_wins)
        naive_learn(expected, seq, first, black_wins)
    assert as_dict(replies) == expected
    assert any(key[1] is None for key in expected) and any(key[1] is not None for key in expected)


def test_a_winning_reply_is_stored_and_a_losing_one_forgotten():
    replies = new_replies()
    # Black (first) 20, White 21, Black 22, White 23; Black wins: Black's 22 answers 21 (after 20)
    seq = np.array([20, 21, 22, 23], dtype=np.int64)
    learn_replies(replies, seq, np.int64(4), np.int64(BLACK), True)
    none = no_previous(replies)
    assert replies[BLACK, none, 21] == 22 and replies[BLACK, 20, 21] == 22
    assert replies[WHITE, none, 22] == PASS  # White lost: nothing learnt for White's 23
    # the same moves lost: Black's replies are forgotten
    learn_replies(replies, seq, np.int64(4), np.int64(BLACK), False)
    assert replies[BLACK, none, 21] == PASS and replies[BLACK, 20, 21] == PASS
    assert replies[WHITE, none, 22] == 23  # and White's won


# Black to move after White's E5 (then Black's D5, White's E5 is the last move)
def position_after_two_moves():
    board = Board(9)
    board.play(BLACK, coords.point(9, 4, 3))  # D5
    board.play(WHITE, coords.point(9, 4, 4))  # E5
    return board


def reply_moves(board, replies, n=200):
    params = POLICIES.array(
        "heavy", {"capture": 0, "escape": 0, "pattern": 0, "nakade": 0, "self_atari": 0, "last_good_reply": 1}
    )
    pts, meta = board.pts.copy(), board.meta.copy()
    rng = new_state(3)
    c = np.int64(board.to_move)
    return {int(kpolicy.heavy_move(params, PATTERNS, replies, pts, meta, ZOBRIST, c, rng)) for _ in range(n)}


def test_the_playout_plays_the_reply_to_the_last_two_moves_before_the_reply_to_the_last():
    board = position_after_two_moves()
    d5, e5 = coords.point(9, 4, 3), coords.point(9, 4, 4)
    e4, e6 = coords.point(9, 5, 4), coords.point(9, 3, 4)
    replies = new_replies()
    replies[BLACK, no_previous(replies), e5] = e6
    assert reply_moves(board, replies) == {e6}  # LGR-1 alone
    replies[BLACK, d5, e5] = e4
    assert reply_moves(board, replies) == {e4}  # LGR-2 first
    # a stored reply that is no longer playable (occupied) falls through to LGR-1
    replies[BLACK, d5, e5] = d5
    assert reply_moves(board, replies) == {e6}
    # without replies the rule offers nothing: random moves
    assert len(reply_moves(board, new_replies())) > 20
    assert len(reply_moves(board, NO_REPLIES)) > 20


def test_learning_is_on_only_for_heavy_playouts_that_read_the_replies():
    assert not learns_replies("heavy")
    assert learns_replies("heavy", (("last_good_reply", 0.5),))
    assert not learns_replies("uniform")
    assert POLICIES.array("heavy")[kpolicy.HEAVY_LAST_GOOD_REPLY] == 0.0  # off unless asked for


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_teaches_the_replies_and_a_new_board_size_clears_them(threads):
    config = SearchConfig(playout_params=(("last_good_reply", 1.0),), threads=threads, seed=5)
    search = Search(config)
    board = Board(9)
    search.run(board, 7.5, SearchRequest(Budget(playouts=400)))
    learnt = search._replies[search._replies != PASS]
    assert learnt.size > 50
    on_board = set(board.points())
    assert set(learnt.tolist()) <= on_board  # every reply is a point of the 9x9 board
    search.run(Board(7), 7.5, SearchRequest(Budget(playouts=1)))
    assert set(search._replies[search._replies != PASS].tolist()) <= set(Board(7).points())
    search.close()
    # the default policy learns nothing and keeps no table
    plain = Search(SearchConfig(seed=5))
    plain.run(board, 7.5, SearchRequest(Budget(playouts=100)))
    assert plain._replies.shape == (3, 1, 1)
    plain.close()


def test_a_late_reply_gives_way_to_a_capture_an_early_one_does_not():
    # White's last move E5 is a lone stone in atari (Black D5, E4, E6 around it): Black captures
    # at F5; Black's stored reply to E5 is the corner A1
    board = Board(9)
    for color, (r, c) in [
        (BLACK, (4, 3)),  # D5
        (WHITE, (0, 0)),  # A9
        (BLACK, (5, 4)),  # E4
        (WHITE, (1, 0)),  # A8
        (BLACK, (3, 4)),  # E6
        (WHITE, (4, 4)),  # E5, in atari
    ]:
        board.play(color, coords.point(9, r, c))
    f5, a1, e5 = coords.point(9, 4, 5), coords.point(9, 8, 0), coords.point(9, 4, 4)
    replies = new_replies()
    replies[BLACK, no_previous(replies), e5] = a1

    def moves(late: int) -> set[int]:
        params = POLICIES.array(
            "heavy",
            {"capture": 1, "escape": 0, "pattern": 0, "nakade": 0, "self_atari": 0, "last_good_reply": 1}
            | {"reply_late": late},
        )
        rng = new_state(3)
        pts, meta = board.pts.copy(), board.meta.copy()
        return {
            int(kpolicy.heavy_move(params, PATTERNS, replies, pts, meta, ZOBRIST, np.int64(BLACK), rng))
            for _ in range(50)
        }

    assert moves(0) == {a1}  # the reply first, as Orego plays it
    assert moves(1) == {f5}  # the capture first, then the reply
    assert POLICIES.array("heavy")[kpolicy.HEAVY_REPLY_LATE] == 0.0  # first unless asked for
