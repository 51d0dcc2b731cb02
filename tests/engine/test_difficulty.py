"""Difficulty levels: each level's numbers move the way its name says (monsters' HP and
blows, how full a floor is, how many potions, the player's start), and none of them ever
changes a floor's map."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.engine import new_game
from roguelike.engine.balance import DEFAULT_DIFFICULTY, DIFFICULTIES, MONSTERS
from roguelike.engine.combat import monster_hits
from roguelike.engine.creatures import fill_share, inhabit, monster_attack, monster_hp
from roguelike.gen.pipeline import generate_floor
from roguelike.presets import DIFFICULTY_NAMES
from tests.engine.support import add, arena

LEVELS = list(DIFFICULTIES)


def test_the_table_has_a_row_for_each_name_easiest_first():
    assert tuple(DIFFICULTIES) == DIFFICULTY_NAMES
    assert DEFAULT_DIFFICULTY in DIFFICULTIES
    assert len(LEVELS) >= 4
    assert all(d.name == name for name, d in DIFFICULTIES.items())


@pytest.mark.parametrize(("easier", "harder"), list(zip(LEVELS, LEVELS[1:], strict=False)))
def test_each_level_is_harder_than_the_one_before_in_every_number(easier, harder):
    e, h = DIFFICULTIES[easier], DIFFICULTIES[harder]
    assert e.monster_hp <= h.monster_hp and e.monster_damage <= h.monster_damage
    assert e.fill <= h.fill and e.potions >= h.potions and e.player_hp >= h.player_hp
    assert (e.monster_hp, e.monster_damage, e.fill, e.potions, e.player_hp) != (
        h.monster_hp,
        h.monster_damage,
        h.fill,
        h.potions,
        h.player_hp,
    )


@pytest.mark.parametrize("kind", list(MONSTERS))
def test_monsters_are_tougher_and_hit_harder_at_each_harder_level(kind):
    info = MONSTERS[kind]
    hps = [monster_hp(info, d) for d in LEVELS]
    hits = [monster_attack(info, d) for d in LEVELS]
    assert hps == sorted(hps) and hps[0] < hps[-1]
    assert all(lo <= hi for lo, hi in hits)
    assert [sum(h) for h in hits] == sorted(sum(h) for h in hits)
    assert sum(hits[0]) < sum(hits[-1])


def test_fill_share_grows_with_the_level_and_never_passes_every_slot():
    for floor in range(1, 9):
        shares = [fill_share(floor, d) for d in LEVELS]
        assert shares == sorted(shares) and all(0 < s <= 1 for s in shares)
    assert fill_share(1, LEVELS[0]) < fill_share(1, LEVELS[-1])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**20), floor=st.integers(1, 2))
def test_the_map_is_the_same_at_every_level(seed, floor):
    games = [new_game(seed, total_floors=2, floor=floor, difficulty=d) for d in LEVELS]
    first = games[0]
    for g in games[1:]:
        assert np.array_equal(g.tiles, first.tiles)
        assert g.player == first.player and g.keys_lying == first.keys_lying
        assert set(g.puzzles) == set(first.puzzles)


def test_harder_levels_place_more_monsters_with_more_hp_and_fewer_potions():
    floors = [generate_floor(s, 2, last=False) for s in (3, 4, 5)]

    def totals(level: str) -> tuple[int, int, int]:
        count = hp = potions = 0
        for fl in floors:
            monsters, items = inhabit(fl, level)
            count += len(monsters)
            hp += sum(m.max_hp for m in monsters)
            potions += sum(i == "healing potion" for i in items.values())
            assert all(m.hp == m.max_hp for m in monsters)
        return count, hp, potions

    easy, brutal = totals(LEVELS[0]), totals(LEVELS[-1])
    assert easy[0] < brutal[0] and easy[1] < brutal[1] and easy[2] > brutal[2]


def test_inhabitants_are_a_pure_function_of_the_floor_and_the_level():
    fl = generate_floor(7, 1, last=False)
    for level in LEVELS:
        a, b = inhabit(fl, level), inhabit(fl, level)
        assert [(m.kind, m.pos, m.max_hp) for m in a[0]] == [
            (m.kind, m.pos, m.max_hp) for m in b[0]
        ]
        assert a[1] == b[1]


def test_the_player_starts_with_the_level_s_hp():
    for level in LEVELS:
        state = new_game(11, total_floors=1, difficulty=level)
        assert state.hp == state.max_hp == DIFFICULTIES[level].player_hp
        assert state.difficulty == level


def test_an_unknown_level_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown difficulty 'nightmare'"):
        new_game(1, total_floors=1, difficulty="nightmare")


def test_a_monster_s_blow_is_scaled_by_the_level():
    """The same goblin blow on the same stream: each harder level's damage is no lower, and
    the hardest's is higher over a few blows."""
    dealt = {}
    for level in (LEVELS[0], LEVELS[-1]):
        state, c = arena(2)
        state.difficulty = level
        state.hp = state.max_hp = 10_000
        goblin = add(state, "goblin", (c[0] + 1, c[1]))
        for _ in range(40):
            monster_hits(state, goblin, ranged=False)
        dealt[level] = 10_000 - state.hp
    assert dealt[LEVELS[0]] < dealt[LEVELS[-1]]


def test_a_hurt_monster_flees_by_its_own_maximum():
    state, c = arena(2)
    rat = add(state, "rat", (c[0] + 2, c[1]))
    rat.max_hp = 10
    rat.hp = 6  # over half its own maximum, though over the kind's whole HP too
    assert not rat.fleeing
    rat.hp = 4
    assert rat.fleeing
