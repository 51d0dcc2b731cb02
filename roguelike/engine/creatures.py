"""Monster and item kinds: the bestiary and the pack, as data.

A monster's strength follows the depth of the room it lives in: each slot the floor
generator leaves has a *level* (half the room depth plus two per floor below the first), and
the kinds chosen for it are those whose own level it reaches, favouring the strongest few.
Not every monster slot is filled: half of them on the first floor, a tenth more on each floor
below (at most 80%). Items come from the generator's item slots (consumables and hint coins)
and treasure slots (lasting upgrades). What an item does is its ``effect``, played by the
handlers of :mod:`roguelike.engine.items`.

Which kind fills which slot is drawn from the floor's own stream
``seeds.stream(seed, floor, "inhabit")``, so it belongs to the world, not to the play: every
player of a seed code meets the same goblin in the same room.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from roguelike import seeds, tiles
from roguelike.gen.floor import Floor

INHABIT_STREAM = "inhabit"


@dataclass(frozen=True)
class MonsterKind:
    name: str
    glyph: str
    colour: str  # hex
    level: int  # the shallowest slot level it lives at
    max_hp: int
    attack: tuple[int, int]  # damage roll, inclusive
    defence: int  # taken off every blow it receives (a blow always does at least 1)
    accuracy: int  # percent chance to hit an unarmoured player
    speed: int  # energy gained per player turn; it acts once per 100 (you have 100)
    xp: int
    description: str
    ranged: int = 0  # range of its shot in cells (0: melee only)
    flee_below: float = 0.0  # flees while its HP is below this share of its maximum
    pack: bool = False  # seeks the company of its kind (and spawns with it)
    erratic: float = 0.0  # chance that a move is a random flutter
    regen: int = 0  # HP regained every time it acts


# fmt: off
MONSTERS: dict[str, MonsterKind] = {
    k.name: k
    for k in (
        #           name        glyph colour   lvl  hp  attack  def acc  spd  xp
        MonsterKind("rat",           "r", "#b09070", 0,  4, (1, 2), 0, 65, 100, 1,
                    "A fat cellar rat. Alone it is a nuisance; bitten hard, it runs.",
                    flee_below=0.5),
        MonsterKind("bat",           "b", "#a888d0", 0,  3, (1, 2), 0, 60, 150, 1,
                    "A cave bat: fast, erratic, never where you aim.",
                    erratic=0.4),
        MonsterKind("jackal",        "j", "#c8a040", 2,  5, (1, 3), 0, 65, 130, 2,
                    "A lean jackal. Jackals hunt in packs and outrun you.",
                    pack=True, flee_below=0.3),
        MonsterKind("goblin",        "g", "#60b050", 3,  7, (1, 4), 0, 70, 100, 3,
                    "A goblin with a rusty blade. Goblins keep together.",
                    pack=True, flee_below=0.25),
        MonsterKind("goblin archer", "a", "#90d070", 4,  6, (1, 3), 0, 60, 100, 4,
                    "A goblin with a short bow. It shoots from a distance.",
                    ranged=5),
        MonsterKind("orc",           "o", "#c06040", 6, 13, (2, 5), 1, 70, 100, 6,
                    "A scarred orc warrior in hide armour.",
                    flee_below=0.2),
        MonsterKind("skeleton",      "s", "#e0e0d0", 7, 15, (3, 6), 2, 70,  90, 8,
                    "Bones held together by old spite. It never flees."),
        MonsterKind("wraith",        "w", "#8090ff", 9, 14, (3, 6), 1, 75, 110, 10,
                    "A cold shape that hurls bolts of frost from afar.",
                    ranged=4),
        MonsterKind("ogre",          "O", "#d09060", 10, 28, (5, 9), 1, 65, 80, 14,
                    "A huge, slow ogre with a club the size of a door."),
        MonsterKind("troll",         "T", "#70a070", 12, 32, (5, 9), 2, 70, 100, 18,
                    "A troll. Its wounds close as you watch.",
                    regen=1),
    )
}
# fmt: on


@dataclass(frozen=True)
class ItemKind:
    name: str
    glyph: str
    colour: str
    description: str
    #: what it does: a key of the handlers in :mod:`roguelike.engine.items` (``"heal"``,
    #: ``"blink"``, ``"map"``, ``"bomb"``: used from the pack; ``"coin"``, ``"attack"``,
    #: ``"defence"``, ``"vigour"``: applied when taken)
    effect: str
    #: "pack": kept in the pack and used with Use; any other ("coin", "now") is applied when
    #: taken, by its effect
    kind: str = "pack"
    #: how strong its effect is: HP healed, damage or defence added, maximum HP added
    amount: int = 0


# fmt: off
ITEMS: dict[str, ItemKind] = {
    i.name: i
    for i in (
        ItemKind("healing potion", "!", "#f05090", "Drink it to heal 12 HP.",
                 effect="heal", amount=12),
        ItemKind("blink scroll", "?", "#80c0ff",
                 "Read it to vanish and reappear at a place in view, as far from monsters as it "
                 "can.",
                 effect="blink"),
        ItemKind("mapping scroll", "?", "#e8e080",
                 "Read it to learn the layout of the whole floor.",
                 effect="map"),
        ItemKind("fire bomb", "(", "#ff8040",
                 "Thrown at the nearest monster in view: burns it and everything next to it.",
                 effect="bomb"),
        ItemKind("hint coin", "*", "#ffd700", "A hint coin. Puzzle rooms take them for hints.",
                 effect="coin", kind="coin"),
        ItemKind("sharp blade", "/", "#c0c8ff", "A better blade: your blows hit 1 harder.",
                 effect="attack", kind="now", amount=1),
        ItemKind("iron plate", "[", "#b0b0b0", "Armour: every blow against you lands 1 softer.",
                 effect="defence", kind="now", amount=1),
        ItemKind("heart elixir", "!", "#ff3030",
                 "Raises your maximum HP by 5 and heals you fully.",
                 effect="vigour", kind="now", amount=5),
    )
}
# fmt: on

#: (item, weight) for item slots and for treasure slots.
ITEM_TABLE = (
    ("healing potion", 40),
    ("hint coin", 25),
    ("fire bomb", 14),
    ("blink scroll", 11),
    ("mapping scroll", 10),
)
TREASURE_TABLE = (("sharp blade", 30), ("iron plate", 30), ("heart elixir", 25), ("hint coin", 15))

#: How far a guard strays from its post.
GUARD_RADIUS = 5


@dataclass
class Monster:
    id: int
    kind: str  # a key of MONSTERS
    x: int
    y: int
    hp: int
    home: tuple[int, int]
    guard: bool = False  # it watches a key room and stays near its post
    awake: bool = False
    energy: int = 0
    unseen: int = 0  # turns since it last saw the player
    extra: dict[str, int] = field(default_factory=dict)

    @property
    def info(self) -> MonsterKind:
        return MONSTERS[self.kind]

    @property
    def pos(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def fleeing(self) -> bool:
        """Hurt below its kind's courage: it runs from the player."""
        info = self.info
        return info.flee_below > 0 and self.hp < info.flee_below * info.max_hp


def slot_level(depth: int, floor_number: int) -> int:
    """The strength of a room's inhabitants: half its depth (rounded up) plus two per floor
    below the first."""
    return (depth + 1) // 2 + 2 * (floor_number - 1)


def fill_share(floor_number: int) -> float:
    """The share of monster slots that hold a monster on floor ``floor_number``."""
    return min(0.8, 0.5 + 0.1 * (floor_number - 1))


def choose_kind(level: int, rng: np.random.Generator) -> MonsterKind:
    """A kind for a slot of ``level``: among the kinds it reaches, the strongest weigh most,
    and those far below it fade out."""
    kinds = [k for k in MONSTERS.values() if k.level <= level]
    weights = np.array([max(1, 6 - (level - k.level)) for k in kinds], dtype=float)
    return kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]


def _weighted(table: tuple[tuple[str, int], ...], rng: np.random.Generator) -> str:
    w = np.array([x for _, x in table], dtype=float)
    return table[int(rng.choice(len(table), p=w / w.sum()))][0]


def inhabit(fl: Floor) -> tuple[list[Monster], dict[tuple[int, int], str]]:
    """The monsters and items of a freshly generated floor, from its slots."""
    assert fl.tiles is not None and fl.room_map is not None
    rng = seeds.stream(fl.seed, fl.number, INHABIT_STREAM)
    depth = {r.id: r.depth for r in fl.topology.rooms}
    key_rooms = {k.room for k in fl.keys}
    walk = tiles.WALKABLE[fl.tiles]
    taken = {fl.spawn, fl.finish} | {(k.x, k.y) for k in fl.keys}
    taken |= {(s.x, s.y) for s in fl.slots}
    monsters: list[Monster] = []
    items: dict[tuple[int, int], str] = {}
    for slot in fl.slots:
        pos = (slot.x, slot.y)
        if slot.kind == "item":
            items[pos] = _weighted(ITEM_TABLE, rng)
            continue
        if slot.kind == "treasure":
            items[pos] = _weighted(TREASURE_TABLE, rng)
            continue
        if rng.random() >= fill_share(fl.number):
            continue
        kind = choose_kind(slot_level(depth[slot.room], fl.number), rng)
        guard = slot.room in key_rooms
        group = [pos]
        if kind.pack:  # half the time a companion on a free cell next to it, in its room
            want = int(rng.integers(0, 2))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
                if len(group) > want:
                    break
                c = (slot.x + dx, slot.y + dy)
                if (
                    0 <= c[1] < walk.shape[0]
                    and 0 <= c[0] < walk.shape[1]
                    and walk[c[1], c[0]]
                    and fl.room_map[c[1], c[0]] == slot.room
                    and c not in taken
                ):
                    taken.add(c)
                    group.append(c)
        for x, y in group:
            monsters.append(
                Monster(len(monsters), kind.name, x, y, kind.max_hp, home=(x, y), guard=guard)
            )
    return monsters, items
