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
