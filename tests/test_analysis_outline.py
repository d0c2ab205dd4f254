"""goengine.analysis.outline: a JSON line's depth and id, read in one pass, checked against
Python's own parser on random lines, and its work counted (every byte examined once).

(Before: the nesting count removed the line's strings with a regular expression that tried again
from every quote: a line of 65 brackets and 32,000 escaped quotes took 13-18 s, a megabyte over
an hour, with the searches of the server stalled behind it.)
"""

from __future__ import annotations

import json
import random

import pytest

from goengine.analysis.outline import BLOCK, MAX_ID_TRIES, _outline, outline


def naive_depth(value) -> int:
    """How deep a parsed JSON value nests: the slow, obviously right reference."""
    if isinstance(value, dict):
        return 1 + max((naive_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((naive_depth(v) for v in value), default=0)
    return 0


_PIECES = ['"', "\\", "[", "]", "{", "}", "id", "a", ":", ",", " ", "é", "\n"]


def random_value(rng: random.Random, depth: int):
    kind = rng.random()
    if depth > 6 or kind < 0.35:
        return rng.choice([1, -2.5, True, None, "".join(rng.choice(_PIECES) for _ in range(rng.randrange(6)))])
    if kind < 0.65:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["id", "x", '"id"', "[", "\\"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


@pytest.mark.parametrize("block", [1, 2, 3, 5, 64, BLOCK])
def test_depth_and_id_agree_with_pythons_parser_on_random_lines(block):
    rng = random.Random(block)
    for _ in range(300):
        value = random_value(rng, 0)
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
        found = outline(text, find_id=True, block=block)
        assert found.depth == naive_depth(value), text
        wanted = value.get("id") if isinstance(value, dict) else None
        assert found.query_id == (wanted if isinstance(wanted, str) else None), text


@pytest.mark.parametrize(
    ("text", "depth", "query_id"),
    [
        ('{"a": "[[[[[[" , "b": [[1]]}', 3, None),  # brackets in a string do not nest
        ('{"x":"id","id" : "q1","moves":[["b","c3"]]}', 3, "q1"),  # "id" as a value is not the key
        ('{"x":"\\"id\\"","id":"q\\"2"}', 1, 'q"2'),  # escaped quotes
        ('{"a":"\\\\","id":"r"}', 1, "r"),  # an escaped backslash ends the string at its quote
        ('{"a":{"id":"inner"},"id":"outer"}', 2, "outer"),  # only the outermost object's
        ("[" * 100 + '{"id":"deep"}', 101, None),
        ('{"id":"s","z":' + "[" * 100, 101, "s"),  # cut off: the id is still read
        ('{"id": 7}', 1, None),  # not a string
        ('{"id": "cut', 1, None),
    ],
)
def test_hand_made_lines(text, depth, query_id):
    found = outline(text, find_id=True)
    assert (found.depth, found.query_id) == (depth, query_id)


@pytest.mark.parametrize("length", [1_000, 100_000, 1_000_000])
@pytest.mark.parametrize("block", [1 << 10, BLOCK])
def test_every_byte_is_examined_once_whatever_the_line(length, block):
    """The work, counted: the issue's line (65 brackets, then a quote and a long run of escaped
    quotes) and a line of brackets alone each examine exactly their bytes, in ceil(n / block)
    blocks of vectorised passes."""
    for text in ("[" * 65 + '"' + '\\"' * (length // 2), "[" * length, '{"id":"q",' + '"\\\\",' * (length // 5)):
        found, examined = _outline(text, find_id=True, block=block)
        assert examined == len(text.encode())
    assert _outline("[" * 65 + '"' + '\\"' * 10, False, BLOCK)[0].depth == 65


def test_a_line_of_many_id_strings_is_looked_at_a_bounded_number_of_times():
    text = "{" + '"id" "id" ' * 10_000 + '"id": "late"}'
    assert outline(text, find_id=True).query_id is None  # beyond MAX_ID_TRIES candidates: not looked for
    text = "{" + '"id" ' * (MAX_ID_TRIES - 1) + '"id": "soon"}'
    assert outline(text, find_id=True).query_id == "soon"
