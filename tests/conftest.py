"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, a save folder per
test (and a config folder), and an app factory that records instead of running."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _custom_worlds(monkeypatch):
    """Tests record runs in tiny worlds (one floor, no monsters) to stay fast; a real run file
    is checked only if it was played in the world the game makes of its seed and preset
    (``saves.verify.CUSTOM_WORLDS``). The tests of that check turn it back off."""
    import saves.verify

    monkeypatch.setattr(saves.verify, "CUSTOM_WORLDS", True)


@pytest.fixture(autouse=True)
def _save_dir(tmp_path_factory, monkeypatch):
    """Every test saves its worlds in a folder of its own, never in the player's."""
    monkeypatch.setenv("ROGUELIKE_SAVE_DIR", str(tmp_path_factory.mktemp("worlds")))


@pytest.fixture(autouse=True)
def _config_dir(tmp_path_factory, monkeypatch):
    """Every test reads and writes its options in a folder of its own, never the player's."""
    monkeypatch.setenv("ROGUELIKE_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))


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
