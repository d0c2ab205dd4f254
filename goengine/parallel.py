"""How several search threads share the work, chosen by name: one tree for all, or one each.

- ``tree`` (tree parallelism): every thread descends, expands and backs up in the same tree at
  once, lock-free, with a virtual loss on the nodes it passes so that the threads spread over
  different lines (Enzenberger and Müller 2009, "A Lock-free Multithreaded Monte-Carlo Tree
  Search Algorithm", Fuego's way; Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo
  Tree Search"). ``kernels.search.run_iterations`` says how nothing is lost or torn. The tree
  gets all of ``--max-memory``. The default, as in Pachi and Fuego: on 9x9 at 1 s a move two
  threads of it beat one thread by SPRT, where two threads of ``root`` did not, and on 19x19 at
  2 s a move they won 21 of 30 (docs/results.md, "Every core").
- ``root`` (root parallelism): each thread searches a tree of its own with its own random
  stream, and the trees' root statistics are summed when a move is chosen (Cazenave and
  Jouandeau 2007; Chaslot et al. 2008); the trees share ``--max-memory`` evenly. It wastes most
  of the deeper search on 19x19 (Soejima, Kishimoto and Watanabe 2010).

With one thread the two are the same search, which a seed reproduces. With more, neither is
reproducible: the threads' interleaving changes from run to run.

The registry has the shape of the kernels' ones (``goengine.registry``), but this choice is made
in Python (``goengine.search.Search``): the kernels only see whether their tree is shared.
"""

from __future__ import annotations

from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Registry

TREE = 0
ROOT = 1

DEFAULT_PARALLEL = "tree"  # measured: docs/results.md, "Every core"

PARALLEL = Registry(
    "parallel search",
    (
        Choice(
            "tree",
            TREE,
            (),
            "Enzenberger and Müller 2009 (Fuego); Chaslot, Winands and van den Herik 2008",
        ),
        Choice("root", ROOT, (), "Cazenave and Jouandeau 2007; Chaslot, Winands and van den Herik 2008"),
    ),
    MAX_PARAMS,
    plural="parallel searches",
)
