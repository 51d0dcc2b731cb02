"""The message log at 80×24: it takes only the rows the last action's messages need (one when
nothing new was said) and the map the rest, keeping every monster in view on it as its height
changes; a message said again in a row shows once with its count, in the log and the history."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Static

from roguelike import tiles
from roguelike.engine import GameState, Monster
from screens.game import GameScreen
from screens.history import HistoryScreen
from screens.map_view import MapView
from screens.repeats import collapsed, runs_from_end
from tests.screens.support import GameApp, game, screen_text, with_foes

SIZE = (80, 24)
#: The terminal's rows less the footer's.
ROWS = SIZE[1] - 1
#: What ``e`` (explore) says with a monster in view (it takes no turn).
REFUSED = "in view: fight it or step away."


def log_rows(screen: GameScreen) -> int:
    return screen.query_one("#messages", Static).region.height


def map_rows(screen: GameScreen) -> int:
    return screen.query_one(MapView).region.height


def assert_foes_on_map(screen: GameScreen) -> None:
    view = screen.query_one(MapView)
    for m in screen.state.visible_monsters():
        sx, sy = view.map_to_screen(m.x, m.y)
        assert 0 <= sx < view.size.width and 0 <= sy < view.size.height, m.kind


def far_foe(state: GameState) -> GameState:
    """``state`` with a monster on the visible floor cell farthest below the player too."""
    px, py = state.player
    ys, xs = (state.visible & tiles.WALKABLE[state.tiles]).nonzero()
    cells = [(int(x), int(y)) for x, y in zip(xs, ys, strict=True) if (x, y) != (px, py)]
    x, y = max(cells, key=lambda c: c[1])
    state.monsters.append(Monster(99, "goblin", x, y, 5, home=(x, y), awake=False))
    return state


async def test_a_quiet_log_gives_the_map_its_rows_and_the_camera_keeps_the_foes():
    state = far_foe(with_foes(game()))
    app = GameApp(state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("e")  # refused: one message of one row
        await pilot.pause()
        assert state.log[-1].endswith(REFUSED)
        assert log_rows(screen) == 1 and map_rows(screen) == ROWS - 1
        assert_foes_on_map(screen)
        screen.say("A prompt three rows long: " + "word " * 40)
        await pilot.pause()
        assert log_rows(screen) == 4 and map_rows(screen) == ROWS - 4
        assert_foes_on_map(screen)
        screen.say(None)
        await pilot.pause()
        assert log_rows(screen) == 1 and map_rows(screen) == ROWS - 1
        assert_foes_on_map(screen)


async def test_a_tall_terminal_keeps_six_rows_of_log():
    app = GameApp(game())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("s")
        await pilot.pause()
        assert log_rows(screen) == 6


async def test_a_message_said_again_shows_once_with_its_count():
    state = with_foes(game())
    app = GameApp(state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(4):
            await pilot.press("e")
            await pilot.pause()
        refused = state.log[-1]
        assert refused.endswith(REFUSED)
        assert state.log[-4:] == [refused] * 4  # the engine's log keeps every line
        shown = str(screen.query_one("#messages", Static).render())
        assert shown.count(refused) == 1 and f"{refused} ×4" in shown
        assert log_rows(screen) == 1
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        text = screen_text(app)
        assert text.count(refused) == 1 and f"{refused} ×4" in text


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=30))
def test_runs_say_every_line_once_in_order(lines):
    runs = list(reversed(list(runs_from_end(lines))))
    assert [r.text for r in runs for _ in range(r.count)] == lines
    assert all(a.text != b.text for a, b in zip(runs, runs[1:], strict=False))
    ends = [i for i in range(len(lines)) if lines[i + 1 : i + 2] != [lines[i]]]
    assert [r.last for r in runs] == ends
    assert len(collapsed(lines)) == len(runs)


async def test_a_line_wrapped_at_its_words_gets_every_row_it_needs():
    """Counting characters gave a line two rows when its words wrap to three (the last word
    moves down): the log cut it off (seen in a replay at 80×24)."""
    app = GameApp(with_foes(game()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("e")  # refused: the one fresh message is of one row
        await pilot.pause()
        width = screen.query_one("#messages", Static).content_size.width
        line = "x" * (width - 5) + " " + "y" * (width - 5) + " zzzzz"
        assert len(line) <= 2 * width  # two rows by its characters, three by its words
        screen.say("a prompt of one row")
        await pilot.pause()
        base = log_rows(screen)  # the fresh messages, and the prompt's one row
        screen.say(line)
        await pilot.pause()
        assert log_rows(screen) == base + 2 and map_rows(screen) == ROWS - base - 2
