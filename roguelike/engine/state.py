"""The state of a game in progress.

A :class:`GameState` holds the world (seed, floors in the run, name, preset), the floor as
generated (``floor``, never changed), the live map (``tiles``: the generated tiles plus what
was done to them, such as opened doors), the player, the monsters and items of the floor,
the ``visible`` and ``explored`` masks, the message log and the run's statistics.

Randomness during play draws from ``rng``, the stream ``seeds.stream(seed, floor, "play")``.
It is separate from every generation stream (including ``"inhabit"``, which places monsters
and items), so nothing a player does — a fight, a wait — can change the next floor: that floor
and its inhabitants are a pure function of the seed and its number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from roguelike import seeds, tiles
from roguelike.engine.balance import (
    DARK_RADIUS,
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    PLAYER_ACCURACY,
    PLAYER_ATTACK,
    PLAYER_SPEED,
    PLAYER_STEALTH,
    XP_PER_LEVEL,
)
from roguelike.engine.creatures import SHACKLED, Monster, populate
from roguelike.engine.fov import compute_fov
from roguelike.engine.gas import lay_gas
from roguelike.engine.pregen import FloorCache, FloorKey
from roguelike.engine.puzzle_rooms import PuzzleRoom, place_puzzles
from roguelike.gen.floor import Floor
from roguelike.gen.pipeline import generate_floor
from roguelike.presets import DEFAULT_PRESET, PRESETS

#: How far the player sees, in cells (Euclidean).
FOV_RADIUS = 10
PLAY_STREAM = "play"
#: Messages kept in the log.
LOG_LIMIT = 1000


@dataclass
class RunStats:
    floors_reached: int = 1
    kills: int = 0
    keys: int = 0
    puzzles_solved: int = 0
    hints_used: int = 0
    cause: str | None = None  # what ended the run: a cause of death, or "escaped"
    #: every pedestal solved in the run, in order: (floor, type, difficulty, score 0..100)
    puzzle_scores: list[tuple[int, str, str, int]] = field(default_factory=list)


@dataclass
class GameState:
    seed: int
    total_floors: int
    floor: Floor  # as generated: never mutated (the live map is ``tiles``)
    tiles: np.ndarray  # uint8 (height, width): the live map
    player: tuple[int, int]  # (x, y)
    hp: int
    max_hp: int
    rng: np.random.Generator  # seeds.stream(seed, floor, "play")
    world_name: str = ""
    preset: str = DEFAULT_PRESET
    #: the world's difficulty (a key of ``balance.DIFFICULTIES``): it scales the inhabitants
    #: of every floor and the monsters' blows, never a floor's layout
    difficulty: str = DEFAULT_DIFFICULTY
    keys_held: set[int] = field(default_factory=set)
    #: keys still lying on this floor: (x, y) → key id
    keys_lying: dict[tuple[int, int], int] = field(default_factory=dict)
    monsters: list[Monster] = field(default_factory=list)
    #: the player's side on this floor: shackled captives (``extra["shackled"]``: bumps spent
    #: freeing it) and freed allies; never hostile, never in ``monsters`` (engine/allies.py)
    allies: list[Monster] = field(default_factory=list)
    #: items lying on this floor: (x, y) → item name (a key of creatures.ITEMS)
    items_lying: dict[tuple[int, int], str] = field(default_factory=dict)
    #: the treasure's choice groups on this floor: item cell → group; taking an item of a
    #: group makes the others of it crumble (only the items of a choice are here)
    choices: dict[tuple[int, int], int] = field(default_factory=dict)
    #: puzzle pedestals on this floor: (x, y) → the puzzle room (its key is not lying)
    puzzles: dict[tuple[int, int], PuzzleRoom] = field(default_factory=dict)
    #: traps on this floor, hidden or known: (x, y) → kind (engine/traps.py)
    traps: dict[tuple[int, int], str] = field(default_factory=dict)
    #: the traps the player has found (spotted, searched out, or triggered)
    traps_known: set[tuple[int, int]] = field(default_factory=set)
    #: moves a net still holds the player for
    netted: int = 0
    #: the ambush rooms of this floor already sprung
    sprung: set[int] = field(default_factory=set)
    #: the burning cells of this floor: (x, y) → turns it still burns (engine/fire.py)
    fire: dict[tuple[int, int], int] = field(default_factory=dict)
    #: the cells of this floor under marsh gas, which explodes when fire reaches it
    #: (engine/gas.py lays it on arrival)
    gas: set[tuple[int, int]] = field(default_factory=set)
    #: the pack: item name → count
    inventory: dict[str, int] = field(default_factory=dict)
    hint_coins: int = 0
    attack: tuple[int, int] = PLAYER_ATTACK
    defence: int = 0
    #: the player's chance to hit, in percent (a clumsy weapon lowers it)
    accuracy: int = PLAYER_ACCURACY
    #: the player's speed (heavy armour lowers it): monsters get ``speed/100`` of their turns
    #: per turn of a player of speed 100, more against a slower one
    speed: int = PLAYER_SPEED
    #: how quietly the player moves: each point takes ``STEALTH_STEP`` percent off a sleeping
    #: monster's chance to notice them each turn (engine/stealth.py); a perk may raise it
    stealth: int = PLAYER_STEALTH
    #: turns of berserk fury left (blows hit harder), then turns of weariness (softer)
    berserk: int = 0
    weary: int = 0
    #: the potion and scroll kinds the player has learned (by using one, a scroll of
    #: identification, or seeing a monster drink one): shown by their names, the others by
    #: the world's looks for them (:mod:`roguelike.engine.identify`)
    identified: set[str] = field(default_factory=set)
    #: turns left of the potions' passing states: speed (the player acts twice as often),
    #: detection (every monster of the floor shown), darkness (sight shrinks), hallucination
    #: (monsters look like other kinds), confusion (moves go astray)
    hasted: int = 0
    detecting: int = 0
    darkness: int = 0
    hallucinating: int = 0
    confused: int = 0
    level: int = 1
    xp: int = 0
    #: what the player wears and wields: each worn item's name (at most one per slot, see
    #: ``ItemKind.slot``) and its enchantment (0 as found, lowered by corrosion, never below
    #: minus its amount); the numbers above are computed from it (:mod:`roguelike.engine.gear`)
    #: and read by the sheet, look and the morgue
    equipment: dict[str, int] = field(default_factory=dict)
    #: the perks taken at level ups, in order (:mod:`roguelike.engine.perks`)
    perks: list[str] = field(default_factory=list)
    #: the perks offered for the next level's choice, or () with none pending
    perk_offer: tuple[str, ...] = ()
    visible: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    explored: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    turn: int = 0
    regen_clock: int = 0
    fov_radius: int | None = FOV_RADIUS
    with_monsters: bool = True
    with_puzzles: bool = True
    won: bool = False
    dead: bool = False
    log: list[str] = field(default_factory=list)
    stats: RunStats = field(default_factory=RunStats)
    #: A measuring switch, never saved nor recorded: a blow that would kill the player leaves
    #: it at 1 HP instead (``spared`` counts those blows). The autoplayer proves with it that
    #: a world can be finished, apart from whether it can be survived.
    invulnerable: bool = False
    spared: int = 0
    #: where the stairs take their floor from: a cache generating the next one in the
    #: background (:mod:`roguelike.engine.pregen`), or None to generate it when the stairs are
    #: taken. Either gives the same floor; derived data, never saved.
    floors: FloorCache | None = field(default=None, repr=False, compare=False)

    @property
    def number(self) -> int:
        """The current floor's number (1-based)."""
        return self.floor.number

    @property
    def height(self) -> int:
        return int(self.tiles.shape[0])

    @property
    def width(self) -> int:
        return int(self.tiles.shape[1])

    @property
    def over(self) -> bool:
        """The run has ended, in victory or death."""
        return self.won or self.dead

    @property
    def pace(self) -> int:
        """The player's speed as the monsters' clocks read it: twice it while hasted."""
        return self.speed * 2 if self.hasted else self.speed

    @property
    def cause(self) -> str | None:
        return self.stats.cause

    @property
    def xp_to_next(self) -> int:
        """Experience the next level needs."""
        return XP_PER_LEVEL * self.level

    def room_depth(self) -> int | None:
        """The depth (corridors from the start room) of the room the player stands in, or
        None in a corridor."""
        assert self.floor.room_map is not None
        x, y = self.player
        room = int(self.floor.room_map[y, x])
        if room < 0:
            return None
        return next(r.depth for r in self.floor.topology.rooms if r.id == room)

    def monster_at(self, x: int, y: int) -> Monster | None:
        for m in self.monsters:
            if m.x == x and m.y == y:
                return m
        return None

    def ally_at(self, x: int, y: int) -> Monster | None:
        """The captive or ally at (x, y), if one stands there."""
        for m in self.allies:
            if m.x == x and m.y == y:
                return m
        return None

    def occupied(self, x: int, y: int) -> bool:
        """A creature other than the player (a monster, a captive or an ally) stands there."""
        return self.monster_at(x, y) is not None or self.ally_at(x, y) is not None

    def shows(self, m: Monster) -> bool:
        """Whether the player sees ``m``: in view and, for a lurking kind, within its
        ``lurks`` cells or for a while after it struck or was struck (``extra["shown"]``).
        The map, the side panel, look, the walks and the autoplayer read this and nothing
        else, so a lurker out of sight is nowhere on the screen."""
        if not self.visible[m.y, m.x]:
            return False
        lurks = m.info.lurks
        if not lurks or m.extra.get("shown", 0) > 0:
            return True
        px, py = self.player
        return max(abs(m.x - px), abs(m.y - py)) <= lurks

    def visible_monsters(self) -> list[Monster]:
        """Monsters the player sees (:meth:`shows`), nearest first."""
        px, py = self.player
        seen = [m for m in self.monsters if self.shows(m)]
        return sorted(seen, key=lambda m: (max(abs(m.x - px), abs(m.y - py)), m.id))

    def say(self, text: str) -> None:
        self.log.append(text)
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]

    def on_stairs(self) -> bool:
        """The player stands on stairs down (taking them enters the next floor)."""
        x, y = self.player
        return int(self.tiles[y, x]) == tiles.STAIRS

    def next_floor(self) -> FloorKey | None:
        """The floor the stairs lead to, as (seed, number, last), or None on the last floor."""
        nxt = self.number + 1
        if nxt > self.total_floors:
            return None
        return (self.seed, nxt, nxt == self.total_floors)

    def enter_floor(self, number: int) -> None:
        """Put the player at the spawn of floor ``number``: generated now, or taken from
        :attr:`floors` (made ahead, the same floor). Keys are per floor (every floor numbers
        its keys from 1), so the keys held are dropped."""
        last = number == self.total_floors
        if self.floors is None:
            self.arrive(generate_floor(self.seed, number, last=last))
        else:
            ready = self.floors.floor(self.seed, number, last)
            self.arrive(ready.floor, (ready.monsters, ready.items, ready.choices))

    def arrive(
        self,
        fl: Floor,
        inhabitants: (
            tuple[list[Monster], dict[tuple[int, int], str], dict[tuple[int, int], int]] | None
        ) = None,
    ) -> None:
        """Put the player at the spawn of the generated floor ``fl``, with its inhabitants
        (``inhabitants``: as :func:`~roguelike.engine.creatures.populate` placed them ahead,
        else placed now)."""
        assert fl.tiles is not None and fl.spawn is not None
        self.floor = fl
        self.tiles = fl.tiles.copy()
        self.player = fl.spawn
        self.rng = seeds.stream(self.seed, fl.number, PLAY_STREAM)
        self.keys_held = set()
        # a vault's key lies on its pedestal's cell in a world without puzzles
        self.keys_lying = {(k.x, k.y): k.id for k in fl.keys}
        self.keys_lying |= {(v.x, v.y): v.key for v in fl.vaults}
        self.puzzles = {p.pos: p for p in place_puzzles(fl)} if self.with_puzzles else {}
        for pos in self.puzzles:
            self.keys_lying.pop(pos, None)  # a floor change's pedestal holds no key
            self.tiles[pos[1], pos[0]] = tiles.PEDESTAL
        # a cache places inhabitants ahead at the normal difficulty only: any other is placed
        # here (it takes a millisecond; the floor itself is what the cache saves)
        if inhabitants is None or self.difficulty != DEFAULT_DIFFICULTY:
            inhabitants = populate(fl, self.difficulty)
        monsters, items, choices = inhabitants
        # the floor's captives sit on the player's side, never among the hostiles
        placed = monsters if self.with_monsters else []
        self.monsters = [m for m in placed if SHACKLED not in m.extra]
        self.allies = [m for m in placed if SHACKLED in m.extra]
        self.items_lying = items
        self.traps = {(t.x, t.y): t.kind for t in fl.traps}
        self.traps_known = set()
        self.netted = 0
        self.sprung = set()
        self.fire = {}
        self.gas = lay_gas(fl)
        self.choices = choices
        self.explored = np.zeros(self.tiles.shape, dtype=bool)
        self.stats.floors_reached = max(self.stats.floors_reached, fl.number)
        self.update_view()

    def update_view(self) -> None:
        """Recompute what the player sees and add it to what they have explored."""
        radius = self.fov_radius
        if self.darkness:
            radius = DARK_RADIUS if radius is None else min(radius, DARK_RADIUS)
        self.visible = compute_fov(tiles.TRANSPARENT[self.tiles], self.player, radius)
        self.explored |= self.visible


def new_game(
    seed: int,
    *,
    total_floors: int | None = None,
    preset: str = DEFAULT_PRESET,
    world_name: str = "",
    floor: int = 1,
    difficulty: str = DEFAULT_DIFFICULTY,
    fov_radius: int | None = FOV_RADIUS,
    monsters: bool = True,
    puzzles: bool = True,
) -> GameState:
    """A game of world ``seed`` with the player at the spawn of floor ``floor``. The run has
    ``total_floors`` floors, or as many as ``preset`` says. ``monsters=False`` makes a world
    without monsters and ``puzzles=False`` one whose keys all lie on the floor (for tests and
    for exploring a seed). ``difficulty`` (a key of ``balance.DIFFICULTIES``) sets the
    starting HP and scales the monsters and potions of every floor."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
    if difficulty not in DIFFICULTIES:
        raise ValueError(
            f"unknown difficulty {difficulty!r}: choose one of {', '.join(DIFFICULTIES)}"
        )
    start_hp = DIFFICULTIES[difficulty].player_hp
    total = PRESETS[preset] if total_floors is None else total_floors
    if not 1 <= floor <= total:
        raise ValueError(f"floor {floor} is outside 1..{total}")
    fl = generate_floor(seed, floor, last=floor == total)
    assert fl.tiles is not None and fl.spawn is not None
    state = GameState(
        seed=seed,
        total_floors=total,
        floor=fl,
        tiles=fl.tiles,
        player=fl.spawn,
        hp=start_hp,
        max_hp=start_hp,
        rng=seeds.stream(seed, floor, PLAY_STREAM),
        world_name=world_name or seeds.encode(seed),
        preset=preset,
        difficulty=difficulty,
        fov_radius=fov_radius,
        with_monsters=monsters,
        with_puzzles=puzzles,
    )
    state.arrive(fl)
    state.say(
        f"You enter the dungeon: {total} floors lie below. Find the keys, open the doors, "
        "take the stairs down. Press ? for help."
    )
    return state
