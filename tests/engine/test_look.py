"""Looking: what ``describe`` tells of a cell, from what the player has seen and remembers.

Every situation is built on a real generated floor: a monster-free game of a seed, with the
player moved and monsters placed by hand on walkable cells, so each test knows exactly who
stands where. Expected values come from the rules (the engine modules' docstrings, the
creatures data), never from a recorded run.
"""

from __future__ import annotations

import copy
import itertools
import re

import numpy as np

from roguelike import tiles
from roguelike.engine import GameState, describe
from roguelike.engine.creatures import ITEMS, MONSTERS
from roguelike.engine.describe import item_label
from tests.engine.support import DIRS8, add, arena, fresh, locked_doors, off, put_player

# --- 9. look --------------------------------------------------------------------------------


def test_describe_what_the_player_knows():
    state, c = arena()
    unseen = np.argwhere(~state.explored)[0]
    assert "have not seen" in describe(state, int(unseen[1]), int(unseen[0]))
    assert "have not seen" in describe(state, -1, 0)
    assert f"{state.hp}/{state.max_hp}" in describe(state, *c)

    m = add(state, "orc", off(c, 2, 0), hp=5)
    text = describe(state, *m.pos)
    assert "orc" in text.lower() and f"5/{MONSTERS['orc'].max_hp} HP" in text
    assert "(remembered)" not in text

    state.items_lying[off(c, -1, 0)] = "blink scroll"
    state.identified.add("blink scroll")  # a kind the player knows is named by look
    assert "blink scroll" in describe(state, *off(c, -1, 0)).lower()

    # walk away until the orc's cell is remembered, not seen
    for pos in sorted(zip(*np.nonzero(state.explored), strict=True)):
        y, x = int(pos[0]), int(pos[1])
        if (
            tiles.WALKABLE[state.tiles[y, x]]
            and (x, y) != m.pos
            and not compute_visible(state, (x, y))[m.y, m.x]
        ):
            put_player(state, (x, y))
            break
    assert not state.visible[m.y, m.x] and state.explored[m.y, m.x]
    text = describe(state, *m.pos)
    assert "(remembered)" in text and "orc" not in text.lower()  # no monster from memory


def compute_visible(state: GameState, pos: tuple[int, int]) -> np.ndarray:
    s = copy.copy(state)
    s.explored = state.explored.copy()
    put_player(s, pos)
    return s.visible


def test_describe_names_a_keys_colour_and_a_locks_colour():
    state = fresh(0)
    (kx, ky), key = sorted(state.keys_lying.items())[0]
    walk = tiles.WALKABLE[state.tiles]
    put_player(state, next((kx + dx, ky + dy) for dx, dy in DIRS8 if walk[ky + dy, kx + dx]))
    colour = tiles.key_colour(key)[0]
    text = describe(state, kx, ky)
    assert colour in text and "key" in text
    assert f"({tiles.key_letter(key)})" in text  # the letter as the map and the panel draw it
    door, _, lock = next(locked_doors(state))
    state.explored[door[1], door[0]] = True
    text = describe(state, *door)
    assert tiles.key_colour(lock)[0] in text and "locked" in text


def test_look_names_an_unknown_scroll_by_its_title_as_the_pack_does():
    state, c = arena()
    state.items_lying[off(c, 1, 0)] = "teleport scroll"
    label = item_label(state, "teleport scroll")
    title = label.split("titled ", 1)[1].removesuffix(" (unknown)")
    assert title.isupper()  # a title is capitals, which players compare across machines
    assert f"A {label}." in describe(state, *off(c, 1, 0))


def doubled(text: str) -> list[str]:
    """Words said twice in a row ("A A door") and runs of three words said again at once
    ("A hint coin. A hint coin.") in ``text``."""
    words = re.findall(r"[\w']+", text.lower())
    found = [w for w, v in itertools.pairwise(words) if w == v]
    found += [
        " ".join(words[i : i + 3])
        for i in range(len(words) - 5)
        if words[i : i + 3] == words[i + 3 : i + 6]
    ]
    return found


def test_look_never_says_a_word_or_a_phrase_twice_over():
    """Issue 28: "A hint coin. A hint coin." (the item's name, then a description that began
    with it) and "A A door locked with …" (a locked door's glyph is its letter)."""
    state, c = arena()
    state.explored[:] = True
    for kind in ITEMS:
        state.identified.add(kind)
        state.items_lying[off(c, -1, 0)] = kind
        text = describe(state, *off(c, -1, 0))
        assert doubled(text) == [], text
    doors = [d for d in state.floor.doors if d.lock is not None]
    assert doors
    for door in doors:
        text = describe(state, door.x, door.y)
        assert "locked" in text and doubled(text) == [], text


def test_look_quotes_a_glyph_so_it_never_reads_as_a_stop():
    """Issue 28: "…for hints. . Bare stone floor." (the floor's glyph after a full stop)."""
    state, c = arena()
    state.explored[:] = True
    for kind in ITEMS:
        state.identified.discard(kind)
        state.items_lying[off(c, -1, 0)] = kind
        text = describe(state, *off(c, -1, 0))
        # a glyph standing alone as a word: punctuation read as the sentence's
        assert re.search(r"(^|\s)[^\w\s`]+(\s|$)", text) is None, text
        assert f"`{ITEMS[kind].glyph}` " in text
