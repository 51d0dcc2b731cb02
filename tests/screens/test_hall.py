"""The hall of runs through the real application (``r`` on the title): the runs in score
order, filtered by outcome, seed and daily; a run's morgue text with a hostile world name shown
as text; watching a run; exporting it as a challenge file that another save folder imports;
the challenges list; and runs kept as abandoned when a world is deleted unfinished.

Records are made from one short bot run (tests/screens/conftest.py) with their claims
changed where a test needs other scores: the hall lists what files say, and only an import
checks claims by replay.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import DataTable, Input

from roguelike import seeds
from roguelike.engine import Wait
from saves import Store, World
from saves.hall import Hall
from saves.session import Games
from screens.app import RoguelikeApp
from screens.ask import AskScreen
from screens.hall import OUTCOME_FILTERS, HallScreen, MorgueScreen, shown
from screens.replay import ReplayScreen
from screens.title import TitleScreen
from tests.screens.support import delete_world, press_to, quiet_game, save_dir, screen_text


def fill_hall(run):
    """Four runs of different scores and outcomes (two on another seed, one daily)."""
    hall = Hall(save_dir())
    made = [
        dataclasses.replace(run, id="r-low", world="Low", score=120, outcome="died"),
        dataclasses.replace(run, id="r-top", world="Top", score=2500, outcome="won"),
        dataclasses.replace(run, id="r-mid", world="Mid", score=900, seed="0000-0000-C1SM"),
        dataclasses.replace(run, id="r-day", world="Day", score=400, daily="2026-01-02"),
    ]
    for record in made:
        hall.add(record)
    return hall


async def open_hall(pilot) -> HallScreen:
    await pilot.pause()
    assert isinstance(pilot.app.screen, TitleScreen)
    return await press_to(pilot, HallScreen, "r")


def ids(hall: HallScreen) -> list[str]:
    table = hall.query_one(DataTable)
    return [
        str(table.coordinate_to_cell_key((row, 0)).row_key.value) for row in range(table.row_count)
    ]


async def test_runs_in_score_order_and_filters(short_run):
    fill_hall(short_run)
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        hall = await open_hall(pilot)
        assert ids(hall) == ["r-top", "r-mid", "r-day", "r-low"]
        await pilot.press("o")  # won
        assert ids(hall) == ["r-top"]
        await pilot.press("o")  # died
        assert ids(hall) == ["r-low"]
        await pilot.press("o")  # abandoned
        assert ids(hall) == ["r-mid", "r-day"]
        await pilot.press("o")  # all again
        await pilot.press("d")
        assert ids(hall) == ["r-day"]
        await pilot.press("d")
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"c1sm")
        assert ids(hall) == ["r-mid"]
        await pilot.press("enter")  # back to the table
        assert isinstance(app.focused, DataTable)
        assert "1 of 4 shown" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, TitleScreen)


async def test_details_show_file_text_as_text(short_run):
    record = dataclasses.replace(
        short_run, world="[b]bold[/] [red", outcome="died", cause="[i]\x1b[2Jwipe"
    )
    Hall(save_dir()).add(record)
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        hall = await open_hall(pilot)
        assert "[b]bold[/] [red" in screen_text(app)
        assert "died: [i]\\x1b[2Jwipe" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, MorgueScreen)
        text = screen_text(app)
        assert "[b]bold[/] [red" in text
        assert "died: [i]\\x1b[2Jwipe" in text
        assert f"Turns        {record.turns}" in text
        await pilot.press("escape")
        assert app.screen is hall


async def test_watch_from_the_hall_and_back(short_run):
    Hall(save_dir()).add(short_run)
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        hall = await open_hall(pilot)
        await pilot.press("w")
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.record.id == short_run.id
        await pilot.press("escape")
        assert app.screen is hall


async def test_export_writes_a_file_that_imports(short_run, tmp_path):
    Hall(save_dir()).add(short_run)
    dest = tmp_path / "sent.run"
    app = RoguelikeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_hall(pilot)
        await pilot.press("x")
        ask = app.screen
        assert isinstance(ask, AskScreen)
        field = ask.query_one(Input)
        assert field.value == str(save_dir() / f"{short_run.id}.run")
        field.value = str(dest)
        await pilot.press("enter")
        assert isinstance(app.screen, HallScreen)
    assert dest.is_file()
    friend = Hall(tmp_path / "friend")
    got = friend.import_file(dest)  # replayed and checked
    assert got.id == short_run.id and got.digest == short_run.digest
    assert [r.id for r in friend.challenges()] == [short_run.id]


async def test_challenges_tab_and_play(short_run):
    Hall(save_dir()).add(dataclasses.replace(short_run, world="Theirs"), imported=True)
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        hall = await open_hall(pilot)
        assert ids(hall) == []
        await pilot.press("p")  # only on challenges
        assert app.screen is hall
        await pilot.press("tab")
        assert ids(hall) == [short_run.id]
        assert "Challenges received" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert app.session is not None
        assert app.session.challenge == short_run.id
        assert app.session.world.name == "Theirs challenge"


async def test_deleting_an_unfinished_world_keeps_its_run_as_abandoned():
    games = Games(Store(), make_game=quiet_game)
    with games.new(World("Left behind", 77, "small")) as session:
        for _ in range(3):
            session.step(Wait())
        session.save()
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await delete_world(pilot)
        await app.workers.wait_for_complete()  # its run is checked in a worker thread
        await pilot.pause()
    runs = Hall(save_dir()).runs()
    assert [(r.world, r.outcome, r.turns) for r in runs] == [("Left behind", "abandoned", 3)]
    assert not Store().exists("Left behind")


async def test_starting_a_world_again_over_an_unfinished_run_keeps_it_as_abandoned():
    games = Games(Store(), make_game=quiet_game)
    world = World("Again", 78, "small")
    with games.new(world) as session:
        session.step(Wait())
        session.save()
    app = RoguelikeApp(make_game=quiet_game)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.start_game(world)
        await app.workers.wait_for_complete()  # the old run is checked in a worker thread
        await pilot.pause()
        assert app.session is not None and app.session.state.turn == 0
    runs = Hall(save_dir()).runs()
    assert [(r.world, r.outcome, r.turns) for r in runs] == [("Again", "abandoned", 1)]


SEEDS = ("0THT-36DF-Z8BQ", "0000-0000-C1SM")


@given(
    picks=st.lists(
        st.tuples(
            st.sampled_from(["won", "died", "abandoned"]), st.sampled_from(SEEDS), st.booleans()
        ),
        max_size=12,
    ),
    outcome=st.sampled_from(OUTCOME_FILTERS),
    seed=st.sampled_from(["", "c1sm", "0THT-36", "zzz", " 0000 "]),
    daily=st.booleans(),
)
def test_filters_keep_exactly_the_matching_runs_in_order(short_run, picks, outcome, seed, daily):
    records = [
        dataclasses.replace(
            short_run, id=f"r{i}", outcome=o, seed=code, daily="2026-01-02" if d else None
        )
        for i, (o, code, d) in enumerate(picks)
    ]
    got = shown(records, outcome, seed, daily)
    want = seed.replace("-", "").strip().upper()
    assert [r.id for r in got] == [
        r.id
        for r in records
        if outcome in ("all", r.outcome)
        and (
            want in r.seed.replace("-", "")  # as older releases showed it
            or want in seeds.shown(r.seed, r.generator).replace("-", "")  # as shown now
        )
        and (r.daily is not None or not daily)
    ]


def test_the_filter_finds_a_run_by_its_code_as_shown(short_run):
    run = dataclasses.replace(short_run, seed="0THT-36DF-Z8BQ")
    code = seeds.shown(run.seed, run.generator)
    assert code.startswith(f"{run.generator}-") and code != run.seed
    assert shown([run], seed=code) == [run] == shown([run], seed=code.lower().replace("-", ""))
    assert shown([run], seed=seeds.encode(seeds.read_stored(run.seed), "1")) == []
