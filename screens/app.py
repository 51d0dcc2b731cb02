"""The Textual application: for now a title screen that previews a world's first floor."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from roguelike import formats, seeds
from roguelike.topology import generate_topology
from roguelike.version import GAME_VERSION, GENERATOR_VERSION

TITLE_ART = r"""
 ____                         _ _ _
|  _ \ ___   __ _ _   _  ___| (_) | _____
| |_) / _ \ / _` | | | |/ _ \ | | |/ / _ \
|  _ < (_) | (_| | |_| |  __/ | |   <  __/
|_| \_\___/ \__, |\__,_|\___|_|_|_|\_\___|
            |___/
"""


class TitleScreen(Screen[None]):
    BINDINGS = [
        Binding("p", "preview", "Preview a floor"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="title-box"):
            yield Static(TITLE_ART, id="title-art", markup=False)
            yield Static(
                f"version {GAME_VERSION} · generator {GENERATOR_VERSION}", id="title-version"
            )
            with Center():
                yield Button("Preview a floor", id="preview", variant="primary")
            with Center():
                yield Button("Quit", id="quit")
            # markup off: "[A]" is a locked door here, not a style
            yield Static("", id="preview-text", markup=False)
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "preview":
            self.action_preview()
        elif event.button.id == "quit":
            self.app.exit()

    def action_preview(self) -> None:
        seed = seeds.random_seed()
        topo = generate_topology(seed, 1)
        self.query_one("#preview-text", Static).update(formats.topology_ascii(seed, 1, topo))


class RoguelikeApp(App[None]):
    TITLE = "Roguelike"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def on_mount(self) -> None:
        self.push_screen(TitleScreen())
