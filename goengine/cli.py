"""The ``goengine`` command: a dispatcher. Each front end owns its own command line:

- ``goengine [OPTIONS]``: the GTP engine (``goengine.gtp.command``);
- ``goengine analysis ...``: KataGo's JSON analysis protocol (``goengine.analysis.command``);
- ``goengine review GAME ...``: a review of game files (``goengine.review.command``);
- ``goengine docs [NAME]``: the user's documents (``goengine.docs_command``).

Each is imported only when chosen, so the GTP engine answers ``name`` before anything heavy is
loaded.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "analysis":
        from goengine.analysis.command import main as analysis

        return analysis(argv[1:])
    if argv and argv[0] == "review":
        from goengine.review.command import main as review

        return review(argv[1:])
    if argv and argv[0] == "docs":
        from goengine.docs_command import main as docs

        return docs(argv[1:])
    from goengine.gtp.command import main as gtp

    return gtp(argv)


if __name__ == "__main__":
    sys.exit(main())
