"""Balance: every number a designer tunes, in one place, and no engine code.

The bestiary (:data:`MONSTERS`), the items (:data:`ITEMS`) and the tables that draw them
(:data:`ITEM_TABLE`, :data:`TREASURE_TABLE`), the player's starting numbers and growth, and
the knobs of the rules that use them (how long a monster hunts, a bomb's damage). What changes
with depth (how full a floor is, how strong a room's inhabitants are, which captives wait, how
many keys are puzzles) is the depth curve's, ``roguelike/depth.py``, the one place for every
by-floor number. The engine reads these names and nothing else hard-codes a number of the
game's balance; a change here changes what a seed code gives, so it goes with a
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
LEVEL_HP = 4
#: A point of the player's defence takes this many percent off a monster's accuracy.
DEFENCE_DODGE = 2
#: The player's stealth at the start of a run (a perk may raise it; see STEALTH_STEP).
PLAYER_STEALTH = 0
#: The most stealth a player can have (a save's bound).
STEALTH_MOST = 40
#: The most of one kind of item the player carries (in the pack and worn together), and the
#: most hint coins held: one more is left lying ("You cannot carry more …"). A save's bound
#: too, so a game never holds a count its save could not keep.
MAX_CARRIED = 10**6

# --- stealth and noise (roguelike/engine/stealth.py) --------------------------------------------

#: How near (Chebyshev) the player must be, in a sleeping or unaware monster's line of sight,
#: for it to have a chance to notice them each turn.
SENSE_RANGE = 7
#: What a monster's kind notices by default: its chance in percent each turn (``perception``).
PERCEPTION = 10
#: Percent taken off that chance for each point of the player's stealth.
STEALTH_STEP = 3
#: The chance is multiplied by this when the player stands next to the monster.
NEAR_FACTOR = 3
#: ...and by this when the monster is awake already, but unaware of the player.
UNAWARE_FACTOR = 2
#: A sneak attack (a blow at a sleeping or unaware monster) always lands, for this many times
#: its damage.
SNEAK_MULTIPLIER = 3
#: Loudness (steps that sound carries, round walls) of a blow, each side's, at the striker.
NOISE_BLOW = 4
#: Loudness of a fire bomb's burst (an item's ``noise``), and of a scroll of sacrifice read.
NOISE_BOMB = 10
NOISE_SACRIFICE = 8

# --- monsters on a floor ------------------------------------------------------------------------

# How full a floor is, how strong its slots are and how big its packs grow, by floor, are
# tables of the depth curve (roguelike/depth.py: FILL, MONSTER_LEVEL, PACK_MOST).

#: How far a guard strays from its post.
GUARD_RADIUS = 5
#: Turns of its own an awake monster hunts without seeing the player before it gives up.
HUNT_MEMORY = 20
#: How far round walls an unaware monster looks for its way to a noise it heard (the loudest
#: noise carries ``NOISE_BOMB`` steps; walking round may take longer than sound).
HEARD_WALK = 24
#: A ranged monster shoots at most once in this many of its turns.
RELOAD_TURNS = 2
#: How close a shooting monster comes while it sees you (only a kiting kind backs away); out of
#: sight, it comes on.
SHOOTING_RANGE = 3

# --- monster behaviours -------------------------------------------------------------------------

#: Turns of its own a monster flees while in view before it gives up and fights back, cornered.
FLEE_TURNS = 12
#: HP a fleeing monster regains each of its turns while out of the player's sight (hiding); it
#: comes back once healed to its maximum.
HIDE_HEAL = 2
#: Turns of its own a skirmisher keeps out of reach after each blow it lands.
SKIRMISH_RETREAT = 3
#: A kiting shooter backs away while nearer than this (and in view).
KITE_DISTANCE = 3
#: Steps back a kiting shooter takes in all before it stands its ground (so it can be caught).
KITE_STEPS = 12
#: Score a flanking pack member gives each step between it and the nearest ally also next to
#: the player (they spread round the player instead of queueing on one side).
FLANK_SPREAD = 3.0
#: What rousing a sleeper that blocks its way costs a monster against stepping (in the scores of
#: its options): it wakes one only when it cannot go round.
ROUSE_COST = 1.0
#: Companions a pack kind spawns with: at least, at most (a pack is 2 to 4); no more than
#: ``depth.PACK_MOST`` allows on its floor.
PACK_COMPANIONS = (1, 3)
#: How far a sentinel strays from its post.
SENTINEL_RADIUS = 2
#: An awake monster in view that could walk up to the player within this many of its turns
#: forbids exploring (``e``), as does a shooter with the player in its range; one farther off
#: (the long way round a chasm) or a kiting shooter out of range does not, and a walk stops
#: when one comes this near.
EXPLORE_WARY = 8
#: Turns of its own a thief with loot must stay out of sight to get away with it for good.
THIEF_ESCAPE = 6
#: Turns of its own between two shrieks of a shrieker.
SHRIEK_RELOAD = 12
#: Turns of its own between two raisings of a summoner.
SUMMON_RELOAD = 5
#: Minions one summoner raises in all.
SUMMON_MOST = 3
#: Accuracy (percent) a swarming monster gains for each other swarming ally next to the player
#: (and 1 damage for each, see ``MonsterKind.swarm``).
SWARM_ACCURACY = 8
#: Turns of its own between two breaths of a breathing kind (``MonsterKind.breath``).
BREATH_RELOAD = 3
#: How far (Chebyshev) the crash of a door broken by a door-breaking kind wakes monsters.
BASH_NOISE = 8
#: Turns of its own a lurking kind stays in plain sight after it strikes (or is struck).
LURK_SHOWN = 3
#: How far (Chebyshev) a search (a turn spent looking) shows the lurkers in view.
LURK_SEARCH = 5

# --- fire and gas (engine/fire.py, engine/gas.py) ------------------------------------------------

#: Turns a cell of moss burns before it is ash; turns bare ground (floor, rubble, cave floor,
#: ash) flickers where a bomb or a blast lit it, with nothing to feed it.
FIRE_FUEL_TURNS = 4
FIRE_BARE_TURNS = 1
#: Chance, in percent, that a burning cell sets each moss cell beside it (4 sides) alight in a
#: turn (a roll of the play stream for each).
FIRE_SPREAD = 45
#: Damage roll of the fire, inclusive, for whoever stands in a burning cell at the end of a turn
#: (the player, a monster, an ally).
FIRE_DAMAGE = (3, 5)
#: What the fire adds to that roll, in percent of the burnt one's maximum HP (rounded down):
#: fire eats a share of whatever stands in it, so it stays a danger to a grown player.
FIRE_SHARE = 10
#: What a burning cell takes off a monster's (and an ally's) score for standing there: they
#: step out of the fire, and never into it unless nothing else will do.
FIRE_AVOID = 60.0
#: Damage roll, inclusive, of a pocket of marsh gas exploding, for each creature in it or
#: beside it; the cloud then burns.
GAS_BLAST = (5, 9)

# --- items --------------------------------------------------------------------------------------

#: Damage roll of a fire bomb, inclusive, for each creature it burns (the thrower too).
BOMB_DAMAGE = (6, 10)
#: How far a bomb flies: the farthest cell (in king's steps) it can be aimed at.
THROW_RANGE = 6
#: The player's speed: a monster of speed S gets S/PLAYER_SPEED of a turn per player turn.
PLAYER_SPEED = 100
#: The slowest the player gets, however much heavy armour is worn.
PLAYER_SPEED_LEAST = 50
#: Damage a berserk potion adds to every blow, and the turns its fury lasts.
BERSERK_BONUS = 3
BERSERK_TURNS = 10
#: Damage taken off every blow while weary after the fury, and the turns it lasts.
WEARY_MALUS = 2
WEARY_TURNS = 15
#: Damage roll of a scroll of sacrifice on every monster in view, and the maximum HP it costs.
SACRIFICE_DAMAGE = (8, 14)
SACRIFICE_COST = 4
#: Potions and scrolls are unknown until used or identified (:mod:`roguelike.engine.identify`):
#: each world deals its potion kinds these looks and its scroll kinds these titles, shuffled
#: from the seed. There must be at least as many looks as potion kinds, titles as scroll kinds.
POTION_LOOKS = (
    ("murky", "#8a7a48"),
    ("crimson", "#e02838"),
    ("azure", "#3890ff"),
    ("bubbling", "#60e0a0"),
    ("golden", "#ffd040"),
    ("inky", "#6050c0"),
    ("milky", "#e8e8e0"),
    ("smoky", "#a0a0a0"),
    ("violet", "#c060ff"),
    ("emerald", "#20c050"),
    ("amber", "#ff9020"),
    ("pink", "#ff80c0"),
)
SCROLL_TITLES = (
    "XOBAH", "ZELGO MER", "FOOBIE BLETCH", "ELBIB YLOH", "VERR YED HORRE", "JUYED AWK YACC",
    "THARR", "KIRJE", "NR 9", "GARVEN DEH", "PRIRUTSENIE", "VELOX NEB",
)  # fmt: skip
#: The colour of every scroll on the map and in the pack, known or not.
SCROLL_COLOUR = "#e8e0b8"
#: Turns a potion's passing state lasts: speed (you act twice as often), detection (every
#: monster on the floor shown), darkness (your sight shrinks to DARK_RADIUS), hallucination
#: (monsters look like other kinds), confusion (a move goes astray CONFUSED_STRAY% of the time).
HASTE_TURNS = 20
DETECT_TURNS = 40
DARK_TURNS = 40
DARK_RADIUS = 2
HALLUCINATION_TURNS = 50
CONFUSED_TURNS = 12
CONFUSED_STRAY = 50
#: Damage roll of an incineration potion's burst on every creature next to the drinker, and
#: what its flames do to the drinker.
INCINERATION_DAMAGE = (6, 10)
INCINERATION_SELF = (2, 5)
#: Maximum HP a potion of life adds (it heals fully besides).
LIFE_MAX_HP = 3
#: Monsters a scroll of summoning calls next to the reader, and the deepest a kind they may be
#: (its level at most the floor's number plus this).
SUMMON_SCROLL_COUNT = 2
SUMMON_SCROLL_LEVEL = 1
#: What a scroll of enchanting adds: 1 to the defence of worn armour, else 1 to both ends of
#: the blade's damage roll.
ENCHANT_AMOUNT = 1
#: Monster kinds that carry one potion of healing and drink it, once, when hurt below
#: MONSTER_DRINK_BELOW of their HP; a player who sees it learns which potion heals.
POTION_DRINKERS = frozenset({"goblin", "kobold slinger", "gnoll sentinel", "orc", "necromancer"})
MONSTER_DRINK_BELOW = 0.5
#: HP a monster's potion of healing gives back.
MONSTER_DRINK_HEAL = 10
#: How many different upgrades a treasure room lays out, least and most (one may be taken).
TREASURE_CHOICES = (2, 3)
#: What a treasure room's other treasure slots hold (not part of its choice).
TREASURE_REST = "hint coin"
#: How many different upgrades a sealed vault holds, least and most (every one may be taken).
VAULT_UPGRADES = (2, 3)
#: How many consumables a sealed vault holds besides, least and most (VAULT_TABLE's).
VAULT_CONSUMABLES = (1, 2)


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
    skirmish: bool = False  # hits, then keeps out of reach for SKIRMISH_RETREAT turns
    kite: bool = False  # a shooter that backs away to keep its distance (KITE_STEPS in all)
    flank: bool = False  # a pack that spreads round the player instead of queueing
    sentinel: bool = False  # placed only as the guard of a key room; stays at its post
    steals: bool = False  # a blow that lands takes an item or a hint coin, then it runs
    corrodes: int = 0  # percent chance a blow that lands wears your armour (else blade) by 1
    shriek: int = 0  # seeing you, it wakes every monster within this many cells
    summons: str = ""  # the kind it raises next to itself (SUMMON_MOST in all)
    swarm: int = 0  # damage (and SWARM_ACCURACY) it gains per other swarming ally next to you
    still: bool = False  # never moves
    summoned: bool = False  # only ever raised by a summoner, never placed on a floor
    #: percent chance each turn that, asleep (or unaware), it notices a player in its sight
    #: within SENSE_RANGE (less the player's stealth; see engine/stealth.py)
    perception: int = PERCEPTION
    #: a breath along a straight line (orthogonal or diagonal) of this many cells, every
    #: creature on it burnt (BREATH_RELOAD between two); ``breath_roll`` its damage, inclusive
    breath: int = 0
    breath_roll: tuple[int, int] = (0, 0)
    #: a blow of the player's that does not kill it splits it in two (halving its HP), while
    #: fewer than this many splits made the piece; fire never splits it
    splits: int = 0
    ethereal: bool = False  # blows pass through it (0 damage); fire (bombs, scrolls) burns it
    bashes: bool = False  # smashes a closed plain door it walks into (never a locked one)
    #: a beast: it cannot open a closed door (a closed door keeps it out; a basher breaks it)
    paws: bool = False
    #: its body smoulders when it dies and its bite when it lands: the moss under it, or under
    #: the player it bites, catches (engine/combat.py, `remains` and `monster_hits`)
    embers: bool = False
    #: unseen on the map and in the side panel beyond this many cells (0: always seen in
    #: view), and for LURK_SHOWN of its turns after it strikes or is struck
    lurks: int = 0


# fmt: off
MONSTERS: dict[str, MonsterKind] = {
    k.name: k
    for k in (
        #           name        glyph colour   lvl  hp  attack  def acc  spd  xp
        MonsterKind("rat",           "r", "#b09070", 0,  5, (1, 3), 0, 65, 100, 1,
                    "A fat cellar rat. Alone it is a nuisance; bitten hard, it runs.",
                    flee_below=0.5, paws=True),
        MonsterKind("bat",           "b", "#a888d0", 0,  4, (1, 2), 0, 60, 150, 1,
                    "A cave bat: fast, erratic, never where you aim.",
                    erratic=0.4, paws=True, perception=15),
        MonsterKind("shrieker",      "f", "#d0a0d0", 1,  6, (1, 1), 0, 40, 100, 2,
                    "A pale fungus that never moves. When it sees you it shrieks, and everything "
                    "near wakes and comes. Kill it quickly, or stay out of its sight.",
                    shriek=12, still=True, perception=25),
        MonsterKind("dart imp",      "i", "#ff7060", 1,  5, (1, 3), 0, 70, 170, 2,
                    "A quick little imp that stabs and darts back out of reach. Chasing it is a "
                    "mistake: stand still, or back into a corner, and strike when it comes in.",
                    skirmish=True),
        MonsterKind("jackal",        "j", "#c8a040", 2,  6, (1, 3), 0, 65, 130, 2,
                    "A lean jackal. Jackals hunt in packs and outrun you.",
                    pack=True, flee_below=0.3, paws=True, perception=20),
        MonsterKind("cutpurse",      "p", "#a0a0c0", 2,  7, (1, 2), 0, 75, 120, 3,
                    "A quick-fingered cutpurse. A blow that lands takes something from your "
                    "pack, and it runs; kill it before it gets away to get your things back.",
                    steals=True),
        MonsterKind("kobold slinger", "K", "#c0a080", 2,  6, (1, 3), 0, 60, 100, 3,
                    "A kobold with a sling. It backs away to keep you at a distance while it "
                    "sees you; corner it, or break its line of sight.",
                    ranged=5, kite=True),
        MonsterKind("goblin",        "g", "#60b050", 3,  8, (2, 4), 0, 70, 100, 3,
                    "A goblin with a rusty blade. Goblins keep together.",
                    pack=True, flee_below=0.25),
        MonsterKind("hound",         "h", "#b07040", 3,  8, (2, 4), 0, 70, 120, 4,
                    "A hunting hound. Hounds come in packs and circle round you to bite from "
                    "every side: meet them in a corridor.",
                    pack=True, flank=True, paws=True, perception=25),
        MonsterKind("rust mite",     "m", "#d07030", 3,  9, (1, 3), 1, 70, 100, 4,
                    "A mite that eats metal. Its bites corrode your armour, then your blade, "
                    "for good.",
                    corrodes=60, paws=True, perception=5),
        MonsterKind("goblin archer", "a", "#90d070", 4,  7, (2, 4), 0, 65, 100, 4,
                    "A goblin with a short bow. It shoots from a distance.",
                    ranged=5),
        MonsterKind("gnoll sentinel", "S", "#e0c060", 4, 20, (3, 6), 2, 75, 100, 8,
                    "A gnoll in scale armour set to guard a key. It will not leave its post: "
                    "you choose when the fight starts.",
                    sentinel=True, perception=25),
        MonsterKind("fire ant",      "x", "#ff5030", 3,  8, (2, 4), 0, 65, 110, 4,
                    "A fire ant of a swarm. Each other ant next to you makes its bites surer "
                    "and harder: fight them in a corridor, never in the open. Its bite and "
                    "its dead body smoulder: on moss, the moss catches fire. Meet them on "
                    "bare ground.",
                    pack=True, swarm=2, paws=True, embers=True),
        MonsterKind("pink jelly",    "e", "#f090c0", 4, 14, (1, 3), 0, 65, 100, 1,
                    "A quivering pink jelly. A blow that does not kill it splits it in two, "
                    "each half with half of what was left: do not fight it in the open where "
                    "the halves surround you; a bomb burns it without splitting it.",
                    splits=3),
        MonsterKind("lurker",        "L", "#607070", 3, 10, (2, 5), 0, 75, 100, 3,
                    "A lurker in the shadows: it cannot be seen farther than two cells away "
                    "until it strikes. Search (s) where the floor feels wrong.",
                    lurks=2),
        MonsterKind("bugbear",       "U", "#b08050", 5, 18, (3, 6), 1, 70, 100, 6,
                    "A hulking bugbear. A closed door does not stop it: it smashes the door "
                    "to splinters, waking everything near, and that door never closes again. "
                    "It cannot break a locked door.",
                    bashes=True),
        MonsterKind("ghost",         "Q", "#d0e0ff", 8, 12, (2, 5), 0, 70, 70, 8,
                    "A cold ghost. Blows pass through it; only fire hurts it (a fire bomb, a "
                    "sacrifice scroll, burning ground). Without fire, outrun it: it is slow.",
                    ethereal=True),
        MonsterKind("fire drake",    "d", "#ff7020", 7, 16, (2, 5), 1, 70, 100, 10,
                    "A young drake. It breathes fire along a straight line, burning everything "
                    "on it: a corridor is death. Come at it off its lines (a knight's move "
                    "away), never straight on.",
                    breath=5, breath_roll=(5, 9)),
        MonsterKind("orc",           "o", "#c06040", 6, 16, (3, 7), 1, 75, 100, 6,
                    "A scarred orc warrior in hide armour.",
                    flee_below=0.2),
        MonsterKind("skeleton",      "s", "#e0e0d0", 7, 18, (4, 7), 2, 75,  90, 8,
                    "Bones held together by old spite. It never flees.",
                    perception=5),
        MonsterKind("zombie",        "z", "#80a080", 7, 12, (3, 6), 0, 65,  70, 2,
                    "A corpse raised by a necromancer: slow and stupid, but it does not stop.",
                    summoned=True, perception=3),
        MonsterKind("vampire bat",   "v", "#c04060", 8, 12, (3, 6), 0, 75, 180, 9,
                    "A vampire bat: it bites and is gone before you can answer. Let it come "
                    "to you.",
                    skirmish=True, regen=1, paws=True, perception=20),
        MonsterKind("necromancer",   "n", "#a060e0", 8, 14, (2, 5), 1, 70, 100, 12,
                    "A robed necromancer. It raises the dead to fight for it, again and again: "
                    "go for it first.",
                    summons="zombie", flee_below=0.3),
        MonsterKind("wraith",        "w", "#8090ff", 9, 16, (4, 7), 1, 75, 110, 10,
                    "A cold shape that hurls bolts of frost from afar.",
                    ranged=4),
        MonsterKind("acid ooze",     "u", "#90e040", 9, 24, (3, 6), 1, 70,  80, 10,
                    "A slow heap of acid. What it touches it eats: armour first, then blade.",
                    corrodes=80, perception=3),
        MonsterKind("centaur archer", "c", "#d0b080", 10, 20, (4, 7), 1, 75, 100, 14,
                    "A centaur with a long bow. It keeps its distance while it sees you.",
                    ranged=6, kite=True, perception=20),
        MonsterKind("ogre",          "O", "#d09060", 10, 32, (6, 11), 1, 70, 80, 14,
                    "A huge, slow ogre with a club the size of a door.",
                    perception=5),
        MonsterKind("warg",          "W", "#707080", 11, 16, (3, 7), 1, 70, 120, 14,
                    "A great wolf. Wargs hunt in packs and surround their prey.",
                    pack=True, flank=True, paws=True, perception=25),
        MonsterKind("stone golem",   "Y", "#a0a0a0", 11, 38, (6, 11), 4, 75, 90, 24,
                    "A golem of carved stone set to guard a key. It never leaves its post.",
                    sentinel=True),
        MonsterKind("troll",         "T", "#70a070", 12, 36, (6, 11), 2, 75, 100, 18,
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
    #: "pack": kept in the pack and used with Use; "wear": kept in the pack and worn or wielded
    #: in its ``slot``; any other ("coin", "now") is applied when taken, by its effect
    kind: str = "pack"
    #: how strong its effect is: HP healed, damage or defence added, maximum HP added
    amount: int = 0
    #: how a pack item is used: "quaff" (a potion), "read" (a scroll), "throw" (aimed at a cell)
    verb: str = ""
    #: a lasting upgrade's cost: speed taken off the player, accuracy (percent) taken off
    slow: int = 0
    clumsy: int = 0
    #: loudness of the noise it makes when used (at the burst of a thrown one, else at the
    #: player), in steps: it wakes sleepers that near (engine/stealth.py); 0: silent
    noise: int = 0
    #: where a wearable goes ("weapon" or "armour"; "" for anything else): it waits in the pack
    #: until worn or wielded, and adds its ``amount`` (to damage or defence) only while it is
    slot: str = ""


# fmt: off
ITEMS: dict[str, ItemKind] = {
    i.name: i
    for i in (
        ItemKind("healing potion", "!", "#f05090", "Drink it to heal 15 HP.",
                 effect="heal", amount=15, verb="quaff"),
        ItemKind("blink scroll", "?", "#80c0ff",
                 "Read it to vanish and reappear at a place in view, as far from monsters as it "
                 "can.",
                 effect="blink", verb="read"),
        ItemKind("mapping scroll", "?", "#e8e080",
                 "Read it to learn the layout of the whole floor.",
                 effect="map", verb="read"),
        ItemKind("fire bomb", "(", "#ff8040",
                 "Throw it at a cell in view (T): it bursts on the first monster or wall in its "
                 "way and burns everything next to it, you too if you stand there.",
                 effect="bomb", verb="throw", noise=NOISE_BOMB),
        ItemKind("berserk potion", "!", "#ff6000",
                 f"Drink it to hit {BERSERK_BONUS} harder for {BERSERK_TURNS} turns. Cost: then "
                 f"you are weary, hitting {WEARY_MALUS} softer for {WEARY_TURNS} turns.",
                 effect="berserk", verb="quaff"),
        ItemKind("sacrifice scroll", "?", "#ff4070",
                 f"Read it to burn every monster in view for {SACRIFICE_DAMAGE[0]}-"
                 f"{SACRIFICE_DAMAGE[1]}. Cost: {SACRIFICE_COST} of your maximum HP, for good.",
                 effect="sacrifice", verb="read", noise=NOISE_SACRIFICE),
        ItemKind("speed potion", "!", "#40e0ff",
                 f"Drink it to act twice as fast for {HASTE_TURNS} turns.",
                 effect="haste", verb="quaff"),
        ItemKind("detection potion", "!", "#c0a0ff",
                 f"Drink it to sense every monster on the floor for {DETECT_TURNS} turns.",
                 effect="detect", verb="quaff"),
        ItemKind("darkness potion", "!", "#404060",
                 f"Harmful: darkness falls on your eyes, and for {DARK_TURNS} turns you see "
                 f"only {DARK_RADIUS} cells around you.",
                 effect="darkness", verb="quaff"),
        ItemKind("hallucination potion", "!", "#ff60ff",
                 f"Harmful: for {HALLUCINATION_TURNS} turns every monster looks like another "
                 "kind, on the map, in look and in the log.",
                 effect="hallucinate", verb="quaff"),
        ItemKind("incineration potion", "!", "#ff4000",
                 f"Double-edged: it bursts into flames as it is opened, burning every creature "
                 f"next to you for {INCINERATION_DAMAGE[0]}-{INCINERATION_DAMAGE[1]} and you for "
                 f"{INCINERATION_SELF[0]}-{INCINERATION_SELF[1]}.",
                 effect="incinerate", verb="quaff"),
        ItemKind("confusion potion", "!", "#a0ff40",
                 f"Harmful: for {CONFUSED_TURNS} turns your head spins, and half your steps go "
                 "astray (travel and explore refuse).",
                 effect="confuse", verb="quaff"),
        ItemKind("life potion", "!", "#ffffff",
                 f"Drink it to heal fully and gain {LIFE_MAX_HP} maximum HP for good.",
                 effect="life", verb="quaff"),
        ItemKind("summoning scroll", "?", "#ff8080",
                 f"Harmful: read it and {SUMMON_SCROLL_COUNT} monsters of this depth appear "
                 "next to you, awake.",
                 effect="summon", verb="read"),
        ItemKind("identify scroll", "?", "#f0f0f0",
                 "Read it to learn what one unknown potion or scroll in your pack is (your "
                 "choice, once you know this scroll).",
                 effect="identify", verb="read"),
        ItemKind("enchanting scroll", "?", "#80ffc0",
                 f"Read it to enchant your armour (+{ENCHANT_AMOUNT} defence) or, wearing none, "
                 f"your blade (+{ENCHANT_AMOUNT} damage), for good.",
                 effect="enchant", verb="read"),
        ItemKind("teleport scroll", "?", "#c080ff",
                 "Double-edged: read it to vanish and reappear at a random place of the floor "
                 "you could walk to: away from danger, into who knows what.",
                 effect="teleport", verb="read"),
        ItemKind("aggravation scroll", "?", "#ff2020",
                 "Harmful: a piercing shriek wakes every monster on the floor, and they know "
                 "where you are.",
                 effect="aggravate", verb="read"),
        ItemKind("hint coin", "*", "#ffd700", "Puzzle pedestals take them for hints.",
                 effect="coin", kind="coin"),
        ItemKind("sharp blade", "/", "#c0c8ff",
                 "A better blade: wielded, your blows hit 1 harder.",
                 effect="attack", kind="wear", amount=1, slot="weapon"),
        ItemKind("war axe", "/", "#ff9090",
                 "A heavy axe: wielded, your blows hit 3 harder. Cost: you miss 15% more often.",
                 effect="attack", kind="wear", amount=3, clumsy=15, slot="weapon"),
        ItemKind("iron plate", "[", "#b0b0b0",
                 "Armour: worn, every blow against you lands 1 softer.",
                 effect="defence", kind="wear", amount=1, slot="armour"),
        ItemKind("tower plate", "[", "#8080a0",
                 "Heavy armour: worn, every blow against you lands 3 softer. Cost: you are slower "
                 "(speed -20) while you wear it, so monsters get more turns against you.",
                 effect="defence", kind="wear", amount=3, slow=20, slot="armour"),
        ItemKind("heart elixir", "!", "#ff3030",
                 "Raises your maximum HP by 3 and heals 3.",
                 effect="vigour", kind="now", amount=3),
    )
}
# fmt: on

#: (item, weight) for item slots.
ITEM_TABLE = (
    ("healing potion", 36),
    ("hint coin", 25),
    ("fire bomb", 14),
    ("blink scroll", 10),
    ("mapping scroll", 9),
    ("berserk potion", 6),
    ("sacrifice scroll", 4),
    ("speed potion", 5),
    ("detection potion", 4),
    ("darkness potion", 4),
    ("hallucination potion", 4),
    ("incineration potion", 5),
    ("confusion potion", 4),
    ("identify scroll", 8),
    ("enchanting scroll", 4),
    ("teleport scroll", 5),
    ("aggravation scroll", 4),
    ("life potion", 2),
    ("summoning scroll", 4),
)
#: (item, weight) for treasure: each treasure room lays out TREASURE_CHOICES different ones of
#: these, and the player may keep one.
TREASURE_TABLE = (
    ("sharp blade", 30),
    ("iron plate", 30),
    ("heart elixir", 25),
    ("war axe", 15),
    ("tower plate", 15),
)

#: (item, weight) for a vault's consumables, drawn with repeats: the stronger finds.
VAULT_TABLE = (
    ("healing potion", 40),
    ("fire bomb", 25),
    ("berserk potion", 15),
    ("sacrifice scroll", 10),
    ("mapping scroll", 10),
    ("speed potion", 10),
    ("enchanting scroll", 10),
    ("identify scroll", 10),
)

# --- growth: perks --------------------------------------------------------------------------

#: Perks offered at each level up (the player takes one of them).
PERK_OFFERED = 3
#: Maximum (and current) HP a toughness perk adds.
PERK_TOUGHNESS_HP = 6
#: Percent to hit an accuracy perk adds (the chance to hit is at most ``HIT_MOST``).
PERK_ACCURACY = 6
HIT_MOST = 98
#: Turns a regeneration perk takes off the healing period (every ``REGEN_FASTEST`` at least).
PERK_REGEN = 2
REGEN_FASTEST = 2
#: Points of stealth a stealth perk adds (``GameState.stealth``).
PERK_STEALTH = 1
#: Damage a bomb craft perk adds to both ends of a bomb's roll.
PERK_BOMB = 3
#: Percent a keen eyes perk adds to the chance of spotting a hidden trap, passing or searching.
PERK_SPOT = 20
#: Defence a thick skin perk adds.
PERK_SKIN = 1


@dataclass(frozen=True)
class Perk:
    name: str
    description: str
    #: how many times it may be taken (a perk taken that often is no longer offered)
    most: int = 3


# fmt: off
PERKS: dict[str, Perk] = {
    p.name: p
    for p in (
        Perk("toughness", f"+{PERK_TOUGHNESS_HP} maximum HP (and healed as much)."),
        Perk("accuracy", f"+{PERK_ACCURACY}% to hit."),
        Perk("regeneration", f"You heal 1 HP {PERK_REGEN} turns sooner."),
        Perk("stealth", f"+{PERK_STEALTH} stealth: sleepers are slower to notice you."),
        Perk("bomb craft", f"Your bombs burn {PERK_BOMB} harder."),
        Perk("identify by touch", "You know what a potion or a scroll is as you pick it up, "
             "and what your pack holds.",
             most=1),
        Perk("keen eyes", f"+{PERK_SPOT}% to spot hidden traps, passing or searching."),
        Perk("thick skin", f"+{PERK_SKIN} defence, whatever you wear.", most=2),
    )
}
# fmt: on

# --- traps --------------------------------------------------------------------------------------

#: Damage roll of a dart trap, inclusive, before the floor's bonus (``depth.DART_BONUS``).
DART_DAMAGE = (2, 5)
#: How far (in steps, Chebyshev) an alarm trap's bell wakes monsters.
ALARM_RADIUS = 12
#: Turns a net holds the player (each move spent struggling free).
NET_TURNS = 4
#: Damage roll of a fire trap's jet of flame, inclusive, for the player who steps on it (the
#: cells round it are then set alight: moss there burns and spreads, engine/fire.py).
FIRE_TRAP_DAMAGE = (2, 5)
#: Chance, in percent, to spot a hidden trap on a cell next to you as you walk past it.
SPOT_PASSING = 15
#: Chance, in percent, that searching (a turn spent looking) finds each hidden trap within reach.
SPOT_SEARCH = 60
#: How far (Chebyshev) a search reaches.
SEARCH_RADIUS = 2

# --- captives and allies -----------------------------------------------------------------------

# The kinds a captive may be, by floor, are the depth curve's CAPTIVE_KINDS (roguelike/depth.py).
#: Bumps (each a turn spent working the shackles) that free a captive.
FREE_TURNS = 3
#: How far (Chebyshev) an ally lets the player get before it walks back to them.
ALLY_FOLLOW = 2
#: How far (Chebyshev, from the player) an ally goes after a hostile it sees.
ALLY_REACH = 3
#: What a hostile's blow at an ally scores among its options (a blow at the player scores 100).
ALLY_TARGET_SCORE = 90.0


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
                   0.85, 0.9, 0.85, 1.4, 40),
        Difficulty("normal", "The dungeon as designed: the seed code alone names it.",
                   1.0, 1.3, 1.0, 1.0, PLAYER_MAX_HP),
        Difficulty("hard",   "Tougher monsters that hit harder, and fewer potions.",
                   1.15, 1.45, 1.1, 0.85, PLAYER_MAX_HP),
        Difficulty("brutal", "Crowded floors of monsters that hit much harder, few potions.",
                   1.3, 1.6, 1.2, 0.6, 25),
    )
}
# fmt: on
assert tuple(DIFFICULTIES) == DIFFICULTY_NAMES, "one row for each name in roguelike/presets.py"
