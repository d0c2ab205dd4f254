"""GTP analysis commands: KataGo's ``kata-analyze`` / ``kata-genmove_analyze`` (Sabaki, Lizzie:
the score and the ownership map), Leela Zero's ``lz-analyze`` / ``lz-genmove_analyze``, and
GoGui's analyze commands (best moves, visit counts, win rates, principal variation, ownership,
the parameter page, final score, dead stones).

Reading guide: ``_analysis_args`` reads both formats' arguments into an ``AnalysisRequest``;
``info_line`` is Leela Zero's format and ``kata_line`` KataGo's; ``_analyze`` streams one of them
until the next line of input; the ``goengine-*`` commands answer GoGui's ``gfx`` and ``dboard``
types, whose board labels ``visits_label`` keeps to four characters.
"""

from __future__ import annotations

import colorsys
import math
import time
import traceback
from dataclasses import dataclass

from goengine import coords
from goengine.board import BLACK, PASS
from goengine.engine import Budget, MoveStats, SearchResult
from goengine.gtp.commands import CommandGroup
from goengine.gtp.protocol import STREAMED, GtpError, color, integer, number, syntax_error, vertex

LABEL_MIN_VISITS = 10  # a move with fewer visits gets no label on GoGui's board: its rate means little
LABEL_MIN_SHARE = 0.01  # nor one with less than this share of the most visited move's visits

# GoGui's analyze commands, ``type/label/command`` (GoGui's documentation, "Analyze Commands"):
# gfx draws SQUARE/LABEL/VAR on the board, dboard colours it by a number a point, param opens
# the parameter page, string shows the text of the answer, plist marks the points listed.
ANALYZE_COMMANDS = (
    "gfx/Best moves/goengine-best_moves %c",
    "gfx/Visit counts/goengine-visits %c",
    "gfx/Win rates/goengine-winrates %c",
    "gfx/Principal variation/goengine-pv %c",
    "dboard/Ownership/goengine-ownership",
    "gfx/Move model: probabilities/goengine-model_colors",
    "gfx/Move model: best moves/goengine-model_best",
    "string/Move model: features of a move/goengine-model_features %p",
    "param/Engine parameters/goengine-params",
    "string/Final score/final_score",
    "plist/Dead stones/final_status_list dead",
)


@dataclass
class AnalysisRequest:
    """What an ``lz-analyze`` or ``kata-analyze`` command asked for (``_analysis_args``)."""

    color: int  # the side analysed; every figure is from its side
    interval: float  # seconds between reports
    min_visits: int = 0  # a move is listed from this many visits (one at least)
    max_moves: int | None = None  # at most this many moves a report
    ownership: bool = False
    ownership_stdev: bool = False
    root_info: bool = False


# the keys of both formats (lower case), then KataGo's kata-analyze keys this engine answers, and
# the request fields they set
LZ_KEYS = ("interval", "minmoves", "maxmoves", "min_visits", "minvisits")
KATA_FLAGS = {"ownership": "ownership", "ownershipstdev": "ownership_stdev", "rootinfo": "root_info"}
# KataGo's keys for what the tree does not keep: per-move ownership, the visits along a PV
# (a node's visits include its prior's virtual ones), no-result values
KATA_UNSUPPORTED = ("movesownership", "movesownershipstdev", "pvvisits", "pvedgevisits", "noresultvalue")


def boolean(text: str) -> bool:
    """KataGo's booleans: ``true``/``false`` (also ``1``/``0``, ``yes``/``no``, any case)."""
    word = text.lower()
    if word in ("true", "1", "yes"):
        return True
    if word in ("false", "0", "no"):
        return False
    raise GtpError(f"expected true or false, got {text}")


def score_text(points: float) -> str:
    """A score in points with six decimals (always a decimal point), never ``-0.000000``."""
    return f"{points + 0.0:.6f}" if abs(points) >= 5e-7 else "0.000000"


def visits_label(n: int) -> str:
    """A visit count in at most four characters, as other engines label GoGui's board:
    ``850``, ``1.8k``, ``18k``, ``180k``, ``1.8M``, ``18M``."""
    for scale, suffix in ((10**6, "M"), (10**3, "k")):
        if n >= scale - scale // 2000:  # what rounds to 1.0 of the unit counts as one
            value = n / scale
            return f"{value:.1f}{suffix}" if round(value, 1) < 10 else f"{round(value)}{suffix}"
    return str(n)


def labelled(stats: list[MoveStats]) -> list[MoveStats]:
    """The board moves worth a label: visited at least LABEL_MIN_VISITS times and at least
    LABEL_MIN_SHARE of the most visited move's visits, most visited first."""
    moves = [s for s in stats if s.move != PASS and s.visits > 0]
    if not moves:
        return []
    floor = max(LABEL_MIN_VISITS, LABEL_MIN_SHARE * max(s.visits for s in moves))
    return [s for s in moves if s.visits >= floor]


class AnalysisCommands(CommandGroup):
    COMMANDS = {
        "lz-analyze": "lz_analyze",
        "lz-genmove_analyze": "lz_genmove_analyze",
        "kata-analyze": "kata_analyze",
        "kata-genmove_analyze": "kata_genmove_analyze",
        "gogui-analyze_commands": "analyze_commands",
        "gogui-interrupt": "gogui_interrupt",
        "goengine-best_moves": "best_moves",
        "goengine-visits": "visits",
        "goengine-winrates": "winrates",
        "goengine-pv": "pv",
        "goengine-ownership": "ownership",
        "goengine-model_colors": "model_colors",
        "goengine-model_best": "model_best",
        "goengine-model_features": "model_features",
    }

    # ---- Leela Zero's and KataGo's analysis (Sabaki, Lizzie)

    def _entries(self, result: SearchResult, request: AnalysisRequest) -> list[tuple[MoveStats, float, str]]:
        """The moves one report lists, most visited first: at least ``min_visits`` visits (one at
        least), at most ``max_moves`` of them; each with the lower bound of its win rate's 95 %
        interval and its principal variation as text."""
        stats = [s for s in result.stats if s.visits >= max(1, request.min_visits)]
        if request.max_moves is not None:
            stats = stats[: request.max_moves]
        entries = []
        for s in stats:
            wr = s.winrate
            lcb = max(0.0, wr - 1.96 * math.sqrt(max(wr * (1 - wr), 1e-9) / s.visits))
            pv = " ".join(self.gtp.vertex_text(m) for m in self.engine.principal_variation(s.move, length=12))
            entries.append((s, lcb, pv))
        return entries

    def info_line(self, result: SearchResult, request: AnalysisRequest | None = None) -> str:
        """Leela Zero's analysis format: ``info move D4 visits 1178 winrate 4802 prior 2211 lcb
        4781 order 0 pv D4 E3`` for every move, rates as integers x 10000 for the side to move.

        ``prior`` is the move's share of the prior knowledge (``Engine.prior_shares``): the move
        model's probability under ``--prior patterns``, else its share of the virtual visits the
        prior gave the root's children; with no prior knowledge (``--prior none``) the field is
        left out, which Sabaki's parser accepts (it reads keys and values in pairs and uses only
        move, visits, winrate, scoreLead and pv) rather than showing an invented figure."""
        entries = self._entries(result, request or AnalysisRequest(self.engine.board.to_move, 1.0))
        shares = self.engine.prior_shares() if entries else {}
        parts = []
        for order, (s, lcb, pv) in enumerate(entries):
            prior = f"prior {round(10000 * shares.get(s.move, 0.0))} " if shares else ""
            parts.append(
                f"info move {self.gtp.vertex_text(s.move)} visits {s.visits} winrate {round(s.winrate * 10000)} "
                f"{prior}lcb {round(lcb * 10000)} order {order} pv {pv}"
            )
        return " ".join(parts)

    def kata_line(self, result: SearchResult, request: AnalysisRequest) -> str:
        """KataGo's ``kata-analyze`` format (KataGo's docs/GTP_Extensions.md): ``info move D4
        visits 1178 winrate 0.480200 scoreMean -0.611848 scoreSelfplay -0.611848 scoreLead
        -0.611848 prior 0.221100 lcb 0.478100 order 0 pv D4 E3`` for every move, then ``rootInfo``
        and the ``ownership`` and ``ownershipStdev`` sections when asked for, all on one line.

        Everything is from the side of ``request.color`` (the side to move unless the command
        named one), as KataGo reports by default: win rates in [0, 1] with six decimals (a
        decimal point always: Sabaki reads a rate without one as Leela Zero's x 10000); the
        score is the mean area score of the iterations through the move (``kernels.tree``'s
        SCORE) less komi, signed for that side; the three score fields are the same figure,
        since the playouts are the only estimate (KataGo's ``scoreLead`` corrects its self-play
        mean, ``scoreSelfplay``; ``scoreMean`` is kept by KataGo equal to the lead). The
        ownership is one value per point in [-1, 1], +1 for that side, rows from the top
        (A19 first on 19x19) and each row left to right, KataGo's order; ``ownershipStdev`` is
        its standard deviation over the same iterations. ``prior`` is as in ``info_line``."""
        entries = self._entries(result, request)
        if not entries:
            return ""
        sign = 1.0 if request.color == BLACK else -1.0
        komi = self.engine.komi
        shares = self.engine.prior_shares()
        parts = []
        for order, (s, lcb, pv) in enumerate(entries):
            lead = score_text(sign * (s.mean_area - komi))
            prior = f"prior {shares.get(s.move, 0.0):.6f} " if shares else ""
            parts.append(
                f"info move {self.gtp.vertex_text(s.move)} visits {s.visits} winrate {s.winrate:.6f} "
                f"scoreMean {lead} scoreSelfplay {lead} scoreLead {lead} {prior}lcb {lcb:.6f} order {order} pv {pv}"
            )
        if request.root_info:
            lead = score_text(sign * (result.mean_area - komi))
            # the dynamic komi of a move of the game (kata-genmove_analyze), which the win rates
            # are against: a field of our own, written only when there is one
            extra = f" extraKomi {result.extra_komi:.1f}" if result.extra_komi else ""
            parts.append(
                f"rootInfo visits {result.visits} winrate {result.root_winrate:.6f} "
                f"scoreMean {lead} scoreSelfplay {lead} scoreLead {lead}{extra}"
            )
        if request.ownership or request.ownership_stdev:
            mean, stdev = self.engine.search_ownership()
            size = self.engine.size
            points = [coords.point(size, r, c) for r in range(size) for c in range(size)]
            if request.ownership:
                parts.append("ownership " + " ".join(f"{sign * mean[p] + 0.0:.6f}" for p in points))
            if request.ownership_stdev:
                parts.append("ownershipStdev " + " ".join(f"{stdev[p]:.6f}" for p in points))
        return " ".join(parts)

    def _analysis_args(self, args: list[str], need_color: bool, kata: bool) -> AnalysisRequest:
        """``[color] [interval] KEY VALUE ...``, Leela Zero's and KataGo's arguments: the colour
        (default: the side to move), the centiseconds between reports (``interval N`` also), and
        the keys ``minmoves N`` (every visited move is listed anyway), ``maxmoves N``,
        ``min_visits N``; with ``kata``, KataGo's ``ownership``, ``ownershipStdev`` and
        ``rootInfo`` (``true``/``false``). A key KataGo has that needs what the tree does not
        keep (per-move ownership, visits along the PV) is refused when asked for, by name."""
        request = AnalysisRequest(self.engine.board.to_move, 1.0)
        rest = list(args)
        if rest and rest[0].lower() in ("b", "w", "black", "white"):
            request.color = color(rest.pop(0))
        elif need_color:
            raise syntax_error()
        if rest and rest[0].replace(".", "", 1).isdigit():
            request.interval = max(0.01, number(rest.pop(0)) / 100.0)  # centiseconds
        while rest:
            key = rest.pop(0)
            word = key.lower()
            if word not in LZ_KEYS and not (kata and (word in KATA_FLAGS or word in KATA_UNSUPPORTED)):
                raise GtpError(f"unknown analysis key {key}")
            if not rest:
                raise GtpError(f"{key} needs a value")
            value = rest.pop(0)
            if word == "interval":
                request.interval = max(0.01, number(value) / 100.0)
            elif word in ("minmoves", "maxmoves", "min_visits", "minvisits"):
                n = integer(value)
                if n < 0:
                    raise GtpError(f"{key} must not be negative")
                if word == "maxmoves":
                    request.max_moves = n
                elif word != "minmoves":
                    request.min_visits = n
            elif word in KATA_FLAGS:
                setattr(request, KATA_FLAGS[word], boolean(value))
            elif boolean(value):  # one of KATA_UNSUPPORTED
                raise GtpError(f"{key} is not supported")
        return request

    def _interrupt_on_input(self, result: SearchResult) -> None:
        if self.gtp.input_pending():
            self.engine.interrupt()

    def _stream(self, result: SearchResult, request: AnalysisRequest, kata: bool) -> None:
        line = self.kata_line(result, request) if kata else self.info_line(result, request)
        if line:
            self.gtp.write(line + "\n")
        self._interrupt_on_input(result)

    def _streaming(self, body) -> object:
        """Write the success header, then run ``body``, which writes the rest. The header is out,
        so a failure can no longer become ``? message``: it is logged and the response ends."""
        self.gtp.write(self.gtp.header())
        try:
            body()
        except Exception:  # noqa: BLE001 - see the docstring
            self.gtp.log(traceback.format_exc())
        return STREAMED

    def _analyze(self, args: list[str], kata: bool) -> object:
        request = self._analysis_args(args, need_color=False, kata=kata)
        one_report = Budget(seconds=request.interval)
        ownership = request.ownership or request.ownership_stdev

        def body() -> None:
            while not self.gtp.input_pending():
                # one report per slice of search; the tree (and the owners it counts) is kept
                # between slices
                result = self.engine.analyze(
                    request.color,
                    one_report,
                    callback=self._interrupt_on_input,
                    callback_interval=0.05,
                    ownership=ownership,
                )
                self._stream(result, request, kata)
                if result.playouts == 0 and not self.gtp.input_pending():
                    time.sleep(request.interval)  # nothing to search (e.g. a finished game)

        return self._streaming(body)

    def _genmove_analyze(self, args: list[str], kata: bool) -> object:
        request = self._analysis_args(args, need_color=True, kata=kata)

        def body() -> None:
            move = self.gtp.genmove(
                request.color,
                commit=True,
                callback=lambda r: self._stream(r, request, kata),
                interval=request.interval,
                ownership=request.ownership or request.ownership_stdev,
            )
            # the search's final figures once more, as KataGo does: a search shorter than the
            # interval has reported nothing yet (the tree is still the searched position's)
            self._stream(self.engine.last_result, request, kata)
            self.gtp.write(f"play {move}\n")

        return self._streaming(body)

    def lz_analyze(self, args: list[str]) -> object:
        """Ponder for the side to move (or ``color``), streaming ``info`` lines (``info_line``)
        every interval until the next line of input; the response then ends. The game state is
        not changed, and no budget or clock applies: it searches until the next command comes."""
        return self._analyze(args, kata=False)

    def kata_analyze(self, args: list[str]) -> object:
        """``lz-analyze`` in KataGo's format (``kata_line``), with its ``ownership``,
        ``ownershipStdev`` and ``rootInfo`` keys."""
        return self._analyze(args, kata=True)

    def lz_genmove_analyze(self, args: list[str]) -> object:
        """``genmove`` that streams ``info`` lines while it thinks, then ``play MOVE``: a move of
        the game, on the move's budget and clock."""
        return self._genmove_analyze(args, kata=False)

    def kata_genmove_analyze(self, args: list[str]) -> object:
        """``lz-genmove_analyze`` in KataGo's format (``kata_analyze``)."""
        return self._genmove_analyze(args, kata=True)

    # ---- GoGui

    def analyze_commands(self, args: list[str]) -> str:
        """GoGui's analyze commands (``type/label/command``)."""
        return "\n".join(ANALYZE_COMMANDS)

    def gogui_interrupt(self, args: list[str]) -> str:
        """GoGui asks whether ``# interrupt`` lines are understood (they are: ``serve``)."""
        return ""

    def _search(self, args: list[str]) -> SearchResult:
        """GoGui's analyze commands search the position for ``[color]`` on the settings' budget;
        the game clock does not apply (an analysis is not a move, ``Engine.analyze``)."""
        return self.engine.analyze(color(args[0]) if args else None)

    def best_moves(self, args: list[str]) -> str:
        best = labelled(self._search(args).stats)[:5]
        if not best:
            return ""
        marks = " ".join(self.gtp.vertex_text(s.move) for s in best)
        labels = " ".join(f"{self.gtp.vertex_text(s.move)} {i + 1}" for i, s in enumerate(best))
        return f"SQUARE {marks}\nLABEL {labels}"

    def visits(self, args: list[str]) -> str:
        moves = labelled(self._search(args).stats)
        labels = " ".join(f"{self.gtp.vertex_text(s.move)} {visits_label(s.visits)}" for s in moves)
        return f"LABEL {labels}" if labels else ""

    def winrates(self, args: list[str]) -> str:
        moves = labelled(self._search(args).stats)
        labels = " ".join(f"{self.gtp.vertex_text(s.move)} {round(100 * s.winrate)}" for s in moves)
        return f"LABEL {labels}" if labels else ""

    def pv(self, args: list[str]) -> str:
        c = color(args[0]) if args else self.engine.board.to_move
        result = self._search(args)
        moves = []
        for i, m in enumerate(result.pv):
            mover = c if i % 2 == 0 else 3 - c
            moves.append(f"{'B' if mover == BLACK else 'W'} {self.gtp.vertex_text(m)}")
        return "VAR " + " ".join(moves) if moves else ""

    def ownership(self, args: list[str]) -> str:
        owner = self.engine.ownership()
        size = self.engine.size
        rows = []
        for r in range(size):
            rows.append(" ".join(f"{owner[coords.point(size, r, c)]:.2f}" for c in range(size)))
        return "\n".join(rows)

    # ---- the learned move model on GoGui's board (no search)

    def _model(self, args: list[str]) -> list[tuple[int, float]]:
        if len(args) > 1:
            raise syntax_error()
        return self.engine.move_probabilities(color(args[0]) if args else None)

    def model_colors(self, args: list[str]) -> str:
        """Every move the model gives at least MODEL_MIN_P, coloured from blue (MODEL_MIN_P) to
        red (the most likely), on a log scale as Pachi's ``gogui-pattern_colors``; the ten most
        likely labelled with their percentage."""
        rated = [(m, p) for m, p in self._model(args) if m != PASS and p >= MODEL_MIN_P]
        lines = [f"COLOR {probability_color(p)} {self.gtp.vertex_text(m)}" for m, p in rated]
        labels = " ".join(f"{self.gtp.vertex_text(m)} {percent_label(p)}" for m, p in rated[:10])
        return "\n".join(lines + ([f"LABEL {labels}"] if labels else []))

    def model_best(self, args: list[str]) -> str:
        """The model's five most likely moves: a square on the first, each labelled by its rank."""
        best = [m for m, _ in self._model(args) if m != PASS][:5]
        if not best:
            return ""
        labels = " ".join(f"{self.gtp.vertex_text(m)} {i + 1}" for i, m in enumerate(best))
        return f"SQUARE {self.gtp.vertex_text(best[0])}\nLABEL {labels}"

    def model_features(self, args: list[str]) -> str:
        """``VERTEX [color]``: the move's feature values, its shape and score, and its probability."""
        if not 1 <= len(args) <= 2:
            raise syntax_error()
        point = vertex(self.engine.size, args[0])
        c = color(args[1]) if len(args) == 2 else None
        words = self.engine.move_features(point, c)
        share = dict(self.engine.move_probabilities(c)).get(point, 0.0)
        lines = [f"{self.gtp.vertex_text(point)}: probability {share:.2%}"]
        lines += [f"{key}: {value}" for key, value in words.items()]
        return "\n".join(lines)


MODEL_MIN_P = 0.001  # the least probability GoGui's colours show (Pachi's prior ignores less)


def probability_color(p: float) -> str:
    """A probability as GoGui's ``COLOR``: blue at MODEL_MIN_P through green to red at 1, on a log
    scale (most moves have small probabilities)."""
    x = min(1.0, max(0.0, math.log(p / MODEL_MIN_P) / math.log(1.0 / MODEL_MIN_P)))
    hue = (1.0 - x) * 240.0  # 240 blue .. 0 red
    r, g, b = colorsys.hsv_to_rgb(hue / 360.0, 1.0, 1.0)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def percent_label(p: float) -> str:
    """A probability as a label of at most four characters: ``37%``, ``4%``, ``<1%``."""
    return f"{round(100 * p)}%" if p >= 0.005 else "<1%"
