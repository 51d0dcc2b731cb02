"""``FitFooter``: Textual's footer, compact (no padding round each key) when the terminal is
narrower than :data:`ROOMY` columns, so the game's essential keys fit at 80×24."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

#: From this many columns on, the footer keeps Textual's roomy padding.
ROOMY = 100


class FitFooter(Footer):
    """A footer that turns compact below :data:`ROOMY` columns."""

    def on_mount(self) -> None:
        self.compact = self.app.size.width < ROOMY

    def on_resize(self, event: events.Resize) -> None:
        self.compact = self.app.size.width < ROOMY
