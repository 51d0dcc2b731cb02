"""The bot and a puzzle that changes the floor: it finishes a floor whose map it revealed
and one whose shortcut it opened (an optional pedestal is one more puzzle on its way, worth
the turn it costs it)."""

from __future__ import annotations

import pytest

from roguelike.autoplay import decide
from roguelike.engine import new_game, step
from roguelike.gen.pipeline import generate_floor


def _first(kind: str) -> tuple[int, int]:
    """The first world (by seed) and floor (1 or 3) holding a change of ``kind``."""
    for seed in range(40):
        for number in (1, 3):
            fl = generate_floor(seed, number, stop_after="population")
            if any(c.kind == kind for c in fl.changes):
                return seed, number
    raise AssertionError(f"no {kind} on floors 1 or 3 of seeds 0..39")


@pytest.mark.parametrize("kind", ["reveal", "shortcut"])
def test_it_solves_the_change_and_finishes_the_floor(kind):
    seed, number = _first(kind)
    state = new_game(seed, total_floors=number + 1, floor=number, monsters=False)
    (ch,) = state.floor.changes
    room = state.puzzles[(ch.x, ch.y)]
    for _ in range(4000):
        if state.number > number or state.over:
            break
        step(state, decide(state).action)
    assert state.number == number + 1 or state.won
    assert room.solved
