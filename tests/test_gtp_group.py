"""``CommandGroup`` (``goengine.gtp.group``), the shape of every handler group, and the groups
``GtpEngine`` assembles (``goengine.gtp.GROUPS``): each ``COMMANDS`` entry names a method of its
group, no name is used twice (across the groups, nor over one of the protocol's own commands),
and every one is registered, bound to its group's method, listed by ``list_commands`` and known
to ``known_command``; a group of one's own registers the same way and reaches the engine and its
game. The framing of the responses is ``test_gtp_protocol.py``'s.
"""

from __future__ import annotations

from collections import Counter

import pytest

from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GROUPS, GtpEngine
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import GtpError

#: the commands ``Protocol`` registers itself, before any group
ADMINISTRATIVE = ["protocol_version", "name", "version", "known_command", "list_commands", "quit"]


@pytest.fixture
def gtp():
    front = GtpEngine(Engine(EngineConfig(size=5, search=SearchConfig(playouts=20))))
    yield front
    front.engine.close()


def group_commands() -> list[str]:
    return [name for group in GROUPS for name in group.COMMANDS]


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.__name__)
def test_every_command_of_a_group_names_one_of_its_methods(group):
    assert issubclass(group, CommandGroup)
    assert group.COMMANDS, "a group without commands"
    missing = {name: method for name, method in group.COMMANDS.items() if not callable(getattr(group, method, None))}
    assert missing == {}


def test_no_command_name_is_used_twice_across_the_groups_or_over_the_protocols_own():
    counts = Counter(ADMINISTRATIVE + group_commands())
    assert {name: n for name, n in counts.items() if n > 1} == {}


def test_the_table_is_the_protocols_commands_then_each_groups_in_order(gtp):
    assert list(gtp.commands) == ADMINISTRATIVE + group_commands()


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.__name__)
def test_each_command_is_bound_to_its_groups_method(gtp, group):
    for name, method in group.COMMANDS.items():
        handler = gtp.commands[name]
        assert isinstance(handler.__self__, group) and handler.__func__ is getattr(group, method), name
        assert handler.__self__.gtp is gtp


def test_list_commands_lists_every_groups_command_and_known_command_knows_each(gtp):
    listed = gtp.send("list_commands").removeprefix("= ").rstrip("\n").split("\n")
    assert set(group_commands()) <= set(listed)
    for name in group_commands():
        assert gtp.send(f"known_command {name}") == "= true\n\n", name


class Notes(CommandGroup):
    """A group of one's own: what a new module of handlers looks like."""

    COMMANDS = {"notes-size": "size", "notes-say": "say", "notes-fail": "fail", "notes-nothing": "nothing"}

    def size(self, args: list[str]) -> str:
        return f"{self.game.size} {self.engine.config.komi:g}"

    def say(self, args: list[str]) -> str:
        return " ".join(args)

    def fail(self, args: list[str]) -> None:
        raise GtpError("no notes here")

    def nothing(self) -> None:
        """A command without arguments: a method of no parameters."""
        return None


def test_a_new_group_registers_its_commands_after_the_others_and_answers_them(gtp):
    before = list(gtp.commands)
    Notes(gtp).register()
    assert list(gtp.commands) == before + list(Notes.COMMANDS)
    assert gtp.send("known_command notes-say") == "= true\n\n"
    assert gtp.send("notes-say a  b") == "= a b\n\n"  # the handler gets the argument words
    assert gtp.send("notes-fail") == "? no notes here\n\n"
    assert gtp.send("notes-nothing") == "=\n\n"


def test_a_handler_without_parameters_is_a_command_that_refuses_arguments(gtp):
    """The table knows a command without arguments by its handler's signature, and refuses a
    line that gives it some before the handler runs. (Before: every handler took the argument
    words, and those of commands without arguments ignored them.)"""
    Notes(gtp).register()
    assert gtp.send("notes-nothing extra") == "? syntax error\n\n"
    assert gtp.send("7 notes-nothing 1 2") == "?7 syntax error\n\n"
    assert gtp.send("notes-say") == "=\n\n"  # a handler with parameters gets the words, none here


def test_a_groups_engine_and_game_are_the_front_ends_current_ones(gtp):
    Notes(gtp).register()
    assert gtp.send("notes-size") == "= 5 7.5\n\n"
    gtp.send("boardsize 7")
    gtp.send("komi 0.5")
    assert gtp.send("notes-size") == "= 7 0.5\n\n"
    notes = gtp.commands["notes-size"].__self__
    assert notes.engine is gtp.engine and notes.game is gtp.engine.game


def test_the_base_group_registers_nothing(gtp):
    before = dict(gtp.commands)
    CommandGroup(gtp).register()
    assert gtp.commands == before


def test_an_entry_naming_no_method_fails_when_the_group_is_registered(gtp):
    class Broken(CommandGroup):
        COMMANDS = {"broken": "no_such_method"}

    with pytest.raises(AttributeError, match="no_such_method"):
        Broken(gtp).register()
