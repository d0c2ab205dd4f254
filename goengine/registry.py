"""The shape of anything chosen by name: a selection rule, a playout policy, a prior.

A ``Choice`` is one name with its kernel id, its parameters and its source; a ``Registry`` holds
the choices of one kind and turns a name and parameter overrides into what the kernels take (an
integer id and a float64 parameter array), and back into text. The kernels dispatch on the id
inside cached code (``kernels.select``, ``kernels.policy``, ``kernels.prior``); this module only
describes them, so adding a choice is: its kernel, its registry entry, its tests.

A parameter's ``index`` is a named constant of its kernel module (``kernels.select.RAVE_K``);
``Registry`` refuses, when it is built, a choice whose indices are not exactly 0, 1, ..., n - 1,
so a parameter can never land in another one's slot.

Every value a user sees is formatted by ``Param.format`` (the log line, ``goengine --help``, the
GoGui parameter page, match records), and every value a user gives is read by ``Param.parse``
(the command line and ``goengine-set`` alike).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from goengine import numerals


def format_number(value: float) -> str:
    """A setting's or parameter's number as logs, GoGui's parameter page, ``--help`` and match
    records write it: a whole number without a decimal point, any other the shortest text that
    reads back as the same float (UCB1's c is ``1.4142135623730951``, not ``%g``'s ``1.41421``, so
    a value copied from a record or the parameter page gives the same search)."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


@dataclass(frozen=True)
class Param:
    """One parameter of a choice.

    ``name``: the short name (``--param NAME=VALUE``, ``goengine-set NAME VALUE``); ``words``: the
    key on GoGui's parameter page, which shows it capitalised with ``_`` as spaces, so it is
    written as words (``goengine-set`` takes it too); ``index``: its slot in the kernel's
    parameter array; ``choices``: named values, ``(text, number)``, the first text of a number
    being how it is written (``hand-selected``), later ones accepted too (``hand``); ``flag``: an
    on/off switch (0 off, anything else on), shown as a check box; ``low``, ``high``: the range
    a number must be in (a probability: 0 to 1).
    """

    name: str
    index: int
    default: float
    words: str
    doc: str = ""
    choices: tuple[tuple[str, float], ...] = ()
    flag: bool = False
    low: float = -math.inf
    high: float = math.inf

    def parse(self, owner: str, value: float | str) -> float:
        """The number the kernel takes for ``value`` (a number, or one of the named values);
        ValueError saying what is allowed."""
        if self.choices:
            if isinstance(value, str):
                for text, number in self.choices:
                    if value.strip().lower() == text.lower():
                        return number
            elif float(value) in {number for _, number in self.choices}:
                return float(value)
            raise ValueError(f"{self.name} of {owner} must be one of {', '.join(self.names)}, got {value!r}")
        try:  # text in ASCII digits, read in time linear in its length (goengine.numerals)
            number = numerals.decimal(value.strip()) if isinstance(value, str) else float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{self.name} of {owner} must be a number, got {value!r}") from None
        if not math.isfinite(number):
            raise ValueError(f"{self.name} of {owner} must be finite, got {value!r}")
        if not self.low <= number <= self.high:
            raise ValueError(f"{self.name} of {owner} must be from {self.low:g} to {self.high:g}, got {value!r}")
        return number

    @property
    def names(self) -> list[str]:
        """The canonical text of each named value, in order."""
        seen: list[str] = []
        numbers: set[float] = set()
        for text, number in self.choices:
            if number not in numbers:
                numbers.add(number)
                seen.append(text)
        return seen

    def format(self, value: float) -> str:
        """How ``value`` is written everywhere: a named value's text, 1/0 for a flag, else
        ``format_number``."""
        for text, number in self.choices:
            if number == value:
                return text
        if self.flag:
            return "1" if value != 0 else "0"
        return format_number(value)


@dataclass(frozen=True)
class Choice:
    """One selectable kernel: ``name``, kernel ``id``, ``params`` (in any order; each knows its
    index), ``source`` (the paper or program it comes from), ``aliases`` (older names that still
    select it, so recorded commands keep working), and what the search must give its kernel: for
    selection rules ``needs_amaf`` (AMAF statistics), for priors ``needs_move_model`` (the
    learned move model's arrays)."""

    name: str
    id: int
    params: tuple[Param, ...] = ()
    source: str = ""
    needs_amaf: bool = False
    needs_move_model: bool = False
    aliases: tuple[str, ...] = ()

    def param(self, key: str) -> Param | None:
        """The parameter called ``key`` (its name or its words, any case), or None."""
        k = key.strip().lower()
        return next((p for p in self.params if k in (p.name.lower(), p.words.lower())), None)

    @property
    def defaults(self) -> dict[str, float]:
        return {p.name: p.default for p in self.params}


class Registry(Mapping[str, Choice]):
    """The choices of one kind (``kind``: "selection rule", "playout policy", "prior"; ``plural``
    when it is not ``kind + "s"``), by name. ``max_params``: the columns of the kernels'
    parameter arrays."""

    def __init__(self, kind: str, choices: Iterable[Choice], max_params: int, plural: str = ""):
        self.kind = kind
        self.plural = plural or kind + "s"
        self.max_params = max_params
        self._choices: dict[str, Choice] = {}
        self._aliases: dict[str, str] = {}
        ids = set()
        for choice in choices:
            indices = sorted(p.index for p in choice.params)
            if indices != list(range(len(choice.params))) or len(choice.params) > max_params:
                raise ValueError(
                    f"{kind} {choice.name}: parameter indices {indices} are not 0..n-1 within {max_params}"
                )
            names = [p.name for p in choice.params] + [p.words for p in choice.params]
            if len({n.lower() for n in names}) != len(names):
                raise ValueError(f"{kind} {choice.name}: two parameters share a name")
            if choice.name != choice.name.strip().lower():  # get_choice looks names up in lower case
                raise ValueError(f"{kind} {choice.name!r}: a name is written in lower case, without spaces around")
            if choice.id in ids or choice.name in self._choices:
                raise ValueError(f"{kind} {choice.name}: id {choice.id} or name used twice")
            ids.add(choice.id)
            self._choices[choice.name] = choice
            for alias in choice.aliases:
                self._aliases[alias] = choice.name
        if set(self._aliases) & set(self._choices):
            raise ValueError(f"{kind}: an alias is also a name")

    def __getitem__(self, name: str) -> Choice:
        return self._choices[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._choices)

    def __len__(self) -> int:
        return len(self._choices)

    def names_help(self) -> str:
        """The names for a help text: ``a, b, c (or d, its older name)``."""
        return ", ".join(
            name + "".join(f" (or {alias}, its older name)" for alias in choice.aliases)
            for name, choice in self._choices.items()
        )

    def get_choice(self, name: str) -> Choice:
        """The choice called ``name`` or by one of its ``aliases`` (any case); ValueError listing
        the known names otherwise."""
        key = str(name).strip().lower()
        choice = self._choices.get(self._aliases.get(key, key))
        if choice is None:
            raise ValueError(f"unknown {self.kind} {name!r}; known: {', '.join(self._choices)}")
        return choice

    def param_values(self, name: str, overrides: Mapping[str, float | str] | Iterable = ()) -> dict[str, float]:
        """Every parameter of ``name``, defaults overridden by ``overrides`` (keys: names or
        words), as numbers keyed by short name; ValueError for an unknown key or a bad value."""
        choice = self.get_choice(name)
        result = choice.defaults
        items = overrides.items() if isinstance(overrides, Mapping) else overrides
        for key, value in items:
            param = choice.param(key)
            if param is None:
                have = ", ".join(p.name for p in choice.params) or "none"
                raise ValueError(f"{self.kind} {choice.name} has no parameter {key!r}; it has: {have}")
            result[param.name] = param.parse(choice.name, value)
        return result

    def array(self, name: str, overrides: Mapping[str, float | str] | Iterable = ()) -> np.ndarray:
        """The kernels' float64 parameter array (``max_params`` long) for ``name`` and ``overrides``."""
        choice = self.get_choice(name)
        values = self.param_values(name, overrides)
        array = np.zeros(self.max_params, dtype=np.float64)
        for param in choice.params:
            array[param.index] = values[param.name]
        return array

    def describe(self, name: str, overrides: Mapping[str, float | str] | Iterable = ()) -> str:
        """``name key=value ...`` with every parameter, as logs, ``--help`` and records show it."""
        choice = self.get_choice(name)
        values = self.param_values(name, overrides)
        return " ".join([choice.name, *(f"{p.name}={p.format(values[p.name])}" for p in choice.params)])
