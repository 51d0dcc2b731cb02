"""Shared test settings: hypothesis profiles sized for a 2-core CI machine."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _save_dir(tmp_path_factory, monkeypatch):
    """Every test saves its worlds in a folder of its own, never in the player's."""
    monkeypatch.setenv("ROGUELIKE_SAVE_DIR", str(tmp_path_factory.mktemp("worlds")))


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
