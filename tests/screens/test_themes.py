"""The colour themes: a floor in view is clearly apart from a remembered one in every theme; the
colour-blind keys stay apart for a deuteranope; in the monochrome theme the map and every
puzzle board say with characters what the default theme says with colour alone."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rich.style import Style
from rich.text import Span
from textual.widgets import RadioButton, RadioSet

from roguelike import puzzles, tiles
from roguelike.engine import describe, new_game
from screens import map_view, themes
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.help import legend_rows, sight_notes
from screens.lines import TextLines
from screens.new_game import NewGameScreen, TickBox
from screens.overview import legend, overview
from screens.puzzle import PuzzleScreen
from screens.puzzle.sliding import SlidingView
from screens.side_panel import side_panel_lines
from screens.themes import DEFAULT_PALETTE, PALETTES, apply_theme
from tests.engine.support import add
from tests.screens.support import GameApp, Host, visible_floor

SEED = 12345
FLOOR = tiles.BY_NAME["floor"]


@pytest.fixture(autouse=True)
def _default_theme_after():
    """The palette is the app's (module state): every test here leaves the default behind."""
    yield
    themes.use(DEFAULT_PALETTE)


# ---------------------------------------------------------------------------- colours


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(hexc: str) -> float:
    r, g, b = (_linear(int(hexc[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1: the same, 21: black on white)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


#: Machado et al.'s simulation of deuteranopia (severity 1), on linear RGB.
DEUTAN = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.01182, 0.04294, 0.968881),
)


def as_deuteranope(hexc: str) -> tuple[float, ...]:
    rgb = [_linear(int(hexc[i : i + 2], 16)) for i in (1, 3, 5)]
    out = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb, strict=True)))) for row in DEUTAN]
    return tuple(
        255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055) for v in out
    )


@pytest.mark.parametrize("name", list(PALETTES))
def test_a_floor_in_view_and_a_remembered_one_are_clearly_apart(name):
    palette = PALETTES[name]
    map_view.use_palette(palette)
    seen = palette.role("floor")
    remembered = map_view.dim(seen)
    assert contrast(seen, remembered) >= 3  # it was about 1.6 before the themes
    # and the remembered floor still shows against the black of the unseen
    assert contrast(remembered, "#000000") >= 1.5


def test_the_colour_blind_keys_stay_apart_for_a_deuteranope():
    def closest(keys: tuple[str, ...]) -> float:
        return min(
            sum((a - b) ** 2 for a, b in zip(as_deuteranope(x), as_deuteranope(y), strict=True))
            ** 0.5
            for x, y in itertools.combinations(keys, 2)
        )

    # the first six keys of a floor: the default theme's red and green nearly meet (about 45)
    assert closest(PALETTES["colour-blind"].keys[:6]) >= 60
    assert closest(DEFAULT_PALETTE.keys[:6]) < 60


def test_the_mono_palette_has_no_colour_but_grey():
    palette = PALETTES["mono"]
    for role in [*themes.ROLE_COLOURS, "key1", "key7", "#e04040"]:
        hexc = palette.role(role)
        assert hexc[1:3] == hexc[3:5] == hexc[5:7], role


def test_the_side_panel_in_mono_has_no_colour_but_grey():
    """Issue 28: the mono theme left the side panel in colour (the HP bar, the keys held, the
    permadeath line); every colour of its lines is now a grey."""
    state = new_game(SEED, total_floors=2)
    state.keys_held = {1, 2, 3}
    state.hp = state.max_hp // 2
    state.inventory = {"healing potion": 1, "fire bomb": 2}
    themes.use(PALETTES["mono"])
    try:
        lines = side_panel_lines(state, "Mono", 22, permadeath=True)
    finally:
        themes.use(DEFAULT_PALETTE)
    colours = {
        style.color.triplet.hex
        for line in lines
        for span in [*line.spans, Span(0, 0, line.style)]
        for style in [Style.parse(str(span.style)) if span.style else Style()]
        if style.color is not None and style.color.triplet is not None
    }
    # greys, or the panel's own faintly blue greys (labels, the bar's empty part)
    spread = [max(rgb) - min(rgb) for c in colours for rgb in [bytes.fromhex(c[1:])]]
    assert colours and max(spread) <= 16, colours


# ---------------------------------------------------------------------------- the map


def cell(view: map_view.MapView, x: int, y: int) -> str:
    sx, sy = view.map_to_screen(x, y)
    return view.render_line(sy).text[sx]


@pytest.mark.parametrize(
    ("theme", "letters"), [("default", False), ("colour-blind", True), ("mono", True)]
)
async def test_keys_are_told_by_letter_where_colour_cannot_tell_them(theme, letters):
    state = new_game(SEED, total_floors=2, monsters=False)
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        apply_theme(app, theme)
        game = app.screen
        assert isinstance(game, GameScreen)
        a, b = visible_floor(state), visible_floor(state, 1)
        state.keys_lying[a] = 1
        state.keys_lying[b] = 2
        game.map_view.restyle()
        await pilot.pause()
        drawn = cell(game.map_view, *a), cell(game.map_view, *b)
        assert drawn == (("a", "b") if letters else ("k", "k"))


@pytest.mark.parametrize(("theme", "glyphs"), [("default", (".", ".")), ("mono", (".", "·"))])
async def test_a_remembered_floor_has_its_own_glyph_in_mono(theme, glyphs):
    state = new_game(SEED, total_floors=2, monsters=False)
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        apply_theme(app, theme)
        game = app.screen
        assert isinstance(game, GameScreen)
        seen, gone = visible_floor(state), visible_floor(state, 1)
        state.visible[gone[1], gone[0]] = False  # in view a moment ago: now remembered
        game.map_view.restyle()
        await pilot.pause()
        assert (cell(game.map_view, *seen), cell(game.map_view, *gone)) == glyphs


# ---------------------------------------------------------------------------- the boards


def board_strips(screen: PuzzleScreen) -> list[Any]:
    board = screen.query_one("#puzzle-board", TextLines)
    return [board.render_line(y) for y in range(board.size.height)]


#: For each type, characters its board shows at the start that say what colours also say.
SHAPES = {
    "jugs": ("█", "▲"),  # water and the goal mark
    "sliding": ("░",),  # a tile out of place
    "stomp": ("●", "·"),  # lit and dark tiles
    "ball": ("▓", "·"),  # the wall, an empty cell
    "hatgram": ("·",),  # an empty square
    "keydoor": ("▐", "@", "G"),  # a locked door, the player, the goal
}


@pytest.mark.parametrize("type_name", puzzles.TYPES)
async def test_every_board_in_mono_has_no_colour_and_reads_by_shape(type_name):
    p = puzzles.generate(type_name, "easy", 11)
    screen = PuzzleScreen(p)
    app = Host(screen, "mono")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        strips = board_strips(screen)
        text = "\n".join(strip.text for strip in strips)
        for glyph in SHAPES[type_name]:
            assert glyph in text, (type_name, glyph)
        # what the screen was given to draw carries no colour (the panel's dark background,
        # the widget's, is all that remains)
        for line in screen.query_one("#puzzle-board", TextLines).lines:
            for span in [Span(0, len(line), line.style), *line.spans]:
                style = Style.parse(span.style) if isinstance(span.style, str) else span.style
                for colour in (style.color, style.bgcolor):
                    assert colour is None or colour.is_default, (type_name, style)


async def test_keydoor_and_jugs_states_that_differ_read_differently_in_mono():
    # jugs: the jug poured from is marked by words, not only by its highlight
    p = puzzles.generate("jugs", "easy", 11)
    screen = PuzzleScreen(p)
    app = Host(screen, "mono")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        full = next(i for i, litres in enumerate(screen.visit.state) if litres)
        before = "\n".join(s.text for s in board_strips(screen))
        await pilot.press(str(full + 1))
        await pilot.pause()
        after = "\n".join(s.text for s in board_strips(screen))
        assert "◀ from" in after and "◀ from" not in before


def test_a_sliding_tile_at_home_and_one_away_differ_in_characters():
    p = puzzles.generate("sliding", "easy", 11)
    n = p.size
    home = (*range(1, n * n), 0)  # every tile at home (tile t at cell t - 1)
    swapped = (2, 1, *home[2:])  # tiles 1 and 2 away, the rest at home
    view = SlidingView(p)

    def board(palette: themes.Palette, s: tuple[int, ...]) -> list[str]:
        themes.use(palette)
        return [line.plain for line in view.board(s, 80, 24, [])]

    mono = PALETTES["mono"]
    # by default only the colours say which tiles are home: the text is the same
    assert "░" not in "".join(board(DEFAULT_PALETTE, swapped))
    # in mono a tile away is shaded, one at home is not
    assert "░" not in "".join(board(mono, home))
    shaded = [line for line in board(mono, swapped) if "░" in line]
    assert shaded
    first_row = next(line for line in board(mono, swapped) if " 2 " in line or "2" in line)
    assert "░" in first_row  # the row of the tiles away
    # the hinted tile has a shade of its own
    themes.use(mono)
    hinted = "".join(line.plain for line in view.board(swapped, 80, 24, [2]))
    assert "▒" in hinted


async def test_an_unchecked_permadeath_box_is_empty_and_a_checked_one_crossed():
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_new_game()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        box = app.screen.query_one("#permadeath", TickBox)
        assert not box.value
        unchecked = box.render().plain
        assert "X" not in unchecked.split("Permadeath")[0]
        box.value = True
        await pilot.pause()
        assert "X" in box.render().plain.split("Permadeath")[0]


async def test_the_chosen_radio_button_is_marked_by_shape_not_colour_alone():
    """Issue 28: the new-world dialog's radio buttons drew a ``●`` in every button, the chosen
    one told by its colour alone (lost in mono): now only the chosen one has it."""
    app = RoguelikeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        apply_theme(app, "mono")
        app.action_new_game()
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        for choice in ("#preset", "#difficulty"):
            buttons = list(app.screen.query_one(choice, RadioSet).query(RadioButton))
            marked = ["●" in b.render().plain.split(str(b.label))[0] for b in buttons]
            assert marked == [b.value for b in buttons] and sum(marked) == 1


@pytest.mark.parametrize(
    ("theme", "letters"), [("default", False), ("colour-blind", True), ("mono", True)]
)
async def test_the_help_the_overview_and_look_draw_keys_as_the_map_does(theme, letters):
    """Where the map draws a key by its door's letter, the legends and look say so too
    (a legend of ``k`` over a map of ``a`` and ``b`` explains nothing)."""
    state = new_game(SEED, total_floors=2, monsters=False)
    app = GameApp(state)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        apply_theme(app, theme)
        game = app.screen
        assert isinstance(game, GameScreen)
        a = visible_floor(state)
        state.keys_lying[a] = 2
        game.map_view.restyle()
        await pilot.pause()
        drawn = cell(game.map_view, *a)
        assert drawn == ("b" if letters else "k")
        # look: the key's text starts with the glyph drawn
        assert describe(state, *a, key_glyph=map_view.key_glyph).startswith(f"`{drawn}` ")
        # the help's row of keys: the glyphs drawn, in the palette's key colours
        (row,) = [r for r in legend_rows("Doors and keys") if r[1] == "key"]
        assert row[0].plain == ("a-j" if letters else "k")
        assert themes.current().role("key1") in str(row[0].spans[0].style)
        # the overview's legend
        assert ("a-j key" if letters else "k key") in legend(overview(state, 80, 20)).plain


@pytest.mark.parametrize("theme", ["colour-blind", "mono"])
async def test_a_key_and_a_monster_of_the_same_letter_differ_by_more_than_colour(theme):
    """Keys drawn by letter share letters with monsters (the blue key and a bat are both
    ``b``): a key is underlined, so that in mono, where both are white, they still differ."""
    state = new_game(SEED, total_floors=2, monsters=False)
    app = GameApp(state)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        apply_theme(app, theme)
        game = app.screen
        assert isinstance(game, GameScreen)
        key_at, bat_at = visible_floor(state), visible_floor(state, 1)
        state.keys_lying[key_at] = 2
        add(state, "bat", bat_at)
        game.map_view.show(state)
        game.map_view.restyle()
        await pilot.pause()
        marks = map_view.marks_of(state)
        (key_glyph, key_style), (bat_glyph, bat_style) = marks[key_at], marks[bat_at]
        assert key_glyph == bat_glyph == "b"
        assert key_style.underline and not bat_style.underline
        # and the help's legend draws the keys so
        (row,) = [r for r in legend_rows("Doors and keys") if r[1] == "key"]
        assert "underline" in str(row[0].spans[0].style)


@pytest.mark.parametrize(("theme", "said"), [("default", False), ("mono", True)])
async def test_the_help_explains_the_glyph_of_a_remembered_floor_in_mono(theme, said):
    """The mono theme draws a remembered floor ``·``: the legend says what it is."""
    themes.use(PALETTES[theme])
    notes = " ".join(sight_notes())
    assert ("·: remembered floor (. in view)" in notes) == said
