"""GTP commands of the engine's settings: ``goengine-set KEY VALUE`` and ``goengine-params``
(GoGui's parameter page). What a setting allows is decided in one place,
``goengine.config`` (the command line reads the same way); this module only frames it."""

from __future__ import annotations

from goengine.config import PageRow, page, with_setting
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import syntax_error


def page_line(row: PageRow) -> str:
    """One line of GoGui's ``param`` response: ``[list/a/b] key value``, ``[bool] key 0|1`` or
    ``[string] key value``."""
    if row.choices:
        kind = "list/" + "/".join(row.choices)
    elif row.flag:
        kind = "bool"
    else:
        kind = "string"
    return f"[{kind}] {row.key} {row.value}"


class SettingsCommands(CommandGroup):
    COMMANDS = {"goengine-set": "set", "goengine-params": "params"}

    def params(self, args: list[str]) -> str | None:
        """Without arguments: every setting, one ``[type] key value`` per line (GoGui's ``param``
        analyze type, whose page shows each key capitalised with ``_`` as spaces). With
        ``key value``: set one, as ``goengine-set`` does."""
        if not args:
            return "\n".join(page_line(row) for row in page(self.engine.config.search))
        return self.set(args)

    def set(self, args: list[str]) -> None:
        """``goengine-set KEY VALUE``: a setting of ``config.SETTINGS`` (or its word on the
        parameter page), a choice, or a parameter of a current choice (``config.with_setting``).
        The search keeps its tree when the change allows it (``SearchConfig.keeps_trees_of``)."""
        if len(args) < 2:
            raise syntax_error()
        new = with_setting(self.engine.config.search, args[0], " ".join(args[1:]))
        self.engine.configure(new)
        self.gtp.log(f"settings: {new.describe()}")
