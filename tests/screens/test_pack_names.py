"""Issue 28: the side panel named an unknown scroll "scroll titled K. (." — ``abbreviate``
cut a title in capitals and the "(unknown)" after it. An item's name now fits whole or is
shortened by its plain words only."""

from __future__ import annotations

import re

import pytest

from roguelike import seeds
from roguelike.engine import ITEMS, new_game
from roguelike.engine.describe import item_label
from screens.side_panel import abbreviate, side_panel_lines

#: What the side panel's lines get at 80 columns (a panel of 24, its padding and border).
PANEL_WIDTH = 21


@pytest.mark.parametrize("count", [1, 3])
def test_every_unknown_item_keeps_its_look_whole_in_the_side_panel(count):
    state = new_game(seeds.parse("e"), preset="small", monsters=False)
    state.inventory.clear()
    for kind in ITEMS:
        state.inventory[kind] = count
    lines = [line.plain for line in side_panel_lines(state, "W", PANEL_WIDTH)]
    unknown = [kind for kind in ITEMS if item_label(state, kind).endswith(" (unknown)")]
    assert unknown
    for kind in unknown:
        look = item_label(state, kind).removesuffix(" (unknown)").removeprefix("scroll titled ")
        whole = any(look in line and "(?)" in line for line in lines)
        # with " ×3" less room: shortened by its plain words ("violet pot. (?)") or cut,
        # marked so ("VERR YED HORRE …"), never mangled (the no-cut-title check below)
        first = look.split(" ")[0]
        cut = count > 1 and any(first in line and ("…" in line or "." in line) for line in lines)
        assert whole or cut, (look, lines)
    for line in lines:
        assert len(line) <= PANEL_WIDTH
        assert not re.search(r"\b[A-Z]+\.|\(\.", line), line  # no cut title, no cut "(…)"


def test_abbreviate_never_cuts_a_title_a_number_or_punctuation():
    assert abbreviate("KIRJE scroll (?)", 14) == "KIRJE scr. (?)"
    assert abbreviate("NR 9 scroll (?)", 12) == "NR 9 sc. (?)"
    assert abbreviate("murky potion (?)", 14) == "murky pot. (?)"
    assert abbreviate("Sleeping Crypt challenge", 21) == "Sleeping Crypt chal."
