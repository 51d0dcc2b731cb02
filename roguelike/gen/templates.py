"""Room templates: hand-drawn rooms that the floor generator stamps onto the map.

Each template is one plain-text file ``roguelike/gen/rooms/<name>.room`` (shipped as package data)::

    name: pillared-hall        # required; equals the file stem; lowercase words joined by '-'
    tags: any                  # required; a subset of: start finish key puzzle treasure any
    depth: 2-99                # optional; inclusive range of the room's distance from the start
    weight: 2                  # optional; a positive int, the relative chance of being picked
    floors: 1-4                # optional; inclusive range of dungeon floors it appears on
    ---
    #####D#####
    #.........#
    D..&...&..D
    #.........#
    #####D#####

The header holds ``key: value`` lines (``#`` starts a comment there, and only there); a line
``---`` ends it. The character grid follows; the loader pads its rows on the right with spaces
to a rectangle, ignores trailing whitespace and blank lines around the grid, but leading spaces
matter. Defaults: depth ``0-99``, weight ``1``, floors ``1-99``. ``floors`` is how a floor's
rooms follow its theme: dry halls near the top, caves and flooded ruins in the middle, crypts and
chasms deeper (a room whose floors do not fit is only used when nothing else fits).

Legend (fixed glyphs; tile ids from :mod:`roguelike.tiles`):

    ``#`` wall   ``.`` floor   `` `` (space) outside the room: VOID, stays rock
    ``~`` water  ``:`` chasm   ``,`` rubble   ``"`` moss   ``&`` statue
    ``=`` bridge ``%`` cave floor

Sockets: ``D`` marks a possible door. It lies on the edge of the bounding box (never in a
corner) and the cell one step inside it is walkable even in the worst case (below); its side
N/S/E/W says which edge. :meth:`Template.resolve` makes every socket WALL; the stamper turns
the sockets it uses into doors.

Spots, stamped as FLOOR with their positions recorded in :attr:`Template.spots`:
``@`` player spawn, ``>`` stairs (the floor's exit), ``k`` key or puzzle-pedestal spot,
``$`` treasure spot, ``m`` monster spot.

Probabilistic glyphs, each cell drawn independently from its table (percent):

    ``1`` floor 50 / rubble 50                   (always walkable)
    ``2`` wall 50 / floor 50                     (collapsed wall, loose pillar)
    ``3`` water 70 / floor 20 / moss 10          (always walkable: pond edges, puddles)
    ``4`` floor 60 / chasm 40                    (crumbling ground)
    ``5`` statue 30 / floor 70                   (maybe a statue)
    ``6`` moss 50 / floor 50                     (always walkable)
    ``7`` wall 30 / rubble 40 / floor 30         (ruined masonry)
    ``8`` cave floor 60 / rubble 25 / moss 15    (always walkable: cave ground)
    ``9`` wall 50 / cave floor 50                (ragged cave edge)

Validation (:class:`TemplateError`, message ``"<path>:<line>: <reason>"``): unknown or missing
header keys, repeated keys, bad tags, depth or weight, an empty grid or one smaller than 3x3,
unknown glyphs; sockets off
the edge, in a corner or without a walkable cell inside; no socket at all; walkable ground on the
bounding-box edge or touching VOID (the wall ring must enclose the room); ``start`` templates need
exactly one ``@`` and a depth range holding 0, ``finish`` exactly one ``>``, ``key`` and
``puzzle`` exactly one ``k``, ``treasure`` at least one ``$``; ``@``, ``>`` and ``k`` appear only
in templates with such a tag. Connectivity, checked on the *worst case* (a probabilistic cell
counts as walkable only when all its outcomes are): every socket's inward cell, every spot and
every walkable cell lie in one 4-connected component, and every cell that *may* become walkable
touches that component. Walkability only grows from the worst case, so every outcome of every
template is one connected room: a probabilistic tile never traps the player.

Variants: :meth:`Template.variants` gives the distinct images of a template under the eight
rotations and mirrors. The suffix ``rK`` rotates clockwise by K degrees, a trailing ``m`` then
mirrors left and right (``hall/r90m``); the identity keeps the plain name and comes first.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import numpy as np
from scipy import ndimage

from roguelike import tiles

#: Where the shipped templates live (inside the package, so they ship as package data).
ROOMS_DIR = Path(__file__).parent / "rooms"

TAGS = frozenset({"start", "finish", "key", "puzzle", "treasure", "any"})
SOCKET = "D"

#: Fixed glyphs → tile ids.
FIXED: dict[str, int] = {
    "#": tiles.WALL,
    ".": tiles.FLOOR,
    " ": tiles.VOID,
    "~": tiles.WATER,
    ":": tiles.CHASM,
    ",": tiles.RUBBLE,
    '"': tiles.MOSS,
    "&": tiles.STATUE,
    "=": tiles.BRIDGE,
    "%": tiles.CAVE,
}

#: Spot glyphs (stamped as FLOOR) → what the generator puts there.
SPOTS: dict[str, str] = {
    "@": "player spawn",
    ">": "stairs",
    "k": "key or puzzle pedestal",
    "$": "treasure",
    "m": "monster",
}

#: Probabilistic glyphs → ((tile, weight), ...).
PROBABILISTIC: dict[str, tuple[tuple[int, int], ...]] = {
    "1": ((tiles.FLOOR, 50), (tiles.RUBBLE, 50)),
    "2": ((tiles.WALL, 50), (tiles.FLOOR, 50)),
    "3": ((tiles.WATER, 70), (tiles.FLOOR, 20), (tiles.MOSS, 10)),
    "4": ((tiles.FLOOR, 60), (tiles.CHASM, 40)),
    "5": ((tiles.STATUE, 30), (tiles.FLOOR, 70)),
    "6": ((tiles.MOSS, 50), (tiles.FLOOR, 50)),
    "7": ((tiles.WALL, 30), (tiles.RUBBLE, 40), (tiles.FLOOR, 30)),
    "8": ((tiles.CAVE, 60), (tiles.RUBBLE, 25), (tiles.MOSS, 15)),
    "9": ((tiles.WALL, 50), (tiles.CAVE, 50)),
}

#: Spots a tag needs: tag → (glyph, at least, at most or None).
TAG_SPOTS: dict[str, tuple[str, int, int | None]] = {
    "start": ("@", 1, 1),
    "finish": (">", 1, 1),
    "key": ("k", 1, 1),
    "puzzle": ("k", 1, 1),
    "treasure": ("$", 1, None),
}
#: Spots that only make sense in templates with one of these tags.
SPOT_OWNERS: dict[str, frozenset[str]] = {
    "@": frozenset({"start"}),
    ">": frozenset({"finish"}),
    "k": frozenset({"key", "puzzle"}),
}

DEFAULT_DEPTH = (0, 99)
DEFAULT_FLOORS = (1, 99)
_HEADER_KEYS = ("name", "tags", "depth", "weight", "floors")
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_DEPTH = re.compile(r"([0-9]+)-([0-9]+)")
_WEIGHT = re.compile(r"[0-9]+")
#: side → (dx, dy) pointing into the room.
_INWARD = {"N": (0, 1), "S": (0, -1), "W": (1, 0), "E": (-1, 0)}
_CROSS = ndimage.generate_binary_structure(2, 1)  # 4-connectivity
_BOX = np.ones((3, 3), dtype=bool)


def _lut(values: dict[str, object], dtype: type, default: object = 0) -> np.ndarray:
    table: np.ndarray = np.full(128, default, dtype=dtype)
    for glyph, value in values.items():
        table[ord(glyph)] = value
    return table


def _walkable(tile: int) -> bool:
    return bool(tiles.WALKABLE[tile])


_KNOWN = frozenset(FIXED) | frozenset(SPOTS) | frozenset(PROBABILISTIC) | {SOCKET}
#: char code → tile id; probabilistic glyphs map to VOID until resolve() draws them.
_TILE = _lut(
    {**FIXED, **dict.fromkeys(SPOTS, tiles.FLOOR), SOCKET: tiles.WALL}, np.uint8, tiles.VOID
)
#: char code → walkable in the worst case / in the best case.
_WORST = _lut(
    {
        **{g: _walkable(t) for g, t in FIXED.items()},
        **dict.fromkeys(SPOTS, True),
        **{g: all(_walkable(t) for t, _ in out) for g, out in PROBABILISTIC.items()},
    },
    bool,
    False,
)
_BEST = _lut(
    {
        **{g: _walkable(t) for g, t in FIXED.items()},
        **dict.fromkeys(SPOTS, True),
        **{g: any(_walkable(t) for t, _ in out) for g, out in PROBABILISTIC.items()},
    },
    bool,
    False,
)
#: char code → belongs to the room's inside (anything but wall, void and sockets).
_INTERIOR = _lut(dict.fromkeys(_KNOWN - {"#", " ", SOCKET}, True), bool, False)
_OUTCOMES = {
    g: (
        np.array([t for t, _ in out], dtype=np.uint8),
        np.array([w for _, w in out], dtype=float) / sum(w for _, w in out),
    )
    for g, out in PROBABILISTIC.items()
}


def _side(x: int, y: int, width: int, height: int) -> str:
    """The edge a socket at (x, y) lies on (meaningful only for an edge cell off the corners)."""
    return "N" if y == 0 else "S" if y == height - 1 else "W" if x == 0 else "E"


def _first(mask: np.ndarray) -> tuple[int, int] | None:
    """The (x, y) of the first true cell of ``mask`` in reading order, or None."""
    cells = np.argwhere(mask)
    return None if not len(cells) else (int(cells[0, 1]), int(cells[0, 0]))


class TemplateError(ValueError):
    """A template file is malformed; the message reads ``"<path>:<line>: <reason>"``."""


@dataclass(frozen=True)
class Socket:
    """A possible door at (x, y) on the ``side`` edge (N, S, E or W) of its template."""

    x: int
    y: int
    side: str

    @property
    def inward(self) -> tuple[int, int]:
        """The (x, y) of the room cell just inside the socket."""
        dx, dy = _INWARD[self.side]
        return self.x + dx, self.y + dy

    @property
    def outward(self) -> tuple[int, int]:
        """The (x, y) just outside the template's bounding box, where a corridor starts."""
        dx, dy = _INWARD[self.side]
        return self.x - dx, self.y - dy


@dataclass(frozen=True)
class Template:
    """One validated room template (or a rotated/mirrored variant of one)."""

    name: str
    tags: frozenset[str]
    depth: tuple[int, int]
    weight: int
    grid: tuple[str, ...]
    source: str = "<memory>"
    floors: tuple[int, int] = DEFAULT_FLOORS

    @property
    def width(self) -> int:
        return len(self.grid[0])

    @property
    def height(self) -> int:
        return len(self.grid)

    @cached_property
    def chars(self) -> np.ndarray:
        """The grid as a read-only ``uint8`` array (h, w) of character codes."""
        codes = np.frombuffer("".join(self.grid).encode("ascii"), dtype=np.uint8)
        return codes.reshape(self.height, self.width)

    @cached_property
    def sockets(self) -> tuple[Socket, ...]:
        """The door sockets in reading order."""
        return tuple(
            Socket(x, y, _side(x, y, self.width, self.height))
            for y, x in np.argwhere(self.chars == ord(SOCKET)).tolist()
        )

    @cached_property
    def spots(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """Spot glyph (every key of :data:`SPOTS`) → its (x, y) positions in reading order."""
        return {
            glyph: tuple((x, y) for y, x in np.argwhere(self.chars == ord(glyph)).tolist())
            for glyph in SPOTS
        }

    def worst_walkable(self) -> np.ndarray:
        """``bool`` (h, w): walkable whatever the probabilistic cells become."""
        return _WORST[self.chars]

    def best_walkable(self) -> np.ndarray:
        """``bool`` (h, w): walkable in at least one outcome."""
        return _BEST[self.chars]

    @cached_property
    def _probabilistic(self) -> tuple[str, ...]:
        present = {chr(c) for c in np.unique(self.chars).tolist()}
        return tuple(sorted(present & PROBABILISTIC.keys()))

    def resolve(self, rng: np.random.Generator) -> np.ndarray:
        """The tiles (``uint8``, (h, w)) of one outcome: VOID outside, sockets WALL, spots FLOOR,
        each probabilistic glyph (in sorted order) drawn by a single ``rng.choice`` over its
        cells in reading order; the same rng state gives the same tiles."""
        out = _TILE[self.chars]
        for glyph in self._probabilistic:
            mask = self.chars == ord(glyph)
            choices, p = _OUTCOMES[glyph]
            out[mask] = rng.choice(choices, size=int(np.count_nonzero(mask)), p=p)
        return out

    @cached_property
    def _variants(self) -> tuple[Template, ...]:
        seen: set[tuple[str, ...]] = set()
        found = []
        for mirror in (False, True):
            for quarter in range(4):
                image = np.rot90(self.chars, -quarter)  # clockwise
                if mirror:
                    image = image[:, ::-1]
                grid = tuple(row.tobytes().decode("ascii") for row in image)
                if grid in seen:
                    continue
                seen.add(grid)
                suffix = (f"r{90 * quarter}" if quarter else "") + ("m" if mirror else "")
                name = f"{self.name}/{suffix}" if suffix else self.name
                found.append(replace(self, name=name, grid=grid))
        return tuple(found)

    def variants(self) -> tuple[Template, ...]:
        """The distinct images under the 8 rotations and mirrors, the identity first.

        ``rK`` rotates clockwise by K degrees, then ``m`` mirrors left↔right; socket sides follow
        (N→E→S→W under a quarter turn, E↔W under the mirror). Identical grids appear once."""
        return self._variants


# --- parsing and validation ------------------------------------------------------------------


def _fail(source: str, line: int, reason: str) -> TemplateError:
    return TemplateError(f"{source}:{line}: {reason}")


def parse_template(text: str, source: str) -> Template:
    """Parse and validate one template; ``source`` is its file path (for messages, and its stem
    must equal the template's name). Raises :class:`TemplateError`."""
    return _parse(text, source)[0]


def _parse(text: str, source: str) -> tuple[Template, int]:
    """The template and the line of its ``name`` header."""
    lines = text.splitlines()
    header: dict[str, tuple[str, int]] = {}
    separator = None
    for number, raw in enumerate(lines, 1):
        if raw.strip() == "---":
            separator = number
            break
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        key, colon, value = content.partition(":")
        key = key.strip()
        if not colon:
            raise _fail(source, number, f"expected 'key: value' or '---', got {content!r}")
        if key not in _HEADER_KEYS:
            known = ", ".join(_HEADER_KEYS)
            raise _fail(source, number, f"unknown header {key!r} (expected {known})")
        if key in header:
            raise _fail(source, number, f"duplicate header {key!r}")
        header[key] = (value.strip(), number)
    if separator is None:
        raise _fail(source, max(len(lines), 1), "missing the '---' line that ends the header")
    for key in ("name", "tags"):
        if key not in header:
            raise _fail(source, separator, f"missing header {key!r}")

    name, name_line = header["name"]
    if not _NAME.fullmatch(name):
        raise _fail(source, name_line, f"bad name {name!r} (lowercase words joined by '-')")
    if name != Path(source).stem:
        file = Path(source).name
        raise _fail(source, name_line, f"name {name!r} differs from the file name {file!r}")

    tag_text, tags_line = header["tags"]
    tags = frozenset(tag_text.split())
    if not tags:
        raise _fail(source, tags_line, "no tags")
    if bad := sorted(tags - TAGS):
        known = " ".join(sorted(TAGS))
        raise _fail(source, tags_line, f"bad tag {bad[0]!r} (expected some of: {known})")

    depth = DEFAULT_DEPTH
    if "depth" in header:
        value, line = header["depth"]
        match = _DEPTH.fullmatch(value)
        if not match or int(match[1]) > int(match[2]):
            raise _fail(source, line, f"bad depth {value!r} (expected lo-hi with 0 <= lo <= hi)")
        depth = (int(match[1]), int(match[2]))
    weight = 1
    if "weight" in header:
        value, line = header["weight"]
        if not _WEIGHT.fullmatch(value) or int(value) < 1:
            raise _fail(source, line, f"bad weight {value!r} (expected a positive integer)")
        weight = int(value)

    floors = DEFAULT_FLOORS
    if "floors" in header:
        value, line = header["floors"]
        match = _DEPTH.fullmatch(value)
        if not match or not 1 <= int(match[1]) <= int(match[2]):
            raise _fail(source, line, f"bad floors {value!r} (expected lo-hi with 1 <= lo <= hi)")
        floors = (int(match[1]), int(match[2]))

    rows = [(number, raw.rstrip()) for number, raw in enumerate(lines[separator:], separator + 1)]
    while rows and not rows[-1][1]:
        rows.pop()
    while rows and not rows[0][1]:
        rows.pop(0)
    if not rows:
        raise _fail(source, separator, "empty grid")
    for number, row in rows:
        for column, glyph in enumerate(row, 1):
            if glyph not in _KNOWN:
                raise _fail(source, number, f"unknown glyph {glyph!r} in column {column}")
    if all(row.startswith(" ") for _, row in rows):
        raise _fail(source, rows[0][0], "the grid's first column is empty")
    width = max(len(row) for _, row in rows)
    if width < 3 or len(rows) < 3:
        raise _fail(source, rows[0][0], f"a {width}x{len(rows)} grid is smaller than 3x3")
    grid = tuple(row.ljust(width) for _, row in rows)
    template = Template(name, tags, depth, weight, grid, source, floors)
    _validate(template, [number for number, _ in rows], header)
    return template, name_line


def _validate(t: Template, line_of: list[int], header: dict[str, tuple[str, int]]) -> None:
    """Every rule on the grid; ``line_of[y]`` is the file line of grid row y."""
    chars, h, w = t.chars, t.height, t.width

    def fail(y: int, reason: str) -> TemplateError:
        return _fail(t.source, line_of[y], reason)

    def glyph_at(x: int, y: int) -> str:
        return f"{chr(chars[y, x])!r} in column {x + 1}"

    required: list[tuple[int, int, str]] = []  # (x, y, what): must share one component
    for socket in t.sockets:
        x, y = socket.x, socket.y
        on_edge = (y in (0, h - 1), x in (0, w - 1))
        if not any(on_edge):
            raise fail(y, f"socket in column {x + 1} is not on the bounding-box edge")
        if all(on_edge):
            raise fail(y, f"socket in column {x + 1} sits in a corner")
        ix, iy = socket.inward
        if not _WORST[chars[iy, ix]]:
            raise fail(y, f"socket in column {x + 1} has no walkable cell just inside it")
        required.append((ix, iy, f"the cell inside the socket in column {x + 1}"))
    if not required:
        raise _fail(t.source, line_of[0], f"no socket {SOCKET!r}")

    outside = ndimage.binary_dilation(chars == ord(" "), _BOX, border_value=1)
    if cell := _first(_INTERIOR[chars] & outside):
        raise fail(cell[1], f"{glyph_at(*cell)} is not enclosed by the wall ring")

    for glyph, owners in SPOT_OWNERS.items():
        if t.spots[glyph] and not owners & t.tags:
            x, y = t.spots[glyph][0]
            raise fail(y, f"{glyph_at(x, y)} needs one of the tags {' '.join(sorted(owners))}")
    tags_line = header["tags"][1]
    for tag in sorted(t.tags & TAG_SPOTS.keys()):
        glyph, least, most = TAG_SPOTS[tag]
        count = len(t.spots[glyph])
        if count < least or (most is not None and count > most):
            need = f"exactly {least}" if most == least else f"at least {least}"
            reason = f"a {tag} template needs {need} {glyph!r}, has {count}"
            raise _fail(t.source, tags_line, reason)
    if "start" in t.tags and t.depth[0] != 0:
        line = header.get("depth", header["tags"])[1]
        raise _fail(t.source, line, "a start template's depth range must hold 0")

    for glyph in SPOTS:
        required += [(x, y, f"spot {glyph!r} in column {x + 1}") for x, y in t.spots[glyph]]
    worst = t.worst_walkable()
    labels, _ = ndimage.label(worst, _CROSS)
    x0, y0, first = required[0]
    main = labels == labels[y0, x0]
    for x, y, what in required[1:]:
        if not main[y, x]:
            raise fail(y, f"{what} is cut off from {first} (line {line_of[y0]}) in the worst case")
    if cell := _first(worst & ~main):
        raise fail(cell[1], f"walkable {glyph_at(*cell)} is cut off from the room")
    if cell := _first(t.best_walkable() & ~ndimage.binary_dilation(main, _CROSS)):
        raise fail(cell[1], f"{glyph_at(*cell)} may open a pocket cut off from the room")


# --- loading -----------------------------------------------------------------------------------


def load_templates(folder: Path | None = None) -> tuple[Template, ...]:
    """Every ``*.room`` file under ``folder`` (default: the shipped ``roguelike/gen/rooms``),
    validated and sorted by name. The default folder is read once and cached."""
    return _load_default() if folder is None else _load(Path(folder))


@functools.cache
def _load_default() -> tuple[Template, ...]:
    return _load(ROOMS_DIR)


def _load(folder: Path) -> tuple[Template, ...]:
    found: dict[str, Template] = {}
    for path in sorted(folder.rglob("*.room")):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise _fail(str(path), 1, f"not UTF-8 text ({error.reason})") from None
        template, name_line = _parse(text, str(path))
        if template.name in found:
            raise _fail(
                str(path),
                name_line,
                f"duplicate name {template.name!r} (also {found[template.name].source})",
            )
        found[template.name] = template
    if not found:
        raise TemplateError(f"{folder}:0: no .room templates")
    return tuple(found[name] for name in sorted(found))


def for_tag(tag: str) -> tuple[Template, ...]:
    """The shipped templates carrying ``tag``, sorted by name."""
    if tag not in TAGS:
        raise ValueError(f"unknown tag {tag!r} (expected one of {' '.join(sorted(TAGS))})")
    return tuple(t for t in load_templates() if tag in t.tags)
