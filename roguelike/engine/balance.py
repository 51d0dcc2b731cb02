"""Balance: every number a designer tunes, in one place, and no engine code.

The bestiary (:data:`MONSTERS`), the items (:data:`ITEMS`) and the tables that draw them
(:data:`ITEM_TABLE`, :data:`TREASURE_TABLE`), the player's starting numbers and growth, and
the knobs of the rules that use them (how full a floor is, how strong a room's inhabitants
are, how long a monster hunts). The engine reads these names and nothing else hard-codes a
number of the game's balance; a change here changes what a seed code gives, so it goes with a
``GENERATOR_VERSION`` bump and new golden catalogs (see ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.presets import DEFAULT_DIFFICULTY as DEFAULT_DIFFICULTY  # re-exported
from roguelike.presets import DIFFICULTY_NAMES

# --- the player ---------------------------------------------------------------------------------

#: HP at the start of a run.
PLAYER_MAX_HP = 30
#: The bare-handed damage roll, inclusive.
PLAYER_ATTACK = (2, 5)
#: The player's chance to hit, in percent.
PLAYER_ACCURACY = 85
#: Experience the next level needs, per level held (level 1 needs 10).
XP_PER_LEVEL = 10
#: Maximum (and current) HP each level adds; each level also adds 1 to the top of the damage
#: roll and, on every odd level, 1 to its bottom.
LEVEL_HP = 3
#: A point of the player's defence takes this many percent off a monster's accuracy.
DEFENCE_DODGE = 2

# --- monsters on a floor ------------------------------------------------------------------------

#: The share of monster slots filled on the first floor, what each floor below adds, and the
#: most it reaches.
FILL_FIRST = 0.6
FILL_STEP = 0.1
FILL_MOST = 0.9
#: A slot's level is half its room's depth (rounded up) plus this many per floor below the
#: first; a kind lives at slots of its own level and above.
LEVEL_PER_FLOOR = 2
#: How far a guard strays from its post.
GUARD_RADIUS = 5
#: Turns of its own an awake monster hunts without seeing the player before it gives up.
HUNT_MEMORY = 20
#: A ranged monster shoots at most once in this many of its turns.
RELOAD_TURNS = 2
#: How close a shooting monster comes while it sees you (it never backs away: a shooter faster
#: than you that kept its distance could never be caught); out of sight, it comes on.
SHOOTING_RANGE = 3

# --- items --------------------------------------------------------------------------------------

#: Damage roll of a fire bomb, inclusive, for each monster it burns.
BOMB_DAMAGE = (6, 10)


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
        ItemKind("healing potion", "!", "#f05090", "Drink it to heal 10 HP.",
                 effect="heal", amount=10),
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
                 "Raises your maximum HP by 4 and heals you fully.",
                 effect="vigour", kind="now", amount=4),
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
TREASURE_TABLE = (("sharp blade", 20), ("iron plate", 12), ("heart elixir", 20), ("hint coin", 48))


# --- difficulty ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difficulty:
    """A level of difficulty chosen at a new world: multipliers on the numbers above (the
    bestiary's HP and damage are the base that every level scales, normal included). It never
    changes a floor's layout; it changes which monsters and items fill the slots only through
    the draws of the floor's inhabit stream that read it."""

    name: str
    description: str
    monster_hp: float  # multiplies every monster's maximum HP (rounded, at least 1)
    monster_damage: float  # multiplies a monster's damage roll (rounded) before defence
    fill: float  # multiplies the share of monster slots filled (at most every slot)
    potions: float  # multiplies the weight of healing potions in the item table
    player_hp: int  # the player's HP at the start of a run


# fmt: off
DIFFICULTIES: dict[str, Difficulty] = {
    d.name: d
    for d in (
        # name and description; then monster HP, monster damage, fill, potions, start HP
        Difficulty("easy",   "Fewer, weaker monsters and more potions: for learning the game.",
                   0.9, 1.1, 0.8, 1.5, 40),
        Difficulty("normal", "The dungeon as designed: the seed code alone names it.",
                   1.2, 1.4, 1.0, 1.0, PLAYER_MAX_HP),
        Difficulty("hard",   "Tougher monsters that hit harder, and fewer potions.",
                   1.4, 2.0, 1.15, 0.75, 25),
        Difficulty("brutal", "Crowded floors of monsters that hit much harder, few potions.",
                   1.6, 2.5, 1.3, 0.5, 20),
    )
}
# fmt: on
assert tuple(DIFFICULTIES) == DIFFICULTY_NAMES, "one row for each name in roguelike/presets.py"
