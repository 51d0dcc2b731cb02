"""The monsters' ways, each on a hand-built situation where it shows and would fail without
it: skirmishers dart back, kiting shooters back away (for a bounded number of steps),
flanking packs spread round the player, sentinels keep to their posts, a shrieker wakes its
neighbours, a necromancer raises a bounded number of minions, a swarm hits harder together,
a thief steals and drops what it took, a corroder wears armour then blade down to the base;
and fleeing is bounded, so rest and explore always finish."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.engine import Attacked, Explore, Message, Move, Rest, Wait, Wear, step
from roguelike.engine.balance import (
    FLEE_TURNS,
    KITE_STEPS,
    MONSTERS,
    SKIRMISH_RETREAT,
    SUMMON_MOST,
    THIEF_ESCAPE,
)
from roguelike.engine.combat import hurt_monster, monster_hits
from roguelike.engine.creatures import monster_attack
from roguelike.engine.describe import level_attack
from roguelike.engine.gear import refresh
from roguelike.engine.identify import is_known, look
from roguelike.engine.items import receive
from roguelike.engine.monsters import (
    _raises,
    held_back,
    monster_options,
    monster_turn,
    monsters_act,
    player_distances,
)
from roguelike.engine.state import GameState
from roguelike.engine.travel import REST_LIMIT, threats
from saves.codec.game import monster_doc, monster_from
from saves.errors import SaveError
from tests.engine.support import add, arena, cheb, off, put_player


def act(state: GameState, m) -> list:
    """One action of ``m`` (as :func:`monsters_act` gives it), with a fresh distance map."""
    return monster_turn(state, m, player_distances(state))


def ringed(r: int = 3) -> tuple[GameState, tuple[int, int]]:
    """An arena walled in at ``r + 1`` from the player: nothing can leave the player's view."""
    state, c = arena(r)
    for dy in range(-r - 1, r + 2):
        for dx in range(-r - 1, r + 2):
            if max(abs(dx), abs(dy)) == r + 1:
                state.tiles[c[1] + dy, c[0] + dx] = tiles.WALL
    state.update_view()
    return state, c


def test_a_skirmisher_strikes_then_steps_out_of_reach():
    state, c = arena(3)
    state.hp = state.max_hp = 1000
    imp = add(state, "dart imp", off(c, 1, 0))
    events = act(state, imp)
    assert any(isinstance(e, Attacked) and e.target == "you" for e in events)
    assert imp.extra["retreat"] == SKIRMISH_RETREAT
    act(state, imp)
    assert cheb(imp.pos, c) == 2  # out of reach, but still close
    # a kind without the trait stays and fights
    rat = add(state, "rat", off(c, -1, 0))
    act(state, rat)
    act(state, rat)
    assert cheb(rat.pos, c) == 1


def test_a_cornered_skirmisher_strikes_instead_of_standing_still():
    state, c = ringed(1)  # a 3x3 cell: nowhere two steps from the player
    state.hp = state.max_hp = 1000
    imp = add(state, "dart imp", off(c, 1, 0))
    imp.extra["retreat"] = SKIRMISH_RETREAT + 1
    options = monster_options(state, imp, player_distances(state))
    assert max(options)[1] == "attack"


def test_a_kiting_shooter_backs_away_then_stands_when_it_has_backed_enough():
    state, c = arena(4)
    slinger = add(state, "kobold slinger", off(c, 2, 0))
    act(state, slinger)
    assert cheb(slinger.pos, c) == 3 and slinger.extra["backed"] == 1
    # the plain archer closes in and stands its ground instead
    state2, c2 = arena(4)
    archer = add(state2, "goblin archer", off(c2, 2, 0))
    before = archer.pos
    act(state2, archer)
    assert archer.pos == before
    # a kiter that has backed KITE_STEPS times shoots from where it stands
    slinger.x, slinger.y = off(c, 2, 0)
    slinger.extra = {"backed": KITE_STEPS}
    options = monster_options(state, slinger, player_distances(state))
    assert max(options)[1] == "shoot"


def test_a_flanking_pack_member_comes_round_the_other_side():
    state, c = arena(3)
    add(state, "hound", off(c, 1, 0))
    second = add(state, "hound", off(c, 0, -2))
    options = monster_options(state, second, player_distances(state))
    best = max(o for o in options if o[1] == "move")
    assert best[2] == (-1, 1)  # to (-1, -1) from the player: two steps from its ally
    # a pack that does not flank keeps to its ally's side
    state2, c2 = arena(3)
    add(state2, "jackal", off(c2, 1, 0))
    other = add(state2, "jackal", off(c2, 0, -2))
    options = monster_options(state2, other, player_distances(state2))
    assert max(o for o in options if o[1] == "move")[2] == (1, 1)


def test_a_sentinel_keeps_to_its_post_while_the_intruder_stays_away():
    state, c = arena(4)
    post = off(c, 4, 0)
    gnoll = add(state, "gnoll sentinel", post, guard=True)
    for _ in range(5):
        act(state, gnoll)
    assert gnoll.pos == post
    # a key room's ordinary guard comes for the player within its larger radius
    orc = add(state, "orc", off(c, -4, 0), guard=True)
    act(state, orc)
    assert cheb(orc.pos, c) == 3
    # near enough to its post, the sentinel fights
    put_player(state, off(c, 2, 0))
    act(state, gnoll)
    assert cheb(gnoll.pos, state.player) == 1


def test_a_guard_that_keeps_to_its_post_forbids_no_rest_until_the_player_comes_near():
    """A sentinel four steps away keeps to its post: it cannot come, so resting and exploring
    go on in its sight (they refused, leaving a player nothing to do but attack it). Two steps
    from its post it comes, and forbids them again."""
    state, c = arena(4)
    state.hp = state.max_hp - 5
    gnoll = add(state, "gnoll sentinel", off(c, 4, 0), guard=True)
    assert held_back(state, gnoll) and threats(state) == []
    state.regen_clock = 0  # the arena turns healing off
    events = step(state, Rest())
    assert not any("cannot rest" in str(e) for e in events) and state.hp > state.max_hp - 5
    put_player(state, off(c, 2, 0))
    assert not held_back(state, gnoll) and threats(state) == [gnoll]
    assert any("cannot rest" in str(e) for e in step(state, Rest()))
    # a shrieker is rooted and shoots nothing: it never forbids them
    state, c = arena(4)
    shrieker = add(state, "shrieker", off(c, 3, 0))
    assert held_back(state, shrieker) and threats(state) == []


def test_a_shrieker_wakes_the_sleepers_near_it():
    state, c = arena(3)
    shrieker = add(state, "shrieker", off(c, 2, 0))
    sleeper = add(state, "orc", off(c, 3, 3), awake=False)
    events = act(state, shrieker)
    assert sleeper.awake and any("shrieks" in str(e) for e in events)
    assert shrieker.pos == off(c, 2, 0)  # it never moves
    again = act(state, shrieker)  # it must draw breath before the next shriek
    assert not any("shrieks" in str(e) for e in again)


def test_a_monster_rouses_a_sleeper_that_blocks_its_corridor_and_goes_round_one_in_the_open():
    """A hunter stuck behind a sleeping ally in a corridor would stand in the player's view for
    ever (and explore and rest refuse to start while it does): it shakes the sleeper awake,
    and the pair comes on. In the open it steps round instead."""
    state, c = arena(3)
    for dx in range(1, 5):  # a corridor east of the player, one cell wide
        for dy in (-1, 1):
            state.tiles[c[1] + dy, c[0] + dx] = tiles.WALL
    state.update_view()
    sleeper = add(state, "goblin", off(c, 2, 0), awake=False)
    hunter = add(state, "goblin", off(c, 3, 0))
    best = max(monster_options(state, hunter, player_distances(state)))
    assert best[1:] == ("rouse", (-1, 0))
    events = act(state, hunter)
    assert sleeper.awake and hunter.pos == off(c, 3, 0)
    assert any("rouses the goblin" in str(e) for e in events)
    act(state, sleeper)  # now awake, it comes on, and the corridor clears behind it
    assert sleeper.pos == off(c, 1, 0)
    # in the open, the hunter goes round a sleeper rather than waking it
    state, c = arena(3)
    sleeper = add(state, "goblin", off(c, 2, 0), awake=False)
    hunter = add(state, "goblin", off(c, 3, 0))
    act(state, hunter)
    assert not sleeper.awake and cheb(hunter.pos, c) == 2


def test_a_necromancer_raises_a_bounded_number_of_minions():
    state, c = ringed(3)
    state.hp = state.max_hp = 10_000
    necro = add(state, "necromancer", off(c, 3, 0))
    for _ in range(60):
        monsters_act(state)
        necro.energy = 0
        state.hp = state.max_hp
        for m in state.monsters:
            m.hp = m.info.max_hp  # nobody dies: the bound alone stops the raising
    zombies = [m for m in state.monsters if m.kind == "zombie"]
    assert len(zombies) == SUMMON_MOST == necro.extra["raised"]
    assert len({m.id for m in state.monsters}) == len(state.monsters)


def test_a_raising_is_told_as_the_player_sees_it():
    """In view, it names the necromancer and its minion as the map shows them (another kind
    while hallucinating); out of sight, it is not told at all (the log named a necromancer
    the player had never seen)."""
    state, c = ringed(3)
    state.hp = state.max_hp = 10_000
    state.hallucinating = 1_000
    necro = add(state, "necromancer", off(c, 3, 0))
    said: list[str] = []
    for _ in range(20):
        said += [e.text for e in monsters_act(state) if isinstance(e, Message)]
        necro.energy = 0
        state.hp = state.max_hp
        if necro.extra.get("raised"):
            break
    raised = [s for s in said if " raises " in s]
    assert raised and not any("necromancer" in s or "zombie" in s for s in raised), said
    hidden, c2 = ringed(3)
    far = out_of_sight(hidden, c2)
    unseen = add(hidden, "necromancer", far)
    unseen.awake = True
    quiet = [e for e in _raises(hidden, unseen) if isinstance(e, Message)]
    assert quiet == [] and any(m.kind == "zombie" for m in hidden.monsters)


def test_a_swarm_bites_harder_with_allies_next_to_the_player():
    ant_kind = MONSTERS["fire ant"]
    bonus = ant_kind.swarm
    assert bonus > 0
    lo, hi = monster_attack(ant_kind, arena(3)[0].difficulty)  # its roll, as the level scales it

    def damages(allies: int) -> list[int]:
        state, c = arena(3)
        state.hp = state.max_hp = 100_000
        assert state.defence == 0  # a blow's damage is its roll, plus the swarm's bonus
        ant = add(state, "fire ant", off(c, 1, 0))
        for i in range(allies):
            add(state, "fire ant", off(c, -1, i - 1))
        out = []
        for _ in range(200):
            out += [
                e.damage
                for e in monster_hits(state, ant, ranged=False)
                if isinstance(e, Attacked) and e.damage
            ]
        return out

    alone, two = damages(0), damages(2)
    assert min(alone) == lo and max(alone) == hi
    assert min(two) == lo + 2 * bonus and max(two) == hi + 2 * bonus
    assert len(two) > len(alone)  # and surer


def test_a_thief_steals_runs_and_drops_its_loot_where_it_dies():
    state, c = arena(3)
    state.inventory = {"healing potion": 1}
    thief = add(state, "cutpurse", off(c, 1, 0))
    for _ in range(50):
        if thief.loot:
            break
        monster_hits(state, thief, ranged=False)
    assert thief.loot == "healing potion" and not state.inventory
    hp = state.hp
    assert thief.fleeing
    act(state, thief)
    assert cheb(thief.pos, c) == 2 and state.hp == hp  # it runs, it does not fight
    hurt_monster(state, thief, 100, "you")
    assert state.items_lying[thief.pos] == "healing potion"


def out_of_sight(state: GameState, c: tuple[int, int]) -> tuple[int, int]:
    """A walkable cell the player at ``c`` cannot see, over 12 steps away: where a thief hides."""
    return next(
        (x, y)
        for y in range(state.height)
        for x in range(state.width)
        if tiles.WALKABLE[state.tiles[y, x]] and not state.visible[y, x] and cheb((x, y), c) > 12
    )


def test_a_thief_out_of_sight_gets_away_with_its_loot():
    state, c = arena(3)
    hidden = out_of_sight(state, c)
    thief = add(state, "cutpurse", hidden)
    thief.loot = "hint coin"
    for _ in range(THIEF_ESCAPE):
        assert thief in state.monsters
        act(state, thief)
    assert thief not in state.monsters


def test_a_thief_that_gets_away_names_an_unknown_potion_by_its_look():
    """It said "gets away with your healing potion" of a potion the player knew only by its
    look, giving the kind away."""
    state, c = arena(3)
    assert not is_known(state, "healing potion")
    thief = add(state, "cutpurse", out_of_sight(state, c))
    thief.loot = "healing potion"
    said = []
    for _ in range(THIEF_ESCAPE):
        said += [e.text for e in act(state, thief) if isinstance(e, Message)]
    seen_as = look(state, "healing potion")[0]
    assert said == [f"The cutpurse gets away with your {seen_as}."]


def test_a_thief_with_nothing_to_take_just_hits():
    state, c = arena(3)
    state.inventory, state.hint_coins = {}, 0
    thief = add(state, "cutpurse", off(c, 1, 0))
    for _ in range(20):
        monster_hits(state, thief, ranged=False)
    assert not thief.loot and state.hp < state.max_hp


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["", "iron plate", "tower plate"]), st.booleans(), st.integers(1, 5))
def test_corrosion_wears_armour_then_blade_never_below_the_base(armour, blade, level):
    state, c = arena(3)
    state.hp = state.max_hp = 100_000
    state.level = level
    refresh(state)  # what a level up does: the damage roll of the level, with nothing worn yet
    base = level_attack(level)
    for item in ([armour] if armour else []) + (["sharp blade"] if blade else []):
        receive(state, item)
        if item in state.inventory:
            step(state, Wear(item))
    blades = int(blade)
    assert state.attack == (base[0] + blades, base[1] + blades)
    ooze = add(state, "acid ooze", off(c, 1, 0))
    seen_defence = [state.defence]
    for _ in range(150):
        monster_hits(state, ooze, ranged=False)
        assert state.defence >= 0 and state.attack[0] >= base[0] and state.attack[1] >= base[1]
        if state.attack != (base[0] + blades, base[1] + blades):
            assert state.defence == 0  # armour goes first
        seen_defence.append(state.defence)
    assert state.defence == 0 and state.attack == base  # worn all the way down
    assert seen_defence == sorted(seen_defence, reverse=True)


def test_a_fleeing_monster_in_view_turns_at_bay_after_its_bound():
    state, c = ringed(3)
    rat = add(state, "rat", off(c, 2, 0), hp=1)
    assert rat.fleeing
    for _ in range(FLEE_TURNS):
        act(state, rat)
        assert rat.fleeing
    act(state, rat)
    assert not rat.fleeing and rat.extra["cornered"]


def test_a_fleeing_monster_out_of_sight_hides_heals_and_comes_back():
    state, c = arena(3)
    dist = player_distances(state)
    hidden = next(
        (x, y)
        for y in range(state.height)
        for x in range(state.width)
        if not state.visible[y, x] and 12 < dist[y, x] < 20
    )
    rat = add(state, "rat", hidden, hp=1)
    monsters_act(state)
    assert rat.extra.get("hiding") and rat.fleeing
    for _ in range(50):
        monsters_act(state)
        if not rat.fleeing:
            break
    assert rat.hp == rat.info.max_hp and not rat.fleeing  # healed, and hunting again
    assert not rat.extra.get("cornered")
    far = int(player_distances(state)[rat.y, rat.x])
    for _ in range(3):
        monsters_act(state)
    assert int(player_distances(state)[rat.y, rat.x]) < far  # it comes back


def pillar_room() -> tuple[GameState, tuple[int, int]]:
    """A walled room round the player with a pillar two steps east: a fleeing monster can
    circle it, in and out of view."""
    state, c = ringed(3)
    state.tiles[c[1], c[0] + 2] = tiles.WALL
    state.update_view()
    return state, c


def play_against(state: GameState, rat, action) -> None:
    """The player's answer to a rat round a pillar: fight it when it comes back (not
    fleeing), else go on with ``action``."""
    if rat in state.monsters and not rat.fleeing:
        px, py = state.player
        if cheb(rat.pos, state.player) == 1:
            step(state, Move(rat.x - px, rat.y - py))
        else:
            step(state, Wait())
    else:
        step(state, action)


def test_rest_finishes_with_a_fleeing_monster_circling_a_pillar():
    state, c = pillar_room()
    state.hp = state.max_hp // 3
    state.regen_clock = 0
    rat = add(state, "rat", off(c, 3, 1), hp=1)
    for _ in range(200):
        if state.hp >= state.max_hp or state.dead:
            break
        play_against(state, rat, Rest())
    assert state.hp >= state.max_hp  # rested in full, the rat answered on the way
    assert state.turn <= REST_LIMIT + 3 * FLEE_TURNS + 100
    settles(state, rat)


def settles(state: GameState, rat) -> None:
    """Within a bounded number of turns the rat no longer flees: it turned at bay, or hid,
    healed and came back (or died)."""
    for _ in range(3 * FLEE_TURNS + 50):
        if rat not in state.monsters or not rat.fleeing:
            return
        play_against(state, rat, Wait())
    raise AssertionError(f"the rat still flees after {3 * FLEE_TURNS + 50} turns")


def test_explore_is_never_held_up_for_ever_by_a_fleeing_monster():
    state, c = pillar_room()
    state.hp = state.max_hp = 1000
    # a way out of the walled room: a corridor running west past the edge of sight
    for d in range(4, state.fov_radius + 5):
        state.tiles[c[1], c[0] - d] = tiles.FLOOR
    state.update_view()
    rat = add(state, "rat", off(c, 3, 1), hp=1)
    for _ in range(3 * FLEE_TURNS + 100):
        if cheb(state.player, c) > 4:
            break
        play_against(state, rat, Explore())
    assert cheb(state.player, c) > 4  # out of the room: exploring went on
    settles(state, rat)


def test_a_thiefs_loot_round_trips_and_a_monster_without_loot_is_refused():
    state, c = arena(3)
    thief = add(state, "cutpurse", off(c, 1, 0))
    thief.loot = "fire bomb"
    doc = monster_doc(thief)
    back = monster_from(doc, "m", state.width, state.height)
    assert back == thief
    del doc["loot"]
    with pytest.raises(SaveError, match="loot"):  # every field of the format is required
        monster_from(doc, "m", state.width, state.height)


def test_a_fast_thief_that_gets_away_mid_round_leaves_the_round_whole():
    state, c = arena(3)
    hidden = out_of_sight(state, c)
    thief = add(state, "cutpurse", hidden)
    thief.loot = "hint coin"
    thief.extra["away"] = THIEF_ESCAPE - 1
    thief.energy = 150  # two actions this round: the first takes it off the floor
    monsters_act(state)
    assert thief not in state.monsters


def test_a_thiefs_loot_never_falls_under_the_player():
    state, c = arena(3)
    thief = add(state, "cutpurse", off(c, 1, 0))
    thief.loot = "healing potion"
    for dx in (0, 1, 2):  # its own cell and the others round it but the player's are taken
        for dy in (-1, 0, 1):
            if (dx, dy) != (0, 0):
                state.items_lying[off(c, dx, dy)] = "hint coin"
    hurt_monster(state, thief, 100, "you")
    assert state.player not in state.items_lying


def test_the_bot_lets_a_skirmisher_come_and_goes_for_a_shrieker():
    from roguelike.autoplay import decide

    state, c = arena(3)
    add(state, "dart imp", off(c, 3, 0))
    d = decide(state)
    assert d.action == Wait() and "standing its ground" in d.why  # no chase
    state2, c2 = arena(3)
    add(state2, "shrieker", off(c2, 2, 0))
    d2 = decide(state2)
    assert d2.action != Wait()  # it never comes: waiting for it would wait for ever
