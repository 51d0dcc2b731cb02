"""Floors that differ: room counts spread over their range, templates and themes by depth,
special rooms placed by role (and proven), hidden traps that never stand on the only way."""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.cli.bench.variety import key_detour, range_lines
from roguelike.gen.floor import TRAP_KINDS, Floor
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.populate import open_floor
from roguelike.gen.prove import prove
from roguelike.gen.roles import SPECIAL_ROLES, TREASURE_ROLES
from roguelike.gen.special import AMBUSH_EXTRA
from roguelike.gen.templates import TemplateError, load_templates
from roguelike.gen.topology import DungeonParams, generate_topology, params_for_floor

NEW_TEMPLATES = (
    "dry-barracks",
    "dry-storeroom",
    "dry-colonnade",
    "sunken-ruin",
    "flooded-gallery",
    "cave-hollow",
    "crypt-ossuary",
    "crypt-tombs",
    "chasm-ledge",
    "ambush-hall",
    "treasure-snare",
)


def test_room_counts_cover_the_whole_allowed_range_evenly():
    params = DungeonParams()  # 15 to 20 rooms
    counts = Counter(len(generate_topology(seed, 1, params).rooms) for seed in range(90))
    lo, hi = params.rooms
    assert set(counts) == set(range(lo, hi + 1)), counts
    # six values over 90 floors: flat would be 15 each; the old solver put most at the top
    assert max(counts.values()) <= 30, counts


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**40), floor=st.integers(1, 8))
def test_a_room_count_always_lies_in_its_floors_range(seed, floor):
    params = params_for_floor(floor)
    n = len(generate_topology(seed, floor, params).rooms)
    assert params.rooms[0] <= n <= params.rooms[1]


def test_every_new_template_loads_with_its_floors():
    loaded = {t.name: t for t in load_templates()}
    for name in NEW_TEMPLATES:
        assert name in loaded, name
    assert loaded["dry-barracks"].floors == (1, 4)
    assert loaded["crypt-tombs"].floors == (5, 99)
    assert loaded["pillared-hall"].floors == (1, 99)  # the default


@pytest.mark.parametrize("value", ["0-3", "5-2", "x", "3"])
def test_a_bad_floors_header_is_refused_naming_the_line(tmp_path, value):
    (tmp_path / "bad.room").write_text(
        f"name: bad\ntags: any\nfloors: {value}\n---\n##D##\n#...#\n#####\n"
    )
    with pytest.raises(TemplateError, match=r"bad\.room:3: bad floors"):
        load_templates(tmp_path)


def _templates_of(seed: int, floor: int) -> set[str]:
    laid = generate_floor(seed, floor, stop_after="layout")
    return {p.template.name.split("/")[0] for p in laid.layout.placements}


def test_the_top_and_the_depths_draw_from_different_rooms():
    by_name = {t.name: t for t in load_templates()}
    top = set().union(*(_templates_of(seed, 1) for seed in range(6)))
    deep = set().union(*(_templates_of(seed, 5) for seed in range(6)))
    assert all(by_name[n].floors[0] <= 1 for n in top), top
    assert all(by_name[n].floors[1] >= 5 for n in deep), deep
    assert any(n.startswith("dry-") for n in top)
    assert any(n.startswith(("crypt", "chasm")) for n in deep)
    assert generate_floor(0, 1, stop_after="terrain").theme != (
        generate_floor(0, 5, stop_after="terrain").theme
    )


@cache
def _with_role(role: str) -> Floor:
    """The first floor 3 (by seed) with a room of ``role``, generated whole (so proven)."""
    for seed in range(200):
        if role in generate_floor(seed, 3, stop_after="roles").roles.values():
            return generate_floor(seed, 3)
    raise AssertionError(f"no floor 3 of seeds 0..199 has a {role} room")


def _rooms(fl: Floor, role: str) -> list[int]:
    return [r for r, got in sorted(fl.roles.items()) if got == role]


@pytest.mark.parametrize("role", SPECIAL_ROLES)
def test_each_special_room_appears_on_a_proven_floor(role):
    fl = _with_role(role)
    assert prove(fl) == []
    assert _rooms(fl, role)


def test_a_flooded_room_is_a_passage_under_deep_water_that_keeps_what_matters_dry():
    fl = _with_role("flooded")
    (room,) = _rooms(fl, "flooded")
    assert len(fl.topology.neighbours()[room]) >= 2  # a passage, not a dead end
    deep = fl.tiles == tiles.DEEP_WATER
    assert deep[fl.room_map == room].any()
    assert not (deep & (fl.room_map != room)).any()
    assert not deep[fl.protected].any()  # doors, keys, stairs and the skeleton stay dry
    assert tiles.WALKABLE[tiles.DEEP_WATER]


def _snare_rings(fl: Floor) -> int:
    """How many traps ring the snares' treasures of ``fl``, checking each ring leaves a gap."""
    traps = {(t.x, t.y) for t in fl.traps}
    walk = tiles.WALKABLE[fl.tiles]
    held = {(s.x, s.y) for s in fl.slots}
    trapped = 0
    for s in fl.slots:
        if s.kind != "treasure" or fl.roles[s.room] != "snare":
            continue
        ring = [
            (s.x + dx, s.y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy)
            and walk[s.y + dy, s.x + dx]
            and not fl.protected[s.y + dy, s.x + dx]
            and (s.x + dx, s.y + dy) not in held
        ]
        untrapped = [c for c in ring if c not in traps]
        assert untrapped or not ring, (ring, traps)  # a safe way in (none: no trap at all)
        trapped += len(ring) - len(untrapped)
    return trapped


def test_a_snare_rings_its_treasure_with_traps_but_one_gap():
    """On the first floors 3 with a snare (a treasure wedged among walls has no ring to lay,
    so the search goes on until one has)."""
    snares = (
        generate_floor(seed, 3)
        for seed in range(200)
        if "snare" in generate_floor(seed, 3, stop_after="roles").roles.values()
    )
    assert any(_snare_rings(fl) for fl in snares)


def test_an_ambush_room_holds_more_monster_slots_than_its_spots():
    fl = _with_role("ambush")
    for room in _rooms(fl, "ambush"):
        slots = [s for s in fl.slots if s.kind == "monster" and s.room == room]
        assert len(slots) >= AMBUSH_EXTRA


def test_snares_and_vaults_are_treasure_rooms():
    assert {"treasure", "snare", "vault"} == TREASURE_ROLES


@pytest.mark.parametrize("seed,floor", [(0, 1), (1, 3), (2, 5), (3, 4)])
def test_scattered_traps_never_stand_on_the_only_way(seed, floor):
    fl = generate_floor(seed, floor)
    snared = {r for r, role in fl.roles.items() if role == "snare"}
    scattered = [t for t in fl.traps if int(fl.room_map[t.y, t.x]) not in snared]
    assert all(t.kind in TRAP_KINDS for t in fl.traps)
    ok = open_floor(fl)
    assert all(ok[t.y, t.x] for t in scattered)
    assert all(
        max(abs(a.x - b.x), abs(a.y - b.y)) > 2 for a in scattered for b in scattered if a != b
    )
    # a player who never steps on any trap still reaches every key, room and the stairs
    walled = fl.tiles.copy()
    for t in fl.traps:
        walled[t.y, t.x] = tiles.WALL
    problems = prove(dataclasses.replace(fl, tiles=walled))
    assert [p for p in problems if "slot" not in p] == []


def test_traps_grow_with_depth():
    shallow = sum(len(generate_floor(seed, 1).traps) for seed in range(6))
    deep = sum(len(generate_floor(seed, 5).traps) for seed in range(6))
    assert deep > shallow


def test_the_key_detour_counts_the_walk_the_locks_force():
    topo = generate_topology(7, 1)
    detour = key_detour(topo)
    assert detour >= 1.0 and np.isfinite(detour)


def test_the_range_bench_reports_every_measure():
    lines = list(range_lines(5))
    text = "\n".join(lines)
    for word in ("rooms:", "leaves:", "key detour", "special rooms", "hidden traps", "themes"):
        assert word in text, text
