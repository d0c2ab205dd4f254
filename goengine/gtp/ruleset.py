"""GTP commands of the rules and the komi: KataGo's ``kata-get-rules`` and ``kata-set-rules``,
KGS's ``kgs-rules``, and ``get_komi``. What a ruleset means, and which goengine plays, is
``goengine.ruleset``; this module frames it: the rules goengine plays are answered in KataGo's
JSON; rules set are accepted (unreadable ones refused), and how they differ from what goengine
plays is logged on stderr."""

from __future__ import annotations

import json

from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import GtpError, syntax_error
from goengine.ruleset import KGS_NAMES, RulesError, differences, parse, played


class RulesetCommands(CommandGroup):
    COMMANDS = {
        "kata-get-rules": "get_rules",
        "kata-set-rules": "set_rules",
        "kgs-rules": "kgs_rules",
        "get_komi": "get_komi",
    }

    def get_rules(self) -> str:
        """The rules of the game, as KataGo writes them (one line of JSON, no komi)."""
        return json.dumps(self.game.rules.to_json(), separators=(",", ":"))

    def set_rules(self, args: list[str]) -> None:
        """``kata-set-rules RULES``: a KataGo name (``chinese``, ``aga``, ``tromp-taylor``, ...) or
        a JSON object (the rest of the line, spaces allowed). Every ruleset is accepted and
        goengine plays its own under it (``kata-get-rules`` answers what it plays), the
        difference logged: a territory count is played and counted by area. The komi stays as
        ``komi`` set it; the handicap bonus is the rules'."""
        if not args:
            raise syntax_error()
        self._set(" ".join(args), lambda text: parse(text)[0])

    def kgs_rules(self, args: list[str]) -> None:
        """``kgs-rules chinese|aga|japanese|new_zealand``, KGS's names (its Chinese rules with
        superko); Japanese rules are accepted and counted by area, as ``kata-set-rules`` says."""
        if len(args) != 1:
            raise syntax_error()
        name = args[0].lower()
        if name not in KGS_NAMES:
            raise GtpError(f"unknown rules '{args[0]}'")
        self._set(name, KGS_NAMES.__getitem__)

    def _set(self, text: str, read) -> None:
        try:
            rules = read(text)
            for words in differences(rules):
                self.gtp.log(f"rules {text}: {words}")
        except RulesError as error:
            raise GtpError(str(error)) from None
        self.game.rules = played(rules)

    def get_komi(self) -> str:
        """The komi ``komi`` set (the handicap bonus of the rules not included)."""
        return f"{self.game.komi:g}"
