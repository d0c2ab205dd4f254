"""Learning the move model (``goengine.training``, ``goengine.kernels.learn``): reading SGF
collections, the split by date, the shape harvest and dictionary, the extraction of candidate
features, the fit, and the measures.

Reading guide: collections are written to temporary files (``.sgf`` and ``.sgf.xz``); the real games
are ``tests/data/tom9d_six_games.sgf`` (six games of the project's training file, as they are
there), and ``tests/data/tom9d_broken_games.sgf`` a collection with a game broken in each way a game
is skipped for: lines 1, 4 and 5 are lines 29,060 to 29,062 of the training file as they are there
(line 4's White T2, move 348, repeats an earlier position: positional superko), line 2 cannot be
read (a property with no value), line 3 plays on an occupied point. Harvest and extraction are
checked against ``tests/naive_features.py`` and against ``position_features`` on a ``Board``
replaying the same game; the fit's objective and gradient against a plain-Python softmax and finite
differences; the ranks against positions whose ties are known.
"""

from __future__ import annotations

import lzma
import math
import random
import re
from collections import Counter
from pathlib import Path

import naive_features as nf
import numpy as np
import pytest

from goengine import coords, training
from goengine.board import BLACK, PASS, WHITE, Board
from goengine.kernels import features as kf
from goengine.kernels import learn as kl
from goengine.movemodel import geometry, shape_keys, unpack_contents
from goengine.training import Positions, Ranks, Skipped, Split

DATA = Path(__file__).parent / "data"
REAL = DATA / "tom9d_six_games.sgf"
BROKEN = DATA / "tom9d_broken_games.sgf"

GAME_A = "(;GM[1]FF[4]SZ[9]KM[7]DT[2010-02-03];B[ee];W[cc];B[gc];W[tt];B[tt])"
GAME_B = "(;GM[1]FF[4]SZ[9]DT[2011-06-01]AB[cc][gg]PL[W];W[ee];B[ce])"
GAME_C = "(;FF[4]SZ[13]C[a comment with ( and \\] inside];B[aa];W[bb])"


def write(path: Path, text: str) -> Path:
    if path.suffix == ".xz":
        with lzma.open(path, "wt") as handle:
            handle.write(text)
    else:
        path.write_text(text)
    return path


def real_games(limit=None):
    return training.read_games(REAL, limit=limit)


def points(size, *vertices):
    return [coords.from_gtp(size, v) for v in vertices]


# ---- reading games


@pytest.mark.parametrize("name", ["games.sgf", "games.sgf.xz"])
def test_read_games_one_a_line(tmp_path, name):
    path = write(tmp_path / name, f"{GAME_A}\n{GAME_B}\n{GAME_C}\n")
    games = training.read_games(path)
    assert [(g.line, g.date, g.size) for g in games] == [(1, "2010-02-03", 9), (2, "2011-06-01", 9), (3, "", 13)]
    a, b, c = games
    assert a.source == str(path) and a.where == f"{path}:1"
    assert a.moves.tolist() == [*points(9, "E5", "C7", "G7"), PASS, PASS]
    assert a.colors.tolist() == [BLACK, WHITE, BLACK, WHITE, BLACK]
    assert len(a.setup_points) == 0
    assert sorted(b.setup_points.tolist()) == sorted(points(9, "C7", "G3")) and b.setup_colors.tolist() == [1, 1]
    assert b.moves.tolist() == points(9, "E5", "C5") and b.colors.tolist() == [WHITE, BLACK]
    assert c.moves.tolist() == points(13, "A13", "B12")


def test_read_games_of_several_lines_name_the_line_each_starts_on(tmp_path):
    text = f"{GAME_A[:20]}\n{GAME_A[20:]}\n\n(;GM[1]SZ[9]\nC[two\nlines]\n;B[aa]\n;W[bb])\n{GAME_C}"
    games = training.read_games(write(tmp_path / "g.sgf", text))
    assert [g.line for g in games] == [1, 4, 9]
    assert games[1].moves.tolist() == points(9, "A9", "B8")


def test_read_games_keeps_what_keep_accepts_up_to_the_limit(tmp_path):
    path = write(tmp_path / "g.sgf", "\n".join([GAME_A, GAME_B, GAME_C, GAME_A]))
    assert [g.line for g in training.read_games(path, limit=2)] == [1, 2]
    assert [g.line for g in training.read_games(path, keep=lambda g: g.size == 9)] == [1, 2, 4]
    assert [g.line for g in training.read_games(path, limit=1, keep=lambda g: g.date > "2011")] == [2]
    assert training.read_games(path, limit=0) == []


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("(;GM[1]SZ[9];B[ee];W)", "bad SGF: property with no values"),
        ("(;GM[2]SZ[9];B[ee])", "bad SGF: GM[2] is not a game of Go (GM[1])"),
        ("(;GM[1]SZ[25];B[ee])", "board size 25 is not from 5 to 19"),
        ("(;GM[1]SZ[9];B[zz])", "bad SGF: a move or set-up stone is off the 9x9 board"),
        ("(;GM[1]SZ[9]AB[aa][bb]AW[ab][ba];B[ee])", "bad SGF: setup position not legal"),
    ],
)
@pytest.mark.parametrize("name", ["c.sgf", "c.sgf.xz"])
def test_a_broken_game_is_skipped_with_its_file_and_line_or_refused_when_strict(tmp_path, game, words, name):
    path = write(tmp_path / name, f"{GAME_A}\n{GAME_C}\n{game}\n{GAME_A}\n")
    skipped = []
    assert [g.line for g in training.read_games(path, skipped=skipped)] == [1, 2, 4]
    assert skipped == [Skipped(str(path), 3, None, words)]
    with pytest.raises(ValueError) as err:
        training.read_games(path)  # strict: no list to put it in
    assert str(err.value) == f"{path}:3: {words}"


def test_every_game_that_cannot_be_read_or_replayed_is_skipped_and_named_with_line_move_and_reason():
    skipped = []
    games = training.read_games(BROKEN, skipped=skipped)
    assert [g.line for g in games] == [1, 5]
    assert [str(s) for s in skipped] == [
        f"{BROKEN}:2: bad SGF: property with no values",
        f"{BROKEN}:3: move 3 (B D16) is not legal: the point is occupied",
        f"{BROKEN}:4: move 348 (W T2) is not legal: it repeats an earlier position (positional superko)",
    ]
    assert skipped[2].as_dict() == {
        "source": "tom9d_broken_games.sgf",
        "line": 4,
        "move": 348,
        "reason": "(W T2) is not legal: it repeats an earlier position (positional superko)",
    }
    with pytest.raises(ValueError, match=f"^{re.escape(str(BROKEN))}:2: bad SGF"):
        training.read_games(BROKEN)  # strict: the first one stops it
    # the superko game replays with simple ko (the kernels' rule) but not with the engine's
    superko = training.parse_game(BROKEN.read_bytes().splitlines()[3], str(BROKEN), 4)
    assert len(training.harvest([superko])[0]) == len(superko.moves) == 368  # every move, all on points
    assert training.replay(superko) == skipped[2]
    assert training.replay(games[0]) is None


def test_a_limit_counts_the_games_read_not_those_skipped():
    skipped = []
    assert [g.line for g in training.read_games(BROKEN, limit=2, skipped=skipped)] == [1, 5]
    assert len(skipped) == 3
    assert [g.line for g in training.read_games(BROKEN, limit=1, skipped=[])] == [1]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (f"{GAME_A}\n{GAME_A})\n", 2, "a ')' closes nothing"),
        (f"{GAME_A}\n\n(;GM[1]SZ[9];B[ee]\n", 3, "a game that never ends"),
        (f"{GAME_A}\n(;GM[1]SZ[9]C[an escaped end\\])\n", 2, "a game that never ends"),
    ],
)
def test_a_collection_cut_wrongly_is_skipped_where_it_goes_wrong_or_refused_when_strict(tmp_path, text, line, words):
    path = write(tmp_path / "c.sgf", f"{text}{GAME_C}\n" if "closes" in words else text)
    skipped = []
    games = training.read_games(path, skipped=skipped)
    assert skipped == [Skipped(str(path), line, None, words)]
    assert [g.size for g in games] == ([9, 9, 13] if "closes" in words else [9])  # the cut goes on after a ')'
    with pytest.raises(ValueError) as err:
        training.read_games(path)
    assert str(err.value) == f"{path}:{line}: {words}"


def test_a_file_that_is_not_xz_is_refused_with_its_name(tmp_path):
    for data in (b"(;GM[1]SZ[9];B[ee])", lzma.compress(GAME_A.encode())[:-10]):
        path = tmp_path / "bad.sgf.xz"
        path.write_bytes(data)
        with pytest.raises(ValueError, match=f"^{path}: "):
            training.read_games(path)


def test_an_illegal_move_is_refused_when_the_game_is_replayed_with_its_number(tmp_path):
    path = write(tmp_path / "i.sgf", f"{GAME_A}\n(;GM[1]SZ[9];B[ee];W[cc];B[cc])\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}:2: move 3 (B C7) is not legal: the point is occupied")):
        training.read_games(path)  # read_games replays every game it returns
    games = [training.parse_game(text, str(path), n) for n, text in enumerate(path.read_bytes().splitlines(), 1)]
    model = training.new_model(training.dictionary(*training.harvest(games[:1]), 1))
    message = re.escape(f"{path}:2: move 3 (B C7) is not legal")
    with pytest.raises(ValueError, match=message):
        training.extract(games, model)
    with pytest.raises(ValueError, match=message):
        training.harvest(games)
    with pytest.raises(ValueError, match=message):  # a position left out is checked too
        training.extract(games, model, every=2)


def test_a_ko_retaken_at_once_is_illegal_in_the_replay(tmp_path):
    # Black takes the ko at C3 (it captures B3), White retakes at once
    ko = "(;GM[1]SZ[5]AB[bb][ac][bd]AW[cb][bc][dc][cd];B[cc];W[bc])"
    path = write(tmp_path / "k.sgf", ko)
    with pytest.raises(ValueError, match=r"k.sgf:1: move 2 \(W B3\) is not legal: it retakes a ko at once"):
        training.read_games(path)
    with pytest.raises(ValueError, match=r"k.sgf:1: move 2 \(W B3\) is not legal"):
        training.harvest([training.parse_game(ko.encode(), str(path), 1)])


# ---- the split


def test_the_split_by_date():
    split = Split(validate_from="2011-05-01", tune_from="2011-03-01")
    game = training.parse_game(GAME_A.encode(), "x", 1)
    for date, part in [
        ("2008-01-01", "training"),
        ("2011-02-28", "training"),
        ("2011-03-01", "tuning"),
        ("2011-04-30", "tuning"),
        ("2011-05-01", "validation"),
        ("2011-12-28", "validation"),
        ("", "training"),
    ]:
        game.date = date
        assert split.part(game) == part, date
    assert Split().validate_from > Split().tune_from


def test_the_real_games_split_into_parts_by_date():
    parts = Counter(Split().part(g) for g in real_games())
    assert parts == {"training": 4, "validation": 2}


# ---- harvest and dictionary


def test_harvest_records_the_canonical_keys_and_surroundings_of_every_move_played():
    game = real_games(limit=1)[0]
    keys, contents = training.harvest([game])
    assert len(keys) == int((game.moves != PASS).sum()) and keys.shape[1] == kf.MAX_SHAPE + 1
    assert not keys[:, : kf.MIN_SHAPE].any()
    board = Board(19)
    row = 0
    for k, (p, c) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
        if p != PASS:
            if row % 7 == 0:  # a sample: the reference is slow
                grid = nf.Position.of(board).grid
                rc = coords.row_col(19, p)
                assert [int(keys[row, d]) for d in range(3, 11)] == [
                    nf.canonical_key(grid, rc, c, d) for d in range(3, 11)
                ], k
                assert contents[row].tolist() == nf.pack(nf.states(grid, rc, c)).tolist()
            row += 1
        board.play(c, p)


def canonical_of(contents, sizes):
    """The harvest's canonical key of shapes rebuilt from their packed surroundings: the least
    orientation hash without the size key, then the size key."""
    size_keys = geometry().size_keys[sizes][:, None]
    return ((shape_keys(unpack_contents(contents), sizes) ^ size_keys).min(axis=1)) ^ size_keys[:, 0]


@pytest.fixture(scope="module")
def harvested():
    return training.harvest(real_games(limit=4))


@pytest.mark.parametrize("min_count", [1, 3, 10])
def test_the_dictionary_keeps_the_shapes_played_min_count_times_each_with_its_core(harvested, min_count):
    keys, contents = harvested
    d = training.dictionary(keys, contents, min_count)
    training.check_dictionary(d)
    assert d.sizes[0] == 0 and d.parents[0] == -1 and d.counts[0] == 0
    # the counts: every shape played min_count times, and no other
    expected = {
        (size, int(key)): n
        for size in range(3, 11)
        for key, n in Counter(keys[:, size].tolist()).items()
        if n >= min_count
    }
    rebuilt = canonical_of(d.contents[1:], d.sizes[1:])
    got = {(int(s), int(k)): int(n) for s, k, n in zip(d.sizes[1:], rebuilt, d.counts[1:], strict=True)}
    assert got == expected
    # each shape's parent: kept, one size smaller, and the shape's own core
    for i in range(1, len(d.sizes)):
        if d.sizes[i] == kf.MIN_SHAPE:
            assert d.parents[i] == -1
            continue
        parent = d.parents[i]
        assert 1 <= parent < i and d.sizes[parent] == d.sizes[i] - 1
        assert d.counts[parent] >= d.counts[i]
        core = canonical_of(d.contents[i : i + 1], np.array([d.sizes[i] - 1]))[0]
        assert core == rebuilt[parent - 1]
    # ordered by size, then by count, most played first
    order = list(zip(d.sizes[1:].tolist(), (-d.counts[1:]).tolist(), strict=True))
    assert order == sorted(order)


def test_the_dictionary_of_a_min_count_above_every_count_is_empty(harvested):
    keys, contents = harvested
    d = training.dictionary(keys, contents, len(keys) + 1)
    assert len(d) == 0 and d.sizes.tolist() == [0]
    assert training.new_model(d).n_shapes == 0


def test_the_dictionary_of_no_moves_is_empty():
    d = training.dictionary(np.zeros((0, 11), dtype=np.uint64), np.zeros((0, 3), dtype=np.uint64), 1)
    assert len(d) == 0


def test_check_dictionary_refuses_a_shape_kept_twice(harvested):
    d = training.dictionary(*harvested, 10)
    d.sizes = np.r_[d.sizes, d.sizes[1]]
    d.contents = np.r_[d.contents, d.contents[1:2]]
    d.parents = np.r_[d.parents, d.parents[1]]
    d.counts = np.r_[d.counts, d.counts[1]]
    d.keys = np.r_[d.keys, d.keys[1]]
    with pytest.raises(ValueError, match="same canonical key"):
        training.check_dictionary(d)


def test_check_dictionary_refuses_a_shape_whose_contents_do_not_give_its_key_back(harvested):
    d = training.dictionary(*harvested, 10)
    training.check_dictionary(d)
    d.contents[1, 0] ^= np.uint64(1)  # one point of the first shape changes state
    with pytest.raises(ValueError, match="does not give its canonical key back"):
        training.check_dictionary(d)


# ---- extraction


@pytest.fixture(scope="module")
def model(harvested):
    return training.new_model(training.dictionary(*harvested, 2))


def test_extract_gives_every_position_the_features_position_features_gives_it(model):
    games = real_games(limit=2)
    data = training.extract(games, model)
    assert len(data) == sum(len(g.moves) for g in games)
    assert data.offsets[0] == 0 and data.candidates == len(data.codes) == len(data.shapes)
    k = 0
    for game in games:
        board = Board(19)
        for number, (p, c) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
            moves, codes, shapes = model.position_features(board.pts, board.meta, c)
            a, b = data.offsets[k], data.offsets[k + 1]
            assert data.codes[a:b].tolist() == codes.tolist()
            assert data.shapes[a:b].tolist() == shapes.tolist()
            assert moves[data.played[k]] == p
            assert data.move_numbers[k] == number and data.is_pass[k] == (p == PASS)
            board.play(c, p)
            k += 1
    assert (data.shapes > 0).any()  # the dictionary is met


def test_extract_every_nth_position_keeps_whole_positions(model):
    games = real_games(limit=3)
    full = training.extract(games, model)
    starts = np.r_[0, np.cumsum([len(g.moves) for g in games])]
    for every in (2, 5):
        part = training.extract(games, model, every=every)
        k = 0
        for g, game in enumerate(games):
            kept = list(range(g % every, len(game.moves), every))  # a game-dependent start
            assert part.move_numbers[k : k + len(kept)].tolist() == kept
            for number in kept:
                j = starts[g] + number
                a, b = full.offsets[j], full.offsets[j + 1]
                c, d = part.offsets[k], part.offsets[k + 1]
                assert part.codes[c:d].tolist() == full.codes[a:b].tolist()
                assert part.shapes[c:d].tolist() == full.shapes[a:b].tolist()
                assert part.played[k] == full.played[j] and part.is_pass[k] == full.is_pass[j]
                k += 1
        assert k == len(part)


def test_set_up_stones_are_no_moves(tmp_path, model):
    # two handicap stones, then White E5 and Black C5: the first position has no last move,
    # the second no move before the last
    path = write(tmp_path / "h.sgf", "(;GM[1]SZ[9]HA[2]AB[cc][gg]PL[W];W[ee];B[ce];W[tt])")
    data = training.extract(training.read_games(path), model)
    assert len(data) == 3

    def group(k, g):
        a, b = data.offsets[k], data.offsets[k + 1]
        return {int(kf.value_of(code, g)) for code in data.codes[a:b]}

    assert group(0, kf.DIST_LAST) == {0} and group(0, kf.DIST_LAST2) == {0}
    assert group(1, kf.DIST_LAST) > {0} and group(1, kf.DIST_LAST2) == {0}
    assert group(2, kf.DIST_LAST2) > {0}
    assert kf.value_of(data.codes[data.offsets[3] - 1], kf.PASS_GROUP) == 2  # the pass candidate; no pass before it


def test_extract_of_no_games_is_empty(model):
    data = training.extract([], model)
    assert len(data) == 0 and data.candidates == 0


# ---- the fit


def synthetic(rnd, n_positions, n_shapes, true_weights):
    """Positions of 5 to 30 candidates with random codes and shapes, the move played drawn from
    the model of ``true_weights`` (``{(group, value): weight}``)."""
    offsets, played, codes, shapes = [0], [], [], []
    for _ in range(n_positions):
        n = rnd.randint(5, 30)
        cand = []
        for _ in range(n):
            values = [rnd.randrange(kf.GROUP_SIZES[g]) for g in range(kf.N_GROUPS)]
            code = sum(v << kf.GROUP_SHIFTS[g] for g, v in enumerate(values))
            cand.append((code, rnd.randrange(n_shapes + 1), values))
        weights = [math.exp(sum(true_weights.get((g, v), 0.0) for g, v in enumerate(values))) for _, _, values in cand]
        played.append(rnd.choices(range(n), weights)[0])
        codes += [c for c, _, _ in cand]
        shapes += [s for _, s, _ in cand]
        offsets.append(offsets[-1] + n)
    return Positions(
        np.array(offsets),
        np.array(played),
        np.array(codes, dtype=np.int32),
        np.array(shapes, dtype=np.int32),
        np.zeros(n_positions, dtype=np.int64),
        np.zeros(n_positions, dtype=bool),
    )


def naive_loss(model, data):
    """The negative log-likelihood of the moves played, by a plain softmax per position."""
    total = 0.0
    for k in range(len(data)):
        a, b = data.offsets[k], data.offsets[k + 1]
        scores = [model.score(int(c), int(s)) for c, s in zip(data.codes[a:b], data.shapes[a:b], strict=True)]
        top = max(scores)
        total -= scores[data.played[k]] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total


def gradient(model, data):
    grad_groups = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
    grad_direct = np.zeros(len(model.sizes))
    loss = kl.loss_and_gradient(
        model.group_weights,
        model.shape_scores,
        data.offsets,
        data.played,
        data.codes,
        data.shapes,
        2,
        grad_groups,
        grad_direct,
    )
    grad_shapes = kl.chain_sums(grad_direct, np.argsort(-model.sizes, kind="stable"), model.parents)
    return loss, grad_groups, grad_shapes


def test_the_loss_and_its_gradient_match_a_plain_softmax_and_finite_differences(model):
    rnd = random.Random(3)
    data = synthetic(rnd, 40, model.n_shapes, {})
    model.group_weights = np.array([[rnd.gauss(0, 1) for _ in range(kf.MAX_VALUES)] for _ in range(kf.N_GROUPS)])
    model.shape_weights = np.array([rnd.gauss(0, 1) for _ in range(len(model.sizes))])
    model.refresh()
    loss, grad_groups, grad_shapes = gradient(model, data)
    assert loss == pytest.approx(naive_loss(model, data), rel=1e-9)
    h = 1e-6
    for g, v in [(kf.CAPTURE, 2), (kf.EDGE, 0), (kf.DIST_LAST, 16), (kf.DIST_LAST2, 17), (kf.PASS_GROUP, 1)]:
        model.group_weights[g, v] += h
        model.refresh()
        up = naive_loss(model, data)
        model.group_weights[g, v] -= 2 * h
        model.refresh()
        down = naive_loss(model, data)
        model.group_weights[g, v] += h
        assert grad_groups[g, v] == pytest.approx((up - down) / (2 * h), abs=1e-5)
    # a shape's weight counts in its own score and every larger shape's built on it
    small = [i for i in range(1, len(model.sizes)) if model.sizes[i] == 3][:2]
    big = [i for i in range(1, len(model.sizes)) if model.sizes[i] == 9][:2]
    for s in [0, *small, *big]:
        model.shape_weights[s] += h
        model.refresh()
        up = naive_loss(model, data)
        model.shape_weights[s] -= 2 * h
        model.refresh()
        down = naive_loss(model, data)
        model.shape_weights[s] += h
        model.refresh()
        assert grad_shapes[s] == pytest.approx((up - down) / (2 * h), abs=1e-5), s


def test_fit_raises_the_likelihood_and_finds_the_sign_of_strong_features(model):
    rnd = random.Random(4)
    truth = {(kf.CAPTURE, 4): 2.5, (kf.EDGE, 1): -2.0, (kf.SELF_ATARI, 2): -1.5}
    data = synthetic(rnd, 400, model.n_shapes, truth)
    model.group_weights = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
    model.shape_weights = np.zeros(len(model.sizes))
    model.refresh()
    before = naive_loss(model, data)
    losses = []
    info = training.fit(model, data, sigma=1.74, iterations=15, progress=lambda i, loss: losses.append(loss))
    after = naive_loss(model, data)
    assert after < before - 0.1 * len(data)
    assert info["iterations"] <= 15 and info["evaluations"] == len(losses) - 1
    # the prior is part of the objective reported: the last mean is above the likelihood alone
    assert losses[-1] * len(data) >= after
    w = model.group_weights
    for (g, v), weight in truth.items():
        others = [w[g, u] for u in range(kf.GROUP_SIZES[g]) if u != v]
        assert np.sign(w[g, v] - np.mean(others)) == np.sign(weight), (g, v, w[g])


def test_fit_keeps_the_weights_small_under_a_tight_prior(model):
    rnd = random.Random(5)
    data = synthetic(rnd, 200, model.n_shapes, {(kf.CAPTURE, 4): 3.0})
    model.group_weights = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
    model.shape_weights = np.zeros(len(model.sizes))
    model.refresh()
    training.fit(model, data, sigma=1.74, iterations=15)
    loose = model.group_weights[kf.CAPTURE, 4]
    training.fit(model, data, sigma=0.05, iterations=15)
    assert 0 < model.group_weights[kf.CAPTURE, 4] < loose / 5


def test_chain_sums_add_each_shapes_total_over_the_shapes_built_on_it():
    rnd = random.Random(6)
    n = 60
    sizes = [0] + sorted(rnd.randint(3, 10) for _ in range(n - 1))
    parents = [-1]
    for i in range(1, n):
        smaller = [j for j in range(1, i) if sizes[j] == sizes[i] - 1]
        parents.append(rnd.choice(smaller) if smaller and sizes[i] > 3 else -1)
    direct = np.array([rnd.gauss(0, 1) for _ in range(n)])
    total = kl.chain_sums(direct, np.argsort(-np.array(sizes), kind="stable"), np.array(parents))

    def chain(t):
        while t > 0:
            yield t
            t = parents[t]

    for s in range(n):
        expected = sum(direct[t] for t in range(n) if s in set(chain(t))) if s else direct[0]
        assert total[s] == pytest.approx(expected)


# ---- ranks and measures


def positions(*cases):
    """Positions from ``(scores of the candidates, index played)``: each candidate's code is its
    DIST_LAST value, whose weight is its score."""
    offsets, played, codes = [0], [], []
    for scores, chosen in cases:
        codes += [k << kf.GROUP_SHIFTS[kf.DIST_LAST] for k in range(len(scores))]
        offsets.append(offsets[-1] + len(scores))
        played.append(chosen)
    return Positions(
        np.array(offsets),
        np.array(played),
        np.array(codes, dtype=np.int32),
        np.zeros(len(codes), dtype=np.int32),
        np.arange(len(cases), dtype=np.int64),
        np.zeros(len(cases), dtype=bool),
    )


def rank_of(model, cases):
    """The ranks of ``cases``, each candidate k scoring ``scores[k]``."""
    rows = []
    for scores, chosen in cases:
        model.group_weights = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
        model.group_weights[kf.DIST_LAST, : len(scores)] = scores
        model.refresh()
        rows.append(training.rank(model, positions((scores, chosen))))
    ranks = Ranks.none()
    for r in rows:
        ranks = ranks.extend(r)
    return ranks


def test_rank_breaks_ties_at_random_a_tie_of_k_for_first_counting_one_in_k(model):
    cases = [
        ([1.0, 2.0, 3.0], 2),  # first, alone
        ([1.0, 2.0, 3.0], 0),  # third
        ([2.0, 2.0, 2.0, 2.0], 1),  # a tie of four for first
        ([5.0, 4.0, 3.0, 3.0, 3.0, 3.0, 0.0], 3),  # a tie of four for third to sixth place
        ([1.0] * 8, 7),  # a tie of eight for first
        ([9.0, 8.0, 7.0, 6.0, 5.0, 4.0], 5),  # sixth
    ]
    ranks = rank_of(model, cases)
    assert ranks.hit1.tolist() == pytest.approx([1, 0, 1 / 4, 0, 1 / 8, 0])
    assert ranks.hit5.tolist() == pytest.approx([1, 1, 1, 3 / 4, 5 / 8, 0])
    for k, (scores, chosen) in enumerate(cases):
        expected = scores[chosen] - math.log(sum(math.exp(s) for s in scores))
        assert ranks.log_p[k] == pytest.approx(expected)


def test_summarize_leaves_passes_out_and_splits_by_move_number():
    ranks = Ranks(
        hit1=np.array([1.0, 0.0, 0.5, 1.0, 0.25, 1.0]),
        hit5=np.array([1.0, 1.0, 1.0, 1.0, 0.5, 1.0]),
        log_p=np.array([-1.0, -3.0, -2.0, -0.5, -4.0, -0.1]),
        move_numbers=np.array([0, 29, 30, 79, 80, 300]),
        is_pass=np.array([False, False, False, False, False, True]),
    )
    m = training.summarize(ranks)
    assert m.moves == 5
    assert m.top1 == pytest.approx(2.75 / 5) and m.top5 == pytest.approx(4.5 / 5)
    assert m.loglik == pytest.approx(-10.5 / 5)
    assert m.buckets["0-29"] == pytest.approx((2, 0.5, 1.0, -2.0))
    assert m.buckets["30-79"] == pytest.approx((2, 0.75, 1.0, -1.25))
    assert m.buckets["80+"] == pytest.approx((1, 0.25, 0.5, -4.0))
    d = m.as_dict()
    assert d["moves"] == 5 and d["top1"] == 0.55 and d["buckets"]["80+"]["moves"] == 1
    empty = training.summarize(Ranks.none())
    assert (empty.moves, empty.top1) == (0, 0.0) and empty.buckets["0-29"] == (0, 0.0, 0.0, 0.0)


def test_measure_of_a_model_with_no_weights_is_one_over_the_legal_moves(model, tmp_path):
    model.group_weights = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
    model.shape_weights = np.zeros(len(model.sizes))
    model.refresh()
    path = write(tmp_path / "g.sgf", "(;GM[1]SZ[5];B[cc];W[bb];B[tt];W[dd])")
    data = training.extract(training.read_games(path), model)
    m = training.measure(model, data)
    # passes left out; each move is one of n equally likely: top-1 1/n, log-likelihood -ln n
    counts = np.diff(data.offsets)[~data.is_pass]
    assert m.moves == 3
    assert m.top1 == pytest.approx(np.mean(1 / counts)) and m.top5 == pytest.approx(np.mean(np.minimum(1, 5 / counts)))
    assert m.loglik == pytest.approx(-np.mean(np.log(counts)))
