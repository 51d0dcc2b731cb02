"""The colour themes: the app's Textual theme and the map's palette, chosen together by name.

Three themes:

``default``
    the game's own colours.
``colour-blind``
    the Okabe–Ito palette, whose colours stay apart for the colour-blind (a test checks a
    floor's first keys as a deuteranope sees them); keys
    lying on the floor are drawn as their door's letter, underlined (``a`` opens ``A``; a
    goblin archer is a plain ``a``), so a key never
    needs its colour to be told from another.
``mono``
    white and greys only. Everything the other themes say with a colour is said by a shape,
    a letter or a style: keys by their door's letter, a captive or an ally in reverse video, a
    remembered floor by ``·`` instead of ``.``; the puzzle boards are drawn without colour
    (``screens.puzzle.draw.monochrome``), their shapes and letters saying what colours say
    elsewhere.

In every theme a floor in view is clearly brighter than a remembered one (a test measures the
contrast). The palettes are plain data (hex colours and glyphs); :func:`screens.map_view.
use_palette` builds the map's styles from one, :func:`apply_theme` sets both at once.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from textual.app import App
from textual.theme import Theme

from roguelike import tiles
from roguelike.tiles import KEY_COLOURS

DEFAULT = "default"


@dataclass(frozen=True)
class Palette:
    """A map palette: a hex colour per colour role and per key, how remembered cells are
    darkened, and the glyphs that change when a colour cannot say it."""

    name: str
    roles: Mapping[str, str]
    keys: tuple[str, ...]
    player: str = "#ffffff"
    #: remembered cells: the colour mixed with ``remembered_grey``, ``remembered_mix`` of it
    remembered_grey: tuple[int, int, int] = (0x14, 0x14, 0x24)
    remembered_mix: float = 0.72
    #: tile glyph → the glyph drawn where that tile is only remembered
    remembered_glyphs: Mapping[str, str] = field(default_factory=dict)
    #: keys lying on the floor drawn as their door's letter in lower case, not ``k``, and
    #: underlined (the letter may be a monster's: ``b`` the blue key, ``b`` a bat)
    key_letters: bool = False
    #: white and greys only: a hex colour (an item's) is drawn white, and the puzzle boards
    #: drop their colours (their shapes and letters carry the meaning)
    mono: bool = False

    def role(self, role: str) -> str:
        """The hex colour of a colour role, a key role (``"key3"``) or a hex colour."""
        if role.startswith("#"):
            return self.keys[0] if self.mono else role
        if role.startswith("key") and role[3:].isdigit():
            return self.keys[(int(role[3:]) - 1) % len(self.keys)]
        return self.roles.get(role, self.roles.get("statue", "#c0c0c0"))


#: The map's colour of each colour role in the default theme: the game's own table (which the
#: generator's ASCII print shares).
ROLE_COLOURS: Mapping[str, str] = MappingProxyType(tiles.ROLE_COLOURS)


def _roles(**changes: str) -> Mapping[str, str]:
    return MappingProxyType({**ROLE_COLOURS, **changes})


#: The default palette: the game's colours.
DEFAULT_PALETTE = Palette(DEFAULT, ROLE_COLOURS, tuple(hexc for _, hexc in KEY_COLOURS))

#: Okabe–Ito (orange #e69f00, sky blue #56b4e9, bluish green #009e73, yellow #f0e442, blue
#: #0072b2, vermillion #d55e00, reddish purple #cc79a7), with white and grey.
COLOUR_BLIND_PALETTE = Palette(
    "colour-blind",
    _roles(
        floor="#8a8a98",
        wall="#b0b0b0",
        door="#e69f00",
        water="#0072b2",
        chasm="#303050",
        rubble="#a08060",
        moss="#009e73",
        pedestal="#f0e442",
        bridge="#e69f00",
        cave="#8a7a68",
        player="#ffffff",
        monster="#d55e00",
        ally="#cc79a7",
        item="#56b4e9",
        treasure="#f0e442",
    ),
    # the first keys of a floor are the most apart for a deuteranope (key 10 repeats key 1's
    # colour: its letter tells it)
    (
        "#0072b2",
        "#e69f00",
        "#56b4e9",
        "#d55e00",
        "#009e73",
        "#f0e442",
        "#cc79a7",
        "#ffffff",
        "#999999",
    ),
    key_letters=True,
)

_MONO_GREY = "#c8c8c8"
MONO_PALETTE = Palette(
    "mono",
    MappingProxyType(
        {role: ("#000000" if role == "void" else _MONO_GREY) for role in ROLE_COLOURS}
        | {"stairs": "#ffffff", "floor": "#a0a0a0", "monster": "#ffffff", "treasure": "#ffffff"}
    ),
    ("#ffffff",),
    remembered_grey=(0x10, 0x10, 0x10),
    remembered_mix=0.6,
    remembered_glyphs=MappingProxyType({".": "·", "%": "·"}),
    key_letters=True,
    mono=True,
)

PALETTES: Mapping[str, Palette] = MappingProxyType(
    {p.name: p for p in (DEFAULT_PALETTE, COLOUR_BLIND_PALETTE, MONO_PALETTE)}
)
#: The names the options screen offers, in order, with a word on each.
THEMES: tuple[tuple[str, str], ...] = (
    (DEFAULT, "the game's colours"),
    ("colour-blind", "Okabe–Ito colours, keys by letter"),
    ("mono", "white and greys: shapes and letters carry everything"),
)

#: The app's Textual theme for each of ours (None: Textual's own dark theme).
TEXTUAL_THEMES: Mapping[str, Theme | None] = MappingProxyType(
    {
        DEFAULT: None,
        "colour-blind": Theme(
            name="roguelike-colour-blind",
            primary="#0072b2",
            secondary="#56b4e9",
            accent="#e69f00",
            warning="#f0e442",
            error="#d55e00",
            success="#009e73",
            dark=True,
        ),
        "mono": Theme(
            name="roguelike-mono",
            primary="#c8c8c8",
            secondary="#a0a0a0",
            accent="#ffffff",
            warning="#ffffff",
            error="#ffffff",
            success="#ffffff",
            foreground="#e0e0e0",
            background="#000000",
            surface="#101010",
            panel="#202020",
            dark=True,
        ),
    }
)
TEXTUAL_DEFAULT = "textual-dark"

#: The palette in use (what the puzzle boards read; the map keeps its own tables, built from
#: it by ``use_palette``).
_current: list[Palette] = [DEFAULT_PALETTE]


def current() -> Palette:
    """The palette of the theme in use."""
    return _current[0]


def apply_theme(app: App[Any], name: str) -> Palette:
    """Use theme ``name`` (the default if there is none of that name) for the app's widgets,
    the map and the puzzle boards; returns its palette. The map takes it now if it is loaded,
    else when it is (it starts from :func:`current`): the title never waits on the engine."""
    palette = PALETTES.get(name, DEFAULT_PALETTE)
    textual_theme = TEXTUAL_THEMES.get(palette.name)
    wanted = TEXTUAL_DEFAULT if textual_theme is None else textual_theme.name
    if textual_theme is not None and wanted not in app.available_themes:
        app.register_theme(textual_theme)
    if app.theme != wanted:  # a new theme restyles every widget: not at each start
        app.theme = wanted
    use(palette)
    return palette


def use(palette: Palette) -> None:
    """Draw the map and the puzzle boards with ``palette`` from now on (the app's widgets
    follow its Textual theme: :func:`apply_theme` sets both)."""
    _current[0] = palette
    map_view = sys.modules.get("screens.map_view")
    if map_view is not None:
        map_view.use_palette(palette)
