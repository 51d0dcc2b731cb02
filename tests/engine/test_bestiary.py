"""The bestiary as data: enough kinds, each behaviour present, strength climbing with depth,
every kind's ways named by look (``describe.monster_numbers``), sentinels placed only as the
guards of key rooms, the first floor's kinds capped at level 3 (no sentinel there), and
placement drawing only from the floor's ``inhabit`` stream."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from roguelike import depth, seeds
from roguelike.engine import creatures
from roguelike.engine.balance import MONSTERS, MonsterKind
from roguelike.engine.creatures import choose_kind, inhabit, slot_level
from roguelike.engine.describe import monster_numbers, monster_text
from roguelike.gen.floor import Floor
from tests.engine.support import add, arena, off
from tests.floors import floor

#: (field of MonsterKind, words look uses for it)
BEHAVIOURS = (
    ("skirmish", "darts back out of reach"),
    ("kite", "backs away to keep its distance"),
    ("flank", "circles round you"),
    ("sentinel", "never leaves its post"),
    ("steals", "steals from your pack"),
    ("corrodes", "corrodes your armour"),
    ("shriek", "shrieks to wake everything"),
    ("summons", "raises"),
    ("swarm", "for each ally next to you"),
    ("still", "never moves"),
)


def strength(k: MonsterKind) -> float:
    """A rough measure of a kind's threat: its HP times its mean damage a turn."""
    return k.max_hp * (k.attack[0] + k.attack[1]) / 2 * k.accuracy / 100 * k.speed / 100


def test_the_bestiary_has_twenty_kinds_with_distinct_glyphs_and_descriptions():
    assert len(MONSTERS) >= 20
    assert len({k.glyph for k in MONSTERS.values()}) == len(MONSTERS)
    for k in MONSTERS.values():
        assert k.description.strip() and k.name == k.name.strip()
        assert k.attack[0] <= k.attack[1] and k.max_hp > 0 and k.speed > 0
        if k.summons:
            assert MONSTERS[k.summons].summoned
        if k.kite:
            assert k.ranged


@pytest.mark.parametrize(("trait", "words"), BEHAVIOURS)
def test_every_behaviour_has_a_kind_and_look_names_it(trait, words):
    kinds = [k for k in MONSTERS.values() if getattr(k, trait)]
    assert kinds, trait
    state, c = arena(3)
    for k in kinds:
        m = add(state, k.name, off(c, 2, 0))
        n = monster_numbers(state, m)
        assert any(words in t for t in n.traits), (k.name, n.traits)
        assert words in monster_text(n)
        state.monsters.remove(m)
    others = [k for k in MONSTERS.values() if not getattr(k, trait)]
    m = add(state, others[0].name, off(c, 2, 0))
    assert not any(words in t for t in monster_numbers(state, m).traits)


def test_look_says_what_a_thief_carries_and_that_a_monster_turned_at_bay():
    state, c = arena(3)
    thief = add(state, "cutpurse", off(c, 2, 0))
    thief.loot = "blink scroll"
    state.identified.add("blink scroll")  # known: named so (unknown, by its look)
    assert "carries your blink scroll" in monster_numbers(state, thief).traits
    rat = add(state, "rat", off(c, -2, 0))
    rat.extra["cornered"] = 1
    traits = monster_numbers(state, rat).traits
    assert "has turned at bay" in traits and not any("flees below" in t for t in traits)


def test_the_strongest_kind_a_slot_can_hold_climbs_with_its_level():
    levels = range(0, 15)
    best = [
        max(
            strength(k)
            for k in MONSTERS.values()
            if k.level <= lv and not k.sentinel and not k.summoned
        )
        for lv in levels
    ]
    assert best == sorted(best)
    assert best[-1] > 10 * best[0]
    # and the mean draw of a slot grows with its level too
    rng = np.random.default_rng(0)
    mean = [np.mean([strength(choose_kind(lv, rng)) for _ in range(300)]) for lv in (0, 4, 8, 12)]
    assert mean == sorted(mean)


def test_choose_kind_keeps_sentinels_and_summoned_kinds_apart():
    rng = np.random.default_rng(1)
    for lv in range(0, 15):
        for _ in range(40):
            k = choose_kind(lv, rng)
            assert not k.sentinel and not k.summoned and k.level <= lv
    for _ in range(40):
        assert choose_kind(12, rng, sentinel=True).sentinel


@cache
def deep_floor(seed: int) -> Floor:
    return floor(seed, 3, last=True)


def test_sentinels_only_ever_guard_key_rooms_and_do_appear():
    found = 0
    for seed in range(6):
        fl = deep_floor(seed)
        key_rooms = {k.room for k in fl.keys}
        monsters, _ = inhabit(fl)
        for m in monsters:
            assert not m.info.summoned
            if m.info.sentinel:
                found += 1
                assert m.guard and int(fl.room_map[m.y, m.x]) in key_rooms
    assert found


def test_inhabit_draws_only_from_the_inhabit_stream(monkeypatch):
    asked: list[tuple[int, int, str]] = []
    real = seeds.stream

    def recording(seed: int, floor: int, stage: str) -> np.random.Generator:
        asked.append((seed, floor, stage))
        return real(seed, floor, stage)

    fl = deep_floor(0)
    monkeypatch.setattr(creatures.seeds, "stream", recording)
    first = inhabit(fl)
    assert asked and {a[2] for a in asked} == {creatures.INHABIT_STREAM}
    assert {a[:2] for a in asked} == {(fl.seed, fl.number)}
    assert inhabit(fl) == first  # the same floor, the same monsters


@given(st.integers(0, 40), st.integers(1, 12))
def test_the_first_floors_monsters_stop_at_level_three_and_deeper_floors_are_not_capped(
    room_depth, number
):
    level = slot_level(room_depth, number)
    uncapped = (room_depth + 1) // 2 + depth.MONSTER_LEVEL.at(number)
    assert level == (min(uncapped, 3) if number == 1 else uncapped)
    assert depth.SENTINEL_SHARE.at(1) == 0 < depth.SENTINEL_SHARE.at(2)


def test_no_first_floor_holds_a_sentinel_or_a_kind_above_level_three():
    """A sweep of real first floors (the deep rooms of floor 1 once drew gnoll sentinels,
    goblin archers and bugbears, met by a player of level 1-3): none above level 3 now,
    while the third floor still draws sentinels (``test_sentinels_only_ever_guard_...``)."""
    deepest = 0
    for seed in range(12):
        fl = floor(seed, 1)
        deepest = max(deepest, max(r.depth for r in fl.topology.rooms))
        monsters, _ = inhabit(fl)
        for m in monsters:
            assert m.info.level <= 3 and not m.info.sentinel, (seed, m.kind)
    assert deepest >= 6, "some first floor has rooms deep enough to have drawn level 4"
