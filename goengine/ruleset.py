"""The rules of Go that goengine plays, and KataGo's names for rules: reading them (a name such as
``chinese`` or a JSON object, as ``kata-set-rules`` and the JSON analysis protocol give them),
checking them against what goengine plays, and writing them back.

goengine plays one set of rules (``goengine.board``): area scoring, positional superko, suicide
illegal, no pass stone ("button"), dead stones removed when both pass (KataGo's
``friendlyPassOk``). The one rule a game may choose is what White receives for Black's handicap
stones, KataGo's ``whiteHandicapBonus``: nothing (``0``, goengine's default, as Tromp-Taylor
counts), a point for each stone but the first (``N-1``, the AGA's rules) or a point for each
stone (``N``, the Chinese rules, and GNU Go's count under them). It is counted as komi
(``Ruleset.komi_bonus``; ``Game.scoring_komi``).

Every ruleset KataGo names is accepted, as KataGo accepts them, and goengine plays its own rules
under it; ``differences`` says in words where they part, which the front ends pass on as a
warning (KataGo's JSON warning in the analysis protocol, a line on stderr under GTP). A count by
territory (Japanese, Korean), a tax on groups or a button is played and reported as an area count:
the scores differ by the dame and the sekis' points, a point or two in a finished game. A ko rule
other than positional superko, or suicide allowed, differ only in rare positions, where goengine
plays its own rule. Only rules that cannot be read are refused (``RulesError``). KataGo's names
and fields are those of its ``Rules`` class (``cpp/game/rules.cpp``; its
``docs/Analysis_Engine.md`` and ``docs/GTP_Extensions.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

KO_RULES = ("SIMPLE", "POSITIONAL", "SITUATIONAL", "SPIGHT")
SCORING_RULES = ("AREA", "TERRITORY")
TAX_RULES = ("NONE", "SEKI", "ALL")
HANDICAP_BONUSES = ("0", "N-1", "N")


class RulesError(ValueError):
    """Rules that cannot be read, or that goengine does not play."""


@dataclass(frozen=True)
class Ruleset:
    """One set of rules in KataGo's terms (its JSON keys in ``to_json``)."""

    ko: str = "POSITIONAL"
    scoring: str = "AREA"
    tax: str = "NONE"
    suicide: bool = False
    has_button: bool = False
    white_handicap_bonus: str = "0"
    friendly_pass_ok: bool = True

    def komi_bonus(self, handicap_stones: int) -> float:
        """The points White receives for ``handicap_stones`` of Black's (none for fewer than 2:
        a game with one "handicap" stone is a game without komi, not a handicap game)."""
        if handicap_stones < 2:
            return 0.0
        return {"0": 0.0, "N-1": handicap_stones - 1.0, "N": float(handicap_stones)}[self.white_handicap_bonus]

    def to_json(self) -> dict:
        """KataGo's JSON form (``kata-get-rules``), without komi."""
        return {
            "friendlyPassOk": self.friendly_pass_ok,
            "hasButton": self.has_button,
            "ko": self.ko,
            "scoring": self.scoring,
            "suicide": self.suicide,
            "tax": self.tax,
            "whiteHandicapBonus": self.white_handicap_bonus,
        }


#: what goengine plays (its handicap bonus aside, which a game chooses)
GOENGINE = Ruleset()

TROMP_TAYLOR = Ruleset(ko="POSITIONAL", suicide=True, friendly_pass_ok=False)
CHINESE = Ruleset(ko="SIMPLE", white_handicap_bonus="N")
CHINESE_KGS = Ruleset(ko="POSITIONAL", white_handicap_bonus="N")
JAPANESE = Ruleset(ko="SIMPLE", scoring="TERRITORY", tax="SEKI", friendly_pass_ok=False)
AGA = Ruleset(ko="SITUATIONAL", white_handicap_bonus="N-1")
NEW_ZEALAND = Ruleset(ko="SITUATIONAL", suicide=True)
STONE_SCORING = Ruleset(ko="SIMPLE", tax="ALL")

#: KataGo's rule names (its ``Rules::parseRulesHelper``), lower case, with the spellings it accepts
NAMES = {
    "tromp-taylor": TROMP_TAYLOR,
    "chinese": CHINESE,
    "chinese-ogs": CHINESE_KGS,
    "chinese-kgs": CHINESE_KGS,
    "japanese": JAPANESE,
    "korean": JAPANESE,
    "aga": AGA,
    "bga": AGA,
    "french": AGA,
    "aga-button": replace(AGA, has_button=True),
    "new-zealand": NEW_ZEALAND,
    "nz": NEW_ZEALAND,
    "stone-scoring": STONE_SCORING,
    "ancient-area": STONE_SCORING,
    "ancient-territory": replace(JAPANESE, tax="ALL"),
    "goe": replace(TROMP_TAYLOR, friendly_pass_ok=True),
    "ing": replace(TROMP_TAYLOR, friendly_pass_ok=True),
}

#: the ruleset KGS names with ``kgs-rules`` (its Chinese rules count positional superko)
KGS_NAMES = {"chinese": CHINESE_KGS, "aga": AGA, "japanese": JAPANESE, "new_zealand": NEW_ZEALAND}

_JSON_KEYS = {
    "ko": "ko",
    "scoring": "scoring",
    "score": "scoring",
    "tax": "tax",
    "suicide": "suicide",
    "hasButton": "has_button",
    "whiteHandicapBonus": "white_handicap_bonus",
    "friendlyPassOk": "friendly_pass_ok",
}


def _normal_name(name: str) -> str:
    """KataGo's spellings of one name: ``tromp_taylor``, ``tromp taylor`` and ``tromptaylor``
    are ``tromp-taylor``."""
    word = name.strip().lower().replace("_", "-").replace(" ", "-")
    squeezed = {key.replace("-", ""): key for key in NAMES}
    return squeezed.get(word.replace("-", ""), word)


def parse(rules: str | dict, allow_komi: bool = False) -> tuple[Ruleset, float | None]:
    """The ruleset of a name (``chinese``, ``tromp-taylor``, ...) or of a JSON object (as text or
    as a dict) in KataGo's keys, and the komi the object gives (None when it gives none; a komi
    in the object is refused unless ``allow_komi``). RulesError for what cannot be read."""
    if isinstance(rules, str) and rules.strip().startswith("{"):
        try:
            rules = json.loads(rules)
        except json.JSONDecodeError as error:
            raise RulesError(f"could not parse rules: {error}") from None
        except ValueError:  # Python's int() refuses a number of over 4,300 digits (sys.int_info)
            raise RulesError("could not parse rules: a number is too long") from None
        except RecursionError:
            raise RulesError("could not parse rules: nested too deeply") from None
    if isinstance(rules, str):
        name = _normal_name(rules)
        if name not in NAMES:
            raise RulesError(f"unknown rules '{rules}'; known: {', '.join(sorted(NAMES))}")
        return NAMES[name], None
    if not isinstance(rules, dict):
        raise RulesError("rules must be a name or a JSON object")
    komi = None
    fields = {}
    for key, value in rules.items():
        if key == "komi" and allow_komi:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise RulesError("komi in rules must be a number")
            komi = float(value)
            continue
        if key not in _JSON_KEYS:
            raise RulesError(f"unknown rules option: {key}")
        field = _JSON_KEYS[key]
        if field in fields:  # KataGo's two names of one option (score, scoring): which one counts?
            given = " and ".join(k for k in rules if _JSON_KEYS.get(k) == field)
            raise RulesError(f"rules give the {field} rule twice: {given}")
        fields[field] = _field_value(key, value)
    if "tax" not in fields:  # KataGo's default: a territory count taxes sekis, an area count nothing
        fields["tax"] = "SEKI" if fields.get("scoring") == "TERRITORY" else "NONE"
    base = Ruleset(ko="POSITIONAL", suicide=False, friendly_pass_ok=True)
    return replace(base, **fields), komi


def _field_value(key: str, value):
    """One JSON rules field's value, checked."""
    if key in ("suicide", "hasButton", "friendlyPassOk"):
        if not isinstance(value, bool):
            raise RulesError(f"rules option {key} must be true or false")
        return value
    allowed = {
        "ko": KO_RULES,
        "scoring": SCORING_RULES,
        "score": SCORING_RULES,
        "tax": TAX_RULES,
        "whiteHandicapBonus": HANDICAP_BONUSES,
    }[key]
    text = str(value).upper() if key != "whiteHandicapBonus" else str(value)
    if text not in allowed:
        raise RulesError(f"rules option {key} must be one of {', '.join(allowed)}, got {value}")
    return text


def differences(rules: Ruleset) -> list[str]:
    """How ``rules`` differ from what goengine plays, in words (none when they do not): goengine
    plays every ruleset by its own rules and counts by area."""
    words = []
    if rules.scoring != "AREA":
        words.append(
            f"goengine counts by area, not {rules.scoring.lower()}: its moves, win rates and score leads are "
            "for an area count, which differs from a territory count by the dame and the sekis' points"
        )
    if rules.tax != "NONE":
        words.append(f"goengine counts every point of an area (no tax on groups), not tax {rules.tax.lower()}")
    if rules.has_button:
        words.append("goengine plays without a button (pass stone)")
    if rules.ko != "POSITIONAL":
        words.append(f"goengine plays positional superko, not {rules.ko.lower()} ko")
    if rules.suicide:
        words.append("goengine never plays suicide and refuses it in the moves")
    return words


def goengine_rules(white_handicap_bonus: str = "0") -> Ruleset:
    """What goengine plays, with a game's handicap bonus (one of HANDICAP_BONUSES)."""
    if white_handicap_bonus not in HANDICAP_BONUSES:
        raise RulesError(f"whiteHandicapBonus must be one of {', '.join(HANDICAP_BONUSES)}")
    return replace(GOENGINE, white_handicap_bonus=white_handicap_bonus)


def played(rules: Ruleset) -> Ruleset:
    """What goengine plays under ``rules`` (``differences`` says how they differ): its own ko and
    suicide rules and count, with ``rules``' handicap bonus."""
    return goengine_rules(rules.white_handicap_bonus)
