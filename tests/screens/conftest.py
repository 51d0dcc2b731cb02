"""Fixtures of the screen tests: quiet worlds."""

from __future__ import annotations

import pytest

from roguelike.engine import GameState, new_game
from saves import World
from tests.screens.support import bot_record


def quiet_game(world: World) -> GameState:
    """A game of ``world`` without monsters and puzzles: nothing moves but the player."""
    return new_game(
        world.seed,
        preset=world.preset,
        world_name=world.name,
        monsters=False,
        puzzles=False,
        difficulty=world.difficulty,
    )


@pytest.fixture
def quiet_worlds():
    """The ``make_game`` of an app whose games are quiet: ``RoguelikeApp(make_game=…)``."""
    return quiet_game


@pytest.fixture(scope="session")
def short_run():
    """A run record of 45 bot actions in a quiet small world (abandoned on floor 1)."""
    return bot_record(45)


@pytest.fixture(scope="session")
def won_run():
    """A run record of the bot winning a quiet small world (about 70 actions)."""
    return bot_record(world="Quiet winner")
