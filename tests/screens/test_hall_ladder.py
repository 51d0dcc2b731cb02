"""The hall's ``l``: the ladder of the highlighted run's world among the hall's runs and
challenges, best first, as text (a run of another seed is not on it)."""

from __future__ import annotations

import dataclasses

from textual.widgets import Static

from roguelike import seeds
from saves.hall import Hall
from screens.app import RoguelikeApp
from screens.hall import HallScreen
from screens.morgue import MorgueScreen
from tests.screens.support import press_to, save_dir


async def test_the_ladder_of_a_runs_world(short_run, won_run):
    hall = Hall(save_dir())
    hall.add(short_run)
    # the same world played again, to its end: a higher score; and a run of another seed
    # (another run, not the same one re-dated: a ladder counts that once)
    better = dataclasses.replace(won_run, id="r-better", world="Again")
    assert better.score > short_run.score
    hall.add(better)
    hall.add(dataclasses.replace(short_run, id="r-other", world="Other", seed="0000-0000-C1SM"))
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await press_to(pilot, HallScreen, "r")
        morgue = await press_to(pilot, MorgueScreen, "l")
        text = str(morgue.query_one("#morgue-text", Static).render())
    lines = text.splitlines()
    assert lines[0].startswith(f"Ladder of seed {seeds.shown(short_run.seed, short_run.generator)}")
    ranked = [line.split()[0] for line in lines[2:4]]
    assert ranked == ["1", "2"]
    assert "r-better" in lines[2] and short_run.id in lines[3]
    assert "r-other" not in text
