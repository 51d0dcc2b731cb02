"""The early sources of fire: the fire trap (engine/traps.py: a jet of flame, then the ground
round it alight, the moss burning on; likelier where moss grows; look and the legend name it)
and a fire ant's bite (engine/combat.py: it lights the moss under the player it bites)."""

from __future__ import annotations

import dataclasses

import numpy as np

from roguelike import tiles
from roguelike.engine import GameState, Move, Wait, describe, step
from roguelike.engine.balance import FIRE_DAMAGE, FIRE_FUEL_TURNS, FIRE_TRAP_DAMAGE
from roguelike.engine.combat import monster_hits
from roguelike.engine.events import Attacked
from roguelike.engine.legend import TRAP_GLYPH, TRAP_TEXT, by_glyph
from roguelike.gen.floor import TRAP_KINDS, TrapSpot
from roguelike.gen.populate import _kind
from roguelike.recording import digest
from saves import codec
from tests.engine.support import add, arena, off
from tests.saves.support import world_of


def _fire_trap(*, moss: bool) -> tuple[GameState, tuple[int, int]]:
    """The arena with one fire trap a step east of the player, moss round the trap or not."""
    state, c = arena(3)
    state.gas.clear()
    t = off(c, 1, 0)
    for dy in (-2, -1, 0, 1, 2):
        for dx in (-2, -1, 0, 1, 2):
            x, y = off(t, dx, dy)
            near = max(abs(dx), abs(dy)) <= 1
            state.tiles[y, x] = tiles.MOSS if moss and near else tiles.FLOOR
    state.floor = dataclasses.replace(state.floor, traps=[TrapSpot(*t, "fire")])
    state.traps = {t: "fire"}
    state.traps_known = set()
    return state, c


def test_a_fire_trap_burns_the_player_and_sets_the_moss_round_it_alight():
    state, c = _fire_trap(moss=True)
    events = step(state, Move(1, 0))
    t = off(c, 1, 0)
    assert state.player == t and t in state.traps_known
    lost = state.max_hp - state.hp
    assert lost >= FIRE_TRAP_DAMAGE[0], "the jet of flame hurts"
    assert "fire trap" in " ".join(str(getattr(e, "text", "")) for e in events).lower()
    round_trap = {off(t, dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
    assert round_trap <= set(state.fire), "every moss cell round the trap burns"
    assert max(state.fire.values()) >= FIRE_FUEL_TURNS - 1, "moss burns on, turns after"


def test_a_fire_trap_on_bare_floor_only_flickers():
    state, c = _fire_trap(moss=False)
    step(state, Move(1, 0))
    assert state.hp < state.max_hp
    assert not state.fire, "with nothing to feed it the flame is gone by the turn's end"


def test_a_known_fire_trap_is_named_by_look_and_the_legend():
    state, c = _fire_trap(moss=False)
    state.traps_known = {off(c, 1, 0)}
    text = describe(state, *off(c, 1, 0))
    assert TRAP_TEXT["fire"] in text and "fire trap" in text.lower()
    assert "fire" in TRAP_KINDS
    assert by_glyph(TRAP_GLYPH) is not None


def test_fire_traps_are_likelier_where_moss_grows():
    rng = np.random.default_rng(7)
    bare = sum(_kind(rng) == "fire" for _ in range(600))
    rng = np.random.default_rng(7)
    mossy = sum(_kind(rng, mossy=True) == "fire" for _ in range(600))
    assert 0 < bare < mossy


def _bite(state: GameState, m) -> list:
    """Blows of ``m`` until one lands (the player has HP to spare)."""
    for _ in range(50):
        events = monster_hits(state, m, ranged=False)
        if any(isinstance(e, Attacked) and e.damage for e in events):
            return events
    raise AssertionError("no blow landed")


def test_a_fire_ants_bite_lights_the_moss_under_the_player_and_not_bare_ground():
    state, c = arena(3)
    state.gas.clear()
    state.hp = state.max_hp = 10_000
    ant = add(state, "fire ant", off(c, 1, 0))
    state.tiles[c[1], c[0]] = tiles.FLOOR
    _bite(state, ant)
    assert not state.fire, "bare ground does not catch"
    state.tiles[c[1], c[0]] = tiles.MOSS
    events = _bite(state, ant)
    assert state.fire.get(c) == FIRE_FUEL_TURNS
    assert "alight" in " ".join(str(getattr(e, "text", "")) for e in events)
    # a goblin's blow lights nothing
    state.fire.clear()
    goblin = add(state, "goblin", off(c, -1, 0))
    _bite(state, goblin)
    assert not state.fire


def test_fire_eats_a_share_of_a_grown_players_health():
    state, c = arena(3)
    state.gas.clear()
    state.max_hp = state.hp = 200
    state.tiles[c[1], c[0]] = tiles.MOSS
    state.fire[c] = FIRE_FUEL_TURNS
    step(state, Wait())
    lost = 200 - state.hp
    assert lost >= FIRE_DAMAGE[0] + 20, "a turn in the flames takes a tenth of 200 HP and more"


def test_a_fire_trap_and_its_blaze_round_trip_through_a_save():
    state, c = _fire_trap(moss=True)
    step(state, Move(1, 0))
    state.regen_clock = 0  # the arena's frozen clock is no save's
    loaded = codec.decode(codec.encode(world_of(state), state, [])).state
    assert loaded.traps == state.traps == {off(c, 1, 0): "fire"}
    assert loaded.traps_known == state.traps_known and loaded.fire == state.fire
    assert digest(loaded) == digest(state)
