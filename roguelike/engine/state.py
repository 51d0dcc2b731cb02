"""The state of a game in progress.

A :class:`GameState` holds the world seed, the floor as generated (``floor``, never changed),
the live map (``tiles``: the generated tiles plus what the player did to them, such as opened
doors), the player, the keys held, the ``visible`` and ``explored`` masks and the turn
counter.

Randomness during play draws from ``rng``, the stream ``seeds.stream(seed, floor, "play")``.
It is separate from every generation stream, so nothing a player does (a fight, a wait) can
change the next floor: that floor is a pure function of the seed and its number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from roguelike import seeds, tiles
from roguelike.engine.fov import compute_fov
from roguelike.floor import Floor, generate_floor

#: Floors in a run unless the caller says otherwise; the last one has the exit.
DEFAULT_TOTAL_FLOORS = 5
PLAYER_MAX_HP = 20
#: How far the player sees, in cells (Euclidean).
FOV_RADIUS = 10
PLAY_STREAM = "play"


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
    keys_held: set[int] = field(default_factory=set)
    #: keys still lying on this floor: (x, y) → key id
    keys_lying: dict[tuple[int, int], int] = field(default_factory=dict)
    visible: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    explored: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    turn: int = 0
    fov_radius: int | None = FOV_RADIUS
    won: bool = False

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

    def enter_floor(self, number: int) -> None:
        """Put the player at the spawn of floor ``number``, freshly generated. Keys are per
        floor (every floor numbers its keys from 1), so the keys held are dropped."""
        self.arrive(generate_floor(self.seed, number, last=number == self.total_floors))

    def arrive(self, fl: Floor) -> None:
        """Put the player at the spawn of the generated floor ``fl``."""
        assert fl.tiles is not None and fl.spawn is not None
        self.floor = fl
        self.tiles = fl.tiles.copy()
        self.player = fl.spawn
        self.rng = seeds.stream(self.seed, fl.number, PLAY_STREAM)
        self.keys_held = set()
        self.keys_lying = {(k.x, k.y): k.id for k in fl.keys}
        self.explored = np.zeros(self.tiles.shape, dtype=bool)
        self.update_view()

    def update_view(self) -> None:
        """Recompute what the player sees and add it to what they have explored."""
        self.visible = compute_fov(tiles.TRANSPARENT[self.tiles], self.player, self.fov_radius)
        self.explored |= self.visible


def new_game(
    seed: int,
    *,
    total_floors: int = DEFAULT_TOTAL_FLOORS,
    floor: int = 1,
    fov_radius: int | None = FOV_RADIUS,
) -> GameState:
    """A game of world ``seed`` with the player at the spawn of floor ``floor``."""
    if not 1 <= floor <= total_floors:
        raise ValueError(f"floor {floor} is outside 1..{total_floors}")
    fl = generate_floor(seed, floor, last=floor == total_floors)
    assert fl.tiles is not None and fl.spawn is not None
    state = GameState(
        seed=seed,
        total_floors=total_floors,
        floor=fl,
        tiles=fl.tiles,
        player=fl.spawn,
        hp=PLAYER_MAX_HP,
        max_hp=PLAYER_MAX_HP,
        rng=seeds.stream(seed, floor, PLAY_STREAM),
        fov_radius=fov_radius,
    )
    state.arrive(fl)
    return state
