"""The legend: every glyph the map can draw, with its name and what it means to the player.

One table, :data:`LEGEND`, built from the tables that make the glyphs (the tiles of
:mod:`roguelike.tiles`, the monster and item kinds of :mod:`roguelike.engine.creatures`, and the
two marks the map draws over tiles: a key lying on the floor and the player), so a new monster,
item or tile is explained the moment it exists. The help screen shows the table and look mode
names the glyph under the cursor with it; a test checks that every glyph a table can produce
is here.

Some glyphs mean more than one thing and differ by colour only (the two ``!`` and the two
``?`` items, the ``k`` of each key); an entry's ``colour`` tells them apart, and its ``name``
says which is which where colour cannot be seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike import tiles
from roguelike.depth import CAPTIVE_KINDS
from roguelike.engine.balance import FREE_TURNS
from roguelike.engine.creatures import ITEMS, MONSTERS
from roguelike.engine.identify import is_known, look, unknowable
from roguelike.engine.state import GameState

__all__ = [
    "AWARENESS_MARK",
    "GROUPS",
    "FIRE_ENTRY",
    "FIRE_GLYPH",
    "FIRE_TEXT",
    "GAS_ENTRY",
    "GAS_GLYPH",
    "GAS_TEXT",
    "KEY_GLYPH",
    "LEGEND",
    "PLAYER_GLYPH",
    "SIGHT_NOTES",
    "TILE_MEANING",
    "TRAP_GLYPH",
    "TRAP_TEXT",
    "Entry",
    "ally_entry",
    "by_glyph",
    "item_entry",
    "key_entry",
    "legend_for",
    "monster_entry",
    "tile_entry",
]

#: What a key lying on the floor looks like (drawn in its key's colour; its door shows the
#: key's capital letter).
KEY_GLYPH = "k"
#: The player.
PLAYER_GLYPH = "@"
#: A trap the player knows of (drawn over its ground; a hidden one is not drawn at all).
TRAP_GLYPH = "^"

#: A burning cell (drawn over its ground while in view; engine/fire.py).
FIRE_GLYPH = "§"
#: A cell under marsh gas (drawn over its ground, dim where only remembered; engine/gas.py).
GAS_GLYPH = "°"

FIRE_TEXT = (
    "Fire: whoever stands in it at the end of a turn is burnt, you, monsters and allies alike "
    "(monsters keep out of it). It spreads over moss, burns out in a few turns leaving ash, "
    "and stops at water, doors and bare stone. Travel and explore step around it."
)
GAS_TEXT = (
    "Marsh gas rising from the water: harmless to breathe, but fire that reaches it makes the "
    "whole cloud explode, blasting everyone in it or beside it and setting it all alight. "
    "A bomb thrown into it, with monsters inside, does the rest."
)

#: What look and the legend say of each kind of known trap (engine/traps.py makes them work).
TRAP_TEXT: dict[str, str] = {
    "dart": "A dart trap: a hidden spring fires a poisoned dart at whoever steps here.",
    "alarm": "An alarm trap: a tripwire rings a bell that wakes the monsters around.",
    "net": "A net trap: a weighted net drops on whoever steps here and holds them a while.",
    "fire": "A fire trap: a jet of flame burns whoever steps here and sets the ground round it "
    "alight; on moss the fire spreads.",
}

#: The legend's headings, in the order the help screen shows them.
GROUPS = ("You", "Terrain", "Doors and keys", "Items", "Monsters")


@dataclass(frozen=True)
class Entry:
    """One glyph as the map draws it: the character, its colour (a hex colour or a colour
    role of :mod:`roguelike.tiles`), a short name, what it means, and its heading. Entries of
    one ``family`` (the locked doors, the keys) are one row in the help screen, with the
    family's text."""

    glyph: str
    colour: str
    name: str
    meaning: str
    group: str
    family: str = ""


#: What each terrain tile means to the player, by the tile's name: walkable or not, what it
#: hides, what a key does on it. Look mode says it, the help screen lists it.
TILE_MEANING: dict[str, str] = {
    "void": "Solid rock, or a place you have not seen yet.",
    "wall": (
        "A rough stone wall: it blocks the way and the view. A diagonal step cannot cut its "
        "corner: both cells beside the step must be open."
    ),
    "floor": "Bare stone floor.",
    "door": "A closed wooden door: walk into it to open it. It blocks the view.",
    "open door": "An open door: press c beside it to close it.",
    "broken door": "A door smashed to splinters by a bugbear: it stays open for good.",
    "stairs down": "Stairs leading down: stand on them and press >.",
    "exit": (
        "The way out of the dungeon, on the last floor: stand on it and press > "
        "(the one key that leaves any floor) to win."
    ),
    "water": (
        "Shallow water, cold and still: you wade through it. Fire never crosses it; marsh gas "
        "may hang over it."
    ),
    "chasm": "A chasm: nothing crosses it, but you see over it.",
    "rubble": "Loose rubble underfoot: you walk over it.",
    "moss": (
        "Dry moss: you walk over it. It burns: a spark (a bomb) sets it alight and the fire "
        "runs across it, leaving ash."
    ),
    "ash": "Ash where moss burnt: you walk over it, and it never burns again.",
    "statue": (
        "A weathered statue: it blocks the way, not the view. A diagonal step cannot cut its "
        "corner."
    ),
    "pedestal": (
        "A stone pedestal carved with a puzzle: step on it to play; solving it gives the key "
        "of a locked door."
    ),
    "sealed vault": (
        "A sealed vault: its pedestal is nearby. Solve the pedestal's puzzle and the seal "
        "breaks; every treasure inside is yours to keep."
    ),
    "bridge": "A narrow bridge over the chasm.",
    "cave floor": "Uneven cave floor: you walk over it.",
    "deep water": (
        "Deep water filling a flooded room: you swim through it, and every stroke costs an "
        "extra turn in which monsters act. Fire never crosses it."
    ),
}

#: How the map shows what is in view and what is only remembered (not a glyph of its own).
SIGHT_NOTES: tuple[str, ...] = (
    "Bright: in view now.",
    "Dim: remembered, as you last saw it (keys and items too; monsters only while in view).",
    "Blank: not seen yet.",
    "In the side panel, a monster marked z is asleep and ? unaware of you: a blow on it is a "
    "sneak attack (sure, triple damage). Near it and in its sight, it may notice you each "
    "turn (more likely next to it); noise (a fight, a bomb, a bell) wakes it to come and look.",
)

#: The side panel's mark after a monster's name by its state of mind (engine/stealth.py's
#: ``awareness``): none for a hunting one.
AWARENESS_MARK: dict[str, str] = {"asleep": "z", "unaware": "?", "hunting": ""}


def tile_entry(tile: tiles.Tile) -> Entry:
    """The entry of a terrain tile (a locked door reads as the door of its key)."""
    lock = tiles.lock_of(tile.id)
    if lock is not None:
        colour = tiles.key_colour(lock)[0]
        return Entry(
            tile.glyph,
            tile.colour,
            f"door locked with the {colour} key",
            f"A door locked with the {colour} key ({tile.glyph}): walk into it holding that key.",
            "Doors and keys",
            "a locked door, drawn in its key's colour, with its key's letter: walk into it "
            "holding that key",
        )
    doors = ("door", "open door", "broken door", "sealed vault")
    group = "Doors and keys" if tile.name in doors else "Terrain"
    meaning = TILE_MEANING.get(tile.name, tile.name.capitalize() + ".")
    return Entry(tile.glyph, tile.colour, tile.name, meaning, group)


def key_entry(key: int) -> Entry:
    """The entry of key ``key`` lying on the floor."""
    colour, hexc = tiles.key_colour(key)
    letter = tiles.key_letter(key)
    return Entry(
        KEY_GLYPH,
        hexc,
        f"{colour} key",
        f"The {colour} key: it opens the door drawn {letter} in {colour}. Walk onto it to take it.",
        "Doors and keys",
        "a key, in the colour of the door it opens: walk onto it to take it (keys stay on "
        "their floor)",
    )


def item_entry(name: str) -> Entry:
    """The entry of the item kind ``name``."""
    item = ITEMS[name]
    kept = item.kind in ("pack", "coin")  # the pack, or the coins for the pedestals
    how = "Walk onto it to take it." if kept else "Walk onto it: it works at once."
    if item.effect == "coin":
        how += " On a pedestal, a coin buys a hint (with none left, a hint costs score)."
    return Entry(item.glyph, item.colour, name, f"{item.description} {how}", "Items")


def monster_entry(name: str) -> Entry:
    """The entry of the monster kind ``name``."""
    kind = MONSTERS[name]
    return Entry(kind.glyph, kind.colour, name, kind.description, "Monsters")


def ally_entry(name: str) -> Entry:
    """The entry of a captive (and the ally it becomes) of the kind ``name``: its kind's letter
    in the ally colour (reversed in the mono theme)."""
    kind = MONSTERS[name]
    return Entry(
        kind.glyph,
        "ally",
        f"captive {name}",
        f"A shackled {name}, in the ally colour: bump it {FREE_TURNS} times to free it, and it "
        "follows you as your ally (walk into it to swap places; next to you on the stairs, it "
        "comes down with you).",
        "Monsters",
    )


TRAP_ENTRY = Entry(
    TRAP_GLYPH,
    "trap",
    "trap",
    "A trap you have found (a dart, an alarm or a net): travel and explore step around it. "
    "Traps lie hidden until spotted: you may notice one as you pass, search (a turn spent "
    "looking) finds those within two steps, and one that goes off is known from then on.",
    "Terrain",
)

FIRE_ENTRY = Entry(FIRE_GLYPH, "fire", "fire", FIRE_TEXT, "Terrain")
GAS_ENTRY = Entry(GAS_GLYPH, "gas", "marsh gas", GAS_TEXT, "Terrain")

PLAYER_ENTRY = Entry(
    PLAYER_GLYPH, "#ffffff", "you", "You. Press @ for your character sheet.", "You"
)

#: Every glyph the map can draw, grouped as :data:`GROUPS` lists them.
LEGEND: tuple[Entry, ...] = tuple(
    sorted(
        (
            PLAYER_ENTRY,
            *(tile_entry(t) for t in tiles.TILES),
            TRAP_ENTRY,
            FIRE_ENTRY,
            GAS_ENTRY,
            *(key_entry(k) for k in range(1, tiles.MAX_KEYS + 1)),
            *(item_entry(name) for name in ITEMS),
            *(monster_entry(name) for name in MONSTERS),
            *(ally_entry(name) for kinds in CAPTIVE_KINDS.values() for name in kinds),
        ),
        key=lambda e: GROUPS.index(e.group),
    )
)


def known_item_entry(state: GameState, name: str) -> Entry:
    """The entry of item kind ``name`` as the player of ``state`` knows it: a potion or scroll
    in its world's look and colour, by its name once known (its meaning says its look), else
    by its look, its meaning starting "Unknown"; any other item as :func:`item_entry` says.
    (A scroll's look is named short, ``XOBAH scroll``: the legend's names never wrap.)"""
    if not unknowable(name):
        return item_entry(name)
    item = ITEMS[name]
    seen_as, colour = look(state, name)
    if is_known(state, name):
        return Entry(item.glyph, colour, name, f"{item.description} (The {seen_as}.)", "Items")
    short = f"{seen_as.removeprefix('scroll titled ')} scroll" if item.verb == "read" else seen_as
    verb = "drink" if item.verb == "quaff" else "read"
    return Entry(
        item.glyph,
        colour,
        short,
        f"Unknown: {verb} it to learn what it is (it may help or harm), or name it with a "
        "scroll of identification.",
        "Items",
    )


def legend_for(state: GameState) -> tuple[Entry, ...]:
    """The legend as the player of ``state`` reads it: the potions and scrolls in this world's
    looks, named where known (the help screen of a game in progress shows this one). The
    unknown looks come last, in the order of their words, so their order tells nothing."""
    items = [known_item_entry(state, e.name) if e.group == "Items" else e for e in LEGEND]
    unknown = sorted(
        (e for e in items if e.meaning.startswith("Unknown")), key=lambda e: (e.glyph, e.name)
    )
    known = [e for e in items if e.group == "Items" and not e.meaning.startswith("Unknown")]
    order = [*known, *unknown]
    at = next(i for i, e in enumerate(items) if e.group == "Items")
    rest = [e for e in items if e.group != "Items"]
    return tuple(rest[:at] + order + rest[at:])


def by_glyph(glyph: str) -> list[Entry]:
    """Every entry drawn as ``glyph`` (more than one when only colour tells them apart)."""
    return [e for e in LEGEND if e.glyph == glyph]
