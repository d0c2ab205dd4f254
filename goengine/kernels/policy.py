"""Playout policies: how a playout chooses each move, one kernel per policy, dispatched by an
integer policy id.

Reading guide: ``choose_move`` is the dispatch every playout calls; ``random_move`` is the
``uniform`` policy; ``heavy_move`` the ``heavy`` one, a cascade of local rules in front of a
random move; ``is_playable`` is the test every policy's moves must pass. The Python registry
``goengine.policies`` holds the names, parameters with their defaults, and sources; a policy's
parameters arrive here as a float64 array in the order of the index constants below (the
selection rules' shape: ``kernels.select``). Data a policy reads (the 3x3 pattern table,
``kernels.mogo3x3``) is an argument.

``uniform`` is the "light" playout of libego and Pachi: every legal move that does not fill the
mover's own eye (``board.is_eye``) is equally likely; with none left the player passes. It is
the research setting: a seed gives the same playout it always gave.

``heavy`` answers the last move, in the tradition of MoGo (Gelly et al. 2006, RR-6062 section 3;
Gelly and Silver 2011 section 3.6), Fuego (``GoUctPlayoutPolicy``) and Pachi (``playout/moggy.c``).
Each rule is tried with its probability (a parameter); the first that yields a move plays it:

0. (off by default: ``last_good_reply``) the last good reply (LGRF-2, ``kernels.replies``): the
   reply that last won after the last two moves, else after the last one, when it is playable
   and no bad self-atari (``last_good_reply``); with ``reply_late`` it is tried after rules 1,
   2 and 2b instead, so that a reply learnt in another position does not take the place of a
   capture or an escape the position needs;
   0b. (off by default: ``ko_retake``) retake the ko the opponent took at most KO_AGE moves ago,
   once its ban has lapsed (after a threat and its answer), if it is still a ko (``ko_retake``);
1. capture: an opponent chain in atari at the last move or among its eight neighbours;
2. atari escape: one of our chains next to the last move is in atari: capture an opponent chain
   in atari next to it, or extend on its liberty when that gives three liberties, or two and no
   ladder (``tactics.ladder_captures``);
   2b. (off by default: ``two_libs``) two-liberty fights at the last move: atari an opponent
   chain of two liberties safely, or extend one of ours to three (``two_liberty_move``); with
   ``two_libs_miai`` a chain safe by miai is left alone, with ``two_libs_counter`` ours is also
   defended by capturing or atari-ing an opponent chain next to it (Pachi's ``tactics/2lib.c``);
3. patterns: an empty neighbour (of the eight) of the last move that matches a MoGo 3x3 pattern;
   with ``pattern_second`` (off by default) also of the second-last move, as Pachi's moggy
   (``playout/moggy.c``, ``apply_pattern``) and Fuego look; with ``pattern_extra`` (off by
   default) the shapes Pachi's moggy adds to MoGo's count too (``mogo3x3.EXTRA_PATTERNS``);
4. nakade: the vital point of an eye space next to the last move: of a straight or bent three
   by default; with ``nakade_size`` up to 6 also of a pyramid four, a bulky or crossed five and
   a rabbity six (``tactics.nakade_point``);
5. capture anywhere: any opponent chain in atari on the board;
6. a random move as ``uniform`` draws it, rejecting (with its probability) a bad self-atari
   (``tactics.is_bad_self_atari``); with ``self_atari_redirect`` (off by default) a rejected
   self-atari is played instead on the other liberty of a two-liberty chain next to it when that
   is no bad self-atari (``self_atari_cousin``). Pattern moves are never bad self-ataris.

Among several moves one rule offers, one is drawn at random (reservoir sampling: no array).
"""

import numpy as np
from numba import njit

from . import at
from .board import (
    CHAIN,
    COLOR,
    EMPTIES,
    EMPTY,
    EMPTY_POS,
    KO,
    KO_COLOR,
    LAST_KO,
    LAST_KO_MOVE,
    LAST_MOVE,
    LAST_MOVE2,
    MOVES,
    N_EMPTY,
    NEXT,
    NO_POINT,
    PASS,
    W,
    in_atari,
    is_eye,
    is_legal,
)
from .mogo3x3 import matches, matches_extra
from .replies import no_previous
from .rng import rand_below, rand_float
from .tactics import (
    add_root,
    atari_liberty,
    captures_something,
    chain_liberties,
    escape_works,
    is_bad_self_atari,
    liberties_after,
    nakade_point,
)

UNIFORM = 0
HEAVY = 1
LEARNED = 2  # kernels.learned: its moves are drawn by its own playout loop, not by choose_move
N_POLICIES = 3

# heavy: parameter slots
HEAVY_CAPTURE = 0  # probability of trying rule 1
HEAVY_ESCAPE = 1  # ... rule 2
HEAVY_PATTERN = 2  # ... rule 3
HEAVY_NAKADE = 3  # ... rule 4
HEAVY_CAPTURE_ANY = 4  # ... rule 5
HEAVY_SELF_ATARI = 5  # probability of rejecting a bad self-atari drawn at random
HEAVY_SELF_ATARI_STONES = 6  # the largest chain a self-atari may leave in atari
HEAVY_LADDERS = 7  # 1: escapes are checked for ladders
HEAVY_TWO_LIBS = 8  # probability of trying rule 2b (two-liberty fights); 0: never
HEAVY_SELF_ATARI_REDIRECT = 9  # 1: a rejected bad self-atari is redirected (``self_atari_cousin``)
HEAVY_LAST_GOOD_REPLY = 10  # probability of trying rule 0 (the last good reply); 0: never
HEAVY_NAKADE_SIZE = 11  # the largest eye space rule 4 plays the vital point of (3 to 6)
HEAVY_KO_RETAKE = 12  # probability of trying rule 0b (retaking a ko lost lately); 0: never
HEAVY_PATTERN_SECOND = 13  # 1: rule 3 also looks next to the second-last move
HEAVY_PATTERN_EXTRA = 14  # 1: rule 3 also plays Pachi's shapes beyond MoGo's (``mogo3x3.EXTRA_PATTERNS``)
HEAVY_REPLY_LATE = 15  # 1: rule 0 (the last good reply) comes after rules 1, 2 and 2b instead of first
HEAVY_TWO_LIBS_MIAI = 16  # 1: rule 2b leaves alone a chain safe by miai (``two_liberty_miai``)
HEAVY_TWO_LIBS_COUNTER = 17  # 1: rule 2b also defends our chain by counter-ataris (``_counter_ataris``)

# learned: parameter slots (read where the model's arrays are built: goengine.playout_model)
LEARNED_TEMPERATURE = 0  # every weight divided by it: above 1 flatter, below 1 sharper

KO_AGE = 4  # rule 0b retakes a ko taken at most this many moves ago (a threat and its answer: 3)


@njit(cache=True, _nrt=False, inline="always")
def is_playable(pts, meta, p, c):
    """Whether a playout may play ``c`` on the empty point ``p``: legal, and not ``c``'s eye.

    The common case comes first: a point with an empty neighbour is legal (the stone has a
    liberty) and no eye (an eye's neighbours are all stones or edge), and it is never the ko
    point (the captured stone's neighbours were all the capturer's). Only the rest pays for the
    full tests.
    """
    w = meta[W]
    if (
        pts[COLOR, at(p - w)] == EMPTY
        or pts[COLOR, at(p - 1)] == EMPTY
        or pts[COLOR, at(p + 1)] == EMPTY
        or pts[COLOR, at(p + w)] == EMPTY
    ):
        return True
    return not is_eye(pts, meta, p, c) and is_legal(pts, meta, p, c)


@njit(cache=True, _nrt=False, inline="always")
def _set_aside(pts, i, n):
    """Swap the empty list's entries ``i`` and ``n`` (a rejected candidate goes to ``n``, just
    past the part still drawn from), keeping each point's position in ``EMPTY_POS`` true."""
    p = pts[EMPTIES, at(i)]
    q = pts[EMPTIES, at(n)]
    pts[EMPTIES, at(i)] = q
    pts[EMPTY_POS, at(q)] = i
    pts[EMPTIES, at(n)] = p
    pts[EMPTY_POS, at(p)] = n


@njit(cache=True, _nrt=False, inline="always")
def random_move(pts, meta, c, rng):
    """The ``uniform`` policy: a move for ``c`` drawn uniformly from the legal points that are
    not ``c``'s eyes, or PASS.

    Rejection without repetition: draw a candidate among the first ``n`` entries of the empty
    list; a rejected one is swapped to position ``n - 1`` and ``n`` shrinks, so every acceptable
    point stays equally likely and no point is tested twice. Only the order of the list changes.
    """
    n = meta[N_EMPTY]
    while n > 0:
        i = rand_below(rng, n)
        p = np.int64(pts[EMPTIES, at(i)])
        if is_playable(pts, meta, p, c):
            return p
        n -= 1
        _set_aside(pts, i, n)
    return PASS


@njit(cache=True, _nrt=False)
def _pick(rng, seen, current, candidate):
    """Reservoir sampling of one item: the ``seen``-th candidate replaces ``current`` with
    probability 1 / seen."""
    if seen == 1 or rand_below(rng, seen) == 0:
        return candidate
    return current


@njit(cache=True, _nrt=False)
def local_capture(pts, meta, c, rng, last):
    """A move of ``c`` capturing an opponent chain in atari at ``last`` or its eight neighbours, or
    PASS. Drawn among those stones, so a chain with more stones there is likelier to be taken."""
    w = meta[W]
    o = 3 - c
    move = np.int64(PASS)
    seen = 0
    for q in (last, last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1):
        if pts[COLOR, at(q)] != o:
            continue
        r = pts[CHAIN, at(q)]
        if in_atari(pts, r):
            lib = atari_liberty(pts, r)
            if is_legal(pts, meta, lib, c):
                seen += 1
                move = _pick(rng, seen, move, lib)
    return move


@njit(cache=True, _nrt=False)
def atari_escape(pts, meta, zobrist, c, rng, last, read_ladders):
    """A move saving a ``c`` chain the last move put in atari, or PASS: a capture of an opponent
    chain in atari next to it, or the extension on its liberty when ``tactics.escape_works``."""
    w = meta[W]
    o = 3 - c
    move = np.int64(PASS)
    seen = 0
    for q in (last - w, last - 1, last + 1, last + w):
        if pts[COLOR, at(q)] != c:
            continue
        r = pts[CHAIN, at(q)]
        if not in_atari(pts, r):
            continue
        s = r
        while True:  # counter-captures
            for t in (s - w, s - 1, s + 1, s + w):
                if pts[COLOR, at(t)] == o and in_atari(pts, pts[CHAIN, at(t)]):
                    lib = atari_liberty(pts, pts[CHAIN, at(t)])
                    if is_legal(pts, meta, lib, c):
                        seen += 1
                        move = _pick(rng, seen, move, lib)
            s = pts[NEXT, at(s)]
            if s == r:
                break
        lib = atari_liberty(pts, r)
        if is_playable(pts, meta, lib, c) and escape_works(pts, meta, zobrist, lib, c, read_ladders):
            seen += 1
            move = _pick(rng, seen, move, lib)
    return move


@njit(cache=True, _nrt=False)
def _connects_out(pts, meta, lib, colour, root):
    """Whether ``lib`` touches a chain of ``colour`` other than ``root`` with two liberties or
    more: a stone there joins ``root`` to it."""
    w = meta[W]
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        if pts[COLOR, at(q)] == colour and pts[CHAIN, at(q)] != root and not in_atari(pts, pts[CHAIN, at(q)]):
            return True
    return False


@njit(cache=True, _nrt=False)
def _pulls_out(pts, meta, lib, other):
    """Whether ``lib`` has an empty neighbour besides ``other``: a stone there runs into open
    space."""
    w = meta[W]
    found = False
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        found = found or (q != other and pts[COLOR, at(q)] == EMPTY)
    return found


@njit(cache=True, _nrt=False)
def two_liberty_miai(pts, meta, root, colour, l0, l1):
    """Whether the chain ``root`` of ``colour``, whose liberties are ``l0`` and ``l1``, is safe by
    miai, so an atari on it is wasted: it can connect to a chain of its own with two liberties
    or more on one liberty and connect or run out on the other (Pachi's ``miai_2lib``, whose
    running out we read as an empty neighbour other than the chain's other liberty)."""
    c0 = _connects_out(pts, meta, l0, colour, root)
    c1 = _connects_out(pts, meta, l1, colour, root)
    if c0 and (c1 or _pulls_out(pts, meta, l1, l0)):
        return True
    return c1 and _pulls_out(pts, meta, l0, l1)


@njit(cache=True, _nrt=False)
def _liberty_moves(pts, meta, c, rng, l0, l1, need, move, seen):
    """The liberties ``l0`` and ``l1`` of a two-liberty chain where ``c``'s stone would have
    ``need`` liberties or more (on an opponent's chain, 2: a safe atari; on ours, 3: an
    extension), each a candidate of the reservoir ``(move, seen)``; returns it updated."""
    for lib in (l0, l1):
        if not is_playable(pts, meta, lib, c):
            continue
        libs, _size, _captured = liberties_after(pts, meta, lib, c, np.int64(3))
        if libs >= need:
            seen += 1
            move = _pick(rng, seen, move, lib)
    return move, seen


@njit(cache=True, _nrt=False)
def _counter_ataris(pts, meta, c, rng, root, move, seen):
    """For ``c``'s chain ``root`` short of liberties: captures of the opponent chains in atari
    next to it and safe ataris on those with two liberties (Pachi's counter-atari of
    ``group_2lib_check``), each a candidate of the reservoir ``(move, seen)``; a chain met
    twice is offered once (``tactics.add_root``: past four chains, perhaps twice)."""
    w = meta[W]
    o = 3 - c
    t0, t1, t2, t3 = NO_POINT, NO_POINT, NO_POINT, NO_POINT
    s = root
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if pts[COLOR, at(q)] != o:
                continue
            t0, t1, t2, t3, new = add_root(pts[CHAIN, at(q)], t0, t1, t2, t3)
            if not new:
                continue
            n, l0, l1, _l2 = chain_liberties(pts, meta, pts[CHAIN, at(q)], 3)
            if n == 1 and is_legal(pts, meta, l0, c):
                seen += 1
                move = _pick(rng, seen, move, l0)
            elif n == 2:
                move, seen = _liberty_moves(pts, meta, c, rng, np.int64(l0), np.int64(l1), np.int64(2), move, seen)
        s = pts[NEXT, at(s)]
        if s == root:
            break
    return move, seen


@njit(cache=True, _nrt=False)
def two_liberty_move(pts, meta, c, rng, last, miai, counter):
    """A move in a fight of two liberties at the last move, or PASS: for each chain that holds or
    touches the last move and has exactly two liberties, one of them, if for the opponent's chain
    it is an atari after which our stone keeps two liberties (not a self-atari), and for ours an
    extension to three liberties or more. A simple form of Pachi's ``tactics/2lib.c`` and of
    Fuego's LowLib rule (``GoUctPlayoutPolicy``), which races and escapes emerge from: no engine
    reads a capturing race in its playouts (Baudis on the computer-go list, 2011; tactics_notes.md
    sections 2 and 3). With ``miai``, a chain safe by miai (``two_liberty_miai``) is left alone,
    ours and the opponent's; with ``counter``, our chain may also be defended by capturing or
    safely atari-ing an opponent chain next to it (``_counter_ataris``), as Pachi's does."""
    w = meta[W]
    move = np.int64(PASS)
    seen = np.int64(0)  # not the literal 0, so _liberty_moves is compiled once for both its callers
    r0, r1, r2, r3 = NO_POINT, NO_POINT, NO_POINT, NO_POINT
    for q in (last, last - w, last - 1, last + 1, last + w):
        colour = pts[COLOR, at(q)]
        if colour != 1 and colour != 2:
            continue
        r0, r1, r2, r3, new = add_root(pts[CHAIN, at(q)], r0, r1, r2, r3)
        if not new:
            continue
        r = np.int64(pts[CHAIN, at(q)])
        # typed as the other callers call it (the chain's root read from its row, the limit 3),
        # so the kernel is compiled once
        n, l0, l1, _l2 = chain_liberties(pts, meta, pts[CHAIN, at(q)], 3)
        if n != 2:
            continue
        if miai and two_liberty_miai(pts, meta, r, np.int64(colour), np.int64(l0), np.int64(l1)):
            continue
        need = np.int64(2) if colour != c else np.int64(3)
        move, seen = _liberty_moves(pts, meta, c, rng, np.int64(l0), np.int64(l1), need, move, seen)
        if counter and colour == c:
            move, seen = _counter_ataris(pts, meta, c, rng, r, move, seen)
    return move


@njit(cache=True, _nrt=False)
def pattern_move(pts, meta, patterns, c, rng, last, second, max_stones, extra=False):
    """An empty neighbour (of eight) of ``last``, or of ``second`` (the second-last move; PASS:
    none), matching a pattern of ``patterns`` (with ``extra``, its second plane's too:
    ``kernels.mogo3x3.matches_extra``), playable and no bad self-atari, or PASS. A point next to
    both moves is offered twice, so it is the likelier."""
    w = meta[W]
    move = np.int64(PASS)
    seen = 0
    for k in range(2):
        centre = last if k == 0 else second
        if centre == PASS:
            continue
        x = centre
        for q in (x - w - 1, x - w, x - w + 1, x - 1, x + 1, x + w - 1, x + w, x + w + 1):
            if pts[COLOR, at(q)] != EMPTY:
                continue
            if not (matches(patterns, pts, q, w) or (extra and matches_extra(patterns, pts, q, w))):
                continue
            if is_playable(pts, meta, q, c) and not is_bad_self_atari(pts, meta, q, c, max_stones):
                seen += 1
                move = _pick(rng, seen, move, q)
    return move


@njit(cache=True, _nrt=False)
def nakade_move(pts, meta, c, last, max_size):
    """The vital point of an eye space of at most ``max_size`` points next to ``last``
    (``tactics.nakade_point``), if ``c`` may play it, or PASS."""
    w = meta[W]
    for q in (last - w, last - 1, last + 1, last + w):
        m = nakade_point(pts, meta, q, max_size)
        if m >= 0 and is_legal(pts, meta, m, c):
            return m
    return PASS


@njit(cache=True, _nrt=False)
def capture_anywhere(pts, meta, c, rng):
    """A move of ``c`` capturing an opponent chain in atari anywhere: the first found, scanning
    the empty points from a random one. PASS when there is none."""
    w = meta[W]
    o = 3 - c
    n = meta[N_EMPTY]
    if n == 0:
        return PASS
    start = rand_below(rng, n)
    for k in range(n):
        i = start + k
        if i >= n:
            i -= n
        p = np.int64(pts[EMPTIES, at(i)])
        for q in (p - w, p - 1, p + 1, p + w):
            if pts[COLOR, at(q)] == o and in_atari(pts, pts[CHAIN, at(q)]):
                if is_legal(pts, meta, p, c):
                    return p
                break
    return PASS


@njit(cache=True, _nrt=False)
def self_atari_cousin(pts, meta, p, c, rng, max_stones):
    """Where ``c``'s bad self-atari at ``p`` is better played, or PASS: the other liberty of a
    chain next to ``p`` that has exactly two liberties (one of them ``p``), an opponent's chain
    preferred to ours, one drawn at random among them, if ``c`` may play it and it is no bad
    self-atari itself. On an opponent's chain that fills its outside liberty from the safe side
    (the race move the self-atari tried to be); on ours it extends instead of filling our own
    liberty. Pachi's ``selfatari_cousin`` (``tactics/selfatari.c``), which its playouts play in
    place of a rejected self-atari: with it, rejecting 60 % of bad self-ataris instead of 95 %
    measured about +50 Elo against GNU Go on 15x15 (Pachi's ``playout/moggy.c`` and the commit
    that set the rate; tactics_notes.md section 1)."""
    w = meta[W]
    move = np.int64(PASS)
    seen = 0
    opponents = False
    for q in (p - w, p - 1, p + 1, p + w):
        colour = pts[COLOR, at(q)]
        if colour != 1 and colour != 2:
            continue
        n, l0, l1, _l2 = chain_liberties(pts, meta, pts[CHAIN, at(q)], 3)
        if n != 2:
            continue
        if colour != c and not opponents:  # the first opponent's chain: ours no longer count
            opponents = True
            seen = 0
        elif colour == c and opponents:
            continue
        other = np.int64(l1) if l0 == p else np.int64(l0)
        seen += 1
        move = _pick(rng, seen, move, other)
    if move == PASS or not is_playable(pts, meta, move, c) or is_bad_self_atari(pts, meta, move, c, max_stones):
        return np.int64(PASS)
    return move


@njit(cache=True, _nrt=False)
def random_move_avoiding_self_atari(pts, meta, c, rng, reject, max_stones, redirect):
    """``random_move``, except that a bad self-atari (``tactics.is_bad_self_atari``) drawn is
    rejected with probability ``reject``: with ``redirect``, ``self_atari_cousin`` is played
    instead if it finds a move, else (or without ``redirect``) another point is drawn."""
    n = meta[N_EMPTY]
    while n > 0:
        i = rand_below(rng, n)
        p = np.int64(pts[EMPTIES, at(i)])
        if is_playable(pts, meta, p, c):
            if not (reject > 0.0 and is_bad_self_atari(pts, meta, p, c, max_stones) and rand_float(rng) < reject):
                return p
            if redirect:
                m = self_atari_cousin(pts, meta, p, c, rng, max_stones)
                if m != PASS:
                    return m
        n -= 1
        _set_aside(pts, i, n)
    return PASS


@njit(cache=True, _nrt=False)
def last_good_reply(replies, pts, meta, c, last, max_stones):
    """``c``'s last good reply to the last two moves (LGR-2), else to the last move (LGR-1), from
    ``replies`` (``kernels.replies``), if ``c`` may play it and it is no bad self-atari; else
    PASS. A stand-in table (``replies.no_replies``) holds nothing."""
    if replies.shape[1] == 1:
        return np.int64(PASS)
    last2 = meta[LAST_MOVE2]
    if last2 != PASS:
        m = np.int64(replies[c, at(last2), at(last)])
        if _good_reply(pts, meta, m, c, max_stones):
            return m
    m = np.int64(replies[c, no_previous(replies), at(last)])
    if _good_reply(pts, meta, m, c, max_stones):
        return m
    return np.int64(PASS)


@njit(cache=True, _nrt=False, inline="always")
def _good_reply(pts, meta, m, c, max_stones):
    """Whether a stored reply ``m`` may be played now: a point (not PASS), empty (the table
    remembers other positions), playable and no bad self-atari."""
    return (
        m != PASS
        and pts[COLOR, at(m)] == EMPTY
        and is_playable(pts, meta, m, c)
        and not is_bad_self_atari(pts, meta, m, c, max_stones)
    )


@njit(cache=True, _nrt=False)
def ko_retake(pts, meta, c):
    """The point where ``c`` retakes the ko it lost at most KO_AGE moves ago, once the ban has
    lapsed, when it is legal and still takes exactly the one stone; else PASS. Pachi's moggy
    retakes a recent ko in its playouts (``playout/moggy.c``, its ko rule; tactics_notes.md
    sections 1 and 5), so a ko fight
    goes on there as it would between players instead of ending at the first threat."""
    k = meta[LAST_KO]
    if k == NO_POINT or meta[KO] != NO_POINT or meta[KO_COLOR] != c or meta[MOVES] - meta[LAST_KO_MOVE] > KO_AGE:
        return np.int64(PASS)
    if not is_legal(pts, meta, k, c) or captures_something(pts, meta, k, c) != 1:
        return np.int64(PASS)
    return np.int64(k)


@njit(cache=True, _nrt=False, inline="always")
def _reply(params, replies, pts, meta, c, last, max_stones, rng):
    """Rule 0: with its probability, the last good reply (``last_good_reply``), else PASS. At
    probability 0 it draws no random number, so the default's playouts are as they were."""
    if params[HEAVY_LAST_GOOD_REPLY] > 0.0 and rand_float(rng) < params[HEAVY_LAST_GOOD_REPLY]:
        return last_good_reply(replies, pts, meta, c, last, max_stones)
    return np.int64(PASS)


@njit(cache=True, _nrt=False)
def heavy_move(params, patterns, replies, pts, meta, zobrist, c, rng):
    """The ``heavy`` policy's move for ``c`` (the rules of the module docstring, in order)."""
    last = meta[LAST_MOVE]
    max_stones = params[HEAVY_SELF_ATARI_STONES]
    late = params[HEAVY_REPLY_LATE] != 0.0
    if last != PASS:
        if not late:
            m = _reply(params, replies, pts, meta, c, last, max_stones, rng)
            if m != PASS:
                return m
        if params[HEAVY_KO_RETAKE] > 0.0 and rand_float(rng) < params[HEAVY_KO_RETAKE]:
            m = ko_retake(pts, meta, c)
            if m != PASS:
                return m
        if rand_float(rng) < params[HEAVY_CAPTURE]:
            m = local_capture(pts, meta, c, rng, last)
            if m != PASS:
                return m
        if rand_float(rng) < params[HEAVY_ESCAPE]:
            m = atari_escape(pts, meta, zobrist, c, rng, last, params[HEAVY_LADDERS] != 0.0)
            if m != PASS:
                return m
        if params[HEAVY_TWO_LIBS] > 0.0 and rand_float(rng) < params[HEAVY_TWO_LIBS]:
            miai = params[HEAVY_TWO_LIBS_MIAI] != 0.0
            counter = params[HEAVY_TWO_LIBS_COUNTER] != 0.0
            m = two_liberty_move(pts, meta, c, rng, last, miai, counter)
            if m != PASS:
                return m
        if late:
            m = _reply(params, replies, pts, meta, c, last, max_stones, rng)
            if m != PASS:
                return m
        if rand_float(rng) < params[HEAVY_PATTERN]:
            second = np.int64(meta[LAST_MOVE2]) if params[HEAVY_PATTERN_SECOND] != 0.0 else np.int64(PASS)
            extra = params[HEAVY_PATTERN_EXTRA] != 0.0
            m = pattern_move(pts, meta, patterns, c, rng, last, second, max_stones, extra)
            if m != PASS:
                return m
        if rand_float(rng) < params[HEAVY_NAKADE]:
            m = nakade_move(pts, meta, c, last, np.int64(params[HEAVY_NAKADE_SIZE]))
            if m != PASS:
                return m
    if params[HEAVY_CAPTURE_ANY] > 0.0 and rand_float(rng) < params[HEAVY_CAPTURE_ANY]:
        m = capture_anywhere(pts, meta, c, rng)
        if m != PASS:
            return m
    return random_move_avoiding_self_atari(
        pts, meta, c, rng, params[HEAVY_SELF_ATARI], max_stones, params[HEAVY_SELF_ATARI_REDIRECT] != 0.0
    )


@njit(cache=True, _nrt=False, inline="always")
def choose_move(policy, params, patterns, replies, pts, meta, zobrist, c, rng):
    """The move policy ``policy`` (an id above) plays for ``c`` in the position, or PASS.
    ``params``: the policy's parameters (float64, its registry's order); ``patterns``: the 3x3
    pattern table (``kernels.mogo3x3``); ``replies``: the last good replies (``kernels.replies``).
    An unknown id plays uniformly."""
    if policy == HEAVY:
        return heavy_move(params, patterns, replies, pts, meta, zobrist, c, rng)
    return random_move(pts, meta, c, rng)
