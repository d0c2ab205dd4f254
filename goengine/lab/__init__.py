"""The match laboratory: goengine against GNU Go or any GTP engine, beside the engine, not in it.

It drives engines only through GTP (``client``), referees their games on its own board and
clocks (``referee``, ``referee_clock``), schedules them on a process pool or a Dask cluster
(``schedule``), keeps every finished game on disk (``records``) with its SGF made from the record
(``gamefiles``), and turns them into win rates
with intervals (``stats``), sequential tests (``sprt``), one rating scale (``ratings``), tables and
plots (``report``). ``scripts/match.py`` is the command. Nothing in the engine imports this
package, and it imports nothing of the engine but the board, coordinates and SGF (import-linter
contracts in ``pyproject.toml`` check both).
"""
