"""The five monsters whose answer is not a corridor, each on a hand-built seeded situation:
a fire drake's breath burns everything on its straight line (and nothing off it), a pink
jelly splits when a blow leaves it alive (fire never splits it), blows pass through a ghost
while fire burns it, a bugbear smashes a closed plain door (never a locked one) that a beast
cannot open, and a lurker is unseen beyond two cells until it strikes or is searched out."""

from __future__ import annotations

from roguelike import tiles
from roguelike.autoplay import (
    PATIENCE,
    Memory,
    Policy,
    _fire_at_ghost,
    _off_breath,
    breath_mask,
    decide,
)
from roguelike.engine import Move, Search, Throw, Use, step
from roguelike.engine.balance import BASH_NOISE, LURK_SHOWN, MONSTERS
from roguelike.engine.combat import breath_line, burn, monster_hits, player_attacks
from roguelike.engine.creatures import slot_level
from roguelike.engine.describe import describe, monster_numbers
from roguelike.engine.legend import LEGEND
from roguelike.engine.monsters import monster_options, monster_turn, player_distances
from roguelike.engine.state import GameState
from screens.map_view import marks_of
from screens.side_panel import monsters_in_view
from tests.engine.support import add, arena, cheb, off

NEW = ("fire drake", "pink jelly", "ghost", "bugbear", "lurker")


def act(state: GameState, m) -> list:
    return monster_turn(state, m, player_distances(state))


def sure_blows(state: GameState, damage: int) -> None:
    """The player always hits, for exactly ``damage`` (before defence)."""
    state.accuracy = 100
    state.attack = (damage, damage)


def test_each_new_kind_lives_on_the_floors_of_a_normal_run() -> None:
    for name in NEW:
        kind = MONSTERS[name]
        assert 2 <= kind.level <= slot_level(0, 5), name
        assert not kind.summoned and not kind.sentinel
        assert any(e.name == name and e.glyph == kind.glyph for e in LEGEND), name


# --- the fire drake: a line, not a corridor ------------------------------------------------


def test_breath_burns_everything_on_its_line_and_the_player() -> None:
    state, c = arena(4)
    drake = add(state, "fire drake", off(c, 4, 0))
    goblin = add(state, "goblin", off(c, 2, 0), hp=50)  # between them, on the line
    behind = add(state, "goblin", off(c, -1, 0), hp=50)  # beyond the player, still on it
    aside = add(state, "goblin", off(c, 2, 1), hp=50)  # off the line
    assert breath_line(state, drake)
    opts = monster_options(state, drake, player_distances(state))
    assert max(opts)[1] == "breathe"
    hp = state.hp
    act(state, drake)
    assert state.hp < hp
    assert goblin.hp < 50 and behind.hp < 50
    assert aside.hp == 50
    assert drake.extra["reload"] > 0
    # reloading, it breathes no more for a while
    opts = monster_options(state, drake, player_distances(state))
    assert all(o[1] != "breathe" for o in opts)


def test_no_breath_off_its_lines_and_it_seeks_one() -> None:
    state, c = arena(4)
    drake = add(state, "fire drake", off(c, 3, 1))  # a knight's move and a bit: off every line
    assert breath_line(state, drake) == []
    hp = state.hp
    act(state, drake)
    assert state.hp == hp
    dx, dy = drake.x - c[0], drake.y - c[1]
    assert dx == 0 or dy == 0 or abs(dx) == abs(dy), "it stepped onto one of the player's lines"


def test_a_wall_stops_the_breath() -> None:
    state, c = arena(4)
    drake = add(state, "fire drake", off(c, 3, 0))
    wx, wy = off(c, 2, 0)
    state.tiles[wy, wx] = tiles.WALL
    assert breath_line(state, drake) == []


def test_bot_steps_off_a_breath_line_towards_the_drake() -> None:
    state, c = arena(4)
    add(state, "fire drake", off(c, 4, 0))
    d = _off_breath(state, Memory())
    assert d is not None and isinstance(d.action, Move)
    to = off(c, d.action.dx, d.action.dy)
    dx, dy = to[0] - (c[0] + 4), to[1] - c[1]
    assert not (dx == 0 or dy == 0 or abs(dx) == abs(dy))
    assert cheb(to, off(c, 4, 0)) <= 4
    assert _off_breath(state, Memory(policy=Policy(naive_monsters=True))) is None


def test_breath_sets_the_moss_on_its_line_alight_and_nothing_else() -> None:
    state, c = arena(4)
    drake = add(state, "fire drake", off(c, 4, 0))
    on_line, aside, bare = off(c, 2, 0), off(c, 2, 2), off(c, 1, 0)
    for x, y in (on_line, aside):
        state.tiles[y, x] = tiles.MOSS
    act(state, drake)
    assert on_line in state.fire  # the moss on its line catches and burns on
    assert aside not in state.fire  # off the line: the breath never reached it
    assert bare not in state.fire  # bare ground keeps no fire of a breath


def test_breath_through_marsh_gas_sets_it_off() -> None:
    state, c = arena(4)
    drake = add(state, "fire drake", off(c, 4, 0))
    state.gas = {off(c, 2, 0)}
    act(state, drake)
    assert off(c, 2, 0) not in state.gas  # the cloud exploded


def test_a_breather_that_keeps_a_line_is_dodged_only_so_long() -> None:
    """A drake that found a new line each time the bot stepped off one held it in a dance
    for ever (bench worlds 79 and 90, stuck on floor 3): it is dodged PATIENCE times, then
    gone for straight (never given up: ignored, it breathed on a resting player for ever)."""
    state, c = arena(4)
    add(state, "fire drake", off(c, 4, 0))
    memory = Memory()
    dodges = [_off_breath(state, memory) is not None for _ in range(3 * PATIENCE)]
    assert dodges[0] and not dodges[-1]
    assert sum(dodges) == PATIENCE + 1
    d = decide(state, memory=memory)
    assert isinstance(d.action, Move) and d.action.dx == 1, d.why  # straight at it


def test_the_lines_a_walk_keeps_off() -> None:
    state, c = arena(5)
    drake = add(state, "fire drake", off(c, 3, 0))
    lined = breath_mask(state, Memory())
    assert lined is not None
    assert lined[c[1], c[0]]  # the player stands on its line, three steps away
    assert not lined[drake.y, drake.x + 1] and lined[drake.y, drake.x + 2]  # beside it: open
    assert not lined[c[1] + 1, c[0]]  # a knight's move and more: off every line
    assert breath_mask(state, Memory(policy=Policy(naive_monsters=True))) is None


def test_a_hurt_bot_retreats_from_a_drake_never_onto_its_lines() -> None:
    for dx, dy in ((2, 1), (1, 2), (-2, 1), (2, -1), (-1, -2)):
        state, c = arena(5)
        add(state, "fire drake", off(c, dx, dy))  # a knight's move: off every line
        lined = breath_mask(state, Memory())
        assert lined is not None and not lined[c[1], c[0]]
        state.hp = state.max_hp // 5  # hurt, nothing to drink: it steps away
        d = decide(state)
        assert isinstance(d.action, Move), d.why
        to = off(c, d.action.dx, d.action.dy)
        assert not lined[to[1], to[0]], (dx, dy, d.why)


# --- the pink jelly: splits when struck ----------------------------------------------------


def test_a_blow_that_does_not_kill_splits_the_jelly() -> None:
    state, c = arena(3)
    jelly = add(state, "pink jelly", off(c, 1, 0), hp=14)
    sure_blows(state, 4)
    player_attacks(state, jelly)
    jellies = [m for m in state.monsters if m.kind == "pink jelly"]
    assert len(jellies) == 2
    assert sorted(m.hp for m in jellies) == [5, 5]
    assert all(m.extra["split"] == 1 for m in jellies)
    assert all(cheb(m.pos, jelly.pos) <= 1 for m in jellies)
    assert len({m.id for m in state.monsters}) == len(state.monsters)


def test_splits_are_bounded_and_fire_never_splits() -> None:
    state, c = arena(3)
    worn = add(state, "pink jelly", off(c, 1, 0), hp=10)
    worn.extra["split"] = MONSTERS["pink jelly"].splits
    sure_blows(state, 2)
    player_attacks(state, worn)
    assert len(state.monsters) == 1 and worn.hp == 8
    fresh = add(state, "pink jelly", off(c, -1, 0), hp=14)
    burn(state, fresh, 4)
    assert len(state.monsters) == 2 and fresh.hp == 10


# --- the ghost: blows pass through, fire burns --------------------------------------------


def test_blows_pass_through_a_ghost_and_so_does_the_player() -> None:
    state, c = arena(3)
    ghost = add(state, "ghost", off(c, 1, 0))
    sure_blows(state, 9)
    events = player_attacks(state, ghost)
    assert ghost.hp == ghost.max_hp
    assert any("passes through" in str(e) for e in events)
    step(state, Move(1, 0))
    assert state.player == off(c, 1, 0) and ghost.pos == c
    assert ghost.hp == ghost.max_hp
    assert monster_numbers(state, ghost).blows_to_kill >= 999


def test_fire_burns_a_ghost_bomb_and_scroll() -> None:
    state, c = arena(4)
    ghost = add(state, "ghost", off(c, 3, 0))
    state.inventory["fire bomb"] = 1
    step(state, Throw("fire bomb", *ghost.pos))
    assert ghost.hp < ghost.max_hp or ghost not in state.monsters
    state2, c2 = arena(4)
    ghost2 = add(state2, "ghost", off(c2, 2, 0))
    state2.inventory["sacrifice scroll"] = 1
    step(state2, Use("sacrifice scroll"))
    assert ghost2.hp < ghost2.max_hp or ghost2 not in state2.monsters


def test_bot_throws_its_bomb_at_a_ghost() -> None:
    state, c = arena(4)
    ghost = add(state, "ghost", off(c, 3, 0))
    state.inventory["fire bomb"] = 1
    d = _fire_at_ghost(state, Memory(), [ghost])
    assert d is not None and d.action == Throw("fire bomb", *ghost.pos)
    assert _fire_at_ghost(state, Memory(policy=Policy(naive_monsters=True)), [ghost]) is None
    # never a blow at it: next to it, without fire, the bot does not fight it
    del state.inventory["fire bomb"]
    ghost.x, ghost.y = off(c, 1, 0)
    assert "fighting" not in decide(state, memory=Memory()).why


# --- the bugbear: doors are no shelter -----------------------------------------------------


def walled_door(state: GameState, c: tuple[int, int], door: int) -> tuple[int, int]:
    """A wall across the arena one step east of the player, with ``door`` in it."""
    x = c[0] + 1
    for dy in range(-4, 5):
        state.tiles[c[1] + dy, x] = tiles.WALL
    state.tiles[c[1], x] = door
    state.update_view()
    return (x, c[1])


def test_bugbear_smashes_a_closed_door_and_wakes_the_floor_near() -> None:
    state, c = arena(4)
    dx, dy = walled_door(state, c, tiles.DOOR)
    brute = add(state, "bugbear", off(c, 2, 0))
    sleeper = add(state, "goblin", off(c, -2, 2), awake=False)
    far = add(state, "goblin", off(c, 2, -3), awake=False)
    assert cheb(sleeper.pos, (dx, dy)) <= BASH_NOISE
    act(state, brute)
    assert state.tiles[dy, dx] == tiles.BROKEN_DOOR
    assert brute.pos == off(c, 2, 0)  # the smash was its turn
    assert sleeper.awake and far.awake
    assert tiles.WALKABLE[tiles.BROKEN_DOOR] and tiles.TRANSPARENT[tiles.BROKEN_DOOR]
    assert "broken" in describe(state, dx, dy).lower() or "splinters" in describe(state, dx, dy)


def test_bugbear_never_breaks_a_locked_door_and_a_beast_cannot_open_one() -> None:
    state, c = arena(4)
    dx, dy = walled_door(state, c, tiles.locked_door(1))
    brute = add(state, "bugbear", off(c, 2, 0))
    for _ in range(3):
        act(state, brute)
    assert state.tiles[dy, dx] == tiles.locked_door(1)
    state2, c2 = arena(4)
    dx2, dy2 = walled_door(state2, c2, tiles.DOOR)
    jackal = add(state2, "jackal", off(c2, 2, 0))
    opts = monster_options(state2, jackal, player_distances(state2))
    assert all(not (o[1] == "move" and o[2] == (-1, 0)) for o in opts)
    for _ in range(3):
        act(state2, jackal)
    assert state2.tiles[dy2, dx2] == tiles.DOOR and jackal.x > dx2
    goblin = add(state2, "goblin", off(c2, 2, 2))
    opts = monster_options(state2, goblin, player_distances(state2))
    assert any(o[1] == "move" for o in opts)  # not a beast: doors are no bar to it


# --- the lurker: unseen until near ---------------------------------------------------------


def test_a_lurker_is_unseen_beyond_two_cells() -> None:
    state, c = arena(4)
    lurker = add(state, "lurker", off(c, 3, 0))
    assert state.visible[lurker.y, lurker.x]
    assert not state.shows(lurker)
    assert lurker not in state.visible_monsters()
    assert "lurker" not in describe(state, *lurker.pos)
    lurker.x, lurker.y = off(c, 2, 0)
    assert state.shows(lurker) and lurker in state.visible_monsters()


def test_a_lurker_shows_when_it_strikes_then_fades_and_look_remembers() -> None:
    state, c = arena(4)
    lurker = add(state, "lurker", off(c, 1, 0))
    monster_hits(state, lurker, ranged=False)
    assert lurker.extra["shown"] == LURK_SHOWN
    lurker.x, lurker.y = off(c, 4, 0)
    assert state.shows(lurker)
    for _ in range(LURK_SHOWN):
        lurker.energy = 0
        monster_turn(state, lurker, player_distances(state))
        lurker.x, lurker.y = off(c, 4, 0)  # kept at a distance
    assert not state.shows(lurker)
    assert "Something unseen" in describe(state, *lurker.pos)


def test_a_search_makes_out_a_lurker_near() -> None:
    state, c = arena(4)
    lurker = add(state, "lurker", off(c, 4, 0), awake=False)
    assert not state.shows(lurker)
    events = step(state, Search())
    assert state.shows(lurker)
    assert any("lurking" in str(e) for e in events)


def test_screens_draw_no_unseen_lurker() -> None:
    state, c = arena(4)
    lurker = add(state, "lurker", off(c, 4, 0))
    goblin = add(state, "goblin", off(c, -3, 0))
    assert lurker.pos not in marks_of(state) and goblin.pos in marks_of(state)
    assert monsters_in_view(state) == [goblin]


# --- the fire ant: a swarm that smoulders -------------------------------------------------------


def test_a_dead_fire_ant_sets_the_moss_under_it_alight_and_only_moss() -> None:
    state, c = arena(4)
    on_moss = add(state, "fire ant", off(c, 1, 0), hp=1)
    on_floor = add(state, "fire ant", off(c, -1, 0), hp=1)
    state.tiles[on_moss.y, on_moss.x] = tiles.MOSS
    sure_blows(state, 5)
    events = player_attacks(state, on_moss) + player_attacks(state, on_floor)
    assert on_moss.pos in state.fire  # it burns on, and spreads as any fire
    assert on_floor.pos not in state.fire  # bare ground keeps no embers
    assert any("smoulders" in getattr(e, "text", "") for e in events)
    goblin = add(state, "goblin", off(c, 0, 2), hp=50)
    state.tiles[goblin.y, goblin.x] = tiles.MOSS
    burn(state, goblin, 60, "fire drake")  # another kind leaves no embers
    assert goblin.pos not in state.fire
