"""Floors that many tests only read, made once per test process and shared: floor 1 of the
first few dozen seeds is wanted by the floor, population, puzzle-room and bestiary tests alike.
A floor is never changed once made (the game copies its tiles into the live map, and the tests
copy an array before they change it), so sharing one is safe. Tests of generation itself (the
same floor twice, in another process) call ``generate_floor`` directly."""

from __future__ import annotations

from functools import cache

from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor


def floor(seed: int, number: int, last: bool = False) -> Floor:
    """Floor ``number`` of world ``seed`` with the game's parameters (``last``: with the exit),
    made on first use."""
    return _floor(seed, number, bool(last))


@cache
def _floor(seed: int, number: int, last: bool) -> Floor:
    return generate_floor(seed, number, last=last)
