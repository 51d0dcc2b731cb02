"""Items on real floors: taking, using, healing, bombs, blink and mapping scrolls, and the item
data driving their effects.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from roguelike import tiles
from roguelike.engine import ItemTaken, ItemUsed, Message, Move, PickUp, Use, step
from roguelike.engine.creatures import ITEMS, MONSTERS, ItemKind
from roguelike.engine.items import BOMB_DAMAGE, TAKE, USE, held
from tests.engine.support import add, arena, attacks_by, cheb, fresh, off, texts

# --- 5. items -------------------------------------------------------------------------------


@pytest.mark.parametrize("item", sorted(ITEMS))
def test_walking_onto_an_item_takes_it(item):
    state, c = arena()
    state.hp = state.max_hp - 7
    where = off(c, 1, 0)
    state.items_lying[where] = item
    before = copy.deepcopy(state)
    events = step(state, Move(1, 0))
    assert state.player == where and ItemTaken(item) in events
    assert where not in state.items_lying
    info = ITEMS[item]
    kind = info.kind
    # a wearable with a cost waits in the pack (nothing with a cost is put on unasked); one
    # without goes on at once into its empty slot
    put_on = kind == "wear" and not (info.slow or info.clumsy)
    if kind == "pack" or (kind == "wear" and not put_on):
        assert state.inventory == {item: 1}
    else:
        assert state.inventory == {}
    assert (item in state.equipment) == put_on
    assert state.hint_coins == before.hint_coins + (kind == "coin")
    blade = info.amount if put_on and info.effect == "attack" else 0
    assert state.attack == (before.attack[0] + blade, before.attack[1] + blade)
    armour = info.amount if put_on and info.effect == "defence" else 0
    assert state.defence == before.defence + armour
    # costs only from what is worn: a costly wearable waits in the pack, costing nothing yet
    assert state.accuracy == before.accuracy - (info.clumsy if put_on else 0)
    assert state.speed == before.speed - (info.slow if put_on else 0)
    if info.effect == "vigour":
        assert state.max_hp == before.max_hp + info.amount
        assert state.hp == before.hp + info.amount
    else:
        assert state.max_hp == before.max_hp and state.hp == before.hp


def test_pick_up_takes_what_lies_underfoot():
    state, c = arena()
    state.items_lying[c] = "fire bomb"
    turn = state.turn
    events = step(state, PickUp())
    assert ItemTaken("fire bomb") in events and state.inventory == {"fire bomb": 1}
    assert state.turn == turn + 1 and c not in state.items_lying


def test_a_healing_potion_heals_but_not_above_max():
    state, c = arena()
    state.inventory["healing potion"] = 2
    state.hp = state.max_hp - 20
    turn = state.turn
    events = step(state, Use("healing potion"))
    assert events[0] == ItemUsed("healing potion")
    assert state.hp == state.max_hp - 20 + ITEMS["healing potion"].amount and state.turn == turn + 1
    assert state.inventory == {"healing potion": 1}
    state.hp = state.max_hp - 3
    step(state, Use("healing potion"))
    assert state.hp == state.max_hp and state.inventory == {}
    # at full HP it is refused and kept, and no turn passes
    state.inventory["healing potion"] = 1
    turn = state.turn
    events = step(state, Use("healing potion"))
    assert all(isinstance(e, Message) for e in events) and state.turn == turn
    assert state.inventory == {"healing potion": 1} and state.hp == state.max_hp


@pytest.mark.parametrize("item", [i for i, k in ITEMS.items() if k.kind == "pack"])
def test_using_an_item_not_held_is_refused_without_a_turn(item):
    state, c = arena()
    state.hp = state.max_hp - 5
    add(state, "orc", off(c, 2, 0), awake=False)
    before = copy.deepcopy(state)
    events = step(state, Use(item))
    assert len(events) == 1 and isinstance(events[0], Message)
    assert state.turn == before.turn and state.hp == before.hp and state.player == c
    assert state.monsters == before.monsters


def test_a_fire_bomb_burns_the_nearest_monster_and_its_neighbours():
    state, c = arena()
    state.inventory["fire bomb"] = 1
    target = add(state, "orc", off(c, 2, 0), hp=100, awake=False)
    beside = add(state, "orc", off(c, 3, 1), hp=100, awake=False)
    aside = add(state, "orc", off(c, -3, 0), hp=100, awake=False)
    turn = state.turn
    events = step(state, Use("fire bomb"))
    burns = attacks_by(events, "you")
    assert all(b.ranged and b.target == "orc" for b in burns) and len(burns) == 2
    lo, hi = BOMB_DAMAGE
    for m in (target, beside):
        assert 100 - hi <= m.hp <= 100 - lo and m.awake
    assert aside.hp == 100
    assert state.turn == turn + 1 and "fire bomb" not in state.inventory
    # with nothing in view the bomb is kept and no turn passes
    state.monsters.clear()
    state.inventory["fire bomb"] = 1
    turn = state.turn
    events = step(state, Use("fire bomb"))
    assert all(isinstance(e, Message) for e in events)
    assert state.turn == turn and state.inventory == {"fire bomb": 1}


def test_a_fire_bomb_can_kill():
    state, c = arena()
    state.inventory["fire bomb"] = 1
    add(state, "rat", off(c, 2, 0), hp=1)
    add(state, "rat", off(c, 2, 1), hp=1)
    events = step(state, Use("fire bomb"))
    assert [b.killed for b in attacks_by(events, "you")] == [True, True]
    assert state.monsters == [] and state.stats.kills == 2
    assert state.xp == 2 * MONSTERS["rat"].xp


def test_a_blink_scroll_moves_the_player_to_the_farthest_visible_free_cell():
    base, c = arena()
    base.inventory["blink scroll"] = 1
    walk = tiles.WALKABLE[base.tiles]
    cells = [
        (int(x), int(y))
        for y, x in np.argwhere(walk & base.visible)
        if (int(x), int(y)) not in base.items_lying and (int(x), int(y)) not in base.keys_lying
    ]

    def farthest(frm: tuple[int, int], among: list[tuple[int, int]]) -> set[tuple[int, int]]:
        top = max(cheb(p, frm) for p in among)
        return {p for p in among if cheb(p, frm) == top}

    # an orc where fleeing it and merely leaving your cell lead to different places
    orc_at = next(
        off(c, dx, dy)
        for dx in range(-3, 4)
        for dy in range(-3, 4)
        if (dx, dy) != (0, 0)
        and not farthest(off(c, dx, dy), [p for p in cells if p != off(c, dx, dy)])
        & farthest(c, cells)
    )
    state = copy.deepcopy(base)
    orc = add(state, "orc", orc_at, awake=False)
    candidates = [p for p in cells if p != orc_at]
    step(state, Use("blink scroll"))
    assert state.player in farthest(orc_at, candidates)
    assert cheb(state.player, orc.pos) > 3
    assert "blink scroll" not in state.inventory


def test_a_mapping_scroll_reveals_the_whole_floor():
    state = fresh(0)
    state.inventory["mapping scroll"] = 1
    layout = state.tiles != tiles.VOID
    assert not state.explored[layout].all()
    turn = state.turn
    step(state, Use("mapping scroll"))
    assert state.explored[layout].all() and state.turn == turn + 1


def test_every_item_kind_has_a_handler_for_its_effect():
    """Pack items are played by the use handlers, the others when taken: by effect, never by
    name, and every handler is some item's."""
    for name, info in ITEMS.items():
        if info.kind == "wear":  # worn and wielded through engine/gear.py, by its slot
            assert info.slot in ("weapon", "armour") and info.effect not in TAKE, name
            continue
        table = USE if info.kind == "pack" else TAKE
        assert info.effect in table, name
    handled = {info.effect for info in ITEMS.values() if info.kind != "wear"}
    assert set(USE) | set(TAKE) == handled
    assert not set(USE) & set(TAKE)


def test_item_descriptions_state_their_amounts():
    for name, info in ITEMS.items():
        if info.amount:
            assert str(info.amount) in info.description, name


def test_held_finds_a_pack_item_by_effect():
    state, _ = arena()
    assert held(state, "heal") is None
    state.inventory["fire bomb"] = 1
    state.inventory["healing potion"] = 2
    assert held(state, "heal") == "healing potion" and held(state, "bomb") == "fire bomb"
    assert held(state, "blink") is None


def test_a_new_item_kind_with_a_known_effect_needs_only_its_data(monkeypatch):
    """An item kind is its row in the table: a stronger potion heals by its own amount."""
    strong = ItemKind("strong potion", "!", "#ff00ff", "Heals 20 HP.", effect="heal", amount=20)
    monkeypatch.setitem(ITEMS, strong.name, strong)
    state, c = arena()
    state.hp = state.max_hp - 25
    state.items_lying[off(c, 1, 0)] = strong.name
    step(state, Move(1, 0))
    assert state.inventory == {strong.name: 1} and held(state, "heal") == strong.name
    events = step(state, Use(strong.name))
    assert events[0] == ItemUsed(strong.name) and state.hp == state.max_hp - 5
    assert "strong potion: +20 HP" in texts(events) and state.inventory == {}
