"""Helpers the screen tests share (a module, not a test file: pytest collects nothing here)."""

from __future__ import annotations

from typing import Any

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
