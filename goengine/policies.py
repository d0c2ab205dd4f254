"""The playout-policy registry: names, parameters with their defaults, and sources.

A playout policy is chosen by name (``--playout``, ``goengine-set playout NAME``), as the
selection rules are (``goengine.selection``; the shared shape is ``goengine.registry``): its kernel
lives in ``goengine.kernels.policy`` and is dispatched there by the id below.

- ``uniform``: every legal move that does not fill the mover's own eye is equally likely (the
  light playouts of libego and Pachi); the research setting.
- ``heavy``: answers the last move first: captures, atari escapes (ladders read), MoGo 3x3
  patterns, nakade, then a random move that is no bad self-atari, each rule with its probability
  (``goengine.kernels.policy``: the cascade; MoGo, Fuego and Pachi's moggy).
- ``learned``: every move drawn from a softmax over local features (the 3x3 pattern with its
  chains' liberties, the response pattern and the distances to the last two moves, the vital
  point, bad self-ataris and escapes into ladders) whose weights were learned from strong games
  (``goengine.kernels.learned``, ``goengine.playout_model``: Crazy Stone's and AlphaGo's rollouts).
"""

from __future__ import annotations

from goengine.kernels import policy as kpolicy
from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Param, Registry

DEFAULT_POLICY = "heavy"


def _probability(name: str, index: int, default: float, words: str, doc: str) -> Param:
    return Param(name, index, default, words, doc, low=0.0, high=1.0)


POLICIES = Registry(
    "playout policy",
    (
        Choice("uniform", kpolicy.UNIFORM, (), "light playouts: libego, Pachi's playout/light.c"),
        Choice(
            "heavy",
            kpolicy.HEAVY,
            (
                _probability(
                    "capture",
                    kpolicy.HEAVY_CAPTURE,
                    0.9,
                    "capture_near_last_move",
                    "probability of capturing a chain in atari at or next to the last move",
                ),
                _probability(
                    "escape",
                    kpolicy.HEAVY_ESCAPE,
                    0.9,
                    "escape_atari",
                    "probability of saving a chain the last move put in atari",
                ),
                _probability(
                    "pattern",
                    kpolicy.HEAVY_PATTERN,
                    0.9,
                    "pattern_next_to_last_move",
                    "probability of playing a MoGo 3x3 pattern next to the last move",
                ),
                _probability(
                    "nakade",
                    kpolicy.HEAVY_NAKADE,
                    0.8,
                    "nakade_vital_point",
                    "probability of playing the vital point of a small eye space next to the last move",
                ),
                _probability(
                    "capture_any",
                    kpolicy.HEAVY_CAPTURE_ANY,
                    0.0,
                    "capture_anywhere",
                    "probability of capturing any chain in atari on the board (a scan of the empty points)",
                ),
                _probability(
                    "self_atari",
                    kpolicy.HEAVY_SELF_ATARI,
                    0.9,
                    "reject_self_atari",
                    "probability of rejecting a random move that is a bad self-atari",
                ),
                Param(
                    "self_atari_stones",
                    kpolicy.HEAVY_SELF_ATARI_STONES,
                    1.0,
                    "self_atari_max_stones",
                    "the largest chain a self-atari may leave in atari (nakade throw-ins of 3, and at 0 "
                    "a lone stone's snapback or false-eye throw-in, excepted)",
                    low=0,
                    high=361,
                ),
                Param(
                    "ladders",
                    kpolicy.HEAVY_LADDERS,
                    1.0,
                    "read_ladders",
                    "escapes into a ladder are not played",
                    flag=True,
                ),
                _probability(
                    "two_libs",
                    kpolicy.HEAVY_TWO_LIBS,
                    0.0,
                    "two_liberty_fights",
                    "probability of answering the last move in a fight of two liberties: a safe atari on the "
                    "opponent's chain, or an extension of ours to three liberties",
                ),
                Param(
                    "self_atari_redirect",
                    kpolicy.HEAVY_SELF_ATARI_REDIRECT,
                    0.0,
                    "redirect_self_atari",
                    "a rejected bad self-atari is played on the other liberty of a two-liberty chain next to it "
                    "instead, when that is safe (Pachi's selfatari_cousin)",
                    flag=True,
                ),
                _probability(
                    "last_good_reply",
                    kpolicy.HEAVY_LAST_GOOD_REPLY,
                    0.0,
                    "play_last_good_reply",
                    "probability of first playing the reply that last won after the last two moves, or the last "
                    "one (LGRF-2: Baier and Drake 2010)",
                ),
                Param(
                    "nakade_size",
                    kpolicy.HEAVY_NAKADE_SIZE,
                    3.0,
                    "nakade_max_eye_space",
                    "the largest eye space whose vital point the nakade rule plays: 3 (straight and bent three), "
                    "4 (and pyramid four), 5 (and bulky and crossed five), 6 (and rabbity six)",
                    low=3,
                    high=6,
                ),
                _probability(
                    "ko_retake",
                    kpolicy.HEAVY_KO_RETAKE,
                    0.0,
                    "retake_ko",
                    "probability of first retaking a ko the opponent took in the last few moves, once its ban "
                    "has lapsed (Pachi's moggy)",
                ),
                Param(
                    "pattern_second",
                    kpolicy.HEAVY_PATTERN_SECOND,
                    0.0,
                    "pattern_next_to_second_last_move",
                    "the 3x3 patterns are also looked for next to the second-last move (Pachi's moggy)",
                    flag=True,
                ),
                Param(
                    "pattern_extra",
                    kpolicy.HEAVY_PATTERN_EXTRA,
                    0.0,
                    "pattern_cut_keima_eye_katatsuke",
                    "the 3x3 rule also plays Pachi's shapes beyond MoGo's: the cut keima, the side make-eye "
                    "and the katatsuke",
                    flag=True,
                ),
                Param(
                    "reply_late",
                    kpolicy.HEAVY_REPLY_LATE,
                    0.0,
                    "last_good_reply_after_captures",
                    "the last good reply is tried after the captures, the atari escapes and the two-liberty "
                    "fights instead of before them",
                    flag=True,
                ),
                Param(
                    "two_libs_miai",
                    kpolicy.HEAVY_TWO_LIBS_MIAI,
                    0.0,
                    "two_liberty_fights_skip_miai",
                    "the two-liberty fights leave alone a chain that can connect on one liberty and connect or "
                    "run out on the other (Pachi's miai_2lib)",
                    flag=True,
                ),
                Param(
                    "two_libs_counter",
                    kpolicy.HEAVY_TWO_LIBS_COUNTER,
                    0.0,
                    "two_liberty_fights_counter_atari",
                    "the two-liberty fights also defend our chain by capturing or safely atari-ing an opponent "
                    "chain next to it (Pachi's counter-atari)",
                    flag=True,
                ),
            ),
            "Gelly et al. 2006 (RR-6062) section 3; Fuego GoUctPlayoutPolicy; "
            "Pachi playout/moggy.c, tactics/selfatari.c, tactics/nakade.c, tactics/2lib.c; Baier and Drake 2010 (LGRF)",
        ),
        Choice(
            "learned",
            kpolicy.LEARNED,
            (
                Param(
                    "temperature",
                    kpolicy.LEARNED_TEMPERATURE,
                    1.0,
                    "softmax_temperature",
                    "every weight of the learned model divided by it: above 1 the draws are flatter, below 1 sharper",
                    low=0.05,
                    high=20.0,
                ),
            ),
            "Coulom 2007, Computing Elo Ratings of Move Patterns in the Game of Go (the softmax over "
            "features); Silver et al. 2016 (AlphaGo's rollout policy); Huang, Coulom and Lin 2010, "
            "Monte-Carlo Simulation Balancing in Practice; the weights: goengine/data/playouts.npz",
        ),
    ),
    MAX_PARAMS,
    plural="playout policies",
)


def learns_replies(name: str, overrides: tuple[tuple[str, float], ...] = ()) -> bool:
    """Whether the playout policy ``name`` with these parameter overrides reads the last good
    replies, so the search must teach them after every iteration (``kernels.replies``)."""
    return name == "heavy" and POLICIES.array(name, dict(overrides))[kpolicy.HEAVY_LAST_GOOD_REPLY] > 0.0
