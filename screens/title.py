"""The title screen: new game, continue, load, enter a seed, today's daily world, watch, the
hall of runs, importing a challenge, the puzzle index, options, help, quit (and a floor
preview).

Its keys run the app's actions (``app.new_game`` …), so the flow lives in one place, the app.
Continue and Load need saved worlds: they are disabled, saying why, until there are some (the
list is read just after the title first shows, and again whenever it comes back).
Continue resumes the most recently saved world still being played. Watch shows the bot playing
a random world (the app's size), which the player can take over at any moment. Daily plays
today's world (the same for everyone); the line under the menu gives the daily streak and
whether today's scored run is used (then a daily run is practice).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import WorldInfo
from saves.text import printable
from saves.world import resumable as first_unfinished

TITLE_ART = r"""
 ____                         _ _ _
|  _ \ ___   __ _ _   _  ___| (_) | _____
| |_) / _ \ / _` | | | |/ _ \ | | |/ / _ \
|  _ < (_) | (_| | |_| |  __/ | |   <  __/
|_| \_\___/ \__, |\__,_|\___|_|_|_|\_\___|
            |___/
"""

NO_SAVES = "no saved worlds yet"
NO_UNFINISHED = "no unfinished world (l lists them all)"

#: (button id, label, key, the app action it runs, enabled)
MENU: tuple[tuple[str, str, str, str, bool], ...] = (
    ("new", "New game", "n", "app.new_game", True),
    ("continue", "Continue", "c", "app.continue_game", False),
    ("load", "Load", "l", "app.load_game", False),
    ("seed", "Enter seed", "s", "app.enter_seed", True),
    ("daily", "Daily world", "d", "app.daily", True),
    ("watch", "Watch", "w", "app.watch", True),
    ("hall", "Hall of runs", "r", "app.hall", True),
    ("challenge", "Challenge", "o", "app.import_challenge", True),
    ("puzzles", "Puzzles", "i", "app.puzzle_index", True),
    ("options", "Options", "O", "app.options", True),
    ("help", "Help", "?", "app.help", True),
    ("quit", "Quit", "q", "app.quit", True),
)


class TitleScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "app.new_game", "New game", show=False),
        Binding("c", "menu('continue')", "Continue", show=False),
        Binding("l", "menu('load')", "Load", show=False),
        Binding("s", "app.enter_seed", "Enter seed", show=False),
        Binding("d", "app.daily", "Today's daily world", show=False),
        Binding("w", "app.watch", "Watch the bot play", show=False),
        Binding("r", "app.hall", "Hall of runs", show=False),
        Binding("o", "app.import_challenge", "Import a challenge", show=False),
        Binding("i", "app.puzzle_index", "Puzzle index", show=False),
        Binding("O", "app.options", "Options: keys and colours", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("p", "preview", "Preview a floor"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def __init__(
        self,
        saved_worlds: Callable[[], list[WorldInfo]],
        daily_status: Callable[[], str] | None = None,
    ) -> None:
        """``saved_worlds``: every saved world, the most recently saved first (the app's);
        ``daily_status``: the line about the daily world (the app's; None: no line)."""
        super().__init__()
        self.saved_worlds = saved_worlds
        self.daily_status = daily_status

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="title-box"):
            # without the art's blank first and last lines, the menu (options too) and the
            # daily line fit under it at 80×24
            yield Static(TITLE_ART.strip("\n"), id="title-art", markup=False)
            yield Static(
                f"version {GAME_VERSION} · generator {GENERATOR_VERSION}", id="title-version"
            )
            with Center(), Vertical(id="menu"):
                for button_id, label, key, _action, enabled in MENU:
                    button = Button(
                        f"{label:<12}{key:>3}",
                        id=button_id,
                        disabled=not enabled,
                        compact=True,
                        tooltip=None if enabled else f"{label}: {NO_SAVES}",
                    )
                    yield button
            yield Static(f"Continue and Load: {NO_SAVES}", id="title-note", markup=False)
            yield Static("", id="title-daily", markup=False)
            # markup off: "[A]" is a locked door here, not a style
            yield Static("", id="preview-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#new", Button).focus()
        # after the first frame: reading the save folder never delays the title
        self.call_after_refresh(self.read_saves)

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.call_after_refresh(self.read_saves)

    def on_screen_suspend(self) -> None:
        """A preview is of the moment it was asked for: a game, or any screen, ends it, so the
        title never comes back with an old floor under the menu."""
        self.query_one("#preview-text", Static).update("")

    def read_saves(self) -> None:
        """Enable Continue and Load as the save folder allows, and say what they would do."""
        worlds = self.saved_worlds()
        resumable = first_unfinished(worlds)
        why_not = NO_SAVES if not worlds else NO_UNFINISHED
        for button_id, enabled in (("continue", resumable is not None), ("load", bool(worlds))):
            button = self.query_one(f"#{button_id}", Button)
            button.disabled = not enabled
            button.tooltip = None if enabled else f"{button_id.capitalize()}: {why_not}"
        if not worlds:
            note = f"Continue and Load: {NO_SAVES}"
        elif resumable is None:
            note = f"Continue: {NO_UNFINISHED}"
        else:
            where = f"floor {resumable.floor} · turn {resumable.turn}"
            note = f"Continue: {printable(resumable.name)} · {where}"
        self.query_one("#title-note", Static).update(note)
        if self.daily_status is not None:
            # the hall's files and the engine they load take a moment: read them off the UI
            # thread, so the title answers keys at once
            self.run_worker(self._read_daily, thread=True, exclusive=True, group="daily")

    def _read_daily(self) -> None:
        assert self.daily_status is not None
        line = self.daily_status()
        self.app.call_from_thread(self._show_daily, line)

    def _show_daily(self, line: str) -> None:
        # the line comes from a thread: the title may have been left, or be tearing down its
        # widgets, by the time it arrives (a served game starts its world at once)
        for widget in self.query("#title-daily").results(Static):
            widget.update(line)

    async def action_menu(self, button_id: str) -> None:
        """Continue or Load, if enabled; else say why not."""
        button = self.query_one(f"#{button_id}", Button)
        if not button.disabled:
            action = "continue_game" if button_id == "continue" else "load_game"
            await self.run_action(f"app.{action}")
        elif self.saved_worlds():
            self.notify(f"Continue: {NO_UNFINISHED}", timeout=3)
        else:
            self.action_unavailable(button_id.capitalize())

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        for button_id, _label, _key, action, _enabled in MENU:
            if event.button.id == button_id:
                await self.run_action(action)

    def action_unavailable(self, what: str) -> None:
        self.notify(f"{what}: {NO_SAVES}", timeout=3)

    def action_preview(self) -> None:
        """``p``: the topology of the first floor of a random world, as text."""
        # the generator (clingo, numpy) loads on the first preview, never before the title
        from roguelike import seeds
        from roguelike.gen import formats
        from roguelike.gen.topology import generate_topology

        seed = seeds.random_seed()
        topo = generate_topology(seed, 1)
        self.query_one("#preview-text", Static).update(formats.topology_ascii(seed, 1, topo))
