"""``goengine docs``: the user's documents, from a checkout or from the installed package.

In a checkout the documents are the repository's own (``README.md`` and ``docs/``); an installed
wheel or sdist carries copies of them in ``goengine/docs/``, made when it was built
(``build_support/backend.py``). ``goengine docs`` lists them with what each is for; ``goengine
docs NAME`` prints one (its Markdown as written: the links between them name the other documents,
which ``goengine docs`` prints in turn); ``goengine docs --path`` prints the folder they are in.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from goengine import output

PACKAGE = Path(__file__).resolve().parent
#: each document's name, its file, and what it is for
TOPICS = (
    ("readme", "README.md", "what goengine is, installing it, playing it in Sabaki, GoGui, KaTrain and Lizzie"),
    ("gtp", "gtp.md", "the GTP commands, KataGo's JSON analysis (goengine analysis), goengine review"),
    ("engine", "engine.md", "how the engine works: board, search, selection rules, playouts, priors"),
    ("matches", "matches.md", "goengine-match: matches, SPRT, tournaments, clusters, the records"),
    ("performance", "performance.md", "speed, start-up, memory and the first compile, with their commands"),
    ("peers", "peers.md", "building Pachi, GNU Go and other engines, and playing them with goengine-match"),
)


def folder() -> Path | None:
    """Where the documents are: a checkout's ``docs/`` beside the package (the README one level
    up), else the package's own copies; None when neither holds them."""
    checkout = PACKAGE.parent / "docs"
    if is_checkout(PACKAGE.parent) and (checkout / "gtp.md").is_file() and (PACKAGE.parent / "README.md").is_file():
        return checkout
    copies = PACKAGE / "docs"
    return copies if (copies / "gtp.md").is_file() else None


def is_checkout(root: Path) -> bool:
    """Whether ``root`` is goengine's own source tree: its ``pyproject.toml`` names the project
    goengine. An installed package's parent is ``site-packages``, where another project's
    ``docs/`` and ``README.md`` may lie, and must not be taken for ours."""
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8")).get("project", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(project, dict) and project.get("name") == "goengine"


def path_of(name: str) -> Path | None:
    """The file of document ``name`` (``TOPICS``), or None when it is not there. In a checkout the
    README is the repository's, one level above ``docs/``."""
    where = folder()
    file = next((file for topic, file, _ in TOPICS if topic == name), None)
    if where is None or file is None:
        return None
    path = where.parent / file if file == "README.md" and where != PACKAGE / "docs" else where / file
    return path if path.is_file() else None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="goengine docs",
        description="The user's documents: with no NAME, the list; with a NAME, that document (Markdown).",
    )
    parser.add_argument("name", nargs="?", choices=[topic for topic, _, _ in TOPICS], metavar="NAME")
    parser.add_argument("--path", action="store_true", help="print the folder the documents are in")
    args = parser.parse_args(argv)
    try:
        return _print(args)
    except output.OutputGone as gone:
        return gone.report("goengine docs")


def _print(args: argparse.Namespace) -> int:
    where = folder()
    if where is None:
        print("goengine docs: no documents here (a copy of the package built without them)", file=sys.stderr)
        return 1
    if args.path:
        output.write(f"{where}\n")
        return 0
    if args.name is None:
        width = max(len(topic) for topic, _, _ in TOPICS)
        lines = [f"  {topic:<{width}}  {words}" for topic, _, words in TOPICS]
        output.write("\n".join(lines) + "\n\ngoengine docs NAME prints one; goengine docs --path gives their folder.\n")
        return 0
    path = path_of(args.name)
    if path is None:
        print(f"goengine docs: {args.name} is not in {where}", file=sys.stderr)
        return 1
    output.write(path.read_bytes())  # the file's UTF-8 as it is, whatever the locale
    return 0
