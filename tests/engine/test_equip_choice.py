"""Equipment as a choice: a weapon and an armour slot; a wearable taken goes into the pack (on
at once only into an empty slot, and only without a cost), so a vault or a hoard never puts a
cost on the player; wearing and taking off spend a turn; the numbers are computed from what is
worn, never accumulated; corrosion lowers the worn item's enchantment and taking a corroded
plate off ends its slowness (the bug: a plate eaten to defence 0 still slowed the player)."""

from __future__ import annotations

from roguelike.autoplay import Memory, decide
from roguelike.engine import MONSTERS, Move, PickUp, TakeOff, Wear, describe, step
from roguelike.engine.balance import PLAYER_ACCURACY, PLAYER_SPEED
from roguelike.engine.combat import gain_xp, monster_hits
from roguelike.engine.describe import equipment_text, equipment_words, level_attack
from roguelike.engine.gear import corrode, refresh, worn
from roguelike.engine.items import receive
from roguelike.recording import decode_action, digest, encode_action
from tests.engine.support import add, arena, fresh, off


def test_a_costless_wearable_goes_on_into_an_empty_slot_and_a_costly_one_into_the_pack():
    state = fresh(5)
    receive(state, "iron plate")
    assert state.equipment == {"iron plate": 0} and state.defence == 1
    receive(state, "tower plate")  # a cost: never put on without a choice
    assert worn(state, "armour") == "iron plate" and state.speed == PLAYER_SPEED
    assert state.inventory == {"tower plate": 1}
    receive(state, "war axe")  # the weapon slot is empty, but the axe has a cost
    assert worn(state, "weapon") is None and state.accuracy == PLAYER_ACCURACY
    receive(state, "sharp blade")
    assert worn(state, "weapon") == "sharp blade"
    receive(state, "sharp blade")  # the slot is full: the second waits in the pack
    assert state.inventory["sharp blade"] == 1 and state.attack == (
        level_attack(1)[0] + 1,
        level_attack(1)[1] + 1,
    )


def test_walking_into_a_vaults_costly_treasure_never_equips_it():
    """The bug: walking over a vault's tower plate (or `e` doing it) strapped it on."""
    state, c = arena()
    state.items_lying[off(c, 1, 0)] = "tower plate"
    state.items_lying[off(c, 2, 0)] = "war axe"
    step(state, Move(1, 0))
    step(state, Move(1, 0))
    assert state.equipment == {}
    assert state.speed == PLAYER_SPEED and state.accuracy == PLAYER_ACCURACY
    assert state.inventory == {"tower plate": 1, "war axe": 1}


def test_a_hoards_pick_goes_into_the_pack_when_it_has_a_cost():
    state, c = arena()
    state.items_lying[c] = "tower plate"
    state.choices[c] = 0
    step(state, PickUp())
    assert state.inventory == {"tower plate": 1} and state.equipment == {}


def test_wearing_swaps_and_spends_a_turn_and_taking_off_gives_the_numbers_back():
    state, _ = arena()
    receive(state, "iron plate")
    receive(state, "tower plate")
    turn = state.turn
    step(state, Wear("tower plate"))
    assert state.turn == turn + 1
    assert state.equipment == {"tower plate": 0} and state.inventory == {"iron plate": 1}
    assert (state.defence, state.speed) == (3, PLAYER_SPEED - 20)
    step(state, TakeOff("armour"))
    assert state.turn == turn + 2
    assert state.equipment == {} and state.inventory == {"iron plate": 1, "tower plate": 1}
    assert (state.defence, state.speed) == (0, PLAYER_SPEED)
    # refused without a turn: nothing in the slot, nothing such in the pack
    step(state, TakeOff("armour"))
    step(state, Wear("war axe"))
    assert state.turn == turn + 2


def test_the_numbers_are_computed_from_what_is_worn_never_accumulated():
    state, _ = arena()
    receive(state, "war axe")
    for _ in range(3):
        step(state, Wear("war axe"))
        step(state, TakeOff("weapon"))
    step(state, Wear("war axe"))
    gain_xp(state, 30)
    lo, hi = level_attack(state.level)
    assert state.attack == (lo + 3, hi + 3)
    assert state.accuracy == PLAYER_ACCURACY - 15
    step(state, TakeOff("weapon"))
    assert state.attack == (lo, hi) and state.accuracy == PLAYER_ACCURACY


def test_corrosion_eats_the_worn_plate_and_taking_it_off_ends_its_slowness():
    """The bug: a tower plate eaten to defence 0 still slowed the player, and could not be
    taken off."""
    state, c = arena()
    receive(state, "tower plate")
    step(state, Wear("tower plate"))
    for _ in range(5):
        corrode(state, "acid ooze")
    assert state.equipment == {"tower plate": -3} and state.defence == 0
    assert state.speed == PLAYER_SPEED - 20  # the cost of wearing it stays while it is worn
    step(state, TakeOff("armour"))
    assert state.speed == PLAYER_SPEED and state.defence == 0
    assert "tower plate" not in state.inventory  # a corroded plate falls apart


def test_corrosion_goes_on_to_the_weapon_when_the_armour_is_eaten():
    state, _ = arena()
    receive(state, "iron plate")
    receive(state, "sharp blade")
    base = level_attack(1)
    corrode(state, "rust mite")
    assert state.defence == 0 and state.equipment["iron plate"] == -1
    corrode(state, "rust mite")
    assert state.attack == base and state.equipment["sharp blade"] == -1
    assert corrode(state, "rust mite") == []  # nothing left to eat


def test_a_corroding_monsters_blow_reaches_the_worn_item():
    state, c = arena()
    receive(state, "iron plate")
    m = add(state, "acid ooze", off(c, 1, 0))
    state.hp = state.max_hp = 10_000
    for _ in range(60):
        monster_hits(state, m, ranged=False)
    assert state.equipment["iron plate"] == -1 and MONSTERS["acid ooze"].corrodes


def test_the_actions_have_recorded_codes():
    for action in (Wear("tower plate"), TakeOff("armour"), TakeOff("weapon")):
        assert decode_action(encode_action(action)) == action


def test_the_digest_reads_what_is_worn():
    state, _ = arena()
    receive(state, "tower plate")
    before = digest(state)
    step(state, Wear("tower plate"))
    after = digest(state)
    state.equipment["tower plate"] = -1
    assert len({before, after, digest(state)}) == 3


def test_the_words_say_what_is_worn_and_look_names_it():
    assert equipment_words({"tower plate": -1, "war axe": 0}) == [
        ("war axe", 0, "+3 damage, cost -15% to hit"),
        ("tower plate", -1, "+2 defence (corroded -1), cost -20 speed"),
    ]
    assert equipment_text({"iron plate": 0, "sharp blade": 0}) == "a sharp blade, an iron plate"
    state, c = arena()
    assert "wearing" not in describe(state, *c)
    receive(state, "iron plate")
    assert "wearing an iron plate" in describe(state, *c)


def test_refresh_is_idempotent():
    state, _ = arena()
    receive(state, "sharp blade")
    numbers = (state.attack, state.defence, state.accuracy, state.speed)
    refresh(state)
    refresh(state)
    assert (state.attack, state.defence, state.accuracy, state.speed) == numbers


def test_the_bot_wears_a_better_plate_and_takes_off_one_eaten_to_its_cost():
    state, _ = arena()
    receive(state, "iron plate")
    receive(state, "tower plate")
    d = decide(state, memory=Memory())
    assert d.action == Wear("tower plate")  # +3 defence is worth the slowness
    step(state, d.action)
    for _ in range(3):
        corrode(state, "acid ooze")
    d = decide(state, memory=Memory())
    assert d.action in (Wear("iron plate"), TakeOff("armour"))
