"""KataGo's JSON analysis protocol (``goengine analysis``): what KaTrain and other review tools
speak to an analysis engine, one JSON query a line on stdin, one JSON response a line on stdout
for each analysed turn (KataGo's ``docs/Analysis_Engine.md`` is the reference).

Reading guide: ``query`` reads a line into a checked ``Query`` (or an ``Action``, or KataGo's
error for it), after ``outline`` has counted how deep it nests (and found its id, for an error);
``server`` queues the turns and searches them on worker engines; ``response``
formats one ``SearchResult`` as KataGo's response; ``command`` is the command line (the engine's
options and KataGo's ``-config``). Like ``goengine.gtp``, this is a front-end: it
reaches the search only through ``Engine`` and formats its immutable results.
"""

from goengine.analysis.query import Defaults, QueryError
from goengine.analysis.server import AnalysisServer, serve

__all__ = ["AnalysisServer", "Defaults", "QueryError", "serve"]
