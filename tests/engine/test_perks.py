"""Perks: each level beyond the first owes one of three perks offered from the seed and the
level; the choice is an action that spends no turn, is recorded and replays; each perk does
what it says (toughness, accuracy, regeneration, stealth, bomb craft, identify by touch, keen
eyes, thick skin)."""

from __future__ import annotations

import pytest

from roguelike.autoplay import play
from roguelike.engine import ChoosePerk, Wait, new_game, step
from roguelike.engine.balance import (
    PERK_ACCURACY,
    PERK_BOMB,
    PERK_OFFERED,
    PERK_SKIN,
    PERK_STEALTH,
    PERK_TOUGHNESS_HP,
    PERKS,
    PLAYER_ACCURACY,
)
from roguelike.engine.combat import gain_xp
from roguelike.engine.items import bomb_roll
from roguelike.engine.perks import choose_perk, has_perk, offer_for, perk_count
from roguelike.engine.turn import regenerate
from roguelike.recording import Recording, decode_action, digest, encode_action, replay
from tests.engine.support import fresh


def _level_up(state, levels: int = 1) -> None:
    for _ in range(levels):
        gain_xp(state, state.xp_to_next - state.xp)


def _take(state, name: str) -> None:
    """Offer ``name`` at the next owed level (as a test would arrange it) and take it."""
    state.perk_offer = (name,)
    choose_perk(state, 0)


def test_there_are_at_least_six_perks_and_a_level_up_offers_three_distinct_ones():
    assert len(PERKS) >= 6
    state = fresh(5)
    assert state.perk_offer == ()
    _level_up(state)
    assert len(state.perk_offer) == PERK_OFFERED == len(set(state.perk_offer))
    assert set(state.perk_offer) <= set(PERKS)


def test_two_players_of_one_world_at_one_level_are_offered_the_same_three():
    a, b = fresh(5), fresh(5)
    b.hp -= 7  # what they did on the way does not matter
    _level_up(a, 3)
    _level_up(b, 3)
    assert a.perk_offer == b.perk_offer == offer_for(a, 2)
    # another level, another offer (from its own stream); another world, another one
    others = {offer_for(a, level) for level in range(2, 10)}
    assert len(others) > 1
    assert any(offer_for(fresh(6), lv) != offer_for(a, lv) for lv in range(2, 10))


def test_each_level_owes_one_perk_and_the_offers_follow_in_order():
    state = fresh(5)
    _level_up(state, 2)
    assert state.level == 3
    first = state.perk_offer
    events = step(state, ChoosePerk(1))
    assert state.perks == [first[1]]
    assert state.turn == 0  # a choice spends no turn
    assert any("perk" in getattr(e, "text", "") for e in events)
    assert state.perk_offer == offer_for(state, 3)
    step(state, ChoosePerk(0))
    assert len(state.perks) == 2 and state.perk_offer == ()
    refused = step(state, ChoosePerk(0))
    assert state.perks and len(state.perks) == 2
    assert "No perk" in refused[0].text


def test_an_index_outside_the_offer_is_refused():
    state = fresh(5)
    _level_up(state)
    step(state, ChoosePerk(PERK_OFFERED))
    assert state.perks == [] and state.perk_offer


def test_play_goes_on_while_an_offer_waits():
    state = fresh(5)
    _level_up(state)
    offer = state.perk_offer
    step(state, Wait())
    assert state.turn == 1 and state.perk_offer == offer


def test_a_perk_taken_its_most_times_is_no_longer_offered():
    state = fresh(5)
    state.level = 30
    _take(state, "identify by touch")
    assert has_perk(state, "identify by touch")
    for level in range(2, 30):
        assert "identify by touch" not in offer_for(state, level)


def test_toughness_adds_hp_and_thick_skin_defence_and_accuracy_to_hit():
    state = fresh(5)
    state.level = 5
    hp, top = state.hp, state.max_hp
    _take(state, "toughness")
    assert (state.hp, state.max_hp) == (hp + PERK_TOUGHNESS_HP, top + PERK_TOUGHNESS_HP)
    _take(state, "thick skin")
    assert state.defence == PERK_SKIN
    _take(state, "accuracy")
    assert state.accuracy == PLAYER_ACCURACY + PERK_ACCURACY
    _take(state, "stealth")
    assert state.stealth == PERK_STEALTH


def test_regeneration_heals_sooner():
    plain, quick = fresh(5), fresh(5)
    quick.level = plain.level = 2
    _take(quick, "regeneration")
    for s in (plain, quick):
        s.hp = 1
        for _ in range(20):
            regenerate(s)
    assert quick.hp > plain.hp


def test_bomb_craft_makes_bombs_burn_harder():
    state = fresh(5)
    before = bomb_roll(state)
    state.level = 2
    _take(state, "bomb craft")
    assert bomb_roll(state) == (before[0] + PERK_BOMB, before[1] + PERK_BOMB)
    assert perk_count(state, "bomb craft") == 1


@pytest.mark.parametrize("index", range(PERK_OFFERED))
def test_the_choice_has_a_recorded_code(index):
    assert decode_action(encode_action(ChoosePerk(index))) == ChoosePerk(index)
    with pytest.raises(ValueError):
        decode_action(f"P{PERK_OFFERED}")


def test_a_recorded_run_with_perk_choices_replays_to_the_same_state():
    """The bot levels up and takes perks; the recording replays them bit-exact."""
    state = new_game(3, total_floors=2)
    rec = Recording.begin(state)
    play(state, recording=rec, limit=1500)
    assert state.perks, "the run should have levelled up"
    assert any(isinstance(decode_action(c), ChoosePerk) for c in rec.actions)
    again, _ = replay(rec)
    assert again.perks == state.perks
    assert digest(again) == digest(state)


def test_identify_by_touch_names_the_pack_when_taken_and_each_potion_or_scroll_picked_up():
    """The perk once did nothing at all (nothing read it: found playing floor 1 at 80x24, a
    pink potion picked up after taking it stayed unknown)."""
    from roguelike.engine.describe import item_label
    from roguelike.engine.identify import is_known, look
    from roguelike.engine.items import take_here

    state = fresh(5)
    state.level = 5
    state.inventory = {"healing potion": 2, "blink scroll": 1, "sharp blade": 1}
    assert not is_known(state, "healing potion") and not is_known(state, "blink scroll")
    state.perk_offer = ("identify by touch",)
    (said,) = choose_perk(state, 0)
    assert is_known(state, "healing potion") and is_known(state, "blink scroll")
    potion, scroll = look(state, "healing potion")[0], look(state, "blink scroll")[0]
    assert f"The {potion} is a healing potion; the {scroll} is a blink scroll." in said.text
    # each one picked up after is known as it is taken, and the pick-up says so
    state.items_lying[state.player] = "summoning scroll"
    assert not is_known(state, "summoning scroll")
    events = take_here(state)
    assert is_known(state, "summoning scroll")
    titled = look(state, "summoning scroll")[0]
    assert any(
        getattr(e, "text", "")
        == f"You pick up a {titled}: by touch, you know it is a summoning scroll."
        for e in events
    )
    assert item_label(state, "summoning scroll") == "summoning scroll"


def test_without_the_perk_a_potion_picked_up_stays_unknown():
    from roguelike.engine.identify import is_known
    from roguelike.engine.items import take_here

    state = fresh(5)
    state.items_lying[state.player] = "darkness potion"
    take_here(state)
    assert state.inventory["darkness potion"] == 1 and not is_known(state, "darkness potion")
