"""Game records on disk: one JSON object a line in ``games.jsonl``, appended and fsynced as each
game ends, so a killed run loses nothing and the same command resumes it.

A record is the dict ``lab.referee.play_game`` returns; its key is ``config#index``. A void game
(crash, hang, garbage) is recorded too, so the run knows it was tried.

Reading guide: ``read_records`` is the whole format. Each record is written whole, with its end
of line, in one write (``append_record``), so a crash or a kill can tear only the last line: a
last line with no end of line that is not a record (``TornLine``) is the record being written
when the run died. It is skipped with a word on stderr (``load_records``), and a match removes
it before it plays (``remove_torn_line``: the file truncated where the fragment starts, so no
complete record is touched), so its game is played again and the file ends with a complete
record. Any other line that is not a record cannot come from a crash mid-write: the file was
damaged or edited, and reading it raises ``CorruptRecords`` naming the file and the line,
rather than dropping a game unseen.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path


class CorruptRecords(ValueError):
    """A line of a records file that is not a record and is not a torn last line; the message
    names the file and the line."""


@dataclass(frozen=True)
class TornLine:
    """The last line of ``path``, line number ``line``: ``size`` bytes from byte ``offset`` on,
    no end of line, not a record (a run died while writing it). ``file_size``: the file's size
    when it was read, so that a file which has grown since is not cut."""

    path: Path
    line: int
    offset: int
    size: int
    file_size: int

    def describe(self) -> str:
        return (
            f"{self.path}, line {self.line}: a torn record ({self.size} bytes with no end of line: "
            "the run that wrote it died in the middle)"
        )


def _record(line: bytes) -> dict | None:
    """The record a line holds, or None when it is not one (not JSON, or not a JSON object)."""
    try:
        value = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def read_records(path: Path) -> tuple[list[dict], TornLine | None]:
    """Every record of the JSONL file in order (none when it does not exist; blank lines are
    skipped), and its torn last line if it has one. CorruptRecords for any other line that is not
    a record."""
    path = Path(path)
    if not path.exists():
        return [], None
    data = path.read_bytes()
    records: list[dict] = []
    lines = data.split(b"\n")  # the last one is what follows the last end of line: b"" when none
    offset = 0
    for number, line in enumerate(lines, start=1):
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        record = _record(line)
        if record is not None:
            records.append(record)
        elif number == len(lines):
            return records, TornLine(path, number, start, len(line), len(data))
        else:
            raise CorruptRecords(
                f"{path}, line {number}: not a game record ({line[:60].decode('utf-8', 'replace')!r}...); "
                "only the last line can be torn by a run that died while writing it, so this file was damaged "
                "or edited: mend or delete that line"
            )
    return records, None


def load_records(path: Path) -> list[dict]:
    """``read_records``'s records; a torn last line is skipped with a word on stderr, the file
    left as it is (a match removes it before it plays, ``remove_torn_line``)."""
    records, torn = read_records(path)
    if torn is not None:
        print(f"{torn.describe()}: skipped", file=sys.stderr)
    return records


def remove_torn_line(torn: TornLine) -> None:
    """Cut the torn last line off its file (truncated where it starts, and fsynced): the complete
    records before it stay byte for byte. ValueError, the file untouched, when it has changed size
    since it was read (another process writes to it)."""
    with torn.path.open("r+b") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size != torn.file_size:
            raise ValueError(f"{torn.path} changed while it was read ({torn.file_size} then {size} bytes): not cut")
        handle.truncate(torn.offset)
        handle.flush()
        os.fsync(handle.fileno())


def append_record(path: Path, record: dict) -> None:
    """Append one record, with its end of line, in one write, and fsync, so a crash or kill right
    after loses nothing. A last line left without its end of line is ended first when it is a
    record, and removed when it is torn (``remove_torn_line``, said on stderr), so it can neither
    swallow this record nor stay in the file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record, sort_keys=True) + "\n").encode("utf-8")
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as handle:
            handle.seek(-1, os.SEEK_END)
            ended = handle.read(1) == b"\n"
        if not ended:
            _, torn = read_records(path)
            if torn is None:
                line = b"\n" + line  # a record written without its end of line
            else:
                remove_torn_line(torn)
                print(f"{torn.describe()}: removed", file=sys.stderr)
    with path.open("ab") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def finished_keys(records: list[dict]) -> set[str]:
    return {f"{r['config']}#{r['index']}" for r in records if not r.get("void")}


def void_counts(records: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in records:
        if r.get("void"):
            key = f"{r['config']}#{r['index']}"
            counts[key] = counts.get(key, 0) + 1
    return counts


def record_folders(out: Path) -> list[Path]:
    """The folder and its pairs' folders (a tournament's), each with the games.jsonl it holds."""
    folders = [out, *sorted((out / "pairs").glob("*-vs-*"))]
    return [folder for folder in folders if (folder / "games.jsonl").is_file()]


def all_records(out: Path) -> list[dict]:
    """The folder's records, and its pairs' (a tournament's), every game once."""
    return [r for folder in record_folders(out) for r in load_records(folder / "games.jsonl")]
