"""The one list of puzzle types: each type's record (:class:`~roguelike.puzzles.base.PuzzleType`,
``TYPE`` in its module), in the order players meet them in menus.

A new type is its module (the rules, its class, ``generate`` and its ``TYPE``; keydoor's
``generate`` and ``TYPE`` are in ``keydoor_gen``, which imports the rules) and one line here;
every reader (generation, the difficulty score, hints, the codes, the saves, the screens) takes
what it needs from the record.
"""

from __future__ import annotations

from typing import Any

from roguelike.puzzles import ball, hatgram, jugs, keydoor_gen, sliding, stomp
from roguelike.puzzles.base import PuzzleType

REGISTRY: tuple[PuzzleType[Any, Any, Any], ...] = (
    jugs.TYPE,
    sliding.TYPE,
    stomp.TYPE,
    ball.TYPE,
    hatgram.TYPE,
    keydoor_gen.TYPE,
)
#: The names of the types, in the registry's order.
TYPES: tuple[str, ...] = tuple(t.name for t in REGISTRY)
_BY_NAME: dict[str, PuzzleType[Any, Any, Any]] = {t.name: t for t in REGISTRY}
if len(_BY_NAME) != len(REGISTRY):
    raise ValueError(f"two puzzle types share a name: {TYPES}")


def kind(type_name: str) -> PuzzleType[Any, Any, Any]:
    """The record of the type named ``type_name``; raises ValueError for an unknown name."""
    found = _BY_NAME.get(type_name)
    if found is None:
        raise ValueError(f"unknown puzzle type {type_name!r}: one of {', '.join(TYPES)}")
    return found


def kind_of(p: Any) -> PuzzleType[Any, Any, Any]:
    """The record of instance ``p``'s type (by its ``type_name``)."""
    return kind(p.type_name)
