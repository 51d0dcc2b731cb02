"""The pack: a modal screen listing the items carried, numbered to be used."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from roguelike.engine import ITEMS
from screens.box import BoxScreen
from screens.map_view import colour_of
from screens.side_panel import BRIGHT, OLD


class InventoryScreen(BoxScreen[str | None]):
    """The pack: items numbered 1–9; a number uses that item (the screen is dismissed with
    the item's kind), Esc closes without using anything."""

    DEFAULT_CSS = """
    InventoryScreen #inventory-box {
        width: 60;
    }
    """

    BINDINGS = [
        Binding("escape,i", "close", "Close"),
        *(Binding(str(n), f"use({n})", f"Use item {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(self, inventory: dict[str, int]) -> None:
        super().__init__()
        self.kinds = list(inventory)[:9]
        self.inventory = dict(inventory)

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="inventory-box", classes="box")

    def _text(self) -> Text:
        text = Text("Pack", style="bold")
        if not self.kinds:
            text.append("\n\nYour pack is empty.\n\nEsc closes.", style=OLD)
            return text
        for n, kind in enumerate(self.kinds, 1):
            item = ITEMS.get(kind)
            glyph = item.glyph if item else "?"
            colour = colour_of(item.colour) if item else BRIGHT
            name = item.name if item else kind
            count = self.inventory[kind]
            text.append(f"\n{n} ", style="bold")
            text.append(glyph, style=f"bold {colour}")
            text.append(f" {name}" + (f" ×{count}" if count > 1 else ""))
            if item is not None and item.description:
                text.append(f"\n    {item.description}", style=OLD)
        text.append("\n\n1–9 use · Esc close", style=OLD)
        return text

    def action_use(self, n: int) -> None:
        if 1 <= n <= len(self.kinds):
            self.dismiss(self.kinds[n - 1])

    def action_close(self) -> None:
        self.dismiss(None)
