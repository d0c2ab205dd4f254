"""Configuration as data, and the one place where every search setting's rules live.

``SearchConfig`` is a frozen dataclass passed from the command line down to the search; building
one validates every field (``__post_init__``), so a bad value cannot reach a search whichever
door it came through. ``SETTINGS`` is the schema of the plain settings (type, range, words for
GoGui, command-line option, whether a change keeps the search trees); the named choices (the
selection rule, the playout policy, the prior) and their parameters are checked by their
registries (``goengine.registry``). The command line (``goengine.cli``) and ``goengine-set``
(``goengine.gtp``) both read text through ``with_setting`` / ``with_param``, so the same input
gets the same answer, word for word, through both.

``Budget`` is what one search may spend, and ``EngineConfig`` adds the game-level settings (the
board size, whose range for a game is ``BOARD_SIZES``, and the komi).

Reading guide: ``SearchConfig``, then ``with_setting``; ``page`` is what GoGui's parameter page
shows.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

from goengine import dynkomi, numerals, parallel, players, policies, priors, selection
from goengine.coords import BOARD_SIZES  # the sizes a game may have; here for the settings' users
from goengine.kernels import COMPILE_TIME as COMPILE_TIME  # the first compile's cost, for the command lines
from goengine.kernels.tree import BYTES_PER_NODE
from goengine.registry import format_number
from goengine.ruleset import HANDICAP_BONUSES

DEFAULT_RULE = "rave"
DEFAULT_PLAYOUTS = 10000
MIN_TREE_NODES = 1024  # the smallest tree a search accepts
_NONE_WORDS = ("none", "off")
_BOOL_WORDS = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


@dataclass(frozen=True)
class Setting:
    """One plain search setting: ``key`` (the ``SearchConfig`` field and ``goengine-set`` key),
    ``kind`` (int or float), its inclusive range, whether it may be unset (``none``/``off``),
    ``words`` (the key on GoGui's parameter page, which shows it capitalised with ``_`` as spaces;
    ``goengine-set`` takes it too), the command-line ``option``, ``help`` (without the default,
    which ``cli`` adds from ``SearchConfig``), and ``keeps_tree`` (changing it keeps the search
    trees: a budget, not a way of searching)."""

    key: str
    kind: type
    lo: float
    hi: float
    words: str
    option: str
    help: str
    optional: bool = False
    keeps_tree: bool = False

    def parse(self, text: str) -> int | float | bool | None:
        """The value ``text`` gives this setting; ValueError saying what is allowed."""
        t = text.strip()
        if self.kind is bool:
            if t.lower() not in _BOOL_WORDS:
                raise ValueError(f"{self.key} must be on or off, got {text!r}")
            return _BOOL_WORDS[t.lower()]
        if self.optional and t.lower() in _NONE_WORDS:
            return None
        # ASCII digits, linear in the text (goengine.numerals): int() and float() take other
        # scripts' digits, "1_0", "nan", and int() takes time in the square of its digits
        try:
            value = numerals.integer(t) if self.kind is int else numerals.decimal(t)
        except numerals.TooLong as err:
            length = f"an integer of {err.characters} digits" if self.kind is int else f"{err.characters} characters"
            raise ValueError(
                f"{self.key} must be from {self.format(self.lo)} to {self.format(self.hi)}, got {length}"
            ) from None
        except numerals.NotANumber:
            kind = "an integer" if self.kind is int else "a number"
            raise ValueError(f"{self.key} must be {kind}, got {text!r}") from None
        return self.check(value)

    def check(self, value):
        """``value`` if this setting allows it (as its kind), else ValueError."""
        if value is None:
            if self.optional:
                return None
            raise ValueError(f"{self.key} needs a value")
        if self.kind is bool:
            if value not in (True, False):  # 0 and 1 are equal to them
                raise ValueError(f"{self.key} must be on or off, got {value!r}")
            return bool(value)
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"{self.key} must be a number, got {value!r}")
        if not math.isfinite(value) or (self.kind is int and value != int(value)):
            raise ValueError(f"{self.key} must be {'an integer' if self.kind is int else 'finite'}, got {value!r}")
        value = self.kind(value)
        if not self.lo <= value <= self.hi:
            raise ValueError(f"{self.key} must be from {self.format(self.lo)} to {self.format(self.hi)}, got {value!r}")
        return value

    def format(self, value) -> str:
        """How a value of this setting is written everywhere (``none`` when unset)."""
        if value is None:
            return "none"
        if self.kind is bool:
            return "1" if value else "0"  # GoGui's [bool]
        if self.kind is int:
            return str(int(value))
        return format_number(value)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "playouts", int, 1, 10**9, "playouts_per_move", "--playouts",
        f"playouts per move ({DEFAULT_PLAYOUTS} when neither this, --seconds nor a clock is set)",
        optional=True, keeps_tree=True,
    ),
    Setting(
        "seconds", float, 0.001, 86400.0, "seconds_per_move", "--seconds",
        "seconds per move (a clock may allow less)", optional=True, keeps_tree=True,
    ),
    Setting("threads", int, 1, 64, "search_threads", "--threads", "search threads (--parallel: how they share work)"),
    Setting(
        "seed", int, 0, 2**63 - 1, "random_seed", "--seed", "random seed; with one thread a seed reproduces a game"
    ),
    Setting(
        "expand_at", int, 0, 10**6, "expand_after_visits", "--expand-at",
        "expand a leaf after this many visits (as Pachi and michi; 0 expands on the first)",
    ),
    Setting(
        "widen", float, 0.0, 1e9, "widening_visits", "--widen",
        "progressive widening: a node searches its second move by the prior after this many "
        "visits, each further one after --widen-factor times the step before (0: all at once)",
    ),
    Setting(
        "widen_factor", float, 1.01, 100.0, "widening_factor", "--widen-factor",
        "progressive widening: the growth of each step",
    ),
    Setting(
        "max_memory_mb", float, 0.01, 2.0**20, "tree_memory_MB", "--max-memory",
        "memory for the search trees in MB, shared evenly by the threads' trees",
    ),
    Setting(
        "resign_threshold", float, 0.0, 1.0, "resign_below_win_rate", "--resign-threshold",
        "resign below this win rate (0 never resigns)", keeps_tree=True,
    ),
    Setting(
        "resign_min_visits", int, 0, 10**9, "resign_after_visits", "--resign-min-visits",
        "resign only after this many root visits, or half the playout budget if less",
        keeps_tree=True,
    ),
    Setting(
        "ponder", bool, 0, 1, "ponder", "--ponder",
        "think on the opponent's time: after each move, search on until the next command", keeps_tree=True,
    ),
    Setting(
        "extend_time", float, 0.0, 10.0, "time_extension", "--extend-time",
        "under a clock: a move may think up to 1 + this times its planned main time while its search is "
        "unsure, and stops before its planned time once the runner-up cannot catch up (0: exactly the "
        "planned time)",
        keeps_tree=True,
    ),
    Setting(
        "plan_share", float, 0.1, 2.0, "time_plan_share", "--plan-share",
        "under a clock: the time left is spread over this share of the moves the engine still expects "
        "to play (of Fuego's estimate; below 1 a move gets more now and the last moves less; none, the "
        "default: 0.7 on boards up to 13x13, 1 from 14x14 up)",
        optional=True, keeps_tree=True,
    ),
    Setting(
        "analysis_width", float, 0.0, 10.0, "analysis_root_exploration", "--analysis-width",
        "an analysis (not genmove) spreads the root's visits over more candidates: the weight of an "
        "exploration term added at the root only (0: the root searches as for a move)",
        keeps_tree=True,
    ),
)  # fmt: skip


@dataclass(frozen=True)
class Chosen:
    """A setting chosen by name from a registry: ``field`` (``rule``), the field of its parameter
    overrides (``params``), the registry, its words on GoGui's page, and its command-line options
    (``param_option`` empty when no choice of the registry has parameters)."""

    field: str
    params_field: str
    registry: object  # goengine.registry.Registry
    words: str
    option: str
    param_option: str


CHOSEN: tuple[Chosen, ...] = (
    Chosen("rule", "params", selection.RULES, "selection_rule", "--rule", "--param"),
    Chosen("playout", "playout_params", policies.POLICIES, "playout_policy", "--playout", "--playout-param"),
    Chosen("prior", "prior_params", priors.PRIORS, "prior_knowledge", "--prior", "--prior-param"),
    Chosen("dynkomi", "dynkomi_params", dynkomi.DYNKOMI, "dynamic_komi", "--dynkomi", "--dynkomi-param"),
    Chosen("parallel", "parallel_params", parallel.PARALLEL, "parallel_search", "--parallel", ""),
    Chosen("player", "player_params", players.PLAYERS, "move_chosen_by", "--player", ""),
)
CHOSEN_BY_FIELD = {c.field: c for c in CHOSEN}

# Parameters of a rule whose default differs beside playouts with knowledge (any policy but
# ``uniform``): RAVE's AMAF samples weighted by distance won at a fixed budget against Pachi with
# the heavy playouts (docs/results/pachi-screens.md), while uniform playouts keep the rules as
# published, and with them the research settings' games (tests/test_reproduction.py).
RULE_DEFAULTS_WITH_KNOWLEDGE = {"rave": {"distance": 3.0}}


@dataclass(frozen=True)
class SearchConfig:
    """How the engine searches. Every field is checked when the object is built (ValueError).

    ``rule``, ``playout``, ``prior``: the selection rule, the playout policy and the prior, by
    name (``goengine.selection``, ``goengine.policies``, ``goengine.priors``), each with its parameter
    overrides (``params``, ``playout_params``, ``prior_params``: sorted ``(name, number)`` pairs;
    a parameter's words and named values are read and stored as its name and number).
    ``dynkomi``, ``dynkomi_params``: the dynamic komi of the engine's moves (``goengine.dynkomi``),
    chosen the same way; the engine, not the kernels, applies it.
    ``playouts`` and ``seconds``: the budget per move; when both are given the search stops at
    whichever comes first; with neither, DEFAULT_PLAYOUTS. A game clock (GTP time settings)
    replaces ``seconds`` with the time it allows for the move. ``threads``: the search threads;
    ``parallel`` (``goengine.parallel``, chosen by name, no parameters): how they share the work,
    all in one tree (``tree``) or a tree each merged at the root (``root``). ``expand_at``: a
    leaf is expanded once this many iterations have ended at it (0: on the first visit; a
    prior's virtual visits do not count).
    ``widen``, ``widen_factor``: progressive widening (``kernels.search``): a node searches its
    children best first by the prior, the second once it has ``widen`` visits, each further one
    after ``widen_factor`` times the step before; 0 searches every child from the start.
    ``max_memory_mb``: the tree, or the trees of all threads together, stay under this; at the
    limit they stop growing and the search goes on.
    ``resign_threshold``: resign when the best move's win rate is below it after
    ``resign_min_visits`` root visits, or half the playout budget when that is less (0 never
    resigns). ``ponder``: after each move of the game, search on for the opponent's reply until
    the next command (``Engine.start_pondering``). ``extend_time``: under a game clock, how far a
    move's search may run past its planned time while it is unsure, and whether it may stop
    before it (``time_control.StopRule``; 0: exactly the planned time). ``plan_share``: under a
    game clock, the share of the moves still expected that the time left is spread over
    (``time_control.moves_to_plan``); None leaves it to the board's size
    (``time_control.board_plan_share``). ``analysis_width``: the weight of the exploration term an
    analysis adds at the root (``Engine.analyze``; ``kernels.search``: ROOT_EXPLORE), so that it
    lists more candidates than ``genmove`` would search. ``reuse_tree``: keep the subtree of the
    moves played; ``batch``: iterations per call into the kernels. The ranges are in ``SETTINGS``.
    """

    rule: str = DEFAULT_RULE
    params: tuple[tuple[str, float], ...] = ()
    playout: str = policies.DEFAULT_POLICY
    playout_params: tuple[tuple[str, float], ...] = ()
    prior: str = priors.DEFAULT_PRIOR
    prior_params: tuple[tuple[str, float], ...] = ()
    dynkomi: str = dynkomi.DEFAULT_DYNKOMI
    dynkomi_params: tuple[tuple[str, float], ...] = ()
    parallel: str = parallel.DEFAULT_PARALLEL
    parallel_params: tuple[tuple[str, float], ...] = ()
    player: str = players.DEFAULT_PLAYER
    player_params: tuple[tuple[str, float], ...] = ()
    playouts: int | None = None
    seconds: float | None = None
    threads: int = 1
    seed: int = 1
    expand_at: int = 8
    widen: float = 0.0
    widen_factor: float = 1.4
    max_memory_mb: float = 1024.0
    resign_threshold: float = 0.1
    resign_min_visits: int = 1000
    ponder: bool = False
    extend_time: float = 1.0
    # None: by the board's size (time_control.board_plan_share: 0.7 on 9x9, 1 on 19x19, as measured
    # against Pachi at equal clocks, docs/results/pachi-baselines.md)
    plan_share: float | None = None
    analysis_width: float = 0.2
    reuse_tree: bool = True
    batch: int = 128

    def __post_init__(self) -> None:
        for setting in SETTINGS:
            object.__setattr__(self, setting.key, setting.check(getattr(self, setting.key)))
        for chosen in CHOSEN:
            choice = chosen.registry.get_choice(getattr(self, chosen.field))
            overrides = dict(getattr(self, chosen.params_field))
            values = chosen.registry.param_values(choice.name, overrides)  # raises for a bad key or value
            names = {choice.param(key).name for key in overrides}
            normal = {name: values[name] for name in names}
            object.__setattr__(self, chosen.field, choice.name)
            object.__setattr__(self, chosen.params_field, tuple(sorted(normal.items())))
        if not isinstance(self.batch, int) or not 1 <= self.batch <= 10**6:
            raise ValueError(f"batch must be an integer from 1 to 1000000, got {self.batch!r}")
        nodes = self.max_memory_mb * 2**20 / (BYTES_PER_NODE * self.trees)
        if nodes < MIN_TREE_NODES:
            raise ValueError(
                f"max_memory_mb {self.max_memory_mb:g} is too small for {self.trees} tree(s) "
                f"of at least {MIN_TREE_NODES} nodes ({BYTES_PER_NODE} bytes each)"
            )

    @property
    def trees(self) -> int:
        """How many trees the search keeps, sharing ``max_memory_mb`` evenly: one a thread with
        ``root`` parallelism, else one for all the threads."""
        return self.threads if self.parallel == "root" else 1

    def params_of(self, field: str) -> tuple[tuple[str, float], ...]:
        """The parameters of the choice in ``field`` (``rule``, ``playout``, ...) that differ from
        its registry's defaults: those given, and for the rule beside any playouts but
        ``uniform``, RULE_DEFAULTS_WITH_KNOWLEDGE's where not given. What the kernels, the logs
        and the parameter page read."""
        chosen = CHOSEN_BY_FIELD[field]
        given = dict(getattr(self, chosen.params_field))
        if field == "rule" and self.playout != "uniform":
            for name, value in RULE_DEFAULTS_WITH_KNOWLEDGE.get(self.rule, {}).items():
                given.setdefault(name, value)
        return tuple(sorted(given.items()))

    def describe(self) -> str:
        """Every choice made by name (CHOSEN: the rule, the playout policy, the prior, the dynamic
        komi and the parallel search; the player when it is not the search) with its parameters,
        for logs and the start-up line."""
        parts = [c.registry.describe(getattr(self, c.field), self.params_of(c.field)) for c in CHOSEN]
        words = f"{parts[0]}; playout {parts[1]}; prior {parts[2]}; dynamic komi {parts[3]}; parallel {parts[4]}"
        return words if self.player == players.DEFAULT_PLAYER else f"{words}; player {parts[5]}"

    def keeps_trees_of(self, other: SearchConfig) -> bool:
        """Whether a search configured as ``other`` may keep its trees under this configuration:
        they differ only in settings that do not change how trees are built (the budget, the
        resignation rule, the dynamic komi, which changes from move to move anyway)."""
        keep = {s.key for s in SETTINGS if s.keeps_tree} | {"dynkomi", "dynkomi_params"}
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self) if f.name not in keep)


@dataclass(frozen=True)
class Budget:
    """What one search may spend: ``playouts``, ``seconds``, or both (it stops at whichever runs
    out first). A search needs one; ``Engine`` builds it for every move from the settings and the
    clock (``Budget.of``). ``playouts=0`` re-roots the trees without searching."""

    playouts: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.playouts is None and self.seconds is None:
            raise ValueError("a budget needs playouts, seconds or both")
        if self.playouts is not None and (isinstance(self.playouts, bool) or self.playouts < 0):
            raise ValueError(f"a budget's playouts must be at least 0, got {self.playouts!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, got {self.seconds!r}")

    @classmethod
    def of(cls, config: SearchConfig, clock_seconds: float | None = None) -> Budget:
        """The budget of a move under ``config``: its playouts and seconds, the seconds limited
        to ``clock_seconds`` (what a game clock allows the move; None without a clock), and
        DEFAULT_PLAYOUTS when neither the settings nor a clock set a limit."""
        seconds = config.seconds
        if clock_seconds is not None:
            seconds = clock_seconds if seconds is None else min(seconds, clock_seconds)
        if config.playouts is None and seconds is None:
            return cls(playouts=DEFAULT_PLAYOUTS)
        return cls(config.playouts, seconds)


@dataclass(frozen=True)
class SearchRequest:
    """What one search is asked for, from the front-end down to ``Search.run`` in one piece:

    - ``budget``: what it may spend; None for the engine's own (the settings, limited by the
      clock: ``Engine.genmove``, ``Engine.analyze``);
    - ``callback(result)``, every ``interval`` seconds, with a result of the search so far (the one
      way an analysis streams its reports: GTP's ``lz-analyze`` and ``kata-analyze`` and their
      genmove forms, the JSON analysis);
    - ``ownership``: the result holds the ownership map; ``pv_visits``: each move's visits along
      its principal variation;
    - ``should_stop()``, asked after every batch of iterations, ends the search when it says so:
      the one way a search stops before its budget is spent (GoGui's ``# interrupt``, a
      controller's next line, a terminated query, a stopped ponder, the clock's stop test);
    - ``extra_komi``: the dynamic komi the playouts are judged against (``Engine.genmove`` sets
      the game's; a front-end leaves it at 0);
    - ``root_explore``: the weight of the exploration term added at the root (``kernels.search``:
      ROOT_EXPLORE); None for the engine's own: ``Engine.analyze`` takes the ``analysis_width``
      setting, a move of the game 0."""

    budget: Budget | None = None
    callback: Callable[[object], None] | None = None
    interval: float = 1.0
    ownership: bool = False
    pv_visits: bool = False
    should_stop: Callable[[], bool] | None = None
    extra_komi: float = 0.0
    root_explore: float | None = None


def available_cores() -> int:
    """The cores this process may run on (``os.sched_getaffinity``, else ``os.cpu_count``), within
    the thread setting's range: the ``goengine`` command's default thread count."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every platform
        cores = os.cpu_count() or 1
    threads = next(s for s in SETTINGS if s.key == "threads")
    return max(int(threads.lo), min(int(threads.hi), cores))


def check_board_size(size: int) -> int:
    """``size`` if a game may be played on it (BOARD_SIZES), else ValueError."""
    if isinstance(size, bool) or not isinstance(size, int) or size not in BOARD_SIZES:
        raise ValueError(f"board size must be from {BOARD_SIZES[0]} to {BOARD_SIZES[-1]}, got {size!r}")
    return size


@dataclass(frozen=True)
class EngineConfig:
    """The game-level settings (the board size, from BOARD_SIZES, the komi, and the points
    White receives for Black's handicap stones: ``white_handicap_bonus``, KataGo's 0, N-1 or N,
    ``goengine.ruleset``) and the search settings."""

    size: int = 9
    komi: float = 7.5
    search: SearchConfig = field(default_factory=SearchConfig)
    white_handicap_bonus: str = "0"

    def __post_init__(self) -> None:
        check_board_size(self.size)
        if not math.isfinite(self.komi):
            raise ValueError(f"komi must be finite, got {self.komi!r}")
        if self.white_handicap_bonus not in HANDICAP_BONUSES:
            raise ValueError(f"white handicap bonus must be one of {', '.join(HANDICAP_BONUSES)}")


# ---- text in: the command line and goengine-set


def with_setting(config: SearchConfig, key: str, text: str) -> SearchConfig:
    """``config`` with the setting called ``key`` set from ``text``: a plain setting (its key or
    its words), ``rule`` / ``playout`` / ``prior`` (a name; the chosen kernel's parameters go back
    to their defaults), or a parameter of the current rule, policy or prior (its name or words;
    ``playout.NAME`` and ``prior.NAME`` say whose when a name is shared). ValueError with the
    message both doors show."""
    k = key.strip().lower()
    for setting in SETTINGS:
        if k in (setting.key, setting.words.lower()):
            return replace(config, **{setting.key: setting.parse(text)})
    for chosen in CHOSEN:
        if k in (chosen.field, chosen.words.lower()):
            return replace(config, **{chosen.field: text.strip(), chosen.params_field: ()})
    for chosen in CHOSEN:
        prefix = chosen.field + "."
        if k.startswith(prefix):
            return with_param(config, chosen.field, k[len(prefix) :], text)
    for chosen in CHOSEN:
        if _choice(config, chosen).param(k) is not None:
            return with_param(config, chosen.field, k, text)
    known = [s.key for s in SETTINGS] + [c.field for c in CHOSEN]
    for chosen in CHOSEN:
        known += [p.name for p in _choice(config, chosen).params]
    raise ValueError(f"unknown setting {key!r}; known now: {', '.join(known)}")


def with_param(config: SearchConfig, field_name: str, key: str, value: str | float) -> SearchConfig:
    """``config`` with parameter ``key`` of its ``field_name`` (``rule``, ``playout``, ``prior``)
    set to ``value``; ValueError naming the parameters it has."""
    chosen = CHOSEN_BY_FIELD[field_name]
    choice = _choice(config, chosen)
    chosen.registry.param_values(choice.name, {key: value})  # raises naming the parameters it has
    merged = dict(getattr(config, chosen.params_field))
    merged[choice.param(key).name] = value  # SearchConfig reads it as a number
    return replace(config, **{chosen.params_field: tuple(merged.items())})


def _choice(config: SearchConfig, chosen: Chosen):
    return chosen.registry.get_choice(getattr(config, chosen.field))


# ---- text out: GoGui's parameter page


@dataclass(frozen=True)
class PageRow:
    """One line of the parameter page: ``key`` (words), the value as text, and how GoGui shows
    it: a list of ``choices``, a check box (``flag``), or a text field."""

    key: str
    value: str
    choices: tuple[str, ...] = ()
    flag: bool = False


def page(config: SearchConfig) -> list[PageRow]:
    """Every setting of ``config``: the choices made by name (CHOSEN, six), the plain settings,
    then the parameters of each current choice, each value formatted as everywhere else."""
    rows = [PageRow(c.words, getattr(config, c.field), tuple(c.registry)) for c in CHOSEN]
    rows += [PageRow(s.words, s.format(getattr(config, s.key)), flag=s.kind is bool) for s in SETTINGS]
    for chosen in CHOSEN:
        choice = _choice(config, chosen)
        values = chosen.registry.param_values(choice.name, config.params_of(chosen.field))
        for p in choice.params:
            rows.append(PageRow(p.words, p.format(values[p.name]), tuple(p.names), p.flag))
    return rows
