"""The perk offer: a modal screen opened at a level up, listing the perks offered (numbered
to take one). Esc puts the choice off (the game goes on; ``P`` opens the offer again)."""

from __future__ import annotations

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from roguelike.engine.balance import PERK_OFFERED, PERKS
from screens.box import BoxScreen
from screens.side_panel import OLD


class PerkScreen(BoxScreen[int | None]):
    """The offer: a number takes that perk (dismissed with its index), Esc puts it off."""

    DEFAULT_CSS = """
    PerkScreen #perk-box {
        width: 60;
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Later"),
        *(
            Binding(str(n), f"take({n})", f"Take perk {n}", show=False)
            for n in range(1, PERK_OFFERED + 1)
        ),
    ]

    def __init__(self, offer: tuple[str, ...], level: int, taken: list[str]) -> None:
        super().__init__()
        self.offer, self.level, self.taken = offer, level, taken

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="perk-box", classes="box")

    def _text(self) -> Group:
        """The box's text: each perk's description wraps with a hanging indent, under its
        name (wrapped by hand, its second line started at the box's edge: "up, and what your
        pack holds" under "1 identify by touch", at 80x24)."""
        parts: list[Text | Padding] = [Text(f"Level {self.level}: choose a perk", style="bold")]
        for n, name in enumerate(self.offer, 1):
            held = self.taken.count(name)
            text = Text(f"\n{n} ", style="bold")
            text.append(name, style="bold")
            if held:
                text.append(f"  (taken {held}×)", style=OLD)
            parts += [text, Padding(Text(PERKS[name].description, style=OLD), (0, 0, 0, 4))]
        parts.append(Text(f"\n1–{len(self.offer)} take · Esc later (P shows it again)", style=OLD))
        return Group(*parts)

    def action_take(self, n: int) -> None:
        if 1 <= n <= len(self.offer):
            self.dismiss(n - 1)

    def action_close(self) -> None:
        self.dismiss(None)
