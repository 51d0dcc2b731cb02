"""The title screen: new game, continue, load, enter a seed, help, quit (and a floor preview).

Its keys run the app's actions (``app.new_game`` …), so the flow lives in one place, the app.
Continue and Load need saved games, which do not exist yet: they are shown disabled, and
saying so, rather than pretending to work.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from roguelike.version import GAME_VERSION, GENERATOR_VERSION

TITLE_ART = r"""
 ____                         _ _ _
|  _ \ ___   __ _ _   _  ___| (_) | _____
| |_) / _ \ / _` | | | |/ _ \ | | |/ / _ \
|  _ < (_) | (_| | |_| |  __/ | |   <  __/
|_| \_\___/ \__, |\__,_|\___|_|_|_|\_\___|
            |___/
"""

NO_SAVES = "no saved worlds yet"

#: (button id, label, key, the app action it runs, enabled)
MENU: tuple[tuple[str, str, str, str, bool], ...] = (
    ("new", "New game", "n", "app.new_game", True),
    ("continue", "Continue", "c", "app.continue_game", False),
    ("load", "Load", "l", "app.load_game", False),
    ("seed", "Enter seed", "s", "app.enter_seed", True),
    ("help", "Help", "?", "app.help", True),
    ("quit", "Quit", "q", "app.quit", True),
)


class TitleScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "app.new_game", "New game", show=False),
        Binding("c", "unavailable('Continue')", "Continue", show=False),
        Binding("l", "unavailable('Load')", "Load", show=False),
        Binding("s", "app.enter_seed", "Enter seed", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("p", "preview", "Preview a floor"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="title-box"):
            yield Static(TITLE_ART, id="title-art", markup=False)
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
            yield Static(f"Continue and Load: {NO_SAVES}", id="title-note")
            # markup off: "[A]" is a locked door here, not a style
            yield Static("", id="preview-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#new", Button).focus()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        for button_id, _label, _key, action, _enabled in MENU:
            if event.button.id == button_id:
                await self.run_action(action)

    def action_unavailable(self, what: str) -> None:
        self.notify(f"{what}: {NO_SAVES} (saving arrives in a later version)", timeout=3)

    def action_preview(self) -> None:
        from roguelike import formats, seeds
        from roguelike.topology import generate_topology

        seed = seeds.random_seed()
        topo = generate_topology(seed, 1)
        self.query_one("#preview-text", Static).update(formats.topology_ascii(seed, 1, topo))
