"""Fixtures of the screen tests: quiet worlds, and the app replaced by a recorder."""

import pytest


@pytest.fixture
def quiet_worlds(monkeypatch):
    """Games made by the app without monsters and puzzles: nothing moves but the player."""
    import screens.app
    from roguelike.engine import new_game

    monkeypatch.setattr(
        screens.app,
        "make_game",
        lambda choice: new_game(
            choice.seed,
            preset=choice.preset,
            world_name=choice.world_name,
            monsters=False,
            puzzles=False,
        ),
    )


@pytest.fixture
def fake_app(monkeypatch) -> dict:
    """``roguelike``'s app replaced by a recorder: the returned dict gets the keyword
    arguments it was made with, and ``ran`` once it was run."""
    made: dict = {}

    class FakeApp:
        def __init__(self, **kwargs):
            made.update(kwargs)

        def run(self):
            made["ran"] = True

    monkeypatch.setattr("screens.app.RoguelikeApp", FakeApp)
    return made
