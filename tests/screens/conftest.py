"""Fixtures of the screen tests: quiet worlds, and an app factory that records instead of
running."""

from __future__ import annotations

from typing import Any

import pytest

from roguelike.engine import GameState, new_game
from saves import World


def quiet_game(world: World) -> GameState:
    """A game of ``world`` without monsters and puzzles: nothing moves but the player."""
    return new_game(
        world.seed, preset=world.preset, world_name=world.name, monsters=False, puzzles=False
    )


@pytest.fixture
def quiet_worlds():
    """The ``make_game`` of an app whose games are quiet: ``RoguelikeApp(make_game=…)``."""
    return quiet_game


class FakeApp:
    """An app factory for ``main(argv, make_app=…)``: ``made`` gets the keyword arguments the
    app was made with, and ``ran`` once it was run."""

    def __init__(self) -> None:
        self.made: dict[str, Any] = {}

    def __call__(self, **kwargs: Any) -> FakeApp:
        self.made.update(kwargs)
        return self

    def run(self) -> None:
        self.made["ran"] = True


@pytest.fixture
def fake_app() -> FakeApp:
    return FakeApp()
