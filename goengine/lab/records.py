"""Game records on disk: one JSON object a line in ``games.jsonl``, appended and fsynced as each
game ends, so a killed run loses nothing and the same command resumes it.

A record is the dict ``lab.referee.play_game`` returns; its key is ``config#index``. A void game
(crash, hang, garbage) is recorded too, so the run knows it was tried.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def load_records(path: Path) -> list[dict]:
    """Every record in the JSONL file; a torn last line (a crash mid-write) is skipped."""
    records = []
    if not path.exists():
        return records
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return records


def append_record(path: Path, record: dict) -> None:
    """Append one record and fsync, so a crash or kill right after loses nothing. A torn last
    line (a crash mid-write) is ended first, so it cannot swallow this record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record, sort_keys=True) + "\n").encode("utf-8")
    with path.open("a+b") as handle:
        if handle.tell() > 0:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                line = b"\n" + line
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
