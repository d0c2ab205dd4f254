"""The match laboratory: goengine against GNU Go or any GTP engine, beside the engine, not in it.

It drives engines only through GTP (``client``), referees their games on its own board
(``referee``), keeps every finished game on disk (``records``) and turns them into win rates with
intervals (``stats``). ``scripts/match.py`` is the command. Nothing in the engine imports this
package (an import-linter contract in ``pyproject.toml`` checks it).
"""
