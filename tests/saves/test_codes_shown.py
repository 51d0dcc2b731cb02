"""Codes as the game shows them (world lists, the daily, the hall and the morgue) name their
generator, and typed as shown they give the same seed on the same version; shown with another
generator's number they are refused, never another world."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.version import GENERATOR_VERSION
from saves.morgue import morgue
from saves.world import World, WorldInfo, daily_code, daily_seed
from tests.saves.run_support import plain_record

seed_values = st.integers(min_value=0, max_value=(1 << seeds.SEED_BITS) - 1)


@given(seed_values)
def test_a_world_shows_a_code_that_gives_it_back(seed):
    world = World("W", seed)
    assert world.code.startswith(f"{GENERATOR_VERSION}-")
    assert seeds.parse(world.code) == seed
    assert seeds.parse(world.code.replace("-", "").lower()) == seed
    assert World.new("W2", world.code).seed == seed


@given(seed_values, st.integers(1, 31).map(str))
def test_a_file_s_code_is_shown_with_the_file_s_generator(seed, generator):
    shown = seeds.shown(seeds.stored(seed), generator)
    assert shown == seeds.encode(seed, generator)
    if generator == GENERATOR_VERSION:
        assert seeds.parse(shown) == seed
    else:  # a world of another generator: its code says so, and this game refuses it
        with pytest.raises(seeds.OtherGeneratorError, match=f"for generator {generator};"):
            seeds.parse(shown)


def test_a_damaged_file_s_text_is_shown_as_it_is():
    assert seeds.shown("not a code", GENERATOR_VERSION) == "not a code"
    assert seeds.shown(seeds.stored(7), "x") == seeds.stored(7)


def test_the_daily_code_names_the_generator_and_gives_the_daily_world():
    day = dt.date(2026, 11, 28)
    assert seeds.parse(daily_code(day)) == daily_seed(day)
    assert daily_code(day).startswith(f"{GENERATOR_VERSION}-")


def test_the_world_list_json_and_the_morgue_show_the_versioned_code():
    record = plain_record(1)
    text = morgue(record)
    shown = seeds.shown(record.seed, record.generator)
    assert f"(seed {shown}," in text and record.seed not in text
    assert seeds.parse(shown) == seeds.read_stored(record.seed)
    info = WorldInfo(
        name="W", seed=record.seed, preset="small", floor=1, floors=3, turn=0, created="",
        saved="", permadeath=False, dead=False, won=False, generator="4", game_version="0",
        path="w.rgl",
    )  # fmt: skip
    assert info.to_json()["seed"] == seeds.encode(seeds.read_stored(record.seed), "4")
