"""The GTP (version 2) front-end: the command table, its handlers, and the I/O loop.

Reading guide: ``GtpEngine.send`` turns one input line into one response (the protocol layer);
the handlers (``cmd_*`` methods, listed in ``GtpEngine.commands``) turn arguments into calls on
``goengine.engine.Engine`` and results into text; ``serve`` is the I/O loop. Strings stop here:
nothing below this module sees GTP text.

Built on pygtp's ``gtp`` module (the distribution ``pygtp``): ``GtpEngine`` subclasses its
``Engine`` and fixes what pygtp gets wrong for a real engine:

- an id of 0 is echoed (pygtp tests ``if message_id:`` and drops it);
- any exception becomes ``? message`` (pygtp catches only ValueError, so anything else would
  end the engine with a traceback on stdout's neighbour);
- a multi-line response never contains an empty line (it would end the response early);
- commands are dispatched through one table, so names with dashes (``kgs-genmove_cleanup``,
  ``lz-analyze``) work and ``list_commands`` is generated from the table, never kept by hand;
- lines are split by ``parse_line``: pygtp's ``parse_message`` deletes non-ASCII characters and
  splits on single spaces only.

Analysis commands (``lz-analyze``, ``lz-genmove_analyze``) stream ``info`` lines while the
search runs and stop as soon as another line of input arrives, as Leela Zero does; the I/O loop
reads input on a thread so the search can see it. ``# interrupt`` (GoGui) stops a running
search, which then answers with its best move so far.
"""

from __future__ import annotations

import io
import math
import queue
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace

import gtp as pygtp

from goengine import __version__, coords, rules
from goengine.board import BLACK, PASS, WHITE, IllegalMove, parse_color
from goengine.engine import Engine, EngineError, TimeSettings, format_score
from goengine.search import RESIGN, Search, SearchResult

MIN_GTP_SIZE = 5
MAX_GTP_SIZE = 19


# the values goengine-set accepts
SETTING_RANGES = {
    "playouts": (1, 10**9),
    "threads": (1, 64),
    "seed": (0, 2**63 - 1),
    "expand_at": (0, 10**6),
    "seconds": (0.0, 86400.0),
    "resign_threshold": (0.0, 1.0),
    "max_memory_mb": (1.0, 2.0**20),
}


def _bound(x: int | float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


STREAMED = object()  # a handler's result meaning "the response was written as it went"


class GtpError(Exception):
    """A failed command: its message is the text after ``?``."""


def _syntax() -> GtpError:
    return GtpError("syntax error")


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


def parse_line(line: str) -> tuple[int | None, str | None, list[str]]:
    """``(id, command, arguments)`` of one input line, as GTP 2 section 3.1 says: control
    characters other than tab and newline removed, ``#`` comments cut, tabs made spaces, tokens
    split on any run of white space. Other characters, non-ASCII ones included, are kept: an
    unknown word stays an unknown command rather than turning into a known one.

    pygtp's ``parse_message`` is not used: it deletes every non-ASCII character (``namée`` would
    run ``name``) and splits on single spaces only (``1  name`` would be a syntax error)."""
    text = _CONTROL.sub("", line.replace("\t", " ")).split("#", 1)[0]
    tokens = [token for token in text.split(" ") if token]  # GTP's white space: space and tab only
    message_id = None
    if tokens and tokens[0].isdigit() and tokens[0].isascii():
        message_id = int(tokens.pop(0))
    if not tokens:
        return message_id, None, []
    return message_id, tokens[0], tokens[1:]


class _NoGame:
    """What pygtp's Engine constructor wants as a game object; our state lives in ``Engine``."""

    def clear(self) -> None:
        pass


class GtpEngine(pygtp.Engine):
    """GTP commands on top of an ``Engine``. ``log`` receives diagnostics for stderr.

    ``write`` sends text to the controller at once (used by the streaming analysis commands);
    ``input_pending`` tells whether another line has arrived (which ends an analysis).
    """

    def __init__(
        self,
        engine: Engine,
        log: Callable[[str], None] | None = None,
        write: Callable[[str], None] | None = None,
        input_pending: Callable[[], bool] | None = None,
    ):
        super().__init__(_NoGame(), name="goengine", version=__version__)
        self.engine = engine
        self.log = log or (lambda text: None)
        self.write = write or (lambda text: None)
        self.input_pending = input_pending or (lambda: False)
        self.commands: dict[str, Callable[[list[str]], str | None]] = {
            "protocol_version": lambda args: "2",
            "name": lambda args: "goengine",
            "version": lambda args: __version__,
            "known_command": self.cmd_known_command,
            "list_commands": lambda args: "\n".join(self.commands),
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "reg_genmove": self.cmd_reg_genmove,
            "kgs-genmove_cleanup": self.cmd_genmove_cleanup,
            "undo": self.cmd_undo,
            "showboard": self.cmd_showboard,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "loadsgf": self.cmd_loadsgf,
            "printsgf": self.cmd_printsgf,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "kgs-time_settings": self.cmd_kgs_time_settings,
            "cputime": lambda args: f"{self.engine.cputime():.3f}",
            "goengine-set": self.cmd_set,
            "goengine-params": self.cmd_params,
            "lz-analyze": self.cmd_lz_analyze,
            "lz-genmove_analyze": self.cmd_lz_genmove_analyze,
            "gogui-analyze_commands": self.cmd_analyze_commands,
            "gogui-interrupt": lambda args: "",
            "goengine-best_moves": self.cmd_best_moves,
            "goengine-visits": self.cmd_visits,
            "goengine-winrates": self.cmd_winrates,
            "goengine-pv": self.cmd_pv,
            "goengine-ownership": self.cmd_ownership,
        }
        self.known_commands = list(self.commands)
        self._id: int | None = None

    # ---- the protocol layer

    def send(self, message: str) -> str:
        """The full response to one input line (ending with the blank line), or "" for a line
        that carries no command (empty, or only a comment)."""
        message_id, command, args = parse_line(message)
        self._id = message_id
        if not command:
            return "" if message_id is None else self._format(message_id, False, "syntax error")
        handler = self.commands.get(command)
        if handler is None:
            return self._format(message_id, False, "unknown command")
        try:
            result = handler(args)
        except GtpError as err:
            return self._format(message_id, False, str(err))
        except IllegalMove:
            return self._format(message_id, False, "illegal move")
        except (EngineError, ValueError) as err:
            return self._format(message_id, False, str(err) or "syntax error")
        except Exception as err:  # noqa: BLE001 - any failure is a GTP error, never a dead engine
            self.log(traceback.format_exc())
            return self._format(message_id, False, f"internal error: {type(err).__name__}: {err}")
        if result is STREAMED:
            return "\n"  # the header and body were written already; only the blank line is left
        return self._format(message_id, True, "" if result is None else str(result))

    def _header(self) -> str:
        """The success header of the current command, for handlers that stream their body."""
        return "=" + ("" if self._id is None else str(self._id)) + "\n"

    @staticmethod
    def _format(message_id: int | None, ok: bool, text: str) -> str:
        """``=id text`` / ``?id text`` with a blank line after; no empty line inside the text."""
        lines = [line.rstrip() for line in text.replace("\r", "").split("\n")]
        body = "\n".join(line if line else " " for line in lines).strip("\n") if text else ""
        head = ("=" if ok else "?") + ("" if message_id is None else str(message_id))
        return f"{head} {body}\n\n" if body else f"{head}\n\n"

    # ---- argument helpers, raising GTP's canonical errors

    @staticmethod
    def _color(text: str) -> int:
        try:
            return parse_color(text)
        except ValueError:
            raise _syntax() from None

    def _vertex(self, text: str) -> int:
        t = text.strip().lower()
        if t == "pass":
            return PASS
        if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
            raise _syntax()
        try:
            return coords.from_gtp(self.engine.size, t)
        except ValueError:
            raise GtpError("illegal move") from None

    def _vertex_text(self, p: int) -> str:
        if p == RESIGN:
            return "resign"
        return coords.to_gtp(self.engine.size, p)

    @staticmethod
    def _int(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise _syntax() from None

    @staticmethod
    def _float(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise _syntax() from None
        if not math.isfinite(value):
            raise _syntax()
        return value

    # ---- administrative

    def cmd_known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _syntax()
        return "true" if args[0] in self.commands else "false"

    def cmd_quit(self, args: list[str]) -> None:
        self.disconnect = True

    # ---- game set-up

    def cmd_boardsize(self, args: list[str]) -> None:
        if len(args) != 1:
            raise _syntax()
        size = self._int(args[0])
        if not MIN_GTP_SIZE <= size <= MAX_GTP_SIZE:
            raise GtpError("unacceptable size")
        self.engine.set_size(size)

    def cmd_clear_board(self, args: list[str]) -> None:
        self.engine.clear()

    def cmd_komi(self, args: list[str]) -> None:
        if len(args) != 1:
            raise _syntax()
        self.engine.set_komi(self._float(args[0]))

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _syntax()
        points = self.engine.fixed_handicap(self._int(args[0]))
        return " ".join(self._vertex_text(p) for p in points)

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _syntax()
        points = self.engine.free_handicap(self._int(args[0]))
        return " ".join(self._vertex_text(p) for p in points)

    def cmd_set_free_handicap(self, args: list[str]) -> None:
        if len(args) < 2:
            raise GtpError("bad vertex list")
        try:
            points = [self._vertex(a) for a in args]
        except GtpError:
            raise GtpError("bad vertex list") from None
        self.engine.place_handicap(points)

    # ---- moves

    def cmd_play(self, args: list[str]) -> None:
        if len(args) != 2:
            raise _syntax()
        color = self._color(args[0])
        self.engine.play(color, self._vertex(args[1]))

    def _genmove(self, args: list[str], commit: bool, cleanup: bool = False, callback=None, interval=1.0) -> str:
        if len(args) != 1:
            raise _syntax()
        color = self._color(args[0])
        result = self.engine.genmove(
            color, commit=commit, cleanup=cleanup, callback=callback, callback_interval=interval
        )
        self._log_result(color, result)
        return self._vertex_text(result.move)

    def cmd_genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=True)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=False)

    def cmd_genmove_cleanup(self, args: list[str]) -> str:
        return self._genmove(args, commit=True, cleanup=True)

    def cmd_undo(self, args: list[str]) -> None:
        try:
            self.engine.undo()
        except EngineError:
            raise GtpError("cannot undo") from None

    def _log_result(self, color: int, result: SearchResult) -> None:
        best = result.stats[:5]
        summary = ", ".join(f"{self._vertex_text(s.move)} {s.visits} {s.winrate:.3f}" for s in best)
        self.log(
            f"{'B' if color == BLACK else 'W'} {self._vertex_text(result.move)} ({result.reason}); "
            f"{result.playouts} playouts in {result.seconds:.2f} s, {result.nodes} nodes; {summary}"
        )

    # ---- the board and scoring

    def cmd_showboard(self, args: list[str]) -> str:
        board = self.engine.board
        caps = f"captures: black {board.captures[BLACK]}, white {board.captures[WHITE]}; komi {self.engine.komi:g}"
        return "\n" + board.render() + "\n" + caps

    def cmd_final_score(self, args: list[str]) -> str:
        try:
            return format_score(self.engine.final_score())
        except (ValueError, EngineError):
            raise GtpError("cannot score") from None

    def cmd_final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0].lower() not in ("alive", "dead", "seki"):
            raise _syntax()
        stones = set(self.engine.final_status(args[0].lower()))
        board = self.engine.board
        lines, done = [], set()
        for p in sorted(stones):
            if p in done:
                continue
            chain = [q for q in board.chain(p) if q in stones]
            done.update(chain)
            lines.append(" ".join(self._vertex_text(q) for q in chain))
        return "\n".join(lines)

    # ---- SGF

    def cmd_loadsgf(self, args: list[str]) -> None:
        from goengine import sgf

        if not 1 <= len(args) <= 2:
            raise _syntax()
        move_number = self._int(args[1]) if len(args) == 2 else None
        try:
            game = sgf.load(args[0], move_number)
        except OSError as err:
            raise GtpError(f"cannot load file: {err.strerror or err}") from None
        except ValueError as err:
            raise GtpError(f"cannot load file: {err}") from None
        if not MIN_GTP_SIZE <= game.size <= MAX_GTP_SIZE:
            raise GtpError(f"cannot load file: board size {game.size} is not from {MIN_GTP_SIZE} to {MAX_GTP_SIZE}")
        self.engine.load_position(game)

    def cmd_printsgf(self, args: list[str]) -> str | None:
        from goengine import sgf

        engine = self.engine
        text = sgf.dumps(
            engine.size, engine.komi, engine.board.moves, engine.setup_stones, handicap=len(engine.handicap)
        )
        if args:
            try:
                with open(args[0], "w", encoding="utf-8") as handle:
                    handle.write(text)
            except OSError as err:
                raise GtpError(f"cannot save file: {err.strerror or err}") from None
            return None
        return text.strip()

    # ---- time

    def cmd_time_settings(self, args: list[str]) -> None:
        if len(args) != 3:
            raise _syntax()
        main, byo, stones = self._float(args[0]), self._float(args[1]), self._int(args[2])
        if main < 0 or byo < 0 or stones < 0:
            raise _syntax()
        self.engine.set_time(TimeSettings.from_gtp(main, byo, stones))

    def cmd_time_left(self, args: list[str]) -> None:
        if len(args) != 3:
            raise _syntax()
        self.engine.time_left(self._color(args[0]), self._float(args[1]), self._int(args[2]))

    def cmd_kgs_time_settings(self, args: list[str]) -> None:
        if not args:
            raise _syntax()
        kind = args[0].lower()
        nums = [self._float(a) for a in args[1:]]
        if any(n < 0 for n in nums):
            raise _syntax()
        if kind == "none" and not nums:
            settings = TimeSettings("none")
        elif kind == "absolute" and len(nums) == 1:
            settings = TimeSettings("absolute", nums[0])
        elif kind == "byoyomi" and len(nums) == 3:
            settings = TimeSettings("byoyomi", nums[0], nums[1], 0, int(nums[2]))
        elif kind == "canadian" and len(nums) == 3:
            settings = TimeSettings("canadian", nums[0], nums[1], int(nums[2]))
        else:
            raise _syntax()
        self.engine.set_time(settings)

    # ---- engine settings

    SETTINGS = ("rule", "playouts", "seconds", "threads", "seed", "resign_threshold", "expand_at", "max_memory_mb")

    def _settings(self) -> list[tuple[str, str, str]]:
        """``(type, key, value)`` for every setting, GoGui's parameter format."""
        cfg = self.engine.search.config
        rule = rules.get(cfg.rule)
        rows = [(f"list/{'/'.join(rules.RULES)}", "rule", rule.name)]
        for key in self.SETTINGS[1:]:
            value = getattr(cfg, key)
            rows.append(
                ("string", key, "" if value is None else f"{value:g}" if isinstance(value, float) else str(value))
            )
        _, params = rules.resolve(cfg.rule, **dict(cfg.params))
        for i, key in enumerate(rule.params):
            if key == "schedule":
                rows.append(("list/hand/mse", key, "hand" if params[i] == 0 else "mse"))
            else:
                rows.append(("string", key, f"{params[i]:g}"))
        return rows

    def cmd_params(self, args: list[str]) -> str | None:
        """Without arguments: the settings, one ``[type] key value`` per line (GoGui's ``param``
        analyze type). With ``key value``: set one."""
        if not args:
            return "\n".join(f"[{t}] {k} {v}" for t, k, v in self._settings())
        return self.cmd_set(args)

    def cmd_set(self, args: list[str]) -> None:
        """``goengine-set key value``: a setting (rule, playouts, seconds, threads, seed,
        resign_threshold, expand_at, max_memory_mb) or a parameter of the current rule."""
        if len(args) < 2:
            raise _syntax()
        key, value = args[0].lower(), " ".join(args[1:])
        cfg = self.engine.search.config
        if key == "rule":
            new = replace(cfg, rule=rules.get(value).name, params=())
        elif key in self.SETTINGS:
            parsed: object
            if value.lower() in ("", "none", "off"):
                if key not in ("playouts", "seconds"):
                    raise GtpError(f"{key} needs a value")
                parsed = None
            else:
                lo, hi = SETTING_RANGES[key]  # int bounds: an int setting; float bounds: a float one
                parsed = self._int(value) if isinstance(lo, int) else self._float(value)
                if not lo <= parsed <= hi:
                    raise GtpError(f"{key} must be from {_bound(lo)} to {_bound(hi)}")
            new = replace(cfg, **{key: parsed})
        else:
            rule = rules.get(cfg.rule)
            rules.param_value(rule, key, value)  # validates
            new = cfg.with_params(**{key: value if key == "schedule" else float(value)})
        self.engine.set_search(Search(new))
        self.log(f"settings: {new}")

    # ---- analysis

    def _info_line(self, result: SearchResult, min_visits: int = 0) -> str:
        """Leela Zero's analysis format: ``info move D4 visits 1178 winrate 4802 prior 2211 lcb 4781
        order 0 pv D4 E3`` for every move, rates as integers x 10000 for the side to move."""
        stats = [s for s in result.stats if s.visits > max(0, min_visits - 1) and s.visits > 0]
        if not stats:
            return ""
        prior = 10000 // max(1, len(result.stats))
        parts = []
        for order, s in enumerate(stats):
            wr = s.winrate
            lcb = max(0.0, wr - 1.96 * math.sqrt(max(wr * (1 - wr), 1e-9) / s.visits))
            pv = self.engine.search.principal_variation(s.move, length=12)
            parts.append(
                f"info move {self._vertex_text(s.move)} visits {s.visits} winrate {round(wr * 10000)} "
                f"prior {prior} lcb {round(lcb * 10000)} order {order} pv " + " ".join(self._vertex_text(m) for m in pv)
            )
        return " ".join(parts)

    def _analysis_args(self, args: list[str], need_color: bool) -> tuple[int, float, int]:
        """``[color] interval [minmoves N]``: the colour, seconds between reports, min visits."""
        color = self.engine.board.to_move
        rest = list(args)
        if rest and rest[0].lower() in ("b", "w", "black", "white"):
            color = self._color(rest.pop(0))
        elif need_color:
            raise _syntax()
        interval = 1.0
        min_visits = 0
        if rest and rest[0].replace(".", "", 1).isdigit():
            interval = max(0.01, self._float(rest.pop(0)) / 100.0)  # centiseconds
        while rest:
            key = rest.pop(0).lower()
            if key in ("minmoves", "min_visits", "minvisits", "maxmoves") and rest:
                value = self._int(rest.pop(0))
                if key in ("min_visits", "minvisits"):
                    min_visits = value
            elif key == "interval" and rest:
                interval = max(0.01, self._float(rest.pop(0)) / 100.0)
            else:
                raise _syntax()
        return color, interval, min_visits

    def _interrupt_on_input(self, result: SearchResult) -> None:
        if self.input_pending():
            self.engine.search.interrupt()

    def _stream(self, result: SearchResult, min_visits: int) -> None:
        line = self._info_line(result, min_visits)
        if line:
            self.write(line + "\n")
        if self.input_pending():
            self.engine.search.interrupt()

    def cmd_lz_analyze(self, args: list[str]) -> object:
        """Ponder for the side to move (or ``color``), streaming ``info`` lines every interval until
        the next line of input; the response then ends. The game state is not changed."""
        color, interval, min_visits = self._analysis_args(args, need_color=False)
        board = self.engine.board.copy()
        board.to_move = color
        search = self.engine.search
        self.write(self._header())  # the arguments are valid: the header goes out, the body streams
        try:
            while not self.input_pending():
                # one report per slice of search; the tree is kept between slices
                result = search.run(
                    board,
                    self.engine.komi,
                    playouts=None,
                    seconds=interval,
                    callback=self._interrupt_on_input,
                    callback_interval=0.05,
                )
                self._stream(result, min_visits)
                if result.playouts == 0 and not self.input_pending():
                    time.sleep(interval)  # nothing to search (e.g. a finished game)
        except Exception:  # noqa: BLE001 - the header is out: log, and end the response cleanly
            self.log(traceback.format_exc())
        return STREAMED

    def cmd_lz_genmove_analyze(self, args: list[str]) -> object:
        """``genmove`` that streams ``info`` lines while it thinks, then ``play MOVE``."""
        color, interval, min_visits = self._analysis_args(args, need_color=True)
        self.write(self._header())
        try:
            move = self._genmove(
                [("b" if color == BLACK else "w")],
                commit=True,
                callback=lambda r: self._stream(r, min_visits),
                interval=interval,
            )
            self.write(f"play {move}\n")
        except Exception:  # noqa: BLE001 - the header is out: log, and end the response cleanly
            self.log(traceback.format_exc())
        return STREAMED

    def cmd_analyze_commands(self, args: list[str]) -> str:
        """GoGui's analyze commands (``type/label/command``)."""
        return "\n".join(
            [
                "gfx/Best moves/goengine-best_moves %c",
                "gfx/Visit counts/goengine-visits %c",
                "gfx/Win rates/goengine-winrates %c",
                "gfx/Principal variation/goengine-pv %c",
                "dboard/Ownership/goengine-ownership",
                "param/Engine parameters/goengine-params",
                "none/Final score/final_score",
                "plist/Dead stones/final_status_list dead",
            ]
        )

    def _analysis(self, args: list[str]) -> SearchResult:
        color = self._color(args[0]) if args else self.engine.board.to_move
        board = self.engine.board.copy()
        board.to_move = color
        return self.engine.search.run(board, self.engine.komi)

    def cmd_best_moves(self, args: list[str]) -> str:
        result = self._analysis(args)
        best = [s for s in result.stats if s.visits > 0 and s.move != PASS][:5]
        if not best:
            return ""
        marks = " ".join(self._vertex_text(s.move) for s in best)
        labels = " ".join(f"{self._vertex_text(s.move)} {i + 1}" for i, s in enumerate(best))
        return f"SQUARE {marks}\nLABEL {labels}"

    def cmd_visits(self, args: list[str]) -> str:
        result = self._analysis(args)
        labels = " ".join(
            f"{self._vertex_text(s.move)} {s.visits}" for s in result.stats if s.visits > 0 and s.move != PASS
        )
        return f"LABEL {labels}" if labels else ""

    def cmd_winrates(self, args: list[str]) -> str:
        result = self._analysis(args)
        labels = " ".join(
            f"{self._vertex_text(s.move)} {round(100 * s.winrate)}"
            for s in result.stats
            if s.visits > 0 and s.move != PASS
        )
        return f"LABEL {labels}" if labels else ""

    def cmd_pv(self, args: list[str]) -> str:
        color = self._color(args[0]) if args else self.engine.board.to_move
        result = self._analysis(args)
        moves = []
        for i, m in enumerate(result.pv):
            c = color if i % 2 == 0 else 3 - color
            moves.append(f"{'B' if c == BLACK else 'W'} {self._vertex_text(m)}")
        return "VAR " + " ".join(moves) if moves else ""

    def cmd_ownership(self, args: list[str]) -> str:
        owner = self.engine.ownership()
        size = self.engine.size
        rows = []
        for r in range(size):
            rows.append(" ".join(f"{owner[coords.point(size, r, c)]:.2f}" for c in range(size)))
        return "\n".join(rows)


def serve(engine: Engine, stdin=None, stdout=None, log: Callable[[str], None] | None = None) -> int:
    """The I/O loop: read lines, answer each on ``stdout`` (flushed), until ``quit`` or EOF.

    A thread reads input into a queue, so a running search or analysis can tell that a new
    line has arrived; ``# interrupt`` lines (GoGui) interrupt the search at once.
    """
    if stdin is None:
        # bytes decoded here, leniently: one bad byte must not end (or hang) the session
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = stdout or sys.stdout
    lines: queue.Queue[str | None] = queue.Queue()
    lock = threading.Lock()
    gtp_engine: GtpEngine | None = None

    def reader() -> None:
        try:
            for line in stdin:
                if line.strip().lower().startswith("# interrupt") and gtp_engine is not None:
                    gtp_engine.engine.search.interrupt()
                    continue
                lines.put(line)
        except Exception as err:  # noqa: BLE001 - unreadable input ends the session, never hangs it
            if log:
                log(f"goengine: input ended: {err}")
        finally:
            lines.put(None)

    def write(text: str) -> None:
        with lock:
            stdout.write(text)
            stdout.flush()

    gtp_engine = GtpEngine(engine, log=log, write=write, input_pending=lambda: not lines.empty())
    threading.Thread(target=reader, name="gtp-reader", daemon=True).start()
    while True:
        line = lines.get()
        if line is None:
            break
        response = gtp_engine.send(line)
        if response:
            write(response)
        if gtp_engine.disconnect:
            break
    engine.search.close()
    return 0
