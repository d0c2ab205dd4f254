"""GTP analysis in Leela Zero's, KataGo's and CGOS's formats: ``lz-analyze`` /
``lz-genmove_analyze`` (Lizzie, Sabaki), ``kata-analyze`` / ``kata-genmove_analyze`` (Sabaki,
Lizzie: the score and the ownership map) and ``cgos-genmove_analyze`` (the computer Go server
CGOS, which shows a bot's analysis beside its games). GoGui's analyze commands are
``goengine.gtp.gogui``.

Every line written here formats one ``SearchResult`` (``goengine.result``: the immutable answer of
a search) and nothing else: the moves, their figures and principal variations, the root's figures
and the ownership map all come from it, so a report is consistent in itself whatever the search
does next.

Reading guide: ``analysis_request`` reads both formats' arguments into an ``AnalysisRequest``;
``info_line`` is Leela Zero's format and ``kata_line`` KataGo's; ``StreamingCommands._analyze``
streams one of them, one result a report, from one search that runs until the next line of input
(its request's callback, the way every analysis streams: ``config.SearchRequest``). ``cgos_json`` is CGOS's
one line of JSON after the search.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from goengine import coords
from goengine.board import BLACK
from goengine.calibration import reported_in as shown
from goengine.engine import Budget, MoveStats, SearchRequest, SearchResult
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import STREAMED, GtpError, color, integer, number, syntax_error

PV_SHOWN = 12  # moves of a principal variation an analysis line gives (the move included)
ANALYSIS_SECONDS = 86400.0  # lz-analyze's and kata-analyze's budget: they search until the next line


@dataclass
class AnalysisRequest:
    """What an ``lz-analyze`` or ``kata-analyze`` command asked for (``analysis_request``)."""

    color: int  # the side analysed; every figure is from its side
    interval: float  # seconds between reports
    min_visits: int = 0  # a move is listed from this many visits (one at least)
    max_moves: int | None = None  # at most this many moves a report
    ownership: bool = False
    ownership_stdev: bool = False
    root_info: bool = False
    pv_visits: bool = False


# the keys of both formats (lower case), then KataGo's kata-analyze keys this engine answers, and
# the request fields they set
LZ_KEYS = ("interval", "minmoves", "maxmoves", "min_visits", "minvisits")
KATA_FLAGS = {
    "ownership": "ownership",
    "ownershipstdev": "ownership_stdev",
    "rootinfo": "root_info",
    "pvvisits": "pv_visits",
}
# KataGo's keys for what the tree does not keep: per-move ownership, the edge visits of a graph
# search, no-result values
KATA_UNSUPPORTED = ("movesownership", "movesownershipstdev", "pvedgevisits", "noresultvalue")
# CGOS's ownership string: a character a point, from -1 (the opponent's, 'A') to +1 ('+')
CGOS_OWNERSHIP = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


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


def analysis_request(args: list[str], to_move: int, need_color: bool, kata: bool) -> AnalysisRequest:
    """``[color] [interval] KEY VALUE ...``, Leela Zero's and KataGo's arguments: the colour
    (default: ``to_move``), the centiseconds between reports (``interval N`` also), and the keys
    ``minmoves N`` (every visited move is listed anyway), ``maxmoves N``, ``min_visits N``; with
    ``kata``, KataGo's ``ownership``, ``ownershipStdev``, ``rootInfo`` and ``pvVisits``
    (``true``/``false``). A
    key KataGo has that needs what the tree does not keep (per-move ownership, visits along the
    PV) is refused when asked for, by name."""
    request = AnalysisRequest(to_move, 1.0)
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


def listed(result: SearchResult, request: AnalysisRequest) -> list[MoveStats]:
    """The moves one report lists, most visited first: at least ``min_visits`` visits (one at
    least), at most ``max_moves`` of them."""
    stats = [s for s in result.stats if s.visits >= max(1, request.min_visits)]
    return stats if request.max_moves is None else stats[: request.max_moves]


def has_prior(result: SearchResult) -> bool:
    """Whether the search had prior knowledge to share out (``MoveStats.prior``): with
    ``--prior none`` every share is 0 and the ``prior`` field is left out."""
    return any(s.prior > 0 for s in result.stats)


def info_line(result: SearchResult, request: AnalysisRequest, vertex_text: Callable[[int], str]) -> str:
    """Leela Zero's analysis format: ``info move D4 visits 1178 winrate 4802 prior 2211 lcb
    4781 order 0 pv D4 E3`` for every move, rates as integers x 10000 for the side to move.

    ``prior`` is the move's share of the prior knowledge (``MoveStats.prior``): the move model's
    probability under the move-model prior, else its share of the virtual visits the prior gave
    the root's children; with no prior knowledge (``--prior none``) the field is left out, which
    Sabaki's parser accepts (it reads keys and values in pairs and uses only move, visits,
    winrate, scoreLead and pv) rather than showing an invented figure."""
    prior = has_prior(result)
    parts = []
    for order, s in enumerate(listed(result, request)):
        share = f"prior {round(10000 * s.prior)} " if prior else ""
        pv = " ".join(vertex_text(m) for m in s.pv[:PV_SHOWN])
        winrate, lcb = shown(result, s.winrate), shown(result, s.lcb)
        parts.append(
            f"info move {vertex_text(s.move)} visits {s.visits} winrate {round(winrate * 10000)} "
            f"{share}lcb {round(lcb * 10000)} order {order} pv {pv}"
        )
    return " ".join(parts)


def kata_line(result: SearchResult, request: AnalysisRequest, vertex_text: Callable[[int], str], size: int) -> str:
    """KataGo's ``kata-analyze`` format (KataGo's docs/GTP_Extensions.md): ``info move D4
    visits 1178 winrate 0.480200 scoreMean -0.611848 scoreStdev 21.3 scoreSelfplay -0.611848 scoreLead
    -0.611848 prior 0.221100 lcb 0.478100 order 0 pv D4 E3`` for every move, then ``rootInfo``
    and the ``ownership`` and ``ownershipStdev`` sections when asked for, all on one line.

    Everything is from the side searched (``result.color``: the side to move unless the command
    named one), as KataGo reports by default: win rates in [0, 1] with six decimals (a decimal
    point always: Sabaki reads a rate without one as Leela Zero's x 10000); the score is the
    result's score lead (the mean area score of the iterations through the move less komi,
    signed for that side); the three score fields are the same figure, since the playouts are
    the only estimate (KataGo's ``scoreLead`` corrects its self-play mean, ``scoreSelfplay``;
    ``scoreMean`` is kept by KataGo equal to the lead). The ownership is one value per point in
    [-1, 1], +1 for that side, rows from the top (A19 first on 19x19) and each row left to
    right, KataGo's order; ``ownershipStdev`` is its standard deviation over the same
    iterations. ``prior`` is as in ``info_line``. With ``pvVisits``, each move's ``pv`` is
    followed by the searched visits of each position along it (``MoveStats.pv_visits``)."""
    moves = listed(result, request)
    if not moves:
        return ""
    sign = 1.0 if result.color == BLACK else -1.0
    prior = has_prior(result)
    parts = []
    for order, s in enumerate(moves):
        lead = score_text(s.score_lead)
        share = f"prior {s.prior:.6f} " if prior else ""
        pv = " ".join(vertex_text(m) for m in s.pv[:PV_SHOWN])
        if request.pv_visits:
            pv += " pvVisits " + " ".join(str(n) for n in s.pv_visits[:PV_SHOWN])
        parts.append(
            f"info move {vertex_text(s.move)} visits {s.visits} winrate {shown(result, s.winrate):.6f} "
            f"scoreMean {lead} scoreStdev {s.score_stdev:.6f} scoreSelfplay {lead} scoreLead {lead} "
            f"{share}lcb {shown(result, s.lcb):.6f} "
            f"order {order} pv {pv}"
        )
    if request.root_info:
        lead = score_text(result.score_lead)
        # the dynamic komi of a move of the game (kata-genmove_analyze), which the win rates
        # are against: a field of our own, written only when there is one
        extra = f" extraKomi {result.extra_komi:.1f}" if result.extra_komi else ""
        parts.append(
            f"rootInfo visits {result.visits} winrate {shown(result, result.root_winrate):.6f} "
            f"scoreMean {lead} scoreStdev {result.score_stdev:.6f} scoreSelfplay {lead} scoreLead {lead}{extra}"
        )
    if (request.ownership or request.ownership_stdev) and result.ownership is not None:
        points = [coords.point(size, r, c) for r in range(size) for c in range(size)]
        if request.ownership:
            parts.append("ownership " + " ".join(f"{sign * result.ownership[p] + 0.0:.6f}" for p in points))
        if request.ownership_stdev:
            parts.append("ownershipStdev " + " ".join(f"{result.ownership_stdev[p]:.6f}" for p in points))
    return " ".join(parts)


def cgos_json(result: SearchResult, vertex_text: Callable[[int], str], size: int) -> str:
    """CGOS's analysis of a move (its ``cgos-genmove_analyze``, as the Ray and TamaGo engines
    write it): one line of JSON with the root's ``winrate``, ``score`` (the score lead) and
    ``visits``, each searched move's ``move``, ``visits``, ``winrate``, ``score``, ``prior`` and
    ``pv`` (a string of vertices, the move first), and the ``ownership`` as one character a
    point (``CGOS_OWNERSHIP``, rows from the top), all from the side that moves."""
    sign = 1.0 if result.color == BLACK else -1.0
    moves = [
        {
            "move": vertex_text(s.move),
            "visits": s.visits,
            "winrate": round(shown(result, s.winrate), 6),
            "score": round(s.score_lead, 4),
            "prior": round(s.prior, 6),
            "pv": " ".join(vertex_text(m) for m in s.pv[:PV_SHOWN]),
        }
        for s in result.stats
        if s.visits > 0
    ]
    answer = {
        "winrate": round(shown(result, result.root_winrate), 6),
        "score": round(result.score_lead, 4),
        "visits": result.visits,
        "moves": moves,
    }
    if result.ownership is not None:
        points = [coords.point(size, r, c) for r in range(size) for c in range(size)]
        top = len(CGOS_OWNERSHIP) - 2  # '+', the side's own; '/' is never written
        answer["ownership"] = "".join(
            CGOS_OWNERSHIP[round((sign * float(result.ownership[p]) + 1.0) / 2.0 * top)] for p in points
        )
    answer["comment"] = f"goengine: {result.playouts} playouts in {result.seconds:.1f} s"
    return json.dumps(answer, separators=(",", ":"))


class StreamingCommands(CommandGroup):
    COMMANDS = {
        "lz-analyze": "lz_analyze",
        "lz-genmove_analyze": "lz_genmove_analyze",
        "kata-analyze": "kata_analyze",
        "kata-genmove_analyze": "kata_genmove_analyze",
        "cgos-genmove_analyze": "cgos_genmove_analyze",
    }

    def line(self, result: SearchResult, request: AnalysisRequest, kata: bool) -> str:
        """One report of ``result`` in KataGo's format (``kata``) or Leela Zero's."""
        if kata:
            return kata_line(result, request, self.gtp.vertex_text, self.game.size)
        return info_line(result, request, self.gtp.vertex_text)

    def _stream(self, result: SearchResult, request: AnalysisRequest, kata: bool) -> None:
        line = self.line(result, request, kata)
        if line:
            self.gtp.write(line + "\n")

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
        request = analysis_request(args, self.game.to_move, need_color=False, kata=kata)
        search = SearchRequest(
            Budget(seconds=ANALYSIS_SECONDS),
            callback=lambda result: self._stream(result, request, kata),
            interval=request.interval,
            ownership=request.ownership or request.ownership_stdev,
            pv_visits=request.pv_visits,
            should_stop=self.gtp.stops(self.gtp.input_pending),
        )

        def body() -> None:
            # one search, reporting every interval, until the next line of input; should it end
            # first (nothing to search: a finished game; a root of 2^31 visits), its last result
            # is reported every interval until then
            result = self.engine.analyze(request.color, search)
            while not self.gtp.input_pending():
                self._stream(result, request, kata)
                time.sleep(request.interval)

        return self._streaming(body)

    def _genmove_analyze(self, args: list[str], kata: bool) -> object:
        request = analysis_request(args, self.game.to_move, need_color=True, kata=kata)

        def body() -> None:
            search = SearchRequest(  # the next line of input ends the move's search, as an interrupt
                callback=lambda r: self._stream(r, request, kata),
                interval=request.interval,
                ownership=request.ownership or request.ownership_stdev,
                pv_visits=request.pv_visits,
                should_stop=self.gtp.input_pending,
            )
            decision = self.gtp.genmove(request.color, commit=True, request=search)
            # the search's final figures once more, as KataGo does: a search shorter than the
            # interval has reported nothing yet
            self._stream(decision.result, request, kata)
            self.gtp.write(f"play {self.gtp.vertex_text(decision.move)}\n")

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

    def cgos_genmove_analyze(self, args: list[str]) -> str:
        """``genmove`` for CGOS: the move's analysis as one line of JSON (``cgos_json``), then
        ``play MOVE``. The search counts who owns each point, for the ownership string."""
        if len(args) != 1:
            raise syntax_error()
        decision = self.gtp.genmove(color(args[0]), commit=True, request=SearchRequest(ownership=True))
        analysis = cgos_json(decision.result, self.gtp.vertex_text, self.game.size)
        return f"{analysis}\nplay {self.gtp.vertex_text(decision.move)}"
