"""Helpers the screen tests share (a module, not a test file: pytest collects nothing here)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from roguelike import autoplay, seeds, tiles
from roguelike.engine import MONSTERS, GameState, Monster, new_game
from roguelike.engine.pregen import FloorCache
from roguelike.recording import Recording, digest, replay
from saves import Store, World
from saves.record import RunRecord, record_of
from saves.session import Games
from saves.world import now_iso
from screens.challenge import ChallengeScreen
from screens.character import CharacterScreen
from screens.game import GameScreen
from screens.lines import TextLines
from screens.load import ConfirmScreen, LoadScreen
from screens.puzzle import PuzzleScreen
from screens.themes import apply_theme
from screens.title import TitleScreen

#: vi keys for each direction
VI = {
    (0, -1): "k",
    (0, 1): "j",
    (-1, 0): "h",
    (1, 0): "l",
    (-1, -1): "y",
    (1, -1): "u",
    (-1, 1): "b",
    (1, 1): "n",
}


def screen_text(app: Any) -> str:
    """The current screen as plain text, one line per terminal row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def panel_text(screen: object) -> str:
    """The side panel's text: a game screen's as drawn, a puzzle screen's words with the line
    breaks undone."""
    if isinstance(screen, PuzzleScreen):
        lines = screen.query_one("#puzzle-panel", TextLines).lines
        return " ".join(" ".join(line.plain for line in lines).split())
    assert isinstance(screen, GameScreen)
    return screen.query_one("#stats", TextLines).text


def save_dir() -> Path:
    """The save folder of this test (``tests/conftest.py`` gives each test its own)."""
    return Path(os.environ["ROGUELIKE_SAVE_DIR"])


ScreenT = TypeVar("ScreenT", bound=Screen[Any])


async def press_to(pilot: Pilot[Any], kind: type[ScreenT], *keys: str) -> ScreenT:
    """``keys`` pressed, then a pause: the screen they led to, which must be a ``kind``."""
    await pilot.press(*keys)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, kind), (keys, screen)
    return screen


async def start_import(pilot: Pilot[Any], path: Path) -> ChallengeScreen:
    """On the title: ``o``, the challenge file ``path`` typed, Enter. The challenge screen,
    its check started (a worker thread may still be replaying it)."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, TitleScreen)
    screen = await press_to(pilot, ChallengeScreen, "o")
    screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    return screen


async def open_load(pilot: Pilot[Any]) -> LoadScreen:
    """On the title: ``l``. The load screen."""
    await pilot.pause()
    await pilot.pause()
    return await press_to(pilot, LoadScreen, "l")


async def delete_world(pilot: Pilot[Any]) -> None:
    """On the title: ``l``, ``d`` on the world under the cursor, ``y`` to confirm (its run is
    then checked in a worker thread, which the caller waits for or stops)."""
    await open_load(pilot)
    await press_to(pilot, ConfirmScreen, "d")
    await pilot.press("y")


# -- apps that show one screen ----------------------------------------------------------------


class GameApp(App[None]):
    """The smallest app that plays: it pushes a game screen on ``state`` (the other keywords
    are the screen's) and keeps what it returns."""

    def __init__(self, state: GameState, *, world_name: str = "Testing", **screen: Any) -> None:
        super().__init__()
        self.state = state
        self.screen_args = dict(world_name=world_name, **screen)
        self.result: GameState | None = None

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.state, **self.screen_args), self._ended)

    def _ended(self, state: GameState | None) -> None:
        self.result = state


class Host(App[None]):
    """The smallest app that shows ``screen`` (in ``theme``, if given) and keeps what it
    returns in ``outcomes``."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, screen: Screen[Any], theme: str | None = None) -> None:
        super().__init__()
        self.puzzle_screen = screen
        self.theme_name = theme
        self.outcomes: list[Any] = []

    def on_mount(self) -> None:
        if self.theme_name is not None:
            apply_theme(self, self.theme_name)
        self.push_screen(self.puzzle_screen, self.outcomes.append)


class StairsApp(App[None]):
    """A game screen on ``state``, played in a session of its own of the world ``name`` of
    ``seed`` (which says whether the floor below is ready), released when the app ends."""

    def __init__(self, state: GameState, name: str, seed: int) -> None:
        super().__init__()
        self.state = state
        self.world_name = name
        games = Games(Store(), make_game=lambda world: state)
        self.session = games.new(World.new(name, seed))

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.state, world_name=self.world_name, session=self.session))

    def on_unmount(self) -> None:
        self.session.quit()


def at_the_stairs(seed: int, floors: FloorCache) -> GameState:
    """A quiet three-floor game of ``seed`` whose next floors come from ``floors``: the floor
    below already asked for, the player on the stairs (for :class:`StairsApp`)."""
    state = new_game(seed, total_floors=3, monsters=False, puzzles=False)
    state.floors = floors
    below = state.next_floor()
    assert below is not None
    floors.prepare(*below)
    state.player = state.floor.finish
    state.update_view()
    return state


class SheetApp(GameApp):
    """A game screen of a permadeath world named by a file (with an escape in it)."""

    def __init__(self, state: GameState) -> None:
        super().__init__(state, world_name="Deep\x1b[2Jrun", permadeath=True)


def sheet_of(app: App[Any]) -> str:
    """The character sheet's text (it must be the screen on top)."""
    assert isinstance(app.screen, CharacterScreen)
    return str(app.screen.query_one("#character-sheet", Static).render())


# -- games -------------------------------------------------------------------------------------


#: The world of :func:`game`.
GAME_SEED = 12345


def game(total_floors: int = 3, monsters: bool = False) -> GameState:
    """A game of :data:`GAME_SEED` (without monsters unless asked)."""
    return new_game(GAME_SEED, total_floors=total_floors, monsters=monsters)


def quiet_game(world: World) -> GameState:
    """A game of ``world`` without monsters and puzzles: nothing moves but the player."""
    return new_game(
        world.seed,
        preset=world.preset,
        world_name=world.name,
        monsters=False,
        puzzles=False,
        difficulty=world.difficulty,
    )


def visible_floor(state: GameState, skip: int = 0) -> tuple[int, int]:
    """The ``skip``-th nearest floor cell in view (not the player's)."""
    ys, xs = ((state.tiles == tiles.FLOOR) & state.visible).nonzero()
    cells = sorted(
        ((int(x), int(y)) for x, y in zip(xs, ys, strict=True) if (x, y) != state.player),
        key=lambda p: abs(p[0] - state.player[0]) + abs(p[1] - state.player[1]),
    )
    return cells[skip]


def with_foes(state: GameState) -> GameState:
    """``state`` with the monsters of the longest names standing in view of the player."""
    x, y = state.player
    free = [
        (x + dx, y + dy)
        for dx in range(-3, 4)
        for dy in range(-3, 4)
        if (dx, dy) != (0, 0)
        and tiles.WALKABLE[state.tiles[y + dy, x + dx]]
        and state.visible[y + dy, x + dx]
    ]
    longest = sorted(MONSTERS, key=lambda k: -len(MONSTERS[k].name))[:4]
    for n, (kind, (mx, my)) in enumerate(zip(longest, free, strict=False)):
        hp = MONSTERS[kind].max_hp
        state.monsters.append(Monster(90 + n, kind, mx, my, hp, home=(mx, my), awake=True))
    return state


# -- watch mode by hand ------------------------------------------------------------------------


class HandClock:
    """A watch's clock that ticks only when told (:meth:`tick`): a test steps the bot instead
    of waiting for Textual's timers. ``interval`` is the last period asked for, None while
    stopped."""

    def __init__(self) -> None:
        self.interval: float | None = None
        self._tick: Callable[[], None] | None = None

    def every(self, seconds: float, tick: Callable[[], None]) -> HandClock:
        self.interval, self._tick = seconds, tick
        return self

    def stop(self) -> None:
        self.interval, self._tick = None, None

    @property
    def running(self) -> bool:
        return self._tick is not None

    def tick(self) -> bool:
        """One tick, as the timer would deliver it; False (nothing done) while stopped."""
        if self._tick is None:
            return False
        self._tick()
        return True


# -- recorded runs (the hall, the replay viewer, challenges) ----------------------------------

#: A small world the bot wins in about 70 actions when it has no monsters or puzzles.
QUIET_SEED = "e"


def bot_record(actions: int | None = None, *, world: str = "Quiet run") -> RunRecord:
    """A run record of the bot playing the quiet small world :data:`QUIET_SEED`: ``actions``
    of them (the run then counts as abandoned; about 45 reach floor 2: the bot stops for a
    treasure's choice on floor 1), or to its end (won)."""

    state = new_game(
        seeds.parse(QUIET_SEED), preset="small", world_name=world, monsters=False, puzzles=False
    )
    recording = Recording.begin(state)
    if actions is None:
        autoplay.play(state, recording=recording)
    else:
        autoplay.play(state, recording=recording, limit=actions)
    return record_of(
        state,
        world=world,
        started=now_iso(),
        recording=recording,
        abandoned=actions is not None,
    )


def prefix_digest(record: RunRecord, inputs: int) -> tuple[str, int]:
    """(digest, turn) of the state after the first ``inputs`` of ``record``'s recording,
    replayed headless: what the viewer must show there."""

    rec = record.recording
    assert rec is not None
    part = Recording(rec.start, rec.generator, rec.actions[:inputs], rec.checks[:inputs])
    state, _ = replay(part)
    return digest(state), state.turn
