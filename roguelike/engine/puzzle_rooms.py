"""Puzzle rooms: keys that are puzzles.

The topology gives every lock a key. On each floor some keys are not objects lying in their
room but a **pedestal** in it: stepping on the pedestal opens a puzzle, and solving the puzzle
opens that key's lock (a key is anything that opens a locked door, an object or not). The
share of puzzle keys grows with depth (:func:`puzzle_share`); the type is drawn for each, never
the type of the pedestal before it in key order (so a floor never offers one type twice in a
row), and the difficulty follows the floor and the depth of the key's room
(:func:`difficulty_for`). Both curves are tables of ``roguelike/depth.py``.

Everything here is drawn from the floor's own stream ``seeds.stream(seed, floor, "puzzles")``
and each puzzle's seed from (seed, floor, key), so one seed code gives everyone the same
puzzles, whatever they did before. A puzzle is generated the first time its pedestal is
stepped on (hatgram and keydoor take up to a few hundred milliseconds at very hard, too much
to pay for every puzzle on arrival); generation is a pure function of its seed, so when it is
made changes nothing.

A sealed vault's pedestal is always a puzzle (that is what seals it): its type is drawn after
every key's, from the same stream and never the type of the pedestal before it, and its
difficulty follows the floor and the vault's depth; solving it gives the vault's key, which
breaks the seal.

The engine never trusts a screen's word that a puzzle is solved: the screen reports the
player's moves, and :func:`replay` applies them to the instance from its initial state.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from roguelike import depth, puzzles, seeds
from roguelike.gen.floor import Floor
from roguelike.puzzles import keydoor
from roguelike.puzzles.visit import score as visit_score

PUZZLE_STREAM = "puzzles"
#: The types a pedestal can hold, in the order of the draw.
TYPES: tuple[str, ...] = puzzles.TYPES


@dataclass
class PuzzleRoom:
    """One pedestal: the key whose lock it opens and its puzzle."""

    key: int
    x: int
    y: int
    type: str
    difficulty: str
    seed: int
    #: the instance's JSON once generated (None until the pedestal is first stepped on)
    instance: dict[str, Any] | None = None
    #: the player's moves from the initial state (as the puzzle's move JSON), progress kept
    moves: list[Any] = field(default_factory=list)
    solved: bool = False
    hints_used: int = 0
    #: times the player started the puzzle again (each lowers its score, across visits)
    resets: int = 0
    #: the player has stepped on it (exploring stops walking to it then)
    visited: bool = False

    @property
    def pos(self) -> tuple[int, int]:
        return (self.x, self.y)

    def puzzle(self) -> Any:
        """The puzzle instance, generated on first use. Moves kept from before (a loaded
        save) that are not legal in it are dropped: the player starts it afresh. The instance
        last made for this pedestal is reused while its JSON is unchanged (see :data:`LIVE`),
        so the solver's caches (a sliding puzzle's known paths, a ball board's distance table)
        keep hints fast when the puzzle is left and reopened."""
        key = (self.type, self.difficulty, self.seed)
        if self.instance is None:
            p = puzzles.generate(self.type, self.difficulty, self.seed)
            self.instance = p.to_json()
            try:
                replay(p, self.moves)
            except BadSolution:
                self.moves = []
            if hasattr(p, "warm"):
                p.warm()
            _remember(key, p, self.instance)
            return p
        live = LIVE.get(key)
        if live is not None and live[1] == self.instance:
            return live[0]
        p = puzzles.from_json(self.instance)
        # read from a save, the instance has none of the solver caches a generated one holds:
        # one bounded solve from the start fills them now (the ball's distance table, the
        # sliding puzzle's optimal line, which its generator proved within fewer nodes than
        # WARM_BUDGET), and a type's ``warm`` builds what its hints use (the 15-puzzle's
        # pattern database), so the first hint answers as fast as in a fresh game
        with contextlib.suppress(puzzles.SearchLimit, puzzles.Unsolvable):
            p.solve(p.initial(), WARM_BUDGET)
        if hasattr(p, "warm"):
            p.warm()
        _remember(key, p, self.instance)
        return p


#: Nodes of the solve that warms an instance read from a save (a count, so every machine
#: agrees; a generated 15-puzzle's first solve takes at most 12,000).
WARM_BUDGET = 20_000

#: (type, difficulty, seed) -> (the instance, its JSON): the pedestals' puzzles made last, at
#: most LIVE_SIZE, oldest dropped first. Only a cache: an instance is a pure function of its
#: JSON, and its solver caches only remember what its own solvers found.
LIVE: dict[tuple[str, str, int], tuple[Any, dict[str, Any]]] = {}
LIVE_SIZE = 16


def _remember(key: tuple[str, str, int], p: Any, doc: dict[str, Any]) -> None:
    LIVE.pop(key, None)
    LIVE[key] = (p, doc)
    while len(LIVE) > LIVE_SIZE:
        del LIVE[next(iter(LIVE))]


def puzzle_share(floor_number: int) -> float:
    """The share of a floor's keys that are puzzle rooms (``depth.PUZZLE_SHARE``: a third on
    the first floor, a tenth more on each floor below, at most 80%)."""
    return depth.PUZZLE_SHARE.at(floor_number)


def difficulty_for(floor_number: int, room_depth: int) -> str:
    """easy on the first floors' near rooms, up to very-hard deep down (the levels by floor
    and by the room's depth are ``depth.PUZZLE_LEVEL_BY_FLOOR`` and ``_BY_DEPTH``)."""
    level = depth.PUZZLE_LEVEL_BY_FLOOR.at(floor_number)
    level += depth.PUZZLE_LEVEL_BY_DEPTH.at(room_depth)
    return puzzles.DIFFICULTIES[min(level, len(puzzles.DIFFICULTIES) - 1)]


def place_puzzles(fl: Floor) -> list[PuzzleRoom]:
    """The pedestals of floor ``fl``: which of its keys are puzzles, of which type and
    difficulty, and one for each sealed vault. Two pedestals in a row (in key order) never
    share a type while there is more than one type to draw."""
    rng = seeds.stream(fl.seed, fl.number, PUZZLE_STREAM)
    room_depth = {r.id: r.depth for r in fl.topology.rooms}
    rooms: list[PuzzleRoom] = []

    def seed_of(kind: str, key: int) -> int:
        seed = seeds.text_seed(f"{fl.seed}/{fl.number}/puzzle/{key}")
        if kind != keydoor.TYPE.name:
            return seed
        # a keydoor board's shape follows its place in the run (the floor, then the keydoors
        # before it on the floor), so a run's boards take the shapes in turn
        before = sum(r.type == kind for r in rooms)
        return keydoor.run_seed(seed, fl.seed, fl.number + before)

    for k in sorted(fl.keys, key=lambda k: k.id):
        chosen = rng.random() < puzzle_share(fl.number)
        # never the type of the pedestal before (every key draws, chosen or not)
        options = [t for t in TYPES if not rooms or t != rooms[-1].type] or list(TYPES)
        kind = options[int(rng.integers(len(options)))]
        if not chosen:
            continue
        seed = seed_of(kind, k.id)
        rooms.append(
            PuzzleRoom(k.id, k.x, k.y, kind, difficulty_for(fl.number, room_depth[k.room]), seed)
        )
    for v in fl.vaults:  # drawn after the keys, so a vault never moves a key's draw
        options = [t for t in TYPES if not rooms or t != rooms[-1].type] or list(TYPES)
        kind = options[int(rng.integers(len(options)))]
        seed = seed_of(kind, v.key)
        rooms.append(
            PuzzleRoom(v.key, v.x, v.y, kind, difficulty_for(fl.number, room_depth[v.vault]), seed)
        )
    return rooms


class BadSolution(ValueError):
    """Moves that are not legal in the puzzle."""


def replay(p: Any, moves: list[Any]) -> Any:
    """The state reached by playing ``moves`` (move JSON) from ``p``'s initial state; raises
    :class:`BadSolution` on a move that is malformed or illegal."""
    s = p.initial()
    for i, mj in enumerate(moves):
        try:
            s = p.apply(s, p.move_from_json(mj))
        except (ValueError, TypeError, KeyError, IndexError) as err:
            raise BadSolution(f"move {i + 1} ({mj!r}) is not legal: {err}") from None
    return s


def room_score(room: PuzzleRoom) -> int:
    """The score of a solved puzzle room, as its visit counts it (resets are taken off where
    the pedestal keeps a count of them)."""
    return visit_score(room.hints_used, room.resets, len(room.moves), room.puzzle().par)
