"""The map draws fire and marsh gas over their ground, by a glyph of their own (so the mono
theme tells them by shape): fire only while in view, gas also where it is remembered."""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.legend import FIRE_GLYPH, GAS_GLYPH, LEGEND
from screens.map_view import marks_of
from tests.engine.support import arena, off


def test_fire_and_gas_are_marked_by_glyphs_no_other_entry_uses():
    state, c = arena(3)
    state.fire[off(c, -2, 0)] = 2
    state.gas = {off(c, 2, 0)}
    marks = marks_of(state)
    assert marks[off(c, -2, 0)][0] == FIRE_GLYPH
    assert marks[off(c, 2, 0)][0] == GAS_GLYPH
    others = {e.glyph for e in LEGEND if e.name not in ("fire", "marsh gas")}
    assert FIRE_GLYPH not in others and GAS_GLYPH not in others
    assert tiles.TILES[tiles.ASH].glyph not in {t.glyph for t in tiles.TILES if t.id != tiles.ASH}


def test_fire_out_of_view_is_not_drawn_but_remembered_gas_is():
    state, _ = arena(3)
    hidden = (0, 0)  # a remembered cell, out of view
    state.explored[0, 0], state.visible[0, 0] = True, False
    state.fire[hidden] = 2
    state.gas = {hidden}
    assert marks_of(state)[hidden][0] == GAS_GLYPH
