"""The options screen: the colour theme and the game's keys.

One list: the theme first (Enter moves to the next theme, shown at once), then every row of
:data:`screens.bindings.GAME_BINDINGS` with its keys as they are now. Enter on an action asks
for its new key (:class:`KeyCaptureScreen`: the next key pressed, Esc to keep the old one); a
key another action has is refused, and the message names both actions. Backspace puts the
highlighted action's keys back to the default, ``D`` every action's. Esc (or ``q``) closes
the screen with the options chosen; the app saves them (``saves/options.py``) and applies them.

The screen decides nothing about the game: it edits an :class:`saves.options.Options`.
"""

from __future__ import annotations

from dataclasses import replace

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from saves.options import Options, valid_keys
from screens.bindings import GAME_BINDINGS, KeyBinding, conflict, rebound
from screens.help import key_names
from screens.themes import THEMES, apply_theme

THEME_ROW = "theme"


class KeyCaptureScreen(ModalScreen[str | None]):
    """Asks for one key: dismissed with its Textual name, or None on Esc."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="capture-box"):
            yield Static(f"Press the new key for: {self.what}", markup=False)
            yield Static("(Esc keeps the old one)", classes="options-note")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None if event.key == "escape" else event.key)


class OptionsScreen(Screen[Options]):
    """The options, from the title (``O``) or the game (``O``): dismissed with the options
    chosen (the same ones if nothing changed)."""

    BINDINGS = [
        Binding("escape,q", "close", "Back", key_display="esc"),
        Binding("backspace", "reset_row", "Default key"),
        Binding("D", "reset_all", "All defaults"),
    ]

    def __init__(self, options: Options) -> None:
        super().__init__()
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical(id="options-box"):
            yield Static("Options", id="options-title")
            yield Static(
                "Enter: change · Backspace: the default key · D: all defaults · Esc: done",
                classes="options-note",
            )
            yield OptionList(*self._rows(), id="options-list")
            yield Static("", id="options-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    # -- the rows

    def _theme_prompt(self) -> str:
        word = dict(THEMES).get(self.options.theme, "")
        return f"Theme           {self.options.theme}: {word}"

    def _binding_prompt(self, b: KeyBinding) -> str:
        return f"{b.description[:44]:<46}{key_names(self.app, b.keys)}"

    def _rows(self) -> list[Option]:
        table = rebound(self.options.keys, GAME_BINDINGS)
        return [
            Option(self._theme_prompt(), id=THEME_ROW),
            *(Option(self._binding_prompt(b), id=b.id) for b in table),
        ]

    def _redraw(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self._rows())
        options.highlighted = highlighted

    def _shown(self, key: str) -> str:
        """A key as the footer and the help write it."""
        return key_names(self.app, key)

    def _say(self, text: str) -> None:
        self.query_one("#options-status", Static).update(text)

    def _highlighted_id(self) -> str | None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return None
        return options.get_option_at_index(options.highlighted).id

    # -- actions

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row_id = event.option.id
        if row_id == THEME_ROW:
            names = [name for name, _ in THEMES]
            now = names.index(self.options.theme) if self.options.theme in names else -1
            self.options = replace(self.options, theme=names[(now + 1) % len(names)])
            apply_theme(self.app, self.options.theme)  # seen at once, over this very screen
            self._redraw()
            self._say(f"Theme: {self.options.theme}")
            return
        row = next((b for b in GAME_BINDINGS if b.id == row_id), None)
        if row is not None:

            def captured(key: str | None) -> None:
                self.rebind(row, key)

            self.app.push_screen(KeyCaptureScreen(row.description), captured)

    def rebind(self, row: KeyBinding, key: str | None) -> bool:
        """Bind ``row`` to ``key`` alone; False (and the reason shown) if it is refused."""
        if key is None:
            self._say("Unchanged")
            return False
        if not valid_keys(key):
            self._say(f"{key_names(self.app, key)} cannot be bound")
            return False
        why = conflict(self.options.keys, row.id, key, shown=self._shown)
        if why is not None:
            self._say(why)
            return False
        keys = dict(self.options.keys)
        if key == row.keys:
            keys.pop(row.id, None)
        else:
            keys[row.id] = key
        self.options = replace(self.options, keys=keys)
        self._redraw()
        self._say(f"{row.description}: {key_names(self.app, key)}")
        return True

    def action_reset_row(self) -> None:
        row_id = self._highlighted_id()
        if row_id is None or row_id not in self.options.keys:
            return
        keys = {k: v for k, v in self.options.keys.items() if k != row_id}
        default = next(b.keys for b in GAME_BINDINGS if b.id == row_id)
        why = conflict(keys, row_id, default, shown=self._shown)
        if why is not None:  # another action was given this one's default key
            self._say(why)
            return
        self.options = replace(self.options, keys=keys)
        self._redraw()
        self._say("Back to the default key")

    def action_reset_all(self) -> None:
        self.options = replace(self.options, keys={})
        self._redraw()
        self._say("Every key back to its default")

    def action_close(self) -> None:
        self.dismiss(self.options)
