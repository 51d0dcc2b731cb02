"""Items with decisions: bombs thrown at a cell along a line of fire, dropping and taking again,
potions and scrolls by class, items whose power has a cost, and treasure laid out as a choice
of which one may be kept (and saved as such)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.autoplay import Autopilot
from roguelike.engine import (
    Drop,
    Move,
    PickUp,
    Throw,
    Use,
    Wait,
    Wear,
    monsters,
    new_game,
    step,
)
from roguelike.engine.balance import (
    BERSERK_BONUS,
    BERSERK_TURNS,
    BOMB_DAMAGE,
    ITEMS,
    PLAYER_ACCURACY,
    PLAYER_SPEED,
    SACRIFICE_COST,
    THROW_RANGE,
    TREASURE_CHOICES,
    WEARY_MALUS,
    WEARY_TURNS,
)
from roguelike.engine.combat import fury
from roguelike.engine.creatures import populate
from roguelike.engine.describe import describe
from roguelike.engine.items import flight, throw_forecast
from roguelike.gen.pipeline import generate_floor
from roguelike.recording import (
    Recording,
    RecordingError,
    decode_action,
    digest,
    encode_action,
    replay,
)
from saves import codec
from saves.codec.game import state_doc, state_from
from saves.errors import SaveError
from tests.engine.support import add, arena, cheb, fresh, off, put_player
from tests.saves.support import assert_same_game, world_of

#: A small world whose bot meets a bomb and a monster to throw it at early on.
RECORDED_SEED = 3


def armed(n: int = 1):
    """An arena with ``n`` fire bombs in the pack."""
    state, c = arena(3)
    state.inventory["fire bomb"] = n
    return state, c


# --- throwing --------------------------------------------------------------------------------


def test_a_bomb_bursts_on_the_first_monster_in_its_line():
    state, c = armed()
    near = add(state, "ogre", off(c, 2, 0), awake=False)
    far = add(state, "ogre", off(c, 3, 0), awake=False)
    behind = add(state, "ogre", off(c, 3, 3), awake=False)  # out of the blast
    state.update_view()
    assert flight(state, *off(c, 3, 0))[-1] == near.pos
    events = step(state, Throw("fire bomb", *off(c, 3, 0)))
    assert any("bursts on the ogre" in getattr(e, "text", "") for e in events)
    assert near.hp < near.info.max_hp and far.hp < far.info.max_hp  # far is next to near
    said = [getattr(e, "text", "") for e in events]
    assert f"The ogre burns for {near.info.max_hp - near.hp}." in said  # fire, not a blow
    assert not any(line.startswith("You hit") for line in said)
    assert behind.hp == behind.info.max_hp
    assert "fire bomb" not in state.inventory
    assert state.turn == 1


def test_a_bomb_stops_before_a_wall():
    state, c = armed()
    # the first wall east of the arena's centre, on its row
    x = c[0]
    while tiles.WALKABLE[state.tiles[c[1], x + 1]] and tiles.TRANSPARENT[state.tiles[c[1], x + 1]]:
        x += 1
    path = flight(state, x + 3, c[1])
    assert path[-1] == (x, c[1])
    assert all(tiles.WALKABLE[state.tiles[py, px]] for px, py in path)


def test_the_blast_covers_the_cell_and_the_eight_around_it():
    state, c = armed()
    at = off(c, 3, 0)
    ring = [add(state, "ogre", off(at, dx, dy), awake=False) for dx, dy in ((0, -1), (-1, 1))]
    outside = add(state, "ogre", off(c, 1, -3), awake=False)
    state.update_view()
    step(state, Throw("fire bomb", *at))
    for m in ring:
        assert BOMB_DAMAGE[0] <= m.info.max_hp - m.hp <= BOMB_DAMAGE[1]
    assert outside.hp == outside.info.max_hp


def test_a_bomb_next_to_the_thrower_burns_the_thrower():
    state, c = armed()
    hp = state.hp
    step(state, Throw("fire bomb", *off(c, 1, 1)))
    assert hp - BOMB_DAMAGE[1] <= state.hp <= hp - BOMB_DAMAGE[0]


def test_a_bomb_can_kill_its_thrower_and_says_so():
    state, c = armed()
    state.hp = 1
    step(state, Throw("fire bomb", *off(c, 1, 0)))
    assert state.dead and "own" in (state.cause or "")


def test_the_aiming_forecast_says_where_it_bursts_whom_it_catches_and_warns_of_a_burn():
    """The cursor's sentence is the engine's own reckoning: a statue in the line stops the
    bomb a step from the thrower (a player once burnt themself aiming past one), and the
    forecast says so; a clear throw names the target and whom the blast catches too."""
    state, c = armed()
    orc = add(state, "orc", off(c, 3, 0), awake=False)
    add(state, "goblin", off(c, 3, 1), awake=False)
    state.update_view()
    clear = throw_forecast(state, *orc.pos)
    assert clear == "It would burst on the orc, catching the goblin."
    state.tiles[c[1], c[0] + 2] = tiles.STATUE  # in the line, between the thrower and the orc
    state.update_view()
    blocked = throw_forecast(state, *orc.pos)
    assert flight(state, *orc.pos)[-1] == off(c, 1, 0)
    assert "1 step away" in blocked and "stops it short" in blocked
    assert blocked.endswith("It would burn you too!")
    hp = state.hp
    step(state, Throw("fire bomb", *orc.pos))  # and it does what it said
    assert state.hp < hp and orc.hp == orc.info.max_hp
    assert throw_forecast(state, *c) == "You will not throw it at your own feet."


def test_throws_out_of_range_or_view_or_at_oneself_are_refused_without_a_turn():
    state, c = armed()
    state.visible[:] = True  # range is checked apart from view
    far = (c[0] + THROW_RANGE + 1, c[1])
    for target in (far, c):
        events = step(state, Throw("fire bomb", *target))
        assert state.turn == 0 and state.inventory["fire bomb"] == 1, events
    state.update_view()
    hidden = next(
        (x, y)
        for y in range(state.height)
        for x in range(state.width)
        if not state.visible[y, x] and cheb((x, y), c) <= THROW_RANGE
    )
    step(state, Throw("fire bomb", *hidden))
    assert state.turn == 0 and state.inventory["fire bomb"] == 1
    state.inventory = {"healing potion": 1}
    step(state, Throw("healing potion", *off(c, 2, 0)))
    assert state.turn == 0 and state.inventory == {"healing potion": 1}


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dx=st.integers(-8, 8), dy=st.integers(-8, 8))
def test_the_line_of_fire_never_passes_a_wall_nor_goes_beyond_its_target(dx, dy):
    state, c = armed()
    target = off(c, dx, dy)
    if not (0 <= target[0] < state.width and 0 <= target[1] < state.height) or target == c:
        return
    path = flight(state, *target)
    for px, py in path:
        assert tiles.WALKABLE[state.tiles[py, px]] and tiles.TRANSPARENT[state.tiles[py, px]]
    if path:
        assert cheb(path[-1], c) <= cheb(target, c)
        assert all(cheb(a, b) == 1 for a, b in zip([c, *path], path, strict=False))


def test_use_still_throws_at_the_nearest_monster():
    state, c = armed()
    m = add(state, "ogre", off(c, 2, 2), awake=False)
    state.update_view()
    step(state, Use("fire bomb"))
    assert m.hp < m.info.max_hp and "fire bomb" not in state.inventory


# --- dropping --------------------------------------------------------------------------------


def test_a_dropped_item_lies_there_and_can_be_taken_again():
    state, c = arena(3)
    state.inventory = {"healing potion": 2}
    step(state, Drop("healing potion"))
    assert state.items_lying[c] == "healing potion" and state.inventory == {"healing potion": 1}
    assert state.turn == 1
    step(state, Drop("healing potion"))  # something lies here already
    assert state.inventory == {"healing potion": 1} and state.turn == 1
    step(state, PickUp())
    assert state.inventory == {"healing potion": 2} and c not in state.items_lying


def test_nothing_is_dropped_on_the_stairs_or_without_having_it():
    state = fresh(0)
    put_player(state, state.floor.finish)
    state.inventory = {"blink scroll": 1}
    step(state, Drop("blink scroll"))
    step(state, Drop("fire bomb"))
    assert state.inventory == {"blink scroll": 1} and state.turn == 0
    assert state.floor.finish not in state.items_lying


# --- classes ----------------------------------------------------------------------------------


def test_every_pack_item_has_a_class_and_the_classes_match_the_glyphs():
    for item in ITEMS.values():
        if item.kind == "pack":
            assert item.verb in ("quaff", "read", "throw"), item.name
            assert {"quaff": "!", "read": "?", "throw": "("}[item.verb] == item.glyph


# --- trade-offs -------------------------------------------------------------------------------


def test_berserk_hits_harder_then_leaves_the_player_weary():
    state, _ = arena(3)
    state.inventory = {"berserk potion": 1}
    step(state, Use("berserk potion"))
    assert fury(state) == BERSERK_BONUS
    for _ in range(BERSERK_TURNS - 1):
        step(state, Wait())
    assert fury(state) == -WEARY_MALUS and state.weary == WEARY_TURNS
    for _ in range(WEARY_TURNS):
        step(state, Wait())
    assert fury(state) == 0
    assert "weary" in ITEMS["berserk potion"].description


def test_sacrifice_burns_every_monster_in_view_for_maximum_hp():
    state, c = arena(3)
    state.inventory = {"sacrifice scroll": 1}
    state.identified.add("sacrifice scroll")  # an unknown one is never refused
    step(state, Use("sacrifice scroll"))  # nothing in view: refused, kept
    assert state.inventory and state.turn == 0
    ms = [add(state, "troll", off(c, 3, y), awake=False) for y in (-2, 2)]
    state.update_view()
    max_hp = state.max_hp
    step(state, Use("sacrifice scroll"))
    assert state.max_hp == max_hp - SACRIFICE_COST and state.hp <= state.max_hp
    assert all(m.hp < m.info.max_hp for m in ms)


def test_the_war_axe_hits_harder_but_misses_more():
    state, c = arena(3)
    lo, hi = state.attack
    state.items_lying[off(c, 1, 0)] = "war axe"
    step(state, Move(1, 0))  # taken into the pack: its cost is a choice
    assert state.attack == (lo, hi) and state.inventory == {"war axe": 1}
    step(state, Wear("war axe"))
    axe = ITEMS["war axe"]
    assert state.attack == (lo + axe.amount, hi + axe.amount)
    assert state.accuracy == PLAYER_ACCURACY - axe.clumsy
    assert "miss" in axe.description


def _monster_turns(state, monkeypatch, rounds: int) -> int:
    """How many turns the monsters take in ``rounds`` player turns (their moves not played)."""
    turns = []
    monkeypatch.setattr(monsters, "wander_home", lambda *a: turns.append(1))
    monkeypatch.setattr(monsters, "monster_turn", lambda *a: turns.append(1) or [])
    for _ in range(rounds):
        monsters.monsters_act(state)
    return len(turns)


def test_tower_plate_slows_the_player_and_monsters_act_more_often(monkeypatch):
    state, c = arena(3)
    add(state, "rat", off(c, -2, -2), awake=False)
    normal = _monster_turns(copy.deepcopy(state), monkeypatch, 20)
    state.items_lying[off(c, 1, 0)] = "tower plate"
    step(state, Move(1, 0))
    step(state, Wear("tower plate"))
    plate = ITEMS["tower plate"]
    assert state.speed == PLAYER_SPEED - plate.slow and state.defence == plate.amount
    state.monsters[0].energy = 0
    slowed = _monster_turns(state, monkeypatch, 20)
    assert normal == 20 and slowed == 20 * PLAYER_SPEED // state.speed
    assert "slower" in plate.description


# --- treasure as a choice ----------------------------------------------------------------------


def _choice_floor():
    for seed in range(40):
        fl = generate_floor(seed, 1)
        monsters, items, choices = populate(fl)
        if choices:
            return seed, items, choices
    raise AssertionError("no treasure on floor 1 of seeds 0..39")


def test_treasure_lies_in_groups_of_different_upgrades():
    _, items, choices = _choice_floor()
    groups: dict[int, list[str]] = {}
    for pos, g in choices.items():
        groups.setdefault(g, []).append(items[pos])
    for names in groups.values():
        assert TREASURE_CHOICES[0] <= len(names) <= TREASURE_CHOICES[1]
        assert len(set(names)) == len(names)
        assert all(ITEMS[n].kind in ("now", "wear") for n in names)


def test_taking_one_treasure_makes_the_others_of_its_group_crumble():
    seed, _, _ = _choice_floor()
    state = fresh(seed)
    group = next(iter(state.choices.values()))
    cells = sorted(p for p, g in state.choices.items() if g == group)
    others = {p for p, g in state.choices.items() if g != group}
    put_player(state, cells[0])
    events = step(state, PickUp())
    assert any("crumble" in getattr(e, "text", "") for e in events)
    assert not any(p in state.items_lying for p in cells)
    assert set(state.choices) == others and all(p in state.items_lying for p in others)


def test_the_choice_groups_survive_a_save():
    seed, _, _ = _choice_floor()
    state = fresh(seed)
    state.berserk, state.speed, state.accuracy = 3, 80, 70
    data = codec.encode(world_of(state), state, [], saved="2025-01-02T00:00:00.000+00:00")
    loaded = codec.decode(data).state
    assert loaded.choices == state.choices
    assert_same_game(state, loaded)


@pytest.mark.parametrize("key", ["choices", "speed", "accuracy", "berserk", "weary"])
def test_a_state_without_a_field_of_the_choices_is_refused(key):
    state = fresh(0)
    doc = json.loads(json.dumps(state_doc(state)))
    assert state_from(doc, "state").speed == state.speed  # the whole document reads
    del doc[key]
    with pytest.raises(SaveError, match=key):  # every field of the format is required
        state_from(doc, "state")


def test_a_choice_on_a_cell_without_an_item_is_refused():
    state = fresh(0)
    c = state.player
    doc = state_doc(state)
    doc["choices"] = [{"x": c[0], "y": c[1], "group": 0}]
    with pytest.raises(SaveError, match="choice"):
        state_from(doc, "state")


# --- recording ------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [Throw("fire bomb", 12, 7), Drop("healing potion")])
def test_throw_and_drop_have_a_compact_text(action):
    code = encode_action(action)
    assert isinstance(code, str) and decode_action(code) == action


@pytest.mark.parametrize("code", ["T1,2,nothing", "T-1,2,fire bomb", "T01,2,fire bomb", "Dx"])
def test_bad_throw_and_drop_texts_are_refused(code):
    with pytest.raises(RecordingError):
        decode_action(code)


def test_a_recorded_run_with_a_throw_and_a_drop_replays_exactly():
    state = new_game(RECORDED_SEED, preset="small")
    rec = Recording.begin(state)
    pilot = Autopilot(state)
    dropped = thrown = False
    for _ in range(1500):
        if state.over or thrown:
            break
        free = state.player not in state.items_lying and not state.on_stairs()
        if not dropped and state.inventory and free:
            item = sorted(state.inventory)[0]
            for action in (Drop(item), PickUp()):
                step(state, action)
                rec.add(action, state)
            dropped = True
            continue
        action = pilot.decide(state).action
        before = (state.turn, state.number)
        step(state, action)
        rec.add(action, state)
        pilot.acted((state.turn, state.number) != before)
        thrown = isinstance(action, Throw) and state.turn != before[0]
    assert dropped and thrown
    again = Recording.from_json(json.loads(json.dumps(rec.to_json())))
    codes = [c for c in again.to_json()["actions"] if isinstance(c, str)]
    assert any(c.startswith("T") for c in codes) and any(c.startswith("D") for c in codes)
    _, outcome = replay(again)
    assert outcome.digest == digest(state)


def test_look_says_a_hoard_is_a_choice_and_walking_over_it_takes_nothing():
    seed, _, _ = _choice_floor()
    state = fresh(seed)
    pos = next(iter(state.choices))
    group = state.choices[pos]
    state.explored[pos[1], pos[0]] = True
    assert "crumble" in describe(state, *pos)
    put_player(state, pos)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        back = (pos[0] + dx, pos[1] + dy)
        if tiles.WALKABLE[state.tiles[back[1], back[0]]] and back not in state.items_lying:
            break
    put_player(state, back)
    step(state, Move(-dx, -dy))
    assert state.player == pos and pos in state.items_lying and state.choices[pos] == group
