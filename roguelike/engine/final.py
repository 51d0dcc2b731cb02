"""The end of a run as the player last saw it, in plain text: what the run's record keeps for
its morgue (its final screen and ``runs show``).

:func:`final_view` takes, from the state at the end: the gear (:func:`~roguelike.engine.
describe.run_gear`), the pack named as the player knows each item (:func:`~roguelike.engine.
describe.item_label`), the last lines of the message log, and a window of the floor round the
player drawn from what they had explored (:func:`map_window`: the tiles remembered, the items,
keys and known traps on explored cells, the monsters and allies in view, the player).
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike import tiles
from roguelike.engine.creatures import ITEMS
from roguelike.engine.describe import a, item_label, run_gear
from roguelike.engine.legend import KEY_GLYPH, PLAYER_GLYPH, TRAP_GLYPH
from roguelike.engine.state import GameState

__all__ = [
    "LAST_MESSAGES",
    "LINE_MOST",
    "MAP_HEIGHT",
    "MAP_WIDTH",
    "FinalView",
    "final_view",
    "map_window",
    "pack_lines",
]

#: The size of the map window round the player.
MAP_WIDTH = 40
MAP_HEIGHT = 12
#: Lines of the message log kept.
LAST_MESSAGES = 10
#: The longest line kept (a longer message is cut, with an ellipsis).
LINE_MOST = 160


@dataclass(frozen=True)
class FinalView:
    """The end of a run in plain lines: gear, pack, last messages and the map round the
    player (``floor``: the floor it shows)."""

    floor: int
    gear: tuple[str, ...]
    pack: tuple[str, ...]
    messages: tuple[str, ...]
    map: tuple[str, ...]


def _cut(line: str) -> str:
    return line if len(line) <= LINE_MOST else line[: LINE_MOST - 1] + "…"


def pack_lines(state: GameState) -> list[str]:
    """The pack, one item kind a line with its count (``2 × a healing potion``), then the hint
    coins; ``empty`` if there is nothing."""
    lines = [
        f"{n} × {a(item_label(state, name))}" if n > 1 else a(item_label(state, name))
        for name, n in state.inventory.items()
        if n > 0
    ]
    if state.hint_coins:
        lines.append(f"{state.hint_coins} hint coin{'s' if state.hint_coins != 1 else ''}")
    return lines or ["empty"]


def map_window(state: GameState, width: int = MAP_WIDTH, height: int = MAP_HEIGHT) -> list[str]:
    """The ``width`` × ``height`` cells round the player (moved in at the map's edges), as the
    player knew them: unexplored cells blank, explored ones by their tile's glyph, what lies on
    them over it, the creatures in view over that, and ``@`` where the player stands."""
    w, h = min(width, state.width), min(height, state.height)
    px, py = state.player
    x0 = min(max(0, px - w // 2), state.width - w)
    y0 = min(max(0, py - h // 2), state.height - h)
    rows = [
        [
            str(tiles.GLYPHS[state.tiles[y, x]]) if state.explored[y, x] else " "
            for x in range(x0, x0 + w)
        ]
        for y in range(y0, y0 + h)
    ]

    def put(x: int, y: int, glyph: str, *, seen: bool = False) -> None:
        inside = x0 <= x < x0 + w and y0 <= y < y0 + h
        if inside and (state.visible[y, x] if seen else state.explored[y, x]):
            rows[y - y0][x - x0] = glyph

    for (x, y), name in state.items_lying.items():
        put(x, y, ITEMS[name].glyph if name in ITEMS else "?")
    for x, y in state.keys_lying:
        put(x, y, KEY_GLYPH)
    for x, y in state.traps_known:
        put(x, y, TRAP_GLYPH)
    for m in state.allies + state.monsters:
        put(m.x, m.y, m.info.glyph, seen=True)
    put(px, py, PLAYER_GLYPH)
    return ["".join(row) for row in rows]


def final_view(state: GameState) -> FinalView:
    """What the run's record keeps of its end (see the module)."""
    return FinalView(
        floor=state.number,
        gear=tuple(_cut(line) for line in run_gear(state)),
        pack=tuple(_cut(line) for line in pack_lines(state)),
        messages=tuple(_cut(line) for line in state.log[-LAST_MESSAGES:]),
        map=tuple(map_window(state)),
    )
