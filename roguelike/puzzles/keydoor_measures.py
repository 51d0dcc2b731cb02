"""Keys and doors: how much thought an instance asks (:func:`measures`).

:func:`measures` says whether forbidding ``drop`` lengthens the optimum (the one-slot hand's
ferry: a key won early whose door lies behind another door, carried forward and put down to
take the other key), whether a greedy player (:func:`greedy_plan`: the nearest usable key, never
a drop) misses par, and how many optimal plans there are (``roguelike bench --only puzzle``
gives the shares per level). The generator reads :func:`no_drop_distance` (very-hard keeps
only boards where drop matters); the rest is for the bench and the tests."""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.puzzles.base import Unsolvable, astar_distance, bfs_pairs
from roguelike.puzzles.keydoor import KeyDoor, Move, State, keys_of

#: Optimal plans are counted up to this many (``Measures.optimal_plans``).
PLAN_COUNT_CAP = 1000


@dataclass(frozen=True)
class Measures:
    """How much thought an instance asks for (see :func:`measures`)."""

    par: int  # the optimum
    no_drop: int | None  # the optimum when ``drop`` is forbidden (None: then impossible)
    greedy: int | None  # the greedy player's action count (None: it gets stuck)
    optimal_plans: int  # distinct optimal plans, up to PLAN_COUNT_CAP

    @property
    def drop_matters(self) -> bool:
        """Forbidding ``drop`` makes the optimum longer, or the goal unreachable."""
        return self.no_drop is None or self.no_drop > self.par

    @property
    def greedy_misses(self) -> bool:
        """The greedy player gets stuck or takes more than par actions."""
        return self.greedy is None or self.greedy > self.par


def _walks(p: KeyDoor, s: State) -> dict[int, list[Move]]:
    """The shortest walk (its moves) from the player's room to every room reachable through
    the doors open in ``s``, in breadth-first order."""
    room, held, where, opened = s
    paths: dict[int, list[Move]] = {room: []}
    frontier = [room]
    for r in frontier:
        for a in ("left", "right", "enter", "leave"):
            if p._why_not((r, held, where, opened), a) is None:
                d = p.dest(a, r)
                assert d is not None
                if d not in paths:
                    paths[d] = paths[r] + [a]
                    frontier.append(d)
    return paths


def _spots(p: KeyDoor, s: State, paths: dict[int, list[Move]], k: int) -> list[int]:
    """The rooms of ``paths`` next to the door of key ``k`` if it is locked, nearest first."""
    if not p._closed(s, p.doors[k - 1]):
        return []
    near = [r for r in paths if p.doors[k - 1] in p.beside(r)]
    return sorted(near, key=lambda r: (len(paths[r]), r))


def greedy_plan(p: KeyDoor, start: State | None = None) -> list[Move] | None:
    """The plan of a player who never thinks ahead, from ``start`` (default: the start).

    Policy, applied until the goal is reached: when the goal can be walked to, walk there by
    the shortest way. Otherwise, with a key in hand whose door borders a reachable room, walk
    to the nearest such room and open it. Otherwise, with room in the hand, take the nearest
    key (fewest steps, then the lowest number) whose door is still locked and borders a
    reachable room, then go and open that door. The player drops a key only when its one-key
    hand holds a spent key (its door kept it). None when it is stuck (a held key whose door
    cannot be reached, or no usable key).
    """
    s = p.initial() if start is None else start
    plan: list[Move] = []

    def walk(moves: list[Move]) -> None:
        nonlocal s
        for m in moves:
            s = p.apply(s, m)
            plan.append(m)

    while not p.is_solved(s):
        paths = _walks(p, s)
        if p.rooms in paths:
            walk(paths[p.rooms])
            break
        room, held, where = s[0], s[1], s[2]
        usable = [(spots, k) for k in keys_of(held) if (spots := _spots(p, s, paths, k))]
        if usable:
            spots, _ = min(usable, key=lambda sk: (len(paths[sk[0][0]]), sk[1]))
            walk(paths[spots[0]] + ["open"])
            continue
        if held.bit_count() >= p.hand:
            # a full hand of spent keys (their doors keep them): put one down, if it can
            if p.hand == 1 and room not in where:
                walk(["drop"])
                continue
            return None
        options = [
            (len(paths[r]), k + 1)
            for k, r in enumerate(where)
            if r in paths and _spots(p, s, paths, k + 1)
        ]
        if not options:
            return None
        _, k = min(options)
        walk(paths[where[k - 1]] + ["take"])
    return plan


def count_optimal_plans(p: KeyDoor, s: State | None = None, cap: int = PLAN_COUNT_CAP) -> int:
    """How many distinct shortest plans lead from ``s`` (default: the start) to the goal, up to
    ``cap``: paths counted layer by layer over the breadth-first search's shortest-path DAG
    (0 when the goal cannot be reached)."""
    s = p.initial() if s is None else s
    if p.is_solved(s):
        return 1
    count = {s: 1}
    seen = {s}
    while count:
        nxt: dict[State, int] = {}
        for u, c in count.items():
            for m in p.moves(u):
                t = p._step(u, m)
                if t not in seen:
                    nxt[t] = min(cap, nxt.get(t, 0) + c)
        goals = [n for t, n in nxt.items() if p.is_solved(t)]
        if goals:
            return min(cap, sum(goals))
        seen.update(nxt)
        count = nxt
    return 0


def no_drop_plan(p: KeyDoor, s: State | None = None) -> list[Move] | None:
    """A shortest plan from ``s`` (default: the start) that never drops a key (None: none)."""
    s = p.initial() if s is None else s
    return bfs_pairs(s, lambda t: [mt for mt in p.move_states(t) if mt[0] != "drop"], p.is_solved)


def no_drop_distance(p: KeyDoor, s: State | None = None, bound: int | None = None) -> int | None:
    """The length of :func:`no_drop_plan` (None: there is none, or none within ``bound``
    actions), by A*: the board's lower bound holds for a plan without ``drop`` too."""
    s = p.initial() if s is None else s
    moves = lambda t: [mt for mt in p.move_states(t) if mt[0] != "drop"]  # noqa: E731
    return astar_distance(s, moves, p.is_solved, p.lower_bound, bound)


def measures(p: KeyDoor) -> Measures:
    """The optimum, the optimum without ``drop``, the greedy player's count (:func:`greedy_plan`)
    and the number of optimal plans, all from the start. Raises Unsolvable when the start cannot
    reach the goal."""
    best = p.solve(p.initial())
    if best is None:
        raise Unsolvable("the goal cannot be reached from the start")
    no_drop, greedy = no_drop_plan(p), greedy_plan(p)
    return Measures(
        len(best),
        None if no_drop is None else len(no_drop),
        None if greedy is None else len(greedy),
        count_optimal_plans(p),
    )
