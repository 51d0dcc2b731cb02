"""Equipment as state: what the player wears and wields (and the other lasting upgrades) is
kept in ``state.equipment`` when the item is taken, and the sheet, look and the morgue read it;
a format 6 save, which did not keep it, gets it worked out once on load."""

from __future__ import annotations

from roguelike.engine.describe import describe, equipment_text, equipment_words, upgrades
from roguelike.engine.items import receive
from roguelike.recording import digest
from saves import codec
from saves.codec.migrations import equipment_of_numbers
from tests.saves.support import fresh_game, pack_as, world_of


def test_taking_an_upgrade_keeps_it_and_a_coin_or_pack_item_is_not_worn():
    state = fresh_game()
    for item in ("war axe", "iron plate", "hint coin", "healing potion", "iron plate"):
        receive(state, item)
    assert state.equipment == {"war axe": 1, "iron plate": 2}
    assert upgrades(state).axes == 1 and upgrades(state).plates == 2


def test_the_equipment_survives_corrosion_that_the_numbers_would_hide():
    """A corroded plate lowers the defence; the plate is still worn (the old reading of the
    numbers counted one plate fewer)."""
    state = fresh_game()
    receive(state, "iron plate")
    state.defence -= 1  # what a corroding blow does
    assert state.equipment == {"iron plate": 1}
    assert equipment_of_numbers({**_numbers(state)}) == {}


def test_the_words_say_what_each_upgrade_gives_and_costs():
    words = equipment_words({"tower plate": 2, "sharp blade": 1})
    assert words == [
        ("sharp blade", 1, "+1 damage"),
        ("tower plate", 2, "+6 defence, cost -40 speed"),
    ]
    assert equipment_text({"tower plate": 2, "sharp blade": 1}) == "a sharp blade, 2 tower plates"


def test_look_at_the_player_names_what_was_taken():
    state = fresh_game()
    x, y = state.player
    assert "taken:" not in describe(state, x, y)
    receive(state, "war axe")
    assert "taken: a war axe" in describe(state, x, y)


def test_the_state_digest_of_recordings_does_not_read_the_equipment():
    """The field is written when an item is taken: the digest already covers the items lying
    and the numbers they change, so the recordings' checks stay as they were."""
    state = fresh_game()
    before = digest(state)
    state.equipment["war axe"] = 1
    assert digest(state) == before


def test_a_format_6_save_gets_its_equipment_from_its_numbers():
    state = fresh_game()
    for item in ("war axe", "sharp blade", "heart elixir", "tower plate"):
        receive(state, item)
    world = world_of(state)
    doc = codec.to_document(world, state)
    del doc["state"]["equipment"]
    loaded = codec.decode(pack_as(world, state, doc, format=6))
    assert loaded.header.format == 6
    assert loaded.state.equipment == state.equipment
    again = codec.decode(codec.encode(world, loaded.state))
    assert again.header.format == codec.h.FORMAT_VERSION
    assert again.state.equipment == state.equipment


def _numbers(state) -> dict:
    return {
        "level": state.level,
        "max_hp": state.max_hp,
        "defence": state.defence,
        "accuracy": state.accuracy,
        "speed": state.speed,
        "attack": list(state.attack),
        "difficulty": state.difficulty,
    }
