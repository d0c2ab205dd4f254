"""``goengine review``: a game, or a folder of them, reviewed move by move.

Every position of a game's main line is searched on a budget; each move's loss is what its
player's win rate and score lead were with the search's best move less what they are after the
move played (``losses``, where the loss is defined). The review is written beside each game as
an SGF Sabaki graphs (``SBKV``) with a comment and the best line on every move, a PNG of the win
rate and the score lead, and a table of each colour's biggest mistakes on stdout.

Reading guide: ``command.review`` is the command (``command.build_review_parser`` its options);
``gamefile`` reads a file and cuts it into ``Position``s, the unit of work; ``evaluate`` searches
one position (one ``Engine`` a worker, reused from position to position) and spreads them over a
process pool or a Dask cluster through the one job runner (``goengine.jobs``); ``losses`` judges
each move and ranks the mistakes; ``annotate`` and ``plot`` write the SGF and the PNG. Like ``goengine.gtp`` and
``goengine.analysis``, this is a front-end: it reaches the search only through ``Engine`` and reads
its immutable results.
"""

from goengine.review.command import DEFAULT_PLAYOUTS, ReviewSettings, review

__all__ = ["DEFAULT_PLAYOUTS", "ReviewSettings", "review"]
