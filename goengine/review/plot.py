"""The review's picture: Black's win rate and the score lead over the game, the biggest mistakes
marked, as a PNG.

matplotlib is the ``plot`` extra: imported here only, when a picture is drawn (``needs_matplotlib``
lets the command refuse before any search, with the line that installs it). The figure is drawn
on matplotlib's Agg canvas, without pyplot, so nothing here depends on a display or on pyplot's
global state.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from goengine import coords
from goengine.board import BLACK
from goengine.review.losses import MoveReview

INSTALL = "pip install matplotlib (the plot extra)"  # by name: goengine itself is on no package index


def needs_matplotlib() -> str | None:
    """None when matplotlib can be imported, else what to tell the user."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return f"the review's plot needs matplotlib, which is not installed: {INSTALL} (or --no-plot)"
    return None


def draw(
    title: str,
    size: int,
    points: Sequence[tuple[float, float]],
    first_number: int,
    marked: Sequence[MoveReview],
) -> bytes:
    """The PNG, as bytes: Black's win rate (top) and Black's score lead (bottom) in every
    position, ``points[k]`` (``losses.curve``) after move ``first_number + k - 1`` (0: before the
    first move), and a mark with its number and move on each move of ``marked`` (at the position
    it made)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    xs = [first_number - 1 + k for k in range(len(points))]
    rates = [100 * rate for rate, _ in points]
    leads = [lead for _, lead in points]
    figure = Figure(figsize=(10, 6), dpi=100)
    FigureCanvasAgg(figure)
    top, bottom = figure.subplots(2, 1, sharex=True)
    top.plot(xs, rates, color="black", linewidth=1.2)
    top.axhline(50, color="grey", linewidth=0.6, linestyle="--")
    top.set_ylim(0, 100)
    top.set_ylabel("Black's win rate (%)")
    top.set_title(title, fontsize=10)
    bottom.plot(xs, leads, color="tab:blue", linewidth=1.2)
    bottom.axhline(0, color="grey", linewidth=0.6, linestyle="--")
    bottom.set_ylabel("Black's score lead")
    bottom.set_xlabel("move")
    for review in marked:
        x = review.number
        k = x - first_number + 1
        color = "tab:red" if review.color == BLACK else "tab:orange"
        label = f"{review.number} {coords.to_gtp(size, review.point)}"
        for axis, ys in ((top, rates), (bottom, leads)):
            axis.plot([x], [ys[k]], "o", color=color, markersize=5)
            axis.annotate(label, (x, ys[k]), textcoords="offset points", xytext=(3, 4), fontsize=7, color=color)
    top.plot([], [], "o", color="tab:red", label="Black's biggest mistakes")
    top.plot([], [], "o", color="tab:orange", label="White's")
    top.legend(loc="upper right", fontsize=7)
    figure.tight_layout()
    picture = io.BytesIO()
    figure.savefig(picture, format="png")
    return picture.getvalue()
