"""Fire for the autoplayer, and its ``ignore_fire`` ablation (a player who pays fire no mind):
the ablation's walks go through burning cells as over floor where the full player's step
round them (the engine's walks step round the fire in view for everyone, so the ablation needs
its own), it does not step out of fire, and it fights on moss where the full player steps off
the moss before a fire-starter comes to blows."""

from __future__ import annotations

from roguelike import tiles
from roguelike.autoplay import Decision, Memory, Policy, core, decide
from roguelike.autoplay.moves import _towards
from roguelike.engine import Move, Travel, Use
from roguelike.engine.pathing import FAR
from roguelike.engine.travel import travel_distances
from tests.engine.support import add, arena, off

IGNORE = Policy(ignore_fire=True)


def _walled(r: int = 3):
    """The arena cut by a wall one step east of the player, with two gaps: one in line with the
    player (``gap``, set alight on moss) and one at the wall's south end (the way round)."""
    state, c = arena(r)
    state.gas.clear()
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            x, y = off(c, dx, dy)
            state.tiles[y, x] = tiles.FLOOR
    for dy in range(-r, r + 1):
        x, y = off(c, 1, dy)
        state.tiles[y, x] = tiles.WALL
    gap = off(c, 1, 0)
    state.tiles[gap[1], gap[0]] = tiles.MOSS
    state.tiles[c[1] + r, c[0] + 1] = tiles.FLOOR
    state.fire[gap] = 4
    state.update_view()
    return state, c, gap


def test_the_engines_walks_step_round_fire_but_not_for_one_who_pays_it_no_mind():
    state, c, gap = _walled()
    goal = off(c, 3, 0)
    heed = travel_distances(state, *goal)
    blind = travel_distances(state, *goal, heed_fire=False)
    assert blind[c[1], c[0]] == 3, "straight through the burning gap"
    assert FAR > heed[c[1], c[0]] > 3, "round by the other gap"
    assert _towards(state, *goal, heed_fire=False) == Move(1, 0)
    assert _towards(state, *goal) != Move(1, 0)


def test_the_ablation_travels_through_fire_where_the_full_player_goes_round(monkeypatch):
    state, c, gap = _walled()
    goal = off(c, 3, 0)
    # whatever leads it there: a travel to the far side of the wall
    monkeypatch.setattr(core, "_decide", lambda state, memory: Decision(Travel(*goal), "going"))
    blind = decide(state, memory=Memory(policy=IGNORE))
    assert blind.action == Move(1, 0), "a step of its own, into the burning gap"
    full = decide(state, memory=Memory())
    assert full.action != Move(1, 0)
    if isinstance(full.action, Move):  # a step of the way round, off the moss that may catch
        x, y = off(c, full.action.dx, full.action.dy)
        assert (x, y) not in state.fire


def test_the_full_player_steps_out_of_fire_and_the_ablation_does_not():
    state, c = arena(3)
    state.gas.clear()
    state.tiles[c[1], c[0]] = tiles.MOSS
    state.fire[c] = 4
    state.update_view()
    full = decide(state, memory=Memory())
    assert "fire" in full.why and isinstance(full.action, Move)
    dx, dy = full.action.dx, full.action.dy
    assert off(c, dx, dy) not in state.fire
    blind = decide(state, memory=Memory(policy=IGNORE))
    assert "fire" not in blind.why


def test_the_full_player_steps_off_moss_before_a_fire_ant_comes_to_blows():
    state, c = arena(3)
    state.gas.clear()
    for dy in range(-3, 4):
        for dx in range(-3, 4):
            x, y = off(c, dx, dy)
            state.tiles[y, x] = tiles.MOSS if dx >= 0 else tiles.FLOOR
    add(state, "fire ant", off(c, -3, 0))
    state.update_view()
    full = decide(state, memory=Memory())
    assert full.why == "stepping off the moss"
    assert isinstance(full.action, Move)
    x, y = off(c, full.action.dx, full.action.dy)
    assert state.tiles[y, x] not in tiles.FUEL
    blind = decide(state, memory=Memory(policy=IGNORE))
    assert blind.why != "stepping off the moss"
    # against a monster that lights no fire, the moss does not matter
    state.monsters.clear()
    add(state, "goblin", off(c, -3, 0))
    assert decide(state, memory=Memory()).why != "stepping off the moss"


def test_the_full_player_opens_a_known_incineration_potion_among_its_foes():
    state, c = arena(3)
    state.gas.clear()
    state.inventory = {"incineration potion": 1}
    state.identified.add("incineration potion")
    add(state, "goblin", off(c, 1, 0))
    add(state, "goblin", off(c, -1, 0))
    state.update_view()
    full = decide(state, memory=Memory())
    assert full.action == Use("incineration potion")
    blind = decide(state, memory=Memory(policy=IGNORE))
    assert blind.action != Use("incineration potion"), "it starts no fire on purpose"
    # one small foe is not worth the flames
    state.monsters.pop()
    assert decide(state, memory=Memory()).action != Use("incineration potion")
