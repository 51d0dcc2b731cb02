"""Placing monsters and items on a floor (their kinds, as data, are in
:mod:`roguelike.engine.balance`).

A monster's strength follows the depth of the room it lives in: each slot the floor
generator leaves has a *level* (half the room depth plus two per floor below the first), and
the kinds chosen for it are those whose own level it reaches, favouring the strongest few.
A key room's slot may hold a sentinel instead (a kind that only ever guards), and a pack kind
comes with one to three companions (at most one per floor of depth: packs grow as you go
down). Not every monster slot is filled: a share that starts a little over a half on the
first floor and grows a little each floor, up to a cap, scaled by the difficulty. These
by-floor curves are tables of ``roguelike/depth.py`` (``MONSTER_LEVEL``, ``PACK_MOST``,
``FILL``).
Items come from the generator's item slots (consumables and hint coins) and treasure slots
(lasting upgrades: each treasure room lays out two or three different ones side by side, a
*choice group*, of which the player keeps one; a sealed vault's upgrades are all kept, with a
consumable or two beside them). What an item does is its ``effect``, played
by the handlers of :mod:`roguelike.engine.items`.

A captive room's captive slot holds a shackled creature of a kind from ``CAPTIVE_KINDS`` (the
deepest tier its floor reaches), marked by its ``shackled`` counter (:data:`SHACKLED`), which
the game state puts on the player's side; that room's guard slots are always filled.

Which kind fills which slot is drawn from the floor's own stream
``seeds.stream(seed, floor, "inhabit")``, so it belongs to the world, not to the play: every
player of a seed code meets the same goblin in the same room. The world's difficulty
(:data:`~roguelike.engine.balance.DIFFICULTIES`) scales the share of slots filled, the
weight of healing potions and every monster's maximum HP (and :mod:`~roguelike.engine.combat`
its blows); the normal world is the one the seed code alone names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from roguelike import depth, seeds, tiles
from roguelike.engine.balance import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    GUARD_RADIUS,
    ITEM_TABLE,
    ITEMS,
    MONSTERS,
    PACK_COMPANIONS,
    TREASURE_CHOICES,
    TREASURE_REST,
    TREASURE_TABLE,
    VAULT_CONSUMABLES,
    VAULT_TABLE,
    VAULT_UPGRADES,
    Difficulty,
    ItemKind,
    MonsterKind,
)
from roguelike.gen.floor import Floor
from roguelike.gen.special import special

if TYPE_CHECKING:
    from roguelike.engine.state import GameState

__all__ = [
    "GUARD_RADIUS",
    "INHABIT_STREAM",
    "SHACKLED",
    "ITEMS",
    "ITEM_TABLE",
    "MONSTERS",
    "TREASURE_TABLE",
    "ItemKind",
    "Monster",
    "MonsterKind",
    "captive_kind",
    "choose_kind",
    "fill_share",
    "inhabit",
    "populate",
    "monster_attack",
    "monster_hp",
    "monster_shown",
    "shown_name",
    "slot_level",
]

INHABIT_STREAM = "inhabit"
#: The counter a shackled captive keeps in its ``extra``: the bumps spent on its shackles so
#: far (freed at ``FREE_TURNS``, when the counter goes and it is an ally).
SHACKLED = "shackled"


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
    #: counters of its behaviours (see :mod:`roguelike.engine.monsters`): ``reload``, ``fled``,
    #: ``hiding``, ``cornered``, ``retreat``, ``backed``, ``raised``, ``away``, ``spotted`` (a
    #: guard the player has seen); a captive's ``shackled`` (see :data:`SHACKLED`)
    extra: dict[str, int] = field(default_factory=dict)
    loot: str = ""  # what a thief stole from the player (an item's name), dropped where it dies
    #: its HP when unhurt: its kind's, scaled by the world's difficulty (0: the kind's own)
    max_hp: int = 0

    def __post_init__(self) -> None:
        if self.max_hp <= 0:
            self.max_hp = MONSTERS[self.kind].max_hp

    @property
    def info(self) -> MonsterKind:
        return MONSTERS[self.kind]

    @property
    def pos(self) -> tuple[int, int]:
        return (self.x, self.y)

    @property
    def fleeing(self) -> bool:
        """It runs from the player: a thief with loot, or one hurt below its kind's courage
        or hiding to heal; never once cornered (it has fled as long as it will)."""
        if self.extra.get("cornered"):
            return False
        if self.loot or self.extra.get("hiding"):
            return True
        info = self.info
        return info.flee_below > 0 and self.hp < info.flee_below * self.max_hp


def slot_level(room_depth: int, floor_number: int) -> int:
    """The strength of a room's inhabitants: half its depth (rounded up) plus
    ``depth.MONSTER_LEVEL`` at the floor (two per floor below the first), at most
    ``depth.MONSTER_LEVEL_MOST`` at the floor."""
    level = (room_depth + 1) // 2 + depth.MONSTER_LEVEL.at(floor_number)
    most = depth.MONSTER_LEVEL_MOST.at(floor_number)
    return level if most is None else min(level, most)


def fill_share(floor_number: int, difficulty: str = DEFAULT_DIFFICULTY) -> float:
    """The share of monster slots that hold a monster on floor ``floor_number`` of a world of
    ``difficulty``."""
    normal = depth.FILL.at(floor_number)
    return min(1.0, normal * DIFFICULTIES[difficulty].fill)


def monster_hp(kind: MonsterKind, difficulty: str = DEFAULT_DIFFICULTY) -> int:
    """The maximum HP of a monster of ``kind`` in a world of ``difficulty``."""
    return max(1, round(kind.max_hp * DIFFICULTIES[difficulty].monster_hp))


def monster_attack(
    kind: MonsterKind, difficulty: str = DEFAULT_DIFFICULTY, *, breath: bool = False
) -> tuple[int, int]:
    """The damage roll (inclusive) of a monster of ``kind`` in a world of ``difficulty``:
    its blow's, or its breath's (``breath``)."""
    scale = DIFFICULTIES[difficulty].monster_damage
    lo, hi = kind.breath_roll if breath else kind.attack
    return (max(1, round(lo * scale)), max(1, round(hi * scale)))


def item_table(difficulty: Difficulty) -> tuple[tuple[str, float], ...]:
    """The item table with healing potions weighted as ``difficulty`` says."""
    return tuple(
        (name, w * difficulty.potions if ITEMS[name].effect == "heal" else w)
        for name, w in ITEM_TABLE
    )


def choose_kind(level: int, rng: np.random.Generator, *, sentinel: bool = False) -> MonsterKind:
    """A kind for a slot of ``level``: among the kinds it reaches, the strongest weigh most,
    and those far below it fade out. Sentinels (``sentinel``) and the others are drawn apart:
    a sentinel only ever guards a key room; a summoned kind is never drawn."""
    kinds = [
        k
        for k in MONSTERS.values()
        if k.level <= level and k.sentinel == sentinel and not k.summoned
    ]
    weights = np.array([max(1, 6 - (level - k.level)) for k in kinds], dtype=float)
    return kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]


def captive_kind(floor_number: int, rng: np.random.Generator) -> str:
    """The kind of a captive on floor ``floor_number``: one of the deepest tier of
    :data:`roguelike.depth.CAPTIVE_KINDS` the floor reaches (the first tier above it), evenly."""
    kinds = depth.CAPTIVE_KINDS.at(floor_number)
    return kinds[int(rng.integers(len(kinds)))]


def _weighted(table: tuple[tuple[str, float], ...], rng: np.random.Generator) -> str:
    w = np.array([x for _, x in table], dtype=float)
    return table[int(rng.choice(len(table), p=w / w.sum()))][0]


Choices = dict[tuple[int, int], int]


def inhabit(
    fl: Floor, difficulty: str = DEFAULT_DIFFICULTY
) -> tuple[list[Monster], dict[tuple[int, int], str]]:
    """The monsters and items of a freshly generated floor, from its slots, in a world of
    ``difficulty``."""
    monsters, items, _ = populate(fl, difficulty)
    return monsters, items


def _distinct(table: tuple[tuple[str, int], ...], n: int, rng: np.random.Generator) -> list[str]:
    """``n`` different entries of ``table``, drawn by weight without replacement."""
    rest = list(table)
    out: list[str] = []
    while rest and len(out) < n:
        pick = _weighted(tuple(rest), rng)
        out.append(pick)
        rest = [e for e in rest if e[0] != pick]
    return out


def _beside(
    fl: Floor, room: int, pos: tuple[int, int], taken: set[tuple[int, int]], n: int
) -> list[tuple[int, int]]:
    """Up to ``n`` free plain cells of ``room`` nearest ``pos`` (in a fixed order: nearest, then
    by row and column), for the rest of a treasure's choice."""
    assert fl.tiles is not None and fl.room_map is not None
    ys, xs = np.nonzero(fl.room_map == room)
    plain = (tiles.FLOOR, tiles.CAVE, tiles.MOSS)
    cells = [
        (int(x), int(y))
        for y, x in zip(ys, xs, strict=True)
        if int(fl.tiles[y, x]) in plain and (int(x), int(y)) not in taken
    ]
    cells.sort(key=lambda c: (max(abs(c[0] - pos[0]), abs(c[1] - pos[1])), c[1], c[0]))
    return cells[:n]


def _hoard(
    fl: Floor,
    room: int,
    rng: np.random.Generator,
    taken: set[tuple[int, int]],
    items: dict[tuple[int, int], str],
    choices: Choices,
) -> None:
    """The treasure of ``room``: a choice of TREASURE_CHOICES different lasting upgrades on its
    first treasure slots (on free cells beside them if it has too few), one choice group; its
    other treasure slots hold hint coins. One upgrade per treasure room, not one per slot.
    A sealed vault is worth its puzzle: VAULT_UPGRADES different upgrades that are all the
    player's (no choice group), and VAULT_CONSUMABLES finds of VAULT_TABLE beside them."""
    slots = [(s.x, s.y) for s in fl.slots if s.kind == "treasure" and s.room == room]
    record = special(fl.roles.get(room))
    vault = record is not None and record.hoard == "all"
    lo, hi = VAULT_UPGRADES if vault else TREASURE_CHOICES
    kinds = _distinct(TREASURE_TABLE, int(rng.integers(lo, hi + 1)), rng)
    if vault:
        lo, hi = VAULT_CONSUMABLES
        kinds += [_weighted(VAULT_TABLE, rng) for _ in range(int(rng.integers(lo, hi + 1)))]
    cells = slots[: len(kinds)]
    cells += _beside(fl, room, slots[0], taken, len(kinds) - len(cells))
    group = len(set(choices.values()))
    for c, name in zip(cells, kinds, strict=False):
        items[c] = name
        taken.add(c)
        if not vault:
            choices[c] = group
    for c in slots[len(cells) :]:
        items[c] = TREASURE_REST


def populate(
    fl: Floor, difficulty: str = DEFAULT_DIFFICULTY
) -> tuple[list[Monster], dict[tuple[int, int], str], Choices]:
    """The monsters and items of a freshly generated floor of a world of ``difficulty``, from
    its slots, and the choice groups of its treasure (item cell → group number: taking one
    item of a group makes the rest of it crumble)."""
    assert fl.tiles is not None and fl.room_map is not None
    rng = seeds.stream(fl.seed, fl.number, INHABIT_STREAM)
    room_depth = {r.id: r.depth for r in fl.topology.rooms}
    key_rooms = {k.room for k in fl.keys}
    walk = tiles.WALKABLE[fl.tiles]
    taken = {fl.spawn, fl.finish} | {(k.x, k.y) for k in fl.keys}
    taken |= {(s.x, s.y) for s in fl.slots}
    monsters: list[Monster] = []
    items: dict[tuple[int, int], str] = {}
    choices: Choices = {}
    hoards: set[int] = set()
    found = item_table(DIFFICULTIES[difficulty])
    share = fill_share(fl.number, difficulty)
    held = {s.room for s in fl.slots if s.kind == "captive"}
    for slot in fl.slots:
        pos = (slot.x, slot.y)
        if slot.kind == "captive":
            kind = MONSTERS[captive_kind(fl.number, rng)]
            hp = monster_hp(kind, difficulty)
            captive = Monster(len(monsters), kind.name, *pos, hp, home=pos, max_hp=hp)
            captive.extra[SHACKLED] = 0
            monsters.append(captive)
            continue
        if slot.kind == "item":
            items[pos] = _weighted(found, rng)
            continue
        if slot.kind == "treasure":
            if slot.room not in hoards:  # the room's first treasure slot lays out its hoard
                hoards.add(slot.room)
                _hoard(fl, slot.room, rng, taken, items, choices)
            continue
        if slot.kind != "monster":  # a new kind of slot must say what it holds, here
            raise ValueError(f"populate knows no slot kind {slot.kind!r}")
        if slot.room not in held and rng.random() >= share:  # a captive's guards are always there
            continue
        level = slot_level(room_depth[slot.room], fl.number)
        guard = slot.room in key_rooms
        sentinel = (
            guard
            and any(k.sentinel and k.level <= level for k in MONSTERS.values())
            and rng.integers(100) < depth.SENTINEL_SHARE.at(fl.number)
        )
        kind = choose_kind(level, rng, sentinel=bool(sentinel))
        group = [pos]
        if kind.pack:  # a pack: companions on free cells next to it, in its room
            want = int(rng.integers(PACK_COMPANIONS[0], PACK_COMPANIONS[1] + 1))
            want = min(want, depth.PACK_MOST.at(fl.number))
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
        hp = monster_hp(kind, difficulty)
        for x, y in group:
            monsters.append(
                Monster(len(monsters), kind.name, x, y, hp, home=(x, y), guard=guard, max_hp=hp)
            )
    return monsters, items, choices


def monster_shown(state: GameState, m: Monster) -> MonsterKind:
    """The kind ``m`` looks like: its own, or while hallucinating another kind, changing from
    turn to turn (a rule of the state, no random draw: the screens call it as they draw)."""
    if not state.hallucinating:
        return m.info
    kinds = list(MONSTERS)
    return MONSTERS[kinds[(m.id * 7 + state.turn * 3 + 1) % len(kinds)]]


def shown_name(state: GameState, m: Monster) -> str:
    """The name the player reads for the hostile ``m``: the kind it looks like
    (:func:`monster_shown`), so the log, look and the map agree while hallucinating. The
    record of a death keeps the true kind."""
    return monster_shown(state, m).name
