"""The save format's schema tripwire: what the codec writes is its format's, or the format is
bumped and migrated (the rule in :mod:`saves.codec.migrations`).

``data/schema.json`` holds, for each format this generator reads, every key path the codec
writes (``state.monsters[].hp``: a list's items are ``[]``), taken from a real encoded game
that holds at least one of every record. A key added to or removed from what the codec writes
fails here until ``FORMAT_VERSION`` is bumped, a migration step from the previous format is
added, and the new format's keys are committed (``python -m tests.saves.test_schema`` prints
them)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from roguelike import tiles
from roguelike.engine.combat import gain_xp
from roguelike.engine.items import receive
from roguelike.engine.perks import choose_perk
from roguelike.gen.floor import FloorChange
from roguelike.recording import Recording
from saves import codec
from saves import header as h
from tests.saves.support import played_game

SCHEMA_FILE = Path(__file__).with_name("data") / "schema.json"
#: Values whose keys are data, not the codec's (a monster's extra counters, a puzzle's own
#: JSON, a room's spot groups, the recording with its own format): written as one key.
OPAQUE = frozenset({"extra", "instance", "spots", "recording"})
#: (format, path): lists a migration step to that format adds empty (an older game had none of
#: their items), so their items' keys are absent from a migrated document.
EMPTY_AFTER = ((9, "state.floor.changes[]"),)


def key_paths(value: Any, path: str = "") -> set[str]:
    """Every key path of the JSON ``value`` (lists' items as ``[]``)."""
    out: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else key
            out.add(here)
            if key not in OPAQUE:
                out |= key_paths(item, here)
    elif isinstance(value, list):
        for item in value:
            out |= key_paths(item, f"{path}[]")
    return out


def full_document() -> dict[str, Any]:
    """The payload of a real game holding at least one of every record: fights and a floor
    visited, puzzles met, an item in the pack, an upgrade taken, an ally, a recording."""
    world, state, visited = played_game()
    receive(state, "sharp blade")  # an empty slot: wielded at once
    receive(state, "war axe")  # a cost: into the pack
    receive(state, "healing potion")
    if not state.perks:  # a perk taken
        gain_xp(state, state.xp_to_next - state.xp)
        choose_perk(state, 0)
    if not state.perk_offer:  # and one on offer
        gain_xp(state, state.xp_to_next - state.xp)
    if not state.keys_lying:  # the bot's play may have taken every key of the floor by now
        state.keys_lying[state.player] = state.floor.keys[0].id
        state.keys_held.discard(state.floor.keys[0].id)
    if not state.allies:
        ally = copy.deepcopy(state.monsters[0])
        ally.id = max(m.id for m in state.monsters) + 1
        state.allies.append(ally)
    if not state.floor.changes:  # a floor change, with a cell it sets
        fl = state.floor
        key = len(fl.keys) + len(fl.vaults) + 1
        x, y = fl.spawn
        change = FloorChange("shortcut", key, x, y, fl.topology.start, ((x, y, tiles.RUBBLE),))
        state.floor = replace(fl, changes=[change])
    doc = codec.to_document(world, state, visited, Recording.begin(state))
    records = ("monsters", "allies", "puzzles", "inventory", "equipment", "items_lying", "perks")
    for record in (*records, "perk_offer"):
        assert doc["state"][record], f"the game holds no {record}: the schema would miss them"
    assert doc["visited"] and doc["state"]["floor"]["traps"] is not None
    assert doc["state"]["floor"]["changes"][0]["cells"]
    return doc


def test_the_codec_writes_the_keys_of_its_format():
    schema = json.loads(SCHEMA_FILE.read_text())
    written = sorted(key_paths(full_document()))
    known = schema.get(str(h.FORMAT_VERSION))
    assert known is not None, (
        f"format {h.FORMAT_VERSION} has no schema in {SCHEMA_FILE.name}: add its keys "
        "(python -m tests.saves.test_schema)"
    )
    added, removed = sorted(set(written) - set(known)), sorted(set(known) - set(written))
    assert not added and not removed, (
        f"the codec writes other keys than format {h.FORMAT_VERSION}'s (added {added}, "
        f"removed {removed}): bump FORMAT_VERSION in saves/header.py, add the step from the "
        "previous format to saves/codec/migrations.py, and add the new format's keys to "
        f"{SCHEMA_FILE.name}"
    )


def test_every_format_read_has_a_schema_and_each_step_moves_to_the_next():
    """The committed schemas cover exactly the formats this generator reads; each migration
    step turns a document of its format's keys into one of the next format's keys."""
    schema = json.loads(SCHEMA_FILE.read_text())
    assert set(schema) == {str(v) for v in range(h.OLDEST_FORMAT, h.FORMAT_VERSION + 1)}
    current = full_document()
    for version in range(h.FORMAT_VERSION - 1, h.OLDEST_FORMAT - 1, -1):
        # the current document cut down to the older format's keys, then migrated up
        older = _restrict(copy.deepcopy(current), set(schema[str(version)]))
        assert key_paths(older) == set(schema[str(version)])
        wanted = {
            k
            for k in schema[str(h.FORMAT_VERSION)]
            if not any(k.startswith(p) for v, p in EMPTY_AFTER if v > version)
        }
        assert key_paths(codec.migrate(older, version)) == wanted


def _restrict(value: Any, keep: set[str], path: str = "") -> Any:
    if isinstance(value, dict):
        return {
            k: v if k in OPAQUE else _restrict(v, keep, f"{path}.{k}" if path else k)
            for k, v in value.items()
            if (f"{path}.{k}" if path else k) in keep
        }
    if isinstance(value, list):
        return [_restrict(v, keep, f"{path}[]") for v in value]
    return value


if __name__ == "__main__":  # prints the current format's keys, for schema.json
    print(json.dumps({str(h.FORMAT_VERSION): sorted(key_paths(full_document()))}, indent=1))
