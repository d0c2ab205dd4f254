"""GoGui's analyze commands (GoGui's documentation, "Analyze Commands"): the best moves, visit
counts, win rates and principal variation of a search drawn on the board, the ownership map, the
learned move model's probabilities and features, the parameter page, the final score and the
dead stones. Each search command formats the ``SearchResult`` of one search on the settings'
budget (``Engine.analyze``); the move model's commands rate the position with no search
(``goengine.movemodel``).

Reading guide: ``ANALYZE_COMMANDS`` is what GoGui lists; ``labelled`` and ``visits_label`` keep
the board's labels few and short (four characters); ``probability_color`` colours the move
model's map.
"""

from __future__ import annotations

import colorsys
import math

from goengine import coords, movemodel
from goengine.board import BLACK, PASS
from goengine.calibration import reported_in
from goengine.engine import MoveStats, SearchRequest, SearchResult
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import color, syntax_error, vertex

LABEL_MIN_VISITS = 10  # a move with fewer visits gets no label on GoGui's board: its rate means little
LABEL_MIN_SHARE = 0.01  # nor one with less than this share of the most visited move's visits

# GoGui's analyze commands, ``type/label/command``: gfx draws SQUARE/LABEL/VAR on the board,
# dboard colours it by a number a point, param opens the parameter page, string shows the text
# of the answer, plist marks the points listed.
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


def visits_label(n: int) -> str:
    """A visit count in at most four characters, as other engines label GoGui's board:
    ``850``, ``1.8k``, ``18k``, ``180k``, ``1.8M``, ``18M``."""
    for scale, suffix in ((10**6, "M"), (10**3, "k")):
        if n >= scale - scale // 2000:  # what rounds to 1.0 of the unit counts as one
            value = n / scale
            return f"{value:.1f}{suffix}" if round(value, 1) < 10 else f"{round(value)}{suffix}"
    return str(n)


def labelled(stats: tuple[MoveStats, ...] | list[MoveStats]) -> list[MoveStats]:
    """The board moves worth a label: visited at least LABEL_MIN_VISITS times and at least
    LABEL_MIN_SHARE of the most visited move's visits, most visited first."""
    moves = [s for s in stats if s.move != PASS and s.visits > 0]
    if not moves:
        return []
    floor = max(LABEL_MIN_VISITS, LABEL_MIN_SHARE * max(s.visits for s in moves))
    return [s for s in moves if s.visits >= floor]


class GoGuiCommands(CommandGroup):
    COMMANDS = {
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

    def analyze_commands(self) -> str:
        """GoGui's analyze commands (``type/label/command``)."""
        return "\n".join(ANALYZE_COMMANDS)

    def gogui_interrupt(self) -> str:
        """GoGui asks whether ``# interrupt`` lines are understood (they are: ``serve``)."""
        return ""

    def _analysis(self, args: list[str]) -> SearchResult:
        """GoGui's analyze commands search the position for ``[color]`` on the settings' budget;
        the game clock does not apply (an analysis is not a move, ``Engine.analyze``)."""
        if len(args) > 1:
            raise syntax_error()
        return self.engine.analyze(color(args[0]) if args else None, SearchRequest(should_stop=self.gtp.stops()))

    def best_moves(self, args: list[str]) -> str:
        best = labelled(self._analysis(args).stats)[:5]
        if not best:
            return ""
        marks = " ".join(self.gtp.vertex_text(s.move) for s in best)
        labels = " ".join(f"{self.gtp.vertex_text(s.move)} {i + 1}" for i, s in enumerate(best))
        return f"SQUARE {marks}\nLABEL {labels}"

    def visits(self, args: list[str]) -> str:
        moves = labelled(self._analysis(args).stats)
        labels = " ".join(f"{self.gtp.vertex_text(s.move)} {visits_label(s.visits)}" for s in moves)
        return f"LABEL {labels}" if labels else ""

    def winrates(self, args: list[str]) -> str:
        result = self._analysis(args)
        shown = [(s.move, reported_in(result, s.winrate)) for s in labelled(result.stats)]
        labels = " ".join(f"{self.gtp.vertex_text(move)} {round(100 * rate)}" for move, rate in shown)
        return f"LABEL {labels}" if labels else ""

    def pv(self, args: list[str]) -> str:
        result = self._analysis(args)
        moves = []
        for i, m in enumerate(result.pv):
            mover = result.color if i % 2 == 0 else 3 - result.color
            moves.append(f"{'B' if mover == BLACK else 'W'} {self.gtp.vertex_text(m)}")
        return "VAR " + " ".join(moves) if moves else ""

    def ownership(self) -> str:
        owner = self.engine.ownership()
        size = self.game.size
        rows = []
        for r in range(size):
            rows.append(" ".join(f"{owner[coords.point(size, r, c)]:.2f}" for c in range(size)))
        return "\n".join(rows)

    # ---- the learned move model on GoGui's board (no search)

    def _model(self, args: list[str]) -> list[tuple[int, float]]:
        if len(args) > 1:
            raise syntax_error()
        c = color(args[0]) if args else self.game.to_move
        return movemodel.shipped().rate(self.game.board, c)

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
        point = vertex(self.game.size, args[0])
        c = color(args[1]) if len(args) == 2 else self.game.to_move
        model = movemodel.shipped()
        words = model.explain(self.game.board, point, c)  # ValueError for an illegal move: "? message"
        share = dict(model.rate(self.game.board, c)).get(point, 0.0)
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
