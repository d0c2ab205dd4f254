"""The yardstick: uniformly random light playouts on an empty 9x9 and 19x19 board, timed. It is
the speed reference of every figure in docs/performance.md, and it is frozen: do not change it.

Every speed this project reports is a ratio to this program's rate measured in the same sitting
(``bench/reference.py`` runs it beside each benchmark), and the anchors (libego, Pachi) are fixed
multiples of it. Any change to this file, a faster board or a tidier loop alike, would move every
ratio measured after it and break the comparison with every ratio measured before. A better board
belongs in goengine. Should the yardstick itself have to change, write a new file under a new
name, measure the old and new side by side, and convert the anchors (as docs/performance.md did
when this file replaced the first reference).

It depends on numpy and numba only, never on goengine, so that no change to the engine can move
it. The board is its own: a padded 1-D array of points (``EDGE`` around the playing area); a chain
is a circular list of its stones (``nxt``) with one representative (``head``) and a stone count
(``size``); whether a chain has a liberty is found by walking its stones, not kept up to date.
Rules: a move is on an empty point, not the simple-ko point, and not suicide (it is legal when it
has an empty neighbour, captures, or joins a chain of its own that keeps a liberty elsewhere).
The playouts are light as usual: a player never fills its own eye (a point whose four neighbours
are its own stones or the edge, and whose diagonals hold fewer than two opponent stones, or none
on the edge), and passes only when no other move is left; two passes in a row, or 3 n^2 moves
(there is no superko), end the playout. Each move is drawn uniformly among the empty points: a
random empty point is tried, and one that cannot be played is set aside until the next move.
The score is the area score, Black minus White, no komi (an empty point counts for the colour
that alone touches it).

Random numbers come from one xorshift64 state with a fixed seed, so every run plays the same
playouts: "avg moves" (turns a playout, passes included) and "mean score" are the same on every
machine and every run, and show at a glance that it is this program that ran: 111.17165 and
2.277 on 9x9, 455.93375 and 2.238 on 19x19.

Output, one line a size: "9 playouts/s X avg moves M mean score S" (``bench/reference.py``
parses it), the rate timed over PLAYOUTS[size] playouts after a short warm-up, one thread.
``tests/test_bench_yardstick.py`` replays its playouts on the tests' slow reference board.
Run: ``python bench/yardstick.py`` (numba's cache makes the second run start fast).
"""

import time

import numba
import numpy as np

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
PLAYOUTS = {9: 20000, 19: 4000}  # about 0.3 s a size on this project's machine
WARM_UP = 50
SEED = 0x9E3779B97F4A7C15


@numba.njit(cache=True)
def below(rng, k):
    """A uniform integer in [0, k) from the xorshift64 state ``rng`` (uint64[1])."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return np.int64((x >> np.uint64(16)) % np.uint64(k))


@numba.njit(cache=True)
def breathes(color, nxt, stone, w, but):
    """Whether the chain of ``stone`` has an empty neighbour other than the point ``but``."""
    s = stone
    while True:
        if (
            (color[s + 1] == EMPTY and s + 1 != but)
            or (color[s - 1] == EMPTY and s - 1 != but)
            or (color[s + w] == EMPTY and s + w != but)
            or (color[s - w] == EMPTY and s - w != but)
        ):
            return True
        s = nxt[s]
        if s == stone:
            return False


@numba.njit(cache=True)
def own_eye(color, p, c, w):
    """Whether the empty point ``p`` is an eye of ``c``, which a light playout does not fill."""
    for q in (p + 1, p - 1, p + w, p - w):
        if color[q] != c and color[q] != EDGE:
            return False
    enemy = 0
    edge = 0
    for q in (p + w + 1, p + w - 1, p - w + 1, p - w - 1):
        if color[q] == EDGE:
            edge = 1
        elif color[q] == 3 - c:
            enemy += 1
    return enemy + edge < 2


@numba.njit(cache=True)
def playable(color, nxt, p, c, w):
    """Whether ``c`` may play on the empty point ``p`` (not a suicide; the ko point is the caller's)."""
    for q in (p + 1, p - 1, p + w, p - w):
        if color[q] == EMPTY:
            return True
    for q in (p + 1, p - 1, p + w, p - w):
        if color[q] == 3 - c and not breathes(color, nxt, q, w, p):
            return True  # captures
        if color[q] == c and breathes(color, nxt, q, w, p):
            return True  # joins a chain that keeps a liberty
    return False


@numba.njit(cache=True)
def playout(n, rng, color, head, nxt, size, empty, where, record):
    """One playout from the empty n x n board; returns (area score Black minus White, turns
    played, passes included). ``record[k]`` is the point of turn k, -1 for a pass (the tests
    replay it on a reference board)."""
    w = n + 2
    count = 0
    for p in range(w * w):
        row, col = p // w, p % w
        if 1 <= row <= n and 1 <= col <= n:
            color[p] = EMPTY
            empty[count] = p
            where[p] = count
            count += 1
        else:
            color[p] = EDGE
    c = BLACK
    ko = -1
    passes = 0
    moves = 0
    while passes < 2 and moves < 3 * n * n:
        move = -1
        left = count
        while left > 0:
            i = below(rng, left)
            p = empty[i]
            left -= 1  # set p aside: swap it behind the points still to try
            q = empty[left]
            empty[left] = p
            where[p] = left
            empty[i] = q
            where[q] = i
            if p != ko and not own_eye(color, p, c, w) and playable(color, nxt, p, c, w):
                move = p
                break
        record[moves] = move
        moves += 1
        if move < 0:
            passes += 1
            ko = -1
            c = 3 - c
            continue
        passes = 0
        p = move
        count -= 1  # p leaves the empty points; the last one takes its slot
        last = empty[count]
        empty[where[p]] = last
        where[last] = where[p]
        color[p] = c
        head[p] = p
        nxt[p] = p
        size[p] = 1
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] == c and head[q] != head[p]:  # join: the smaller chain takes the other's head
                a, b = head[p], head[q]
                if size[a] > size[b]:
                    a, b = b, a
                s = a
                while True:
                    head[s] = b
                    s = nxt[s]
                    if s == a:
                        break
                nxt[a], nxt[b] = nxt[b], nxt[a]
                size[b] += size[a]
        taken = 0
        taken_at = -1
        for q in (p + 1, p - 1, p + w, p - w):
            if color[q] == 3 - c and not breathes(color, nxt, q, w, -1):
                s = q
                while True:
                    color[s] = EMPTY
                    empty[count] = s
                    where[s] = count
                    count += 1
                    taken += 1
                    taken_at = s
                    s = nxt[s]
                    if s == q:
                        break
        ko = -1
        if taken == 1 and size[head[p]] == 1:
            open_sides = 0
            for q in (p + 1, p - 1, p + w, p - w):
                if color[q] == EMPTY:
                    open_sides += 1
            if open_sides == 1:
                ko = taken_at
        c = 3 - c
    score = 0
    for p in range(w * w):
        if color[p] == BLACK:
            score += 1
        elif color[p] == WHITE:
            score -= 1
        elif color[p] == EMPTY:
            black = False
            white = False
            for q in (p + 1, p - 1, p + w, p - w):
                black = black or color[q] == BLACK
                white = white or color[q] == WHITE
            if black and not white:
                score += 1
            elif white and not black:
                score -= 1
    return score, moves


@numba.njit(cache=True)
def batch(n, playouts, rng):
    """``playouts`` playouts on n x n; returns (sum of scores, sum of turns)."""
    points = (n + 2) * (n + 2)
    color = np.zeros(points, np.int8)
    head = np.zeros(points, np.int64)
    nxt = np.zeros(points, np.int64)
    size = np.zeros(points, np.int64)
    empty = np.zeros(points, np.int64)
    where = np.zeros(points, np.int64)
    record = np.zeros(3 * n * n, np.int64)
    scores = 0
    moves = 0
    for _ in range(playouts):
        score, m = playout(n, rng, color, head, nxt, size, empty, where, record)
        scores += score
        moves += m
    return scores, moves


def main() -> None:
    for n in (9, 19):
        batch(n, WARM_UP, np.array([SEED], dtype=np.uint64))  # compiles, or loads numba's cache
        rng = np.array([SEED], dtype=np.uint64)
        k = PLAYOUTS[n]
        start = time.perf_counter()
        scores, moves = batch(n, k, rng)
        seconds = time.perf_counter() - start
        print(n, "playouts/s", k / seconds, "avg moves", moves / k, "mean score", scores / k)


if __name__ == "__main__":
    main()
