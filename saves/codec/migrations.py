"""Older save formats brought to the current one, a step at a time.

:data:`MIGRATIONS` maps a format ``n`` to a function from a document of format ``n`` to one of
format ``n + 1``; :func:`migrate` applies them in a chain, before any record is read. Adding a
field to a save means: bump ``FORMAT_VERSION`` (:mod:`saves.header`), write the field, and add
the step that gives older documents its value.

* format 1: the game before puzzle rooms, every key lying on its floor;
* format 2: ``state.puzzles`` (each pedestal: its key, place, type, difficulty, seed, the
  instance once generated, the player's moves, solved, hints used, visited) and
  ``state.with_puzzles``;
* format 3: the floor's topology stored once, in the shape the generator gives it: the keys
  are those its rooms hold (no separate ``keys`` list), and an edge has ``loop`` only when
  it is one;
* format 4: each pedestal keeps ``resets``, the times its puzzle was started again (its score
  keeps the penalty when the puzzle is left and reopened); older saves had none kept: 0;
* format 5: the run's ``recording`` (its start and every action, see
  :mod:`roguelike.recording`) and ``state.stats.puzzle_scores``; a game saved before has no
  recording (``null``: its run cannot be replayed) and no scores kept;
* format 6: the header is sealed (see :mod:`saves.header`): the payload is format 5's, so
  the step changes nothing in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from saves import fields as f
from saves import header as h
from saves.errors import SaveError, SaveVersionError

Migration = Callable[[dict[str, Any]], dict[str, Any]]
#: The most rooms, edges or keys a migration reads (the records' readers check the real limits).
_MAX_RECORDS = 10_000


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 2 has puzzle rooms. A game saved before them has every key lying on its floor,
    and keeps it so on the floors below (``with_puzzles`` false)."""
    state = dict(f.obj(f.get(doc, "state", "payload"), "payload.state"))
    state.setdefault("puzzles", [])
    state.setdefault("with_puzzles", False)
    return {**doc, "state": state}


def _v2_to_v3(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 3 stores a topology's keys only in its rooms (format 2 listed them a second
    time, apart) and writes ``loop`` only on the edges that are loops."""
    where = "payload.state.floor.topology"
    state = dict(f.obj(f.get(doc, "state", "payload"), "payload.state"))
    floor = dict(f.obj(f.get(state, "floor", "payload.state"), "payload.state.floor"))
    topo = dict(f.obj(f.get(floor, "topology", "payload.state.floor"), where))

    def records(key: str) -> list[dict[str, Any]]:
        items = f.array_list(f.get(topo, key, where), f"{where}.{key}", _MAX_RECORDS)
        return [f.obj(item, f"{where}.{key}[{i}]") for i, item in enumerate(items)]

    listed = sorted((k.get("id"), k.get("room")) for k in records("keys"))
    held = sorted((r.get("key"), r.get("id")) for r in records("rooms") if r.get("key") is not None)
    if listed != held:
        raise SaveError(f"{where}.keys: not the keys its rooms hold")
    del topo["keys"]
    topo["edges"] = [
        {k: v for k, v in e.items() if (k, v) != ("loop", False)} for e in records("edges")
    ]
    return {**doc, "state": {**state, "floor": {**floor, "topology": topo}}}


def _v3_to_v4(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 4 keeps each pedestal's resets; a save from before kept none."""
    state = dict(f.obj(f.get(doc, "state", "payload"), "payload.state"))
    rooms = f.array_list(
        f.get(state, "puzzles", "payload.state"), "payload.state.puzzles", _MAX_RECORDS
    )
    state["puzzles"] = [
        {"resets": 0, **f.obj(r, f"payload.state.puzzles[{i}]")} for i, r in enumerate(rooms)
    ]
    return {**doc, "state": state}


def _v4_to_v5(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 5 records the run; a game saved before was not recorded."""
    state = dict(f.obj(f.get(doc, "state", "payload"), "payload.state"))
    stats = dict(f.obj(f.get(state, "stats", "payload.state"), "payload.state.stats"))
    stats.setdefault("puzzle_scores", [])
    return {**doc, "state": {**state, "stats": stats}, "recording": None}


def _v5_to_v6(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 6 seals the header; its payload is format 5's."""
    return doc


#: Format n → format n + 1, applied in a chain from a save's format up to FORMAT_VERSION.
MIGRATIONS: dict[int, Migration] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
    5: _v5_to_v6,
}


def migrate(doc: dict[str, Any], version: int) -> dict[str, Any]:
    """``doc`` of format ``version`` brought to :data:`~saves.header.FORMAT_VERSION`."""
    if version > h.FORMAT_VERSION:
        raise SaveVersionError(h.newer_format_message(version))
    while version < h.FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(f"format {version} cannot be read by this game (no migration)")
        doc = step(doc)
        version += 1
    return doc
