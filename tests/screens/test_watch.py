"""Watch mode through the real application: the bot plays on the game screen (a timer, no key
pressed), pauses, changes speed, stops under other screens and at the run's end, solves a
pedestal on the puzzle screen, and hands the wheel to the player at the first game key — only
then is the world saved. Also the title's ``w`` and ``roguelike --watch``.

The bot's clock is turned by hand (the ``hand_clock`` fixture): a test ticks it and looks, and
never waits on a real timer; one test (marked slow) lets Textual's timers drive it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import roguelike.autoplay.core
from roguelike import seeds, tiles
from roguelike.cli import main
from roguelike.engine import GameState, Monster, new_game
from roguelike.presets import DEFAULT_PRESET, PRESETS
from saves import Store, World, world_name_for
from screens.app import RoguelikeApp
from screens.game import DEFAULT_SPEED, SPEEDS, GameScreen
from screens.history import HistoryScreen
from screens.puzzle import PuzzleScreen
from screens.summary import SummaryScreen
from screens.title import TitleScreen
from tests.screens.support import VI, HandClock, screen_text

SEED = seeds.read_stored("N65Q-QBJ0-23PV")
NAME = world_name_for(SEED)
#: A small world whose first floor the bot leaves in few actions (about 600).
QUICK = seeds.parse("e")


def saved_files() -> list[Path]:
    return sorted(Path(os.environ["ROGUELIKE_SAVE_DIR"]).glob("*"))


async def wait_for(pilot, done, *, rounds: int = 200, step: float = 0.05) -> bool:
    """Let the app run until ``done()`` is true (at most ``rounds`` pauses)."""
    for _ in range(rounds):
        if done():
            return True
        await pilot.pause(step)
    return done()


async def ticks(pilot, clock: HandClock, done, *, most: int = 50, per_draw: int = 1) -> bool:
    """Tick the bot's clock (letting the app draw after every ``per_draw`` ticks) until
    ``done()`` (at most ``most`` ticks, or until the clock stops)."""
    for n in range(most):
        if done():
            return True
        if not clock.tick():
            break
        if (n + 1) % per_draw == 0:
            await pilot.pause()
    await pilot.pause()
    return done()


async def top_speed(pilot, game: GameScreen) -> None:
    """Set the bot's fastest speed with the keys."""
    for _ in range(len(SPEEDS)):
        await pilot.press("plus")
    assert game.bot.speed == len(SPEEDS) and not game.bot.paused


async def watching(pilot) -> GameScreen:
    await pilot.pause()
    game = pilot.app.screen
    assert isinstance(game, GameScreen) and game.bot.autopilot
    return game


def open_step(state: GameState) -> tuple[int, int]:
    """A direction the player can step in from where it stands (not a door: a closed door
    opens, taking the turn, and the player stays where it was)."""
    x, y = state.player
    walk = tiles.WALKABLE[state.tiles]
    door = (state.tiles == tiles.DOOR) | (state.tiles >= tiles.LOCKED_FIRST)
    return next(
        (dx, dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if walk[y + dy, x + dx]
        and not door[y + dy, x + dx]
        and state.monster_at(x + dx, y + dy) is None
    )


# -- the bot at the wheel ------------------------------------------------------------------


@pytest.mark.slow
async def test_the_bot_plays_with_no_key_pressed_and_says_why():
    """The one test on Textual's real timers: the bot plays with nothing but time passing."""
    app = RoguelikeApp(seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        assert state.seed == SEED and state.total_floors == 3
        assert game.bot.speed == DEFAULT_SPEED and game.bot.running
        # where the game began: on a busy machine the bot has moved before this line, and
        # may stand still at a pedestal by the time it has played three turns
        start = state.floor.spawn
        assert await wait_for(pilot, lambda: state.turn >= 3)
        assert state.player != start
        text = screen_text(app)
        assert f"Watching: {game.bot.why}" in text and game.bot.why  # e.g. "exploring"
        assert f"speed {DEFAULT_SPEED}/{len(SPEEDS)}" in text
        assert "takes over" in text
    assert saved_files() == []  # a watched game is not saved


async def test_space_pauses_f_steps_once_and_space_resumes(quiet_worlds, hand_clock):
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        await pilot.press("space")
        assert game.bot.paused and game.bot.autopilot and not hand_clock.running
        turn = state.turn
        assert not hand_clock.tick() and state.turn == turn  # no tick comes while paused
        assert "Paused:" in screen_text(app) and "space resumes" in screen_text(app)
        await pilot.press("f")  # one step of exploring
        assert state.turn == turn + 1 and game.bot.paused
        await pilot.press("space")
        assert not game.bot.paused and hand_clock.running
        assert await ticks(pilot, hand_clock, lambda: state.turn > turn + 2)


async def test_plus_and_minus_change_the_speed_and_the_timer(hand_clock):
    app = RoguelikeApp(seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        intervals = {DEFAULT_SPEED: hand_clock.interval}
        await pilot.press("plus")
        assert game.bot.speed == DEFAULT_SPEED + 1
        intervals[game.bot.speed] = hand_clock.interval
        await pilot.press("space")
        for _ in range(len(SPEEDS)):
            await pilot.press("minus")
        assert game.bot.speed == 1  # never below the slowest
        await pilot.press("equals_sign")  # = is + without shift
        await pilot.press("space")
        assert game.bot.speed == 2
        intervals[2] = hand_clock.interval
        assert f"speed 2/{len(SPEEDS)}" in screen_text(app)
        for speed, interval in intervals.items():
            assert interval == pytest.approx(1 / SPEEDS[speed - 1])
        assert intervals[2] > intervals[DEFAULT_SPEED] > intervals[DEFAULT_SPEED + 1]
        await top_speed(pilot, game)
        assert hand_clock.interval == pytest.approx(1 / SPEEDS[-1]) and SPEEDS[-1] >= 30
        assert SPEEDS[0] <= 2 and 6 <= SPEEDS[DEFAULT_SPEED - 1] <= 8


async def test_the_bot_waits_while_another_screen_is_on_top(hand_clock):
    app = RoguelikeApp(seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        await pilot.press("m")  # the history does not take the wheel
        assert isinstance(app.screen, HistoryScreen)
        turn = state.turn
        for _ in range(5):
            assert hand_clock.tick()  # the clock still ticks: the bot lets the ticks pass
        assert state.turn == turn and game.bot.autopilot
        await pilot.press("escape")
        assert app.screen is game
        assert await ticks(pilot, hand_clock, lambda: state.turn > turn)


# -- taking over -----------------------------------------------------------------------------


async def test_a_movement_key_takes_over_while_the_bot_runs(quiet_worlds, hand_clock):
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        game = await watching(pilot)
        state = game.state
        assert await ticks(pilot, hand_clock, lambda: state.turn >= 2)
        assert hand_clock.running  # the bot is running
        before = state.turn
        await pilot.press("l")
        assert not game.bot.autopilot and not hand_clock.running
        turn = state.turn
        assert turn in (before, before + 1)  # the key's move (or bump), no more
        assert not hand_clock.tick() and state.turn == turn  # the bot plays no more
        assert "Watching" not in screen_text(app)
        info = Store().info(NAME)  # saved when the player took the wheel
        assert info.seed == seeds.stored(SEED) and info.turn == before
        assert any(f"Saved as {NAME}" in str(n.message) for n in app._notifications)
        assert app.session is not None and app.session.world.name == NAME
        assert not app.session.watching


async def test_the_taken_over_move_is_made_and_the_game_is_saved_from_then_on(quiet_worlds):
    # a world of that name exists already
    Store().save(new_game(1, preset="small", world_name=NAME), World.new(NAME, 1, preset="small"))
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        await pilot.press("space")
        (dx, dy), (x, y), turn = open_step(state), state.player, state.turn
        await pilot.press(VI[(dx, dy)])
        assert state.player == (x + dx, y + dy) and state.turn == turn + 1
        assert not game.bot.autopilot
        name = f"{NAME} 2"  # its own name was taken: the next free one, as a new game does
        assert app.session is not None and app.session.world.name == name
        assert state.world_name == name and game.world_name == name
        assert Store().info(name).turn == turn
        await pilot.press(VI[(-dx, -dy)])
        await pilot.press("ctrl+q")  # a saved world now: Ctrl+Q saves it
        await pilot.pause()
    assert Store().info(name).turn == turn + 2
    assert not list(Path(os.environ["ROGUELIKE_SAVE_DIR"]).glob("*.lock"))


async def test_a_watch_never_taken_over_leaves_no_save(hand_clock):
    app = RoguelikeApp(seed=QUICK, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        assert await ticks(pilot, hand_clock, lambda: game.state.turn >= 3)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running
    assert saved_files() == []


async def test_s_leaves_a_watch_for_the_title_without_saving(hand_clock):
    app = RoguelikeApp(seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        assert await ticks(pilot, hand_clock, lambda: game.state.turn >= 1)
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and not game.bot.autopilot
    assert saved_files() == []


async def test_a_gives_the_wheel_to_the_bot_in_a_normal_game_and_back(quiet_worlds, hand_clock):
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen) and not game.bot.autopilot
        await pilot.press("space")  # no bot: the watch keys do nothing
        assert not game.bot.paused and not hand_clock.running
        state = game.state
        await pilot.press("A")
        assert game.bot.autopilot and hand_clock.running
        assert await ticks(pilot, hand_clock, lambda: state.turn >= 3)
        await pilot.press("A")
        assert not game.bot.autopilot and not hand_clock.running
        assert "You have the wheel" in screen_text(app)
        turn = state.turn
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert Store().info(NAME).turn == turn  # the world was saved as any game is


async def test_a_stuck_bot_gives_up_the_wheel_and_the_next_key_still_saves(
    quiet_worlds, monkeypatch, hand_clock
):
    """A bot that only waits makes no progress: it stops (saying so) after STALL_TURNS; the
    game is still unsaved, and the player's first key makes it a saved world."""
    from roguelike.autoplay import Decision
    from roguelike.engine import Wait

    monkeypatch.setattr(roguelike.autoplay.core, "STALL_TURNS", 5)
    monkeypatch.setattr(
        roguelike.autoplay.core, "decide", lambda state, **_: Decision(Wait(), "idling")
    )
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        assert await ticks(pilot, hand_clock, lambda: not game.bot.autopilot)
        assert state.turn == 6 and not hand_clock.running
        assert "The bot is stuck" in screen_text(app)
        assert saved_files() == []
        await pilot.press("full_stop")  # a wait: a key that plays
        assert state.turn == 7 and Store().info(NAME).turn == 6


# -- the run's end, and a whole floor --------------------------------------------------------


async def test_death_stops_the_bot_then_the_summary_and_again_watches_again(hand_clock):
    app = RoguelikeApp(seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        await pilot.press("space")
        state = game.state
        state.monsters.clear()
        x, y = state.player
        dx, dy = open_step(state)
        tx, ty = x + dx, y + dy
        state.monsters.append(Monster(99, "troll", tx, ty, 32, home=(tx, ty), awake=True))
        state.hp = 1
        await pilot.press("space")
        assert await ticks(pilot, hand_clock, lambda: state.over)
        await pilot.pause()
        assert state.dead and not game.bot.autopilot and not hand_clock.running
        assert "press Enter" in screen_text(app) and "Watching" not in screen_text(app)
        await pilot.press("h")  # a game key once the bot's run is over takes nothing over
        await pilot.pause()
        assert saved_files() == [] and app.session is not None and app.session.watching
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "troll" in screen_text(app) and "The bot died" in screen_text(app)
        await pilot.press("a")  # again: the same world, watched from the start
        again = await watching(pilot)
        assert again is not game and again.state is not state and again.state.seed == SEED
        assert not again.state.over and all(m.id != 99 for m in again.state.monsters)
    assert saved_files() == []


async def test_a_small_world_watched_goes_down_the_stairs(hand_clock):
    """The bot plays floor 1 (about 600 ticks) with the screen drawn every tenth tick; drawn
    after every tick in the slow tier's test below."""
    await _watched_goes_down_the_stairs(RoguelikeApp(**WATCH_QUICK), hand_clock, per_draw=10)


@pytest.mark.slow
async def test_a_small_world_watched_and_drawn_every_tick_goes_down_the_stairs(hand_clock):
    await _watched_goes_down_the_stairs(RoguelikeApp(**WATCH_QUICK), hand_clock, per_draw=1)


WATCH_QUICK = {"seed": QUICK, "preset": "small", "watch": True}


async def _watched_goes_down_the_stairs(
    app: RoguelikeApp, hand_clock: HandClock, per_draw: int
) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        down = lambda: state.number >= 2 or state.over  # noqa: E731
        done = await ticks(pilot, hand_clock, down, most=2000, per_draw=per_draw)
        assert done, f"the bot stopped on floor {state.number}, turn {state.turn}: {game.prompt}"
        assert not state.dead, state.cause
        if state.over:  # the summary follows, as for a player
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
        else:
            assert state.stats.floors_reached >= 2 and game.bot.autopilot
            assert app.session is not None and [v.number for v in app.session.visited] == [1]
    assert saved_files() == []  # the floor change's autosave saves no watched game


# -- a pedestal ------------------------------------------------------------------------------


def pedestal_state():
    """A small world without monsters whose player stands on an unsolved pedestal of a
    puzzle of at least three moves, and the puzzle's optimal moves."""
    for seed in range(100):
        state = new_game(seed, preset="small", monsters=False)
        for room in state.puzzles.values():
            p = room.puzzle()
            plan = [p.move_to_json(m) for m in p.solve(p.initial())]
            if len(plan) >= 3:
                state.player = room.pos
                state.update_view()
                return state, room, plan
    raise AssertionError("no pedestal in 100 small worlds")


async def test_the_bot_solves_a_pedestal_on_the_puzzle_screen_and_the_engine_checks_it(
    monkeypatch, hand_clock
):
    state, room, plan = pedestal_state()
    door = next(d for d in state.floor.doors if d.lock == room.key)
    played: list[tuple[object, bool, bool]] = []
    reported: list[list[object]] = []
    play_json, report_puzzle = PuzzleScreen.play_json, GameScreen.report_puzzle

    def spy_play(screen, move, note=""):
        play_json(screen, move, note)
        # the screen shows the move; the engine has not been told anything yet
        played.append((move, screen.solved, room.solved))

    def spy_report(game, outcome):
        reported.append(list(outcome.moves))
        report_puzzle(game, outcome)

    monkeypatch.setattr(PuzzleScreen, "play_json", spy_play)
    monkeypatch.setattr(GameScreen, "report_puzzle", spy_report)
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = GameScreen(state, autopilot=True)
        app.push_screen(game)
        await pilot.pause()
        assert await ticks(pilot, hand_clock, lambda: isinstance(app.screen, PuzzleScreen))
        puzzle = app.screen
        assert puzzle.visit.puzzle.type_name == room.type and not room.solved
        turn = state.turn
        assert await ticks(pilot, hand_clock, lambda: room.solved)
        await pilot.pause()
        assert [move for move, _, _ in played] == plan  # one move at a time, the bot's plan
        assert [solved for _, solved, _ in played] == [False] * (len(plan) - 1) + [True]
        assert not any(engine_solved for _, _, engine_solved in played)
        assert reported == [plan]  # the screen closed once, and the engine replayed the moves
        assert room.moves == plan and state.stats.puzzles_solved == 1
        assert state.tiles[door.y, door.x] == tiles.DOOR_OPEN
        assert game.bot.autopilot  # and the bot plays on
        assert await ticks(pilot, hand_clock, lambda: state.turn > turn + 2)


async def test_a_key_on_the_puzzle_screen_takes_the_puzzle_over(hand_clock):
    state, room, plan = pedestal_state()
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = GameScreen(state, autopilot=True)
        app.push_screen(game)
        await pilot.pause()
        assert await ticks(pilot, hand_clock, lambda: isinstance(app.screen, PuzzleScreen))
        puzzle = app.screen
        assert await ticks(pilot, hand_clock, lambda: len(puzzle.moves) >= 2)
        await pilot.press("u")  # undo: a key that plays the puzzle
        assert not game.bot.autopilot and len(puzzle.moves) >= 1
        await pilot.press("escape", "escape")  # leave: the progress goes to the engine
        await pilot.pause()
        assert app.screen is game
        made = room.moves
        assert 1 <= len(made) < len(plan) and made == plan[: len(made)] and not room.solved
        assert not hand_clock.tick()  # the bot does not come back
        assert room.moves == made and app.screen is game


async def test_the_rules_and_esc_on_the_bots_puzzle_leave_it_the_wheel(hand_clock):
    """Issue 28: Esc (or the rules) on the bot's puzzle took the game over and saved a stray
    world. Now they are not keys that play: Esc leaves the puzzle and pauses the bot."""
    state, room, plan = pedestal_state()
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = GameScreen(state, autopilot=True)
        app.push_screen(game)
        await pilot.pause()
        assert await ticks(pilot, hand_clock, lambda: isinstance(app.screen, PuzzleScreen))
        puzzle = app.screen
        assert await ticks(pilot, hand_clock, lambda: len(puzzle.moves) >= 1)
        await pilot.press("question_mark")
        await pilot.press("escape")  # closes the rules
        assert app.screen is puzzle and game.bot.autopilot
        await pilot.press("escape", "escape")  # leaves the puzzle: the bot keeps the wheel, paused
        await pilot.pause()
        assert app.screen is game and game.bot.autopilot and game.bot.paused
        assert not hand_clock.running and "space resumes" in screen_text(app)
        made = room.moves
        assert len(made) >= 1 and made == plan[: len(made)]
    assert saved_files() == []  # nothing was taken over: no world saved


async def test_looking_around_leaves_the_bot_the_wheel_and_it_waits(quiet_worlds, hand_clock):
    """Issue 28: look, travel's cursor, Tab and the overview are not keys that play; the bot
    waits while a cursor is up, and Esc gives it the map back. Enter on a travel goes, and
    that plays: it takes over."""
    app = RoguelikeApp(make_game=quiet_worlds, seed=SEED, preset="small", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await watching(pilot)
        state = game.state
        assert await ticks(pilot, hand_clock, lambda: state.turn >= 2)
        for key in ("x", "tab", "escape", "t", "escape", "M", "escape", "tab"):
            await pilot.press(key)
            assert game.bot.autopilot and app.session is not None and app.session.watching
        turn = state.turn
        assert game.looking  # Tab's travel cursor is up
        for _ in range(3):
            hand_clock.tick()
        assert state.turn == turn  # the bot waits while the watcher looks
        await pilot.press("escape")
        assert await ticks(pilot, hand_clock, lambda: state.turn > turn)
        assert saved_files() == []
        await pilot.press("space", "t", "tab", "enter")  # a travel chosen and gone: taken over
        await pilot.pause()
        assert not game.bot.autopilot and not app.session.watching
        assert Store().info(app.session.world.name)


# -- entry points ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", [None, "small"])
async def test_the_titles_w_watches_a_random_world_of_the_apps_size(preset, hand_clock):
    app = RoguelikeApp(preset=preset)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen) and "Watch" in screen_text(app)
        await pilot.press("w")
        game = await watching(pilot)
        assert game.state.total_floors == PRESETS[preset or DEFAULT_PRESET]
        assert app.session is not None and app.session.watching
        assert app.session.world.seed == game.state.seed
        assert await ticks(pilot, hand_clock, lambda: game.state.turn >= 1)
    assert saved_files() == []


def test_watch_on_the_command_line(fake_app):
    made = fake_app.made
    argv = ["--watch", "--seed", "dragon", "--preset", "small", "--save-dir", "/x"]
    assert main(argv, make_app=fake_app) == 0
    assert made == {
        "seed": seeds.parse("dragon"),
        "preset": "small",
        "difficulty": None,  # not given: the app's default (normal)
        "watch": True,
        "save_dir": "/x",
        "ran": True,
        "pregenerate": "process",  # the game makes each next floor ahead
    }
    made.clear()
    assert main(["--watch"], make_app=fake_app) == 0
    assert made == {
        "seed": None,
        "preset": None,
        "difficulty": None,
        "watch": True,
        "save_dir": None,
        "ran": True,
        "pregenerate": "process",
    }
    # the bot can be watched at another level: the difficulty reaches the app as given
    made.clear()
    assert main(["--watch", "--seed", "dragon", "--difficulty", "brutal"], make_app=fake_app) == 0
    assert made["difficulty"] == "brutal" and made["watch"] is True


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--watch", "generate", "--seed", "x"], "--watch starts a game"),
        (["--watch", "bot", "--seed", "x"], "--watch starts a game"),
        (["--watch", "--daily"], "--watch does not go with --daily"),
        (["--watch", "--daily-code"], "--watch does not go with --daily"),
    ],
)
def test_watch_is_refused_with_a_command_or_daily(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"roguelike: error: {words}") and err.count("\n") == 1
