"""Fixtures of the screen tests: quiet worlds, recorded runs, floors generated once, and the
bot's clock by hand."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

import roguelike.engine.state
import screens.game.watch
from roguelike.gen.floor import Floor
from tests.screens.support import HandClock, bot_record, quiet_game

#: What :mod:`roguelike.engine.state` generates floors with, before the tests share them.
_generate = roguelike.engine.state.generate_floor


@cache
def _shared_floor(seed: int, number: int, last: bool) -> Floor:
    """Floor ``number`` of world ``seed``, generated once for all the screen tests, its arrays
    read-only: a test that wrote one would raise instead of changing the next test's floor."""
    floor = _generate(seed, number, last=last)
    for array in (floor.tiles, floor.room_map, floor.protected, floor.zone):
        array.flags.writeable = False
    return floor


def shared_floor(seed: int, number: int, *, last: bool) -> Floor:
    """The shared floor, with a tile array of its own: ``new_game`` plays on the floor's own
    tile array (opening a door writes it), so that one array is copied, the rest shared."""
    floor = _shared_floor(seed, number, last)
    return replace(floor, tiles=floor.tiles.copy())


@pytest.fixture(scope="session", autouse=True)
def _floors_generated_once():
    """Every game the screen tests make (new games, the stairs) takes its floors from one
    cache: the same seed gives the same floor, so generating it again only costs time."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(roguelike.engine.state, "generate_floor", shared_floor)
        yield


@pytest.fixture
def quiet_worlds():
    """The ``make_game`` of an app whose games are quiet: ``RoguelikeApp(make_game=…)``."""
    return quiet_game


@pytest.fixture
def hand_clock(monkeypatch) -> HandClock:
    """The clock of every game screen made in the test: the bot acts at ``hand_clock.tick()``."""
    clock = HandClock()
    monkeypatch.setattr(screens.game.watch, "default_clock", lambda screen: clock)
    return clock


@pytest.fixture(scope="session")
def short_run():
    """A run record of 45 bot actions in a quiet small world (abandoned on floor 1)."""
    return bot_record(45)


@pytest.fixture(scope="session")
def won_run():
    """A run record of the bot winning a quiet small world (about 70 actions)."""
    return bot_record(world="Quiet winner")
