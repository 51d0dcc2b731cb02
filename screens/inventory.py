"""The pack: a modal screen listing the items carried, numbered to be used (or only the
potions to quaff, the scrolls to read; or any item to drop). Given the game's state, a potion
or scroll shows as the player knows it (``describe.item_label``): by its kind once known, else
by its world's look, marked unknown."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from roguelike.engine import ITEMS, GameState, ItemKind
from roguelike.engine.describe import equipment_words, item_colour, item_description, item_label
from roguelike.engine.identify import is_known, unknown_in_pack
from screens.box import BoxScreen
from screens.map_view import colour_of
from screens.side_panel import BRIGHT, OLD


def _used_by(item: ItemKind, only: str) -> bool:
    """``item`` is used the way ``only`` says ("wear": any wearable; else its verb)."""
    return bool(item.slot) if only == "wear" else item.verb == only


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

    def __init__(
        self,
        inventory: dict[str, int],
        *,
        only: str = "",
        title: str = "Pack",
        verb: str = "use",
        worn: dict[str, int] | None = None,
        state: GameState | None = None,
        worn_note: str = "",
    ) -> None:
        """``only``: list just the items used that way (an ItemKind's ``verb``: "quaff",
        "read"; or "wear", the wearables); ``title`` heads the box, ``verb`` says what a
        number does; ``worn``: what is worn and wielded (item → enchantment), shown first;
        ``state``: the game, to name each item as its player knows it; ``worn_note``: a line
        under what is worn, when anything is (how to take it off, in the keys the player
        has)."""
        super().__init__()
        self.worn = dict(worn or {})
        self.state = state
        kept = [k for k in inventory if not only or (k in ITEMS and _used_by(ITEMS[k], only))]
        self.kinds = kept[:9]
        self.inventory = {k: inventory[k] for k in kept}
        self.heading, self.verb, self.only = title, verb, only
        self.worn_note = worn_note

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="inventory-box", classes="box")

    def _text(self) -> Group:
        """The box's text: a description under its item wraps with a hanging indent (wrapped
        at 80 columns, its lines started at the box's left edge, under the numbers)."""
        text = Text(self.heading, style="bold")
        parts: list[Text | Padding] = [text]
        for name, _, what in equipment_words(self.worn):
            gear = ITEMS[name]
            verb = "wielded" if gear.slot == "weapon" else "worn"
            text.append(f"\n{verb}: ", style=OLD)
            text.append(gear.glyph, style=f"bold {colour_of(gear.colour)}")
            text.append(f" {name}")
            text.append(f"  ({what})", style=OLD)
        if self.worn and self.worn_note:
            text.append(f"\n{self.worn_note}", style=OLD)
        if not self.kinds:
            what = {
                "quaff": "holds no potion",
                "read": "holds no scroll",
                "wear": "holds nothing to wear or wield",
            }.get(self.only, "is empty")
            text.append(f"\n\nYour pack {what}.\n\nEsc closes.", style=OLD)
            return Group(*parts)
        for n, kind in enumerate(self.kinds, 1):
            item = ITEMS.get(kind)
            glyph = item.glyph if item else "?"
            colour = colour_of(item.colour) if item else BRIGHT
            name = item.name if item else kind
            description = item.description if item else ""
            if item is not None and self.state is not None:
                colour = colour_of(item_colour(self.state, kind))
                name = item_label(self.state, kind)
                description = item_description(self.state, kind)
            count = self.inventory[kind]
            text = Text(f"{n} ", style="bold")
            parts.append(text)
            text.append(glyph, style=f"bold {colour}")
            text.append(f" {name}" + (f" ×{count}" if count > 1 else ""))
            if description:
                parts.append(Padding(Text(description, style=OLD), (0, 0, 0, 4)))
        parts.append(Text(f"\n1–9 {self.verb} · Esc close", style=OLD))
        return Group(*parts)

    def action_use(self, n: int) -> None:
        if 1 <= n <= len(self.kinds):
            self.dismiss(self.kinds[n - 1])

    def action_close(self) -> None:
        self.dismiss(None)


def identify_picker(state: GameState, kind: str) -> InventoryScreen | None:
    """The pick of what a scroll of identification names, when ``kind`` is one the player
    knows and the pack holds other unknown kinds: the pack box, listing just those (a number
    dismisses it with the kind chosen). None when there is nothing to choose (an unknown
    scroll read blind names the first unknown kind by itself)."""
    item = ITEMS.get(kind)
    if item is None or item.effect != "identify" or not is_known(state, kind):
        return None
    unknown = [k for k in unknown_in_pack(state) if k != kind]
    if not unknown:
        return None
    return InventoryScreen(
        {k: state.inventory[k] for k in unknown},
        title="Identify which?",
        verb="identify",
        state=state,
    )
