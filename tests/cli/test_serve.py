"""``roguelike serve`` without a browser: a tab's URL read into a start (refused in one line
when it cannot start), the game process's argument list, and the served app (Ctrl+X saves
and quits, a seed's unfinished world is continued, an export is delivered, a signal saves)."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.cli import main
from saves import Store
from screens.lasting import LastingApp
from screens.served import ServedApp
from screens.web.start import (
    MAX_VALUE,
    Start,
    StartRefused,
    child_argv,
    read_start,
)

CODE = seeds.encode(seeds.text_seed("abc"))  # the code of the text "abc", as shown


async def in_game(pilot, app) -> None:
    """Wait (bounded) until the app shows its game screen."""
    for _ in range(600):
        if app._game is not None and app.screen is app._game:
            return
        await pilot.pause(0.05)
    pytest.fail(f"the game screen never showed: {app.screen_stack}")


def test_a_seed_is_read_by_the_games_own_parsing_and_passed_as_its_code():
    assert read_start([("seed", "abc")]) == Start("seed", CODE)
    assert read_start([("seed", CODE.lower())]) == Start("seed", CODE)
    assert read_start([]) == Start()
    assert read_start([("daily", ""), ("fontsize", "20")]) == Start("daily")
    assert read_start([("replay", "20260102-a0b0c0")]) == Start("replay", "20260102-a0b0c0")


def test_an_empty_seed_is_refused_with_an_example_the_game_takes():
    """The example was ``?seed=K7QX-M2PA-9RTD``, of the old form, which the game refuses."""
    with pytest.raises(StartRefused) as refused:
        read_start([("seed", " ")])
    example = str(refused.value).split("?seed=", 1)[1]
    assert read_start([("seed", example)]) == Start("seed", example)


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ([("seed", "K7QX-M2PA-9RTE")], "seed: "),  # a mistyped code, as the game refuses it
        ([("seed", "x" * (MAX_VALUE + 1))], "longer than"),
        ([("seed", "abc"), ("daily", "")], "one start at a time"),
        ([("seed", "a"), ("seed", "b")], "given twice"),
        ([("cmd", "rm -rf /")], "unknown parameter"),
        ([("replay", "../../etc/passwd")], "letters, digits and dashes"),
        ([("import", "/etc/passwd")], "not an upload"),
        ([("daily", "yes")], "no value"),
        ([("a", "")] * 5, "too many"),
    ],
)
def test_a_link_that_cannot_start_is_refused_in_one_line(query, why):
    with pytest.raises(StartRefused) as refused:
        read_start(query)
    assert why in str(refused.value) and "\n" not in str(refused.value)


@given(st.lists(st.tuples(st.text(max_size=12), st.text(max_size=100)), max_size=6))
def test_any_query_starts_something_well_formed_or_is_refused_in_one_line(query):
    try:
        start = read_start(query)
    except StartRefused as err:
        assert "\n" not in str(err) and len(str(err)) < 200
        return
    argv = child_argv(start, "/saves", python="py")
    assert argv[:4] == ["py", "-m", "roguelike.cli", "--served"]
    if start.kind == "seed":  # only ever the canonical code reaches the process
        assert argv[-1] == seeds.encode(seeds.decode(argv[-1]))


def test_the_game_process_is_an_argument_list_of_the_command_line():
    assert child_argv(Start("seed", CODE), None, python="py") == [
        "py", "-m", "roguelike.cli", "--served", "--seed", CODE,
    ]  # fmt: skip
    assert child_argv(Start("replay", "r-1"), "/s", python="py")[-4:] == [
        "--save-dir", "/s", "replay", "r-1",
    ]  # fmt: skip


def test_the_served_options_are_refused_where_they_do_not_belong(capsys):
    assert main(["--import-file", "x.run"]) == 2
    assert "--import-file is for a browser tab" in capsys.readouterr().err
    assert main(["--served", "world", "list"]) == 2
    assert "--served is for a browser tab's game" in capsys.readouterr().err


def test_serve_refuses_a_port_that_is_not_one(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--port", "70000"])
    assert "70000 is not a port" in capsys.readouterr().err


@pytest.mark.parametrize(("games", "why"), [("0", "0 games"), ("many", "not a number")])
def test_serve_refuses_a_bound_on_games_that_is_not_one(capsys, games, why):
    with pytest.raises(SystemExit):
        main(["serve", "--games", games])
    assert why in capsys.readouterr().err


def test_the_bench_refuses_no_games(capsys):
    assert main(["bench", "--only", "serve", "--games", "0"]) != 0
    assert "--games must be at least 1" in capsys.readouterr().err


async def test_ctrl_x_saves_the_game_and_quits(tmp_path):
    app = ServedApp(seed=seeds.parse("abc"), save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await in_game(pilot, app)
        for _ in range(3):
            await pilot.press("s")
        name = app.session.world.name
        await pilot.press("ctrl+x")
        await pilot.pause()
    assert not app.is_running
    assert Store(tmp_path).info(name).turn == 3


async def test_a_seeds_unfinished_world_is_continued_not_started_again(tmp_path):
    first = ServedApp(seed=seeds.parse("abc"), save_dir=tmp_path)
    async with first.run_test(size=(100, 30)) as pilot:
        await in_game(pilot, first)
        await pilot.press("s")
        name = first.session.world.name
    again = ServedApp(seed=seeds.parse("abc"), save_dir=tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await in_game(pilot, again)
        assert again.session.world.name == name and again.session.state.turn == 1
    assert [w.name for w in Store(tmp_path).readable_list()] == [name]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
async def test_sighup_saves_the_game_before_the_app_ends(tmp_path):
    app = LastingApp(seed=seeds.parse("abc"), save_dir=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await in_game(pilot, app)
        for _ in range(2):
            await pilot.press("s")
        name = app.session.world.name
        os.kill(os.getpid(), signal.SIGHUP)  # the terminal closed
        await pilot.pause(0.2)
        # saved at the signal, before anything of the app was torn down
        assert Store(tmp_path).info(name).turn == 2
    assert not app.is_running


async def test_error_text_is_notified_as_text_not_markup(tmp_path, monkeypatch):
    """An error's text (a run file's field, a log path's error) may hold brackets: it is
    shown as written, never read as markup."""
    from saves.hall import Hall
    from saves.record import RunFileError

    def damaged(self, run_id):
        raise RunFileError("its world is [/x][bold]not a name")

    monkeypatch.setattr(Hall, "get", damaged)
    monkeypatch.setenv("ROGUELIKE_SERVED_LOG", str(tmp_path))  # a folder: not written
    app = ServedApp(save_dir=tmp_path / "saves")
    async with app.run_test(size=(100, 30)) as pilot:
        app.deliver_run("20260101-abc")
        await pilot.pause()
        shown = list(app._notifications)
    assert any("[/x][bold]not a name" in n.message for n in shown)
    assert any("not written" in n.message for n in shown)
    assert not any(n.markup for n in shown)


def test_no_screen_imports_the_command_line_package():
    """Imports run downward only: ``roguelike.cli`` is the composition root above ``screens``
    (the server's URL starts and club register are ``screens.web``'s own)."""
    import ast
    from pathlib import Path

    upward = []
    for path in sorted(Path("screens").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            upward += [f"{path}: {n}" for n in names if n.split(".")[:2] == ["roguelike", "cli"]]
    assert upward == []
