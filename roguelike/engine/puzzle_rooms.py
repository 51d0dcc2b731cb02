"""Puzzle rooms: keys that are puzzles.

The topology gives every lock a key. On each floor some keys are not objects lying in their
room but a **pedestal** in it: stepping on the pedestal opens a puzzle, and solving the puzzle
opens that key's lock (a key is anything that opens a locked door, an object or not). The
share of puzzle keys grows with depth (:func:`puzzle_share`), at most two a floor
(``depth.PUZZLE_MOST``), placed with intent (:func:`puzzle_keys`: the floor's gate first,
then the furthest side room); the types come from a deck dealt once per world
(:func:`deck_card`: every type once in each shuffled block), each floor owning its own cards, so
the first floors already show different types and a floor never holds one type twice; the
difficulty follows the floor and the depth of the key's room (:func:`difficulty_for`). The
curves are tables of ``roguelike/depth.py``.

Everything here is drawn from the floor's own stream ``seeds.stream(seed, floor, "puzzles")``
(the deck from the world's, ``"puzzle-deck"``, a pure function of the seed) and each puzzle's
seed from (seed, floor, key), so one seed code gives everyone the same puzzles, whatever they
did before. A puzzle is generated the first time its pedestal is
stepped on (hatgram and keydoor take up to a few hundred milliseconds at very hard, too much
to pay for every puzzle on arrival); generation is a pure function of its seed, so when it is
made changes nothing.

A sealed vault's pedestal is always a puzzle (that is what seals it): its type is drawn after
every key's, from the floor's stream among the types the floor does not hold yet, and its
difficulty follows the floor and the vault's depth; solving it gives the vault's key, which
breaks the seal.

A floor change's pedestal (:func:`change_rooms`) is an optional puzzle: solving it changes
the map (``roguelike/engine/changes.py``) and opens no lock.

The engine never trusts a screen's word that a puzzle is solved: the screen reports the
player's moves, and :func:`replay` applies them to the instance from its initial state.
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, field
from typing import Any

from roguelike import depth, puzzles, seeds, tiles
from roguelike.gen.floor import Floor
from roguelike.puzzles import keydoor, keydoor_gen
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
    """The pedestals of floor ``fl``, in key order: which of its keys are puzzles
    (:func:`puzzle_count` of them, chosen by :func:`puzzle_keys`), of which type (the run's deck,
    :func:`floor_types`) and difficulty, and one for each sealed vault, whose type is none of the
    floor's others while there is one left to draw. No floor holds two pedestals of one type."""
    rng = seeds.stream(fl.seed, fl.number, PUZZLE_STREAM)
    room_depth = {r.id: r.depth for r in fl.topology.rooms}
    keys = {k.id: k for k in fl.keys}
    chosen = puzzle_keys(fl, puzzle_count(fl, rng))
    rooms: list[PuzzleRoom] = []

    def seed_of(kind: str, key: int) -> int:
        before = sum(r.type == kind for r in rooms)
        return pedestal_seed(fl.seed, fl.number, key, kind, before)

    for key_id, kind in zip(chosen, floor_types(fl.seed, fl.number, len(chosen)), strict=True):
        k = keys[key_id]
        seed = seed_of(kind, k.id)
        rooms.append(
            PuzzleRoom(k.id, k.x, k.y, kind, difficulty_for(fl.number, room_depth[k.room]), seed)
        )
    rooms.sort(key=lambda r: r.key)
    for v in fl.vaults:  # drawn after the keys, so a vault never moves a key's draw
        taken = {r.type for r in rooms}
        options = [t for t in TYPES if t not in taken] or list(TYPES)
        kind = options[int(rng.integers(len(options)))]
        seed = seed_of(kind, v.key)
        rooms.append(
            PuzzleRoom(v.key, v.x, v.y, kind, difficulty_for(fl.number, room_depth[v.vault]), seed)
        )
    return rooms + change_rooms(fl, rooms)


def key_seed(world: int, floor_number: int, key: int) -> int:
    """The seed the pedestal of ``key`` on floor ``floor_number`` of world ``world`` draws from
    (a floor change's pedestal keeps it as it is; :func:`pedestal_seed`)."""
    return seeds.text_seed(f"{world}/{floor_number}/puzzle/{key}")


def pedestal_seed(world: int, floor_number: int, key: int, kind: str, before: int = 0) -> int:
    """The seed of a key's or vault's pedestal holding a puzzle of type ``kind``: its
    :func:`key_seed`, and for a keydoor board that seed moved so the board's shape follows its
    place in the run (the floor, then ``before``: the keydoor pedestals placed before it on the
    floor; :func:`keydoor_gen.run_seed`), so a run's boards take the shapes in turn. The one choice
    :func:`place_puzzles` makes, which :func:`pedestal_seeds` repeats."""
    seed = key_seed(world, floor_number, key)
    if kind != keydoor.KeyDoor.type_name:
        return seed
    return keydoor_gen.run_seed(seed, world, floor_number + before)


def pedestal_seeds(world: int, floor_number: int, kind: str) -> list[int]:
    """Every seed a pedestal of type ``kind`` on floor ``floor_number`` of world ``world`` can
    have, key by key (each key's :func:`pedestal_seed` at each place among the floor's
    keydoors, and its plain :func:`key_seed`, as a floor change's pedestal has): what finds a
    solved pedestal of a floor that is gone (the puzzle index, ``saves.scores.left_behind``)."""
    out: list[int] = []
    for key in range(1, tiles.MAX_KEYS + 1):
        found = [key_seed(world, floor_number, key)]
        if kind == keydoor.KeyDoor.type_name:
            found += [
                pedestal_seed(world, floor_number, key, kind, before)
                for before in range(tiles.MAX_KEYS)
            ]
        out += dict.fromkeys(found)  # in order, once each
    return out


#: The stream that draws a floor change's pedestal type (its own, so the key and vault
#: pedestals' draws never move for it).
CHANGE_PUZZLE_STREAM = "change-puzzles"


def change_rooms(fl: Floor, rooms: list[PuzzleRoom]) -> list[PuzzleRoom]:
    """The pedestal of each floor change (``roguelike/gen/changes.py``): an optional puzzle
    whose solution changes the map rather than opening a lock; its type one the floor's other
    pedestals (``rooms``) do not hold while there is one, its difficulty that of its room."""
    rng = seeds.stream(fl.seed, fl.number, CHANGE_PUZZLE_STREAM)
    room_depth = {r.id: r.depth for r in fl.topology.rooms}
    out: list[PuzzleRoom] = []
    for ch in fl.changes:
        held = {r.type for r in rooms + out}
        options = [t for t in TYPES if t not in held] or list(TYPES)
        kind = options[int(rng.integers(len(options)))]
        seed = key_seed(fl.seed, fl.number, ch.key)
        level = difficulty_for(fl.number, room_depth.get(ch.room, 0))
        out.append(PuzzleRoom(ch.key, ch.x, ch.y, kind, level, seed))
    return out


def puzzle_count(fl: Floor, rng: Any) -> int:
    """How many of the floor's keys are puzzles: each key is one with the floor's
    :func:`puzzle_share` (every key draws), but at least one (a floor with a key always has a
    puzzle of its own) and no more than ``depth.PUZZLE_MOST`` with the floor's change pedestals
    (a floor change's puzzle counts among them)."""
    drawn = sum(bool(rng.random() < puzzle_share(fl.number)) for _ in fl.keys)
    most = max(1, depth.PUZZLE_MOST.at(fl.number) - len(fl.changes))
    return min(max(drawn, 1), most, len(fl.keys))


def puzzle_keys(fl: Floor, count: int) -> list[int]:
    """The ``count`` keys of the floor that are puzzles, placed with intent: first the key of
    the floor's gate (the lock on the way from the start to the stairs nearest the stairs), then
    the key of the side room that is the furthest detour (a lock off that way, guarding the
    deepest room), then alternately the rest of each, deepest first; in the order they take the
    deck's cards."""
    topo = fl.topology
    depth_of = {r.id: r.depth for r in topo.rooms}
    on_way = _tree_path(topo.edges, topo.start, topo.finish)
    gates: list[tuple[int, int]] = []  # (depth of the room behind the lock, key)
    sides: list[tuple[int, int]] = []
    for e in topo.edges:
        if e.lock is None:
            continue
        (gates if (e.a, e.b) in on_way else sides).append((depth_of[e.b], e.lock))
    ranked: list[int] = []
    gate_keys = [k for _, k in sorted(gates, key=lambda g: (-g[0], g[1]))]
    side_keys = [k for _, k in sorted(sides, key=lambda g: (-g[0], g[1]))]
    for pair in itertools.zip_longest(gate_keys, side_keys):
        ranked += [k for k in pair if k is not None]
    known = {k.id for k in fl.keys}
    ranked = [k for k in dict.fromkeys(ranked) if k in known]
    ranked += sorted(known - set(ranked))  # a key without a lock (none today) comes last
    return ranked[:count]


def _tree_path(edges: Any, start: int, finish: int) -> set[tuple[int, int]]:
    """The tree corridors ``(a, b)`` on the way from room ``start`` to ``finish`` (loops left
    out: a lock always stands on a tree corridor)."""
    parent: dict[int, tuple[int, int]] = {}
    for e in edges:
        if not e.loop:
            parent[e.b] = (e.a, e.b)
    way: set[tuple[int, int]] = set()
    room = finish
    while room != start and room in parent:
        way.add(parent[room])
        room = parent[room][0]
    return way


#: The stream of a world's deck of puzzle types (one shuffle of the types per ``floor`` of the
#: stream's name, read as the deck's block).
DECK_STREAM = "puzzle-deck"


def deck_card(seed: int, index: int) -> str:
    """Card ``index`` of the world's deck of puzzle types: every type once in each block of
    ``len(TYPES)`` cards, each block shuffled by its own stream, so a run meets the types in an
    order of its own and meets them all before it meets one again."""
    block, at = divmod(index, len(TYPES))
    order = seeds.stream(seed, block, DECK_STREAM).permutation(len(TYPES))
    return TYPES[int(order[at])]


def floor_types(seed: int, number: int, count: int) -> list[str]:
    """The types of the ``count`` puzzles of floor ``number``: the floor's cards of the deck
    (each floor owns ``depth.PUZZLE_MOST`` cards after those of the floors above it, so a
    floor's draw never depends on another floor's), a card whose type the floor already holds
    passed over (where two blocks meet)."""
    at = sum(depth.PUZZLE_MOST.at(f) for f in range(1, number))
    out: list[str] = []
    while len(out) < min(count, len(TYPES)):
        card = deck_card(seed, at)
        if card not in out:
            out.append(card)
        at += 1
    return out


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
