"""One response of KataGo's JSON analysis protocol from one ``SearchResult``: ``moveInfos``,
``rootInfo``, ``ownership`` and ``policy``, from the perspective the query asked for.

What each field holds, where it differs from KataGo's (whose values come from a network):
- ``winrate``, ``lcb``, ``utility``: the searched win rate (wins over visits) and its lower 95 %
  bound (``MoveStats.lcb``), both calibrated as every analysis reports them
  (``goengine.calibration``), and the win-loss utility 2 w - 1 (KataGo's utility without a score
  term; ``utilityLcb`` from the bound alike);
- ``scoreLead``, ``scoreMean``, ``scoreSelfplay``: one figure, the mean area score of the
  iterations through the move less the scoring komi (``MoveStats.score_lead``): the playouts are
  goengine's only estimate of the score, so the three fields KataGo keeps apart are equal here;
  ``scoreStdev``, the standard deviation of those area scores (``MoveStats.score_stdev``);
- ``prior``: the move's share of the prior knowledge (``MoveStats.prior``), and ``policy`` the
  move model's probability of every point (``Engine.move_policy``), whatever the search's prior;
- ``visits``: the searched visits (the prior's virtual ones not counted), ``edgeVisits`` the same;
- ``ownership``: the mean owner of each point at the iterations' ends, +1 for the perspective's
  player.

Perspective (``reportAnalysisWinratesAs``): ``BLACK``, ``WHITE`` or ``SIDETOMOVE``; as KataGo
does, a win rate and an lcb are reported as 1 - x from the other side, utilities, scores and
ownership change sign, and prior, policy and visits never change. Points are written as GTP
vertices (``Q16``, ``pass``); ``ownership`` and ``policy`` run row by row from the top left (A19 on
19x19), the policy's last entry being the pass, -1 for an illegal point.
"""

from __future__ import annotations

import math

from goengine import coords
from goengine.board import BLACK, PASS
from goengine.calibration import reported_in
from goengine.engine import MoveStats, SearchResult


def _rounded(x: float) -> float:
    """KataGo writes its floats to about eight significant digits."""
    return float(f"{x:.8g}") if math.isfinite(x) else 0.0


def flips(perspective: str, color: int) -> bool:
    """Whether figures for ``color`` (the side to move) are reported from the other side."""
    if perspective == "SIDETOMOVE":
        return False
    return (perspective == "BLACK") != (color == BLACK)


def move_info(
    s: MoveStats, order: int, size: int, flip: bool, pv_length: int, pv_visits: bool, result: SearchResult
) -> dict:
    """One entry of ``moveInfos``, its win rates calibrated (``goengine.calibration``) for the
    position of ``result``, the search the move is from."""
    winrate = 1.0 - s.winrate if flip else s.winrate
    lcb = 1.0 - s.lcb if flip else s.lcb
    winrate, lcb = reported_in(result, winrate), reported_in(result, lcb)
    lead = -s.score_lead if flip else s.score_lead
    pv = s.pv[: 1 + pv_length]
    info = {
        "move": coords.to_gtp(size, s.move),
        "visits": s.visits,
        "edgeVisits": s.visits,
        "winrate": _rounded(winrate),
        "scoreLead": _rounded(lead),
        "scoreMean": _rounded(lead),
        "scoreStdev": _rounded(s.score_stdev),
        "scoreSelfplay": _rounded(lead),
        "prior": _rounded(s.prior),
        "utility": _rounded(2.0 * winrate - 1.0),
        "lcb": _rounded(lcb),
        "utilityLcb": _rounded(2.0 * lcb - 1.0),
        "order": order,
        "pv": [coords.to_gtp(size, m) for m in pv],
    }
    if pv_visits:
        info["pvVisits"] = list(s.pv_visits[: len(pv)])
    return info


def root_info(result: SearchResult, flip: bool, to_move: int) -> dict:
    """``rootInfo``: the root's figures over every searched visit of its moves."""
    winrate = reported_in(result, 1.0 - result.root_winrate if flip else result.root_winrate)
    lead = -result.score_lead if flip else result.score_lead
    return {
        "visits": result.visits,
        "winrate": _rounded(winrate),
        "scoreLead": _rounded(lead),
        "scoreSelfplay": _rounded(lead),
        "scoreStdev": _rounded(result.score_stdev),
        "utility": _rounded(2.0 * winrate - 1.0),
        "currentPlayer": "B" if to_move == BLACK else "W",
    }


def ownership(result: SearchResult, size: int, perspective: str, to_move: int) -> tuple[list, list] | None:
    """The ownership map and its standard deviation, row by row from the top left, for the
    perspective's player (Black's +1 turned to the side to move's under ``SIDETOMOVE``)."""
    if result.ownership is None:
        return None
    black = perspective == "BLACK" or (perspective == "SIDETOMOVE" and to_move == BLACK)
    sign = 1.0 if black else -1.0
    points = coords.all_points(size)
    mean = [round(sign * float(result.ownership[p]) + 0.0, 6) for p in points]
    stdev = [round(float(result.ownership_stdev[p]), 6) for p in points]
    return mean, stdev


def policy(probabilities: dict[int, float], size: int) -> list[float]:
    """The move model's probabilities as KataGo lays out its policy: every point row by row from
    the top left, then the pass; -1 for a move that is not legal."""
    points = coords.all_points(size) + [PASS]
    return [_rounded(probabilities[p]) if p in probabilities else -1.0 for p in points]


def response(
    query_id: str,
    turn: int,
    result: SearchResult,
    size: int,
    perspective: str,
    pv_length: int,
    during_search: bool,
    include_ownership: bool = False,
    include_ownership_stdev: bool = False,
    pv_visits: bool = False,
    probabilities: dict[int, float] | None = None,
) -> dict:
    """One response line's object for ``result``, the search of turn ``turn``."""
    to_move = result.color
    flip = flips(perspective, to_move)
    searched = [s for s in result.stats if s.visits > 0]
    answer = {
        "id": query_id,
        "turnNumber": turn,
        "isDuringSearch": during_search,
        "moveInfos": [move_info(s, k, size, flip, pv_length, pv_visits, result) for k, s in enumerate(searched)],
        "rootInfo": root_info(result, flip, to_move),
    }
    owned = ownership(result, size, perspective, to_move) if include_ownership or include_ownership_stdev else None
    if owned is not None:
        if include_ownership:
            answer["ownership"] = owned[0]
        if include_ownership_stdev:
            answer["ownershipStdev"] = owned[1]
    if probabilities is not None:
        answer["policy"] = policy(probabilities, size)
    return answer


def no_results(query_id: str, turn: int) -> dict:
    """KataGo's answer for a turn terminated before any search."""
    return {"id": query_id, "isDuringSearch": False, "noResults": True, "turnNumber": turn}
