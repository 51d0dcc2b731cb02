"""A monster's numbers in look mode, the odds of a fight, and the upgrades the character
sheet reads off the player's numbers."""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.engine import describe, stealth
from roguelike.engine.balance import DEFENCE_DODGE
from roguelike.engine.combat import PLAYER_ACCURACY, gain_xp, monster_hits, player_attacks
from roguelike.engine.creatures import MONSTERS, monster_attack
from roguelike.engine.describe import (
    ENDLESS,
    PLAYER_HIT_CHANCE,
    level_attack,
    monster_numbers,
    monster_text,
)
from roguelike.engine.items import receive
from roguelike.engine.state import PLAYER_ATTACK
from tests.engine.support import add, arena, off

KINDS = sorted(MONSTERS)
#: The kinds blows can hurt (a ghost's numbers are tested with the new monsters).
STRUCK = [k for k in KINDS if not MONSTERS[k].ethereal]


def test_the_hit_chance_is_the_combat_rule():
    assert PLAYER_HIT_CHANCE == PLAYER_ACCURACY


def test_an_orc_reads_as_the_bestiary_says():
    state, c = arena()
    m = add(state, "orc", off(c, 2, 0), hp=9, awake=False)
    n = monster_numbers(state, m)
    orc = MONSTERS["orc"]
    lo, hi = monster_attack(orc, state.difficulty)  # the bestiary's roll, as the level scales it
    assert (n.hp, n.max_hp, n.attack, n.defence, n.speed) == (
        9,
        orc.max_hp,
        (lo, hi),
        orc.defence,
        orc.speed,
    )
    assert n.to_hit_you == orc.accuracy and n.mood == "asleep"
    assert f"flees below {round(orc.flee_below * 100)}% HP" in n.traits
    text = describe(state, *m.pos)
    assert f"9/{orc.max_hp} HP, asleep" in text and f"Hits {lo}-{hi}" in text
    assert f"defence {orc.defence}" in text
    assert f"{orc.accuracy}% to hit you" in text and "as fast as you" in text
    assert orc.speed == 100
    state.defence = 2
    assert monster_numbers(state, m).to_hit_you == orc.accuracy - 2 * DEFENCE_DODGE


def test_the_mood_follows_the_monster():
    state, c = arena()
    m = add(state, "goblin", off(c, 2, 0))
    assert monster_numbers(state, m).mood == "awake, hunting you"
    m.hp = 1  # below a quarter of 7: it runs
    assert monster_numbers(state, m).mood == "fleeing"
    g = add(state, "skeleton", off(c, -2, 0), guard=True)
    n = monster_numbers(state, g)
    assert n.mood == "guarding" and "guards a key" in n.traits and "never flees" in n.traits


@given(st.sampled_from(STRUCK), st.integers(1, 60), st.integers(0, 6), st.integers(1, 8))
def test_the_odds_move_the_right_way(kind, hp, defence, bonus):
    """More HP of yours, more defence, a stronger blade: never a shorter road to your death,
    never a longer one to its."""
    state, c = arena()
    m = add(state, kind, off(c, 2, 0))
    state.hp, state.defence = hp, defence
    base = monster_numbers(state, m)
    assert base.blows_to_kill >= 1 and base.turns_to_kill_you >= 1
    state.hp += 10
    assert monster_numbers(state, m).turns_to_kill_you >= base.turns_to_kill_you
    state.hp -= 10
    state.defence += 1
    assert monster_numbers(state, m).turns_to_kill_you >= base.turns_to_kill_you
    state.defence -= 1
    state.attack = (state.attack[0] + bonus, state.attack[1] + bonus)
    stronger = monster_numbers(state, m)
    assert stronger.blows_to_kill <= base.blows_to_kill
    m.hp = 1
    assert monster_numbers(state, m).blows_to_kill <= stronger.blows_to_kill
    text = monster_text(base)
    assert f"{base.hp}/{base.max_hp} HP" in text and base.danger in text
    one = monster_numbers(state, m)  # 1 HP left: one blow, said in the singular
    assert one.blows_to_kill == 1 and "To kill it: ~1 blow;" in monster_text(one)


def test_an_unhurtable_troll_is_deadly():
    """A troll heals faster than a weak player hurts it: the text says so instead of a
    number of blows."""
    state, c = arena()
    m = add(state, "troll", off(c, 2, 0))
    state.attack = (1, 1)
    n = monster_numbers(state, m)
    assert n.blows_to_kill == ENDLESS and n.danger.startswith("deadly")
    assert "you cannot hurt it" in monster_text(n)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([k for k in STRUCK if not MONSTERS[k].regen]))
def test_the_estimates_match_fights_played_by_the_combat_rules(kind):
    """Played with the engine's own blows, the mean swings to kill a monster and the mean
    turns it takes to kill you are close to what look mode says. (Only kinds blows can hurt:
    a ghost would be struck forever.) Every blow makes a noise from the same cell of the same
    arena: its map of sound is made once, not once a blow."""
    state, c = arena()
    base = add(state, kind, off(c, 1, 0))
    with pytest.MonkeyPatch.context() as mp:
        # one arena, its walls never change: the map depends on the cell and the loudness
        real = stealth.sound_distances
        made = cache(lambda x, y, n: real(state, x, y, n))
        mp.setattr(stealth, "sound_distances", lambda _s, x, y, n: made(x, y, n))
        _fights_agree_with_the_estimates(state, base, kind)


def _fights_agree_with_the_estimates(state, base, kind) -> None:
    n = monster_numbers(state, base)
    swings: list[int] = []
    for i in range(200):
        s = copy.copy(state)
        s.rng = np.random.default_rng(i)
        s.stats = copy.copy(state.stats)
        m = copy.copy(base)
        s.monsters = [m]
        count = 0
        while m.hp > 0:
            player_attacks(s, m)
            count += 1
        swings.append(count)
    assert abs(np.mean(swings) - n.blows_to_kill) <= 1.0
    attacks: list[int] = []
    for i in range(200):
        s = copy.copy(state)
        s.rng = np.random.default_rng(1000 + i)
        s.stats = copy.copy(state.stats)
        count = 0
        while not s.dead:
            monster_hits(s, base, ranged=False)
            count += 1
        attacks.append(count)
    turns = np.mean(attacks) * 100 / MONSTERS[kind].speed
    assert abs(turns - n.turns_to_kill_you) <= max(2.0, 0.2 * turns)


@given(
    st.integers(0, 6),
    st.lists(st.sampled_from(["sharp blade", "iron plate", "heart elixir", "hint coin"])),
)
def test_the_numbers_come_from_levels_and_what_is_worn(levels, treasure):
    """Whatever mix of levels and treasure, in any order, the damage roll is the level's plus
    the wielded blade's, the defence the worn plate's (a second one waits in the pack)."""
    state, _ = arena()
    for i, item in enumerate(treasure):
        if i == len(treasure) // 2:
            gain_xp(state, sum(10 * lv for lv in range(1, levels + 1)))
        receive(state, item)
    if len(treasure) < 1:
        gain_xp(state, sum(10 * lv for lv in range(1, levels + 1)))
    assert state.level == levels + 1
    lo, hi = level_attack(state.level)
    blade = int("sharp blade" in treasure)
    assert state.attack == (lo + blade, hi + blade)
    assert state.defence == int("iron plate" in treasure)
    assert state.inventory.get("sharp blade", 0) == max(0, treasure.count("sharp blade") - 1)


@given(st.integers(1, 40))
def test_the_level_attack_is_what_levelling_gives(level):
    state, _ = arena()
    gain_xp(state, sum(10 * lv for lv in range(1, level)))
    assert state.level == level
    assert level_attack(level) == state.attack
    assert level_attack(1) == PLAYER_ATTACK
