"""SGF in and out, through sgfmill: the one place that reads and writes game records.

``load`` gives the position of a file (GTP ``loadsgf``; ``read_file`` reads it: a regular file of
at most MAX_SGF_BYTES, never a FIFO or a device; ``write_file`` writes one, GTP ``printsgf``;
``replace_file`` writes one whole and never through a link, a review's),
``parse`` the game of one SGF text (the
move model's training reads collections with it); ``dumps`` writes a game from plain
data (size, komi, moves, set-up stones, the root's properties), so the GTP engine's
``printsgf`` and the match referee's game files come from the same code; ``info`` reads a file's
root properties and ``annotate`` writes a file back with notes on its main line's moves
(comments, extra properties such as Sabaki's ``SBKV``, a variation beside a move: a game
review's). sgfmill parses and writes the format; this module only maps its moves to our points (``coords.from_sgf`` /
``to_sgf``). Replaying a loaded position on a game is the engine's business
(``Engine.load_position``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf, sgf_properties

from goengine import coords, version
from goengine.board import Board
from goengine.kernels.board import BLACK, PASS, WHITE

_COLOR = {"b": BLACK, "w": WHITE}
_LETTER = {BLACK: "b", WHITE: "w"}
# The largest file ``read_file`` reads. A game record is small: a 400-move 19x19 game is 3 KB of
# moves, and one with a book's commentary and its variations some hundreds of KB. sgfmill parses
# about 2 MB a second here, so a file at the limit costs a second or two, where a path with no
# limit (/dev/zero, a log) would be read until memory runs out.
MAX_SGF_BYTES = 4 * 1024 * 1024
_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


class BoardSizeError(ValueError):
    """A game on a board goengine does not play (``coords.BOARD_SIZES``): ``size`` is its ``SZ``."""

    def __init__(self, size: int):
        self.size = size
        super().__init__(f"board size {size} is not {coords.sizes_words()}")


@dataclass
class SgfGame:
    """What an SGF game sets up: size, komi, set-up stones, the moves to replay, who moves first,
    and the date and ``PL`` as the file gives them."""

    size: int
    komi: float
    setup: list[tuple[int, int]] = field(default_factory=list)
    moves: list[tuple[int, int]] = field(default_factory=list)
    to_move: int = BLACK
    date: str = ""  # DT, its first ten characters
    player: str | None = None  # PL, when given ("b" or "w")
    # set-up nodes after the first move, before they are folded into ``setup`` (``_folded``):
    # (moves before the node, the stones it places as (color, point), the points it clears, its PL)
    edits: list[tuple[int, list[tuple[int, int]], list[int], str | None]] = field(default_factory=list)
    first_number: int = 1  # the number in the file of ``moves[0]`` (later than 1 after ``_folded``)


def read_file(path: str) -> bytes:
    """The bytes of the file at ``path``, a regular file of at most MAX_SGF_BYTES; ValueError
    for anything else (a folder, a FIFO, a device such as /dev/zero, a larger file), OSError when
    it cannot be opened. The file is opened without blocking (O_NONBLOCK) and asked what it is
    (fstat) before anything is read, so a FIFO without a writer cannot hang the reader, and
    what is read stops one byte past the limit, whatever the file grows to meanwhile."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_regular(mode)
    with open(fd, "rb") as handle:
        data = handle.read(MAX_SGF_BYTES + 1)
    if len(data) > MAX_SGF_BYTES:
        raise ValueError(f"larger than {MAX_SGF_BYTES // 2**20} MB, the most a game record may have")
    return data


def write_file(path: str, text: str) -> None:
    """``text`` written (UTF-8) to the file at ``path``, created or replaced; ValueError when
    something other than a regular file is there (a FIFO without a reader would hold the writer
    for ever, a device would take the game), OSError when it cannot be written. Opened without
    blocking (O_NONBLOCK), whatever is there by then."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG  # a new file (or a missing folder, which os.open names)
    if not stat.S_ISREG(mode):
        raise _not_regular(mode)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, 0o666)
    with open(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def replace_file(path: str | Path, data: bytes) -> None:
    """``data`` as the file at ``path``: written whole to a new file beside it, then renamed into
    place, so a reader never sees half of it and a run stopped midway leaves the old file. What
    is there already is replaced only when it is a regular file: anything else, a symbolic link
    (writing through it would put the file wherever it points) or a FIFO (which would block the
    writer) among them, is ValueError and left as it is; OSError when it cannot be written."""
    path = Path(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode):
        raise _not_regular(mode)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
        with open(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _not_regular(mode: int) -> ValueError:
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return ValueError(f"not a regular file ({kind})")


def load(path: str, move_number: int | None = None) -> SgfGame:
    """The position in the file at ``path`` (``read_file``); with ``move_number`` n, the
    position before move n is played (GTP ``loadsgf``). ValueError for a file that is not a Go
    SGF we can play."""
    position = _read(read_file(path))
    if move_number is not None:
        if move_number < 1:
            raise ValueError("move number must be at least 1")
        following = position.moves[move_number - 1 : move_number]  # move n, who plays it
        position.moves = position.moves[: move_number - 1]
        position.edits = [edit for edit in position.edits if edit[0] <= len(position.moves)]
        position.to_move = _first_player(position)
        return _folded(position, following[0][0] if following else None)
    return _folded(position)


def parse(data: bytes) -> SgfGame:
    """The game of one SGF text: size, komi, set-up stones, every move, the first player and the
    date (``DT``). ValueError (``bad SGF: ...``) for a text that is not a Go game we can play: not
    SGF, another game (``GM``), a board size goengine does not play (``BoardSizeError``), a point off the board,
    set-up stones with a chain without liberties (``_setup_and_moves``). The moves' legality is
    the business of whoever replays them, but for the moves before a set-up node that comes after
    the first move: those are replayed here, since the set-up edits the position they make
    (``_folded``)."""
    return _folded(_read(data))


def _read(data: bytes) -> SgfGame:
    """``parse``'s game with its set-up nodes after the first move still apart (``edits``)."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
        root = game.get_root()
        if root.has_property("GM") and root.get("GM") != 1:
            raise ValueError(f"GM[{root.get('GM')}] is not a game of Go (GM[1])")
        size = game.get_size()
        komi = float(game.get_komi())
    except ValueError as err:
        raise ValueError(f"bad SGF: {err}") from None
    if size not in coords.BOARD_SIZES:
        raise BoardSizeError(size)
    try:
        stones, plays, first, later = _setup_and_moves(game)
    except ValueError as err:  # sgfmill says nothing of a point off the board
        raise ValueError(f"bad SGF: {str(err) or f'a move or set-up stone is off the {size}x{size} board'}") from None
    placed = list(stones) + [point for _, black, white, _, _ in later for point in (*black, *white)]
    if any(not (0 <= r < size and 0 <= c < size) for r, c in placed):
        raise ValueError(f"bad SGF: a set-up stone is off the {size}x{size} board")
    setup = [(_COLOR[colour], coords.from_sgf(size, point)) for point, colour in sorted(stones.items())]
    try:
        Board.from_stones(size, setup)
    except ValueError:
        raise ValueError("bad SGF: setup position not legal") from None  # a chain without liberties
    moves = [(_COLOR[colour], coords.from_sgf(size, move)) for colour, move in plays if colour in _COLOR]
    edits = [
        (
            at,
            [(BLACK, coords.from_sgf(size, p)) for p in sorted(black)]
            + [(WHITE, coords.from_sgf(size, p)) for p in sorted(white)],
            [coords.from_sgf(size, p) for p in sorted(empty)],
            player,
        )
        for at, black, white, empty, player in later
    ]
    date = str(root.get("DT"))[:10] if root.has_property("DT") else ""
    position = SgfGame(size, komi, setup, moves, BLACK, date, None if first is None else str(first).lower(), edits)
    position.to_move = _first_player(position)
    return position


def _folded(position: SgfGame, next_player: int | None = None) -> SgfGame:
    """``position`` with its set-up nodes after the first move (``edits``) folded in, as GNU Go's
    ``loadsgf`` reads such a file: the moves before the last such node are replayed (with full
    rules but superko, as a record's moves are: ValueError naming an illegal one), each node's
    stones placed and points cleared on the board as it stands, and the result becomes the
    set-up position, the moves after it the moves to replay (``first_number``: the number of
    the first of them); who moves next is the node's ``PL``, else the player of the next move
    (of those kept, else ``next_player``: the file's next one when ``load`` stopped before it),
    else the other player of the last move. The earlier moves are no longer a history: undo
    stops at the set-up, and superko counts from it. Without such nodes, ``position`` as it is."""
    if not position.edits:
        return position
    size = position.size
    last = position.edits[-1][0]
    board = Board.from_stones(size, position.setup, position.to_move)
    edits = {}
    for at, place, clear, player in position.edits:
        edits.setdefault(at, []).append((place, clear, player))
    player = None
    for i in range(last + 1):
        for place, clear, node_player in edits.get(i, []):
            stones = {p: board.color_at(p) for p in board.points() if board.color_at(p) in (BLACK, WHITE)}
            for p in clear:
                stones.pop(p, None)
            stones.update({p: color for color, p in place})
            try:
                board = Board.from_stones(size, [(color, p) for p, color in sorted(stones.items())])
            except ValueError:
                raise ValueError(f"bad SGF: the set-up after move {i} leaves a chain without liberties") from None
            player = node_player
        if i < last:
            color, point = position.moves[i]
            try:
                board.play(color, point, superko=False)
            except ValueError as err:
                raise ValueError(f"bad SGF: move {i + 1}, before a later set-up, is illegal: {err}") from None
    moves = position.moves[last:]
    if player in _COLOR:
        to_move = _COLOR[player]
    elif moves:
        to_move = moves[0][0]
    elif next_player is not None:
        to_move = next_player
    else:
        to_move = WHITE if last > 0 and position.moves[last - 1][0] == BLACK else BLACK
    stones = [(board.color_at(p), p) for p in board.points() if board.color_at(p) in (BLACK, WHITE)]
    return SgfGame(size, position.komi, stones, moves, to_move, position.date, player, first_number=last + 1)


def _setup_and_moves(game) -> tuple[dict, list, str | None, list]:
    """The main line's set-up stones (``(row, col) -> colour``), its moves (``(colour, (row, col)
    or None)``), its ``PL`` and its later set-up nodes. Set-up stones may come in any node before
    the first move (problem files put them in the second node, as GNU Go's regression suite
    does), each node's ``AE`` clearing points and ``AB``/``AW`` placing stones in turn; ``PL`` is
    the last one given before the first move (``_player``). A set-up node after a move (a
    position edited mid-game) is kept apart: ``(moves before it, black, white, cleared, PL)``."""
    stones: dict = {}
    plays: list = []
    later: list = []
    player = None
    for node in game.get_main_sequence():
        if node.has_setup_stones():
            black, white, empty = node.get_setup_stones()
            both = sorted((black & white) | ((black | white) & empty))
            if both:  # FF[4]: one node may not set a point twice; which setting wins is nobody's guess
                row, col = both[0]
                point = chr(ord("a") + col) + chr(ord("a") + game.get_size() - 1 - row)
                raise ValueError(f"point {point} is set up twice in one node (AB, AW or AE)")
            if plays:
                node_player = _player(node.get_raw("PL")) if node.has_property("PL") else None
                later.append((len(plays), black, white, empty, node_player))
            else:
                for point in empty:
                    stones.pop(point, None)
                stones.update({point: "b" for point in black})
                stones.update({point: "w" for point in white})
        if not plays and node.has_property("PL"):
            player = _player(node.get_raw("PL"))
        colour, move = node.get_move()
        if colour is not None:
            plays.append((colour, move))
    return stones, plays, player, later


def _player(raw: bytes) -> str:
    """A ``PL`` value as ``b`` or ``w``: FF[4]'s ``B``/``W``, or the ``1``/``2`` of older files
    (CGoban 1 writes ``PL[2]``; GNU Go reads both). ValueError for anything else."""
    value = raw.decode("ascii", "replace").strip().lower()
    if value in ("b", "1"):
        return "b"
    if value in ("w", "2"):
        return "w"
    raise ValueError(f"PL[{value}] is not a player (B or W)")


def _first_player(position: SgfGame) -> int:
    """Who moves first in ``position``: ``PL`` when given, White after Black set-up stones alone
    (a handicap), else Black."""
    if position.player in _COLOR:
        return _COLOR[position.player]
    setup, moves = position.setup, position.moves
    return WHITE if setup and not moves and all(c == BLACK for c, _ in setup) else BLACK


def dumps(
    size: int,
    komi: float,
    moves: Iterable[tuple[int, int]],
    setup: Iterable[tuple[int, int]] = (),
    handicap: int = 0,
    names: tuple[str, str] | None = None,
    result: str | None = None,
    comment: str | None = None,
    date: str | None = None,
    game_name: str | None = None,
) -> str:
    """A game as SGF text: size, komi, Chinese rules, the application (goengine and its version with
    the commit, ``version.full``), set-up stones
    (``(color, point)``; ``handicap`` > 0 adds HA), the moves ``(color, point)`` with PASS as
    sgfmill writes a pass (``tt`` on boards up to 19x19), and the optional root properties PB/PW
    (``names``), RE, C, DT and GN."""
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("KM", komi)
    root.set("RU", "Chinese")
    root.set("AP", ("goengine", version.full()))
    setup = list(setup)
    black = [coords.to_sgf(size, p) for c, p in setup if c == BLACK]
    white = [coords.to_sgf(size, p) for c, p in setup if c == WHITE]
    if black or white:
        root.set_setup_stones(black, white)
    if handicap:
        root.set("HA", handicap)
    if names:
        root.set("PB", names[0])
        root.set("PW", names[1])
    for key, value in (("RE", result), ("C", comment), ("DT", date), ("GN", game_name)):
        if value:
            root.set(key, value)
    node = root
    for color, point in moves:
        node = node.new_child()  # extend_main_sequence walks the whole line each time: quadratic
        node.set_move(_LETTER[color], None if point == PASS else coords.to_sgf(size, point))
    return game.serialise().decode("utf-8")


# ---- a file's root properties, and notes written on its main line (a game review)


@dataclass(frozen=True)
class GameInfo:
    """What a file says of its game beside the moves: the root's properties as text
    (``properties``: ``KM``, ``RU``, ``PB``, ... each as written, the first value of a list) and
    the number of moves on its main line (``main_line_moves``; set-up nodes are not moves)."""

    properties: dict[str, str]
    main_line_moves: int


def info(data: bytes) -> GameInfo:
    """The root's properties and the main line's move count of one SGF text; ValueError (``bad
    SGF: ...``) for a text sgfmill cannot read."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as err:
        raise ValueError(f"bad SGF: {err}") from None
    root = game.get_root()
    properties = {}
    for key in root.properties():
        raw = root.get_raw(key)
        properties[key] = raw.decode(game.get_charset(), "replace") if isinstance(raw, bytes) else str(raw)
    moves = sum(1 for node in game.get_main_sequence() if node.get_move()[0] is not None)
    return GameInfo(properties, moves)


@dataclass(frozen=True)
class Note:
    """What ``annotate`` writes on one node: ``comment`` (added after the node's own comment,
    if it has one), ``properties`` (``(identifier, value)`` set as written, e.g. ``("SBKV",
    "55.2")``; a value replaces one the node had), and a ``variation``: moves ``(color, point)``
    added as a new branch from the node's parent (beside the node: another move from the same
    position), its first node commented ``variation_comment``."""

    comment: str = ""
    properties: tuple[tuple[str, str], ...] = ()
    variation: tuple[tuple[int, int], ...] = ()
    variation_comment: str = ""


def annotate(data: bytes, moves: Sequence[Note], start: Note | None = None, header: str = "") -> bytes:
    """The SGF text ``data`` with notes on its main line: ``moves[i]`` on the node of the i-th of
    its last ``len(moves)`` moves (the moves ``parse`` gives, when a set-up node comes after
    the first move), ``start`` on the node before the first of them (the root, usually: the
    position before the first move noted), ``header`` added to the root's comment. Everything
    else of the file is kept, its other variations included; the text is written in the file's
    charset (``CA``). ValueError for a text sgfmill cannot read or with fewer moves than notes."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as err:
        raise ValueError(f"bad SGF: {err}") from None
    size = game.get_size()
    sequence = game.get_main_sequence()
    move_nodes = [i for i, node in enumerate(sequence) if node.get_move()[0] is not None]
    if len(moves) > len(move_nodes):
        raise ValueError(f"{len(moves)} notes for a main line of {len(move_nodes)} moves")
    targets = move_nodes[len(move_nodes) - len(moves) :]
    if header:
        _add_comment(game.get_root(), header)
    if start is not None:
        _note(sequence[targets[0] - 1] if targets else sequence[-1], start, size)
    for i, note in zip(targets, moves, strict=True):
        _note(sequence[i], note, size)
    return game.serialise()


def _note(node, note: Note, size: int) -> None:
    if note.comment:
        _add_comment(node, note.comment)
    for key, value in note.properties:
        node.set_raw(key, _escape(value))
    if note.variation and node.parent is not None:
        child = node.parent
        for k, (color, point) in enumerate(note.variation):
            child = child.new_child()
            child.set_move(_LETTER[color], None if point == PASS else coords.to_sgf(size, point))
            if k == 0 and note.variation_comment:
                child.set("C", note.variation_comment)


def _add_comment(node, text: str) -> None:
    """``text`` after the node's own comment. A comment of several values (``C[a][b]``, which
    some editors write and sgfmill will not read as one text) is read value by value and joined
    with blank lines, so it is kept, not refused."""
    own = ""
    if node.has_property("C"):
        presenter = sgf_properties.Presenter(node.owner.get_size(), node.owner.get_charset())
        own = "\n\n".join(presenter.interpret("C", [raw]) for raw in node.get_raw_list("C"))
    node.set("C", f"{own.rstrip()}\n\n{text}" if own.strip() else text)


def _escape(value: str) -> bytes:
    """A property value as SGF writes it: ``\\`` and ``]`` escaped."""
    return value.replace("\\", "\\\\").replace("]", "\\]").encode("utf-8")
