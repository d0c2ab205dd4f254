"""The GTP (version 2) front-end: where text stops. Everything below it takes points, colours
and objects; GTP's formats and error wording live in this package.

Reading guide: ``protocol`` is the core (reading a line, the command table, framing, the I/O loop);
each other module but ``group`` (``CommandGroup``, their shape) and ``command`` is a group of
handlers registered into the one table: ``play`` (set-up, moves, handicap), ``ruleset`` (KataGo's
and KGS's rules, the komi), ``scoring`` (the board, the score), ``sgf`` (``loadsgf``,
``printsgf``), ``timing`` (the clock), ``settings`` (``goengine-set``, the parameter page),
``streaming`` (Leela Zero's, KataGo's and CGOS's analysis formats), ``gogui`` (GoGui's analyze
commands) and ``servers`` (what KGS and controllers send beside the game); ``command`` is the
``goengine`` command line (its options and how it starts serving). Every analysis formats one
``SearchResult``; nothing here reads the search itself. ``front.GtpEngine`` assembles them around
an ``Engine``; ``front.serve`` runs it on stdin/stdout.

This package's own import loads nothing: ``protocol`` imports no kernel until it reads a vertex,
so that the ``goengine`` command can answer a controller's first commands (``name``, ``version``)
while the engine and its compiled kernels are still loading (``protocol.serve``'s ``early``).
``GtpEngine``, ``GROUPS`` and ``serve`` are imported from ``front`` when first asked for.

goengine does not use pygtp (the ``gtp`` module): its parser drops non-ASCII characters and
splits on single spaces only, its formatter drops an id of 0, and it catches only ValueError;
what it would add on top of ``protocol`` is nothing we use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goengine.gtp.protocol import GtpError, parse_line

if TYPE_CHECKING:
    from goengine.gtp.front import GROUPS, GtpEngine, serve

_FROM_FRONT = ("GROUPS", "GtpEngine", "serve")


def __getattr__(name: str):
    """``GtpEngine``, ``GROUPS`` and ``serve``, from ``front`` on first use (PEP 562)."""
    if name in _FROM_FRONT:
        from goengine.gtp import front

        return getattr(front, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GROUPS", "GtpEngine", "GtpError", "parse_line", "serve"]
