"""The legend: every glyph a tile, a monster, an item, a key or the player can be drawn as is
explained, and look mode names the glyph of what it describes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import tiles
from roguelike.engine import describe
from roguelike.engine.creatures import ITEMS, MONSTERS
from roguelike.engine.legend import (
    GROUPS,
    KEY_GLYPH,
    LEGEND,
    PLAYER_GLYPH,
    TILE_MEANING,
    by_glyph,
)
from tests.engine.support import add, arena, fresh, off


def drawn(glyph: str, colour: str) -> bool:
    """The legend has an entry for ``glyph`` drawn in ``colour``."""
    return any(e.colour == colour for e in by_glyph(glyph))


@given(st.sampled_from(tiles.TILES))
def test_every_tile_is_in_the_legend(tile):
    assert drawn(tile.glyph, tile.colour)
    entry = next(e for e in by_glyph(tile.glyph) if e.colour == tile.colour)
    if tiles.lock_of(tile.id) is None:
        # a meaning of its own, written for the player: never the fallback of a bare name
        assert tile.name in TILE_MEANING and entry.meaning == TILE_MEANING[tile.name]
    else:
        assert tiles.key_colour(tiles.lock_of(tile.id))[0] in entry.name


@given(st.sampled_from(sorted(MONSTERS)))
def test_every_monster_is_in_the_legend(name):
    kind = MONSTERS[name]
    assert drawn(kind.glyph, kind.colour)
    assert any(e.name == name and e.meaning == kind.description for e in by_glyph(kind.glyph))


@given(st.sampled_from(sorted(ITEMS)))
def test_every_item_is_in_the_legend(name):
    item = ITEMS[name]
    assert drawn(item.glyph, item.colour)
    assert any(e.name == name and item.description in e.meaning for e in by_glyph(item.glyph))


@given(st.integers(1, tiles.MAX_KEYS))
def test_every_key_and_the_player_are_in_the_legend(key):
    colour, hexc = tiles.key_colour(key)
    assert any(e.name == f"{colour} key" for e in by_glyph(KEY_GLYPH) if e.colour == hexc)
    assert [e.name for e in by_glyph(PLAYER_GLYPH)] == ["you"]


def test_glyphs_that_share_a_character_differ_by_colour_and_name():
    """Only colour tells the two ``!`` apart on the map: the legend must say which is which
    by a different name, and never list one look twice."""
    looks = [(e.glyph, e.colour) for e in LEGEND]
    assert len(looks) == len(set(looks))
    names = [e.name for e in LEGEND]
    assert len(names) == len(set(names))
    assert {e.group for e in LEGEND} == set(GROUPS)
    assert [GROUPS.index(e.group) for e in LEGEND] == sorted(GROUPS.index(e.group) for e in LEGEND)


def test_the_hint_coin_and_the_exit_are_explained():
    """The two the players asked about: what a hint coin is for, and why the exit ``<`` is
    taken with ``>``."""
    (coin,) = [e for e in LEGEND if e.name == "hint coin"]
    assert "hint" in coin.meaning and "pedestal" in coin.meaning
    (exit_,) = by_glyph("<")
    assert "press >" in exit_.meaning


@settings(max_examples=25)
@given(st.data())
def test_look_names_the_glyph_of_every_explored_cell(data):
    state = fresh(data.draw(st.sampled_from([0, 1, 2])))
    ys, xs = np.nonzero(state.explored)
    i = data.draw(st.integers(0, len(xs) - 1))
    x, y = int(xs[i]), int(ys[i])
    text = describe(state, x, y)
    tile = tiles.TILES[int(state.tiles[y, x])]
    if tile.name != "void" and (x, y) not in state.puzzles:
        assert f"`{tile.glyph}` " in text
        if tiles.lock_of(tile.id) is None:
            assert TILE_MEANING[tile.name] in text
    if (x, y) in state.items_lying:
        assert f"`{ITEMS[state.items_lying[(x, y)]].glyph}` " in text
    if (x, y) in state.keys_lying:
        assert text.count(f"{KEY_GLYPH} ") >= 1
    if (x, y) == state.player:
        assert text.startswith(f"`{PLAYER_GLYPH}` You")


def test_look_on_a_monster_names_its_glyph_and_the_ground_it_stands_on():
    state, c = arena()
    m = add(state, "goblin", off(c, 1, 0))
    tile = tiles.TILES[int(state.tiles[m.y, m.x])]
    text = describe(state, *m.pos)
    assert text.startswith(f"`{MONSTERS['goblin'].glyph}` A goblin")
    assert text.endswith(f"On `{tile.glyph}` {tile.name}.")
