"""Keys and doors: what is drawn (the par tables, the shape a seed draws), the instance
generator (clingo draws the doors and keys) and the type's record (``TYPE``).

Generation: ``asp/keydoor.lp`` chooses the instance (doors, keys) under its rules (no door in
the first room, no key behind its own door, a key in the branch that opens a door on the main
corridor, at hard and very-hard a key to ferry, the shape's own rules, ...; horizon 0: no plan
yet), up to eight instances from one grounding, solved one at a time; A* in Python gives each
one's exact optimum (under a lower bound: the way to the goal, by the rooms of the keys still
to fetch, and the doors and keys on it), very-hard keeps only instances where drop matters,
every level only those whose difficulty score lies in its band (each shape has its own par
range, hand or branch at a level where the level's would miss the band; easy draws two
branches in place of nested doors, whose three keys score above easy's band), and the
breadth-first search gives the kept one's plan, stored with the instance. clingo checks that
plan under the rules the board was drawn by and proves that no plan is shorter in the tests,
on every shape at every level (:func:`check_plan`; in the generator the check cost a fifth of
a very-hard board's time, the proof half). Over seeds 0..29 on a shared two-core machine under
heavy load (CPU time of ``puzzles.generate``, per seed the median of two runs), a board took
p50 / p99: easy 7 / 20 ms, medium 10 / 37 ms, hard 15 / 66 ms, very-hard 44 / 103 ms (before
A*, the lazy draw and the check's move to the tests, in the same runs: 19 / 38, 23 / 67,
38 / 138, 103 / 176 ms). Most of a very-hard board's time is clingo's now: a grounding costs
about 8 ms, each instance drawn from it about 1 ms, and a seed whose first corridors give no
board in range grounds up to five.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from asp import solve as asp_solve
from roguelike import seeds
from roguelike.puzzles.base import (
    HINT_BUDGET,
    Calibration,
    GenerationError,
    PuzzleType,
    check_difficulty,
    in_range,
    rng_for,
)
from roguelike.puzzles.keydoor import (
    RULES,
    SHAPE_NAMES,
    SHAPES,
    KeyDoor,
    Move,
    Shape,
    State,
)
from roguelike.puzzles.keydoor_measures import no_drop_distance

#: Optimal action counts per difficulty.
PAR: dict[str, tuple[int, int]] = {
    "easy": (7, 12),
    "medium": (11, 16),
    "hard": (15, 22),
    "very-hard": (23, 28),
}
#: A shape's own par range at a level, where the level's would put its difficulty score
#: outside the level's band too often (the score grows with par, faster on some shapes: a
#: ferry's or a crossing's steps ask more thought than a walk's), or cannot hold it. Very-hard's
#: ferries and crossings stop at 29: their doors keep their keys, so a longer board has so many
#: states that measuring its score took 0.2..0.5 s (by breadth-first searches: A* answers it
#: faster now, but a wider range would change the boards).
PAR_OF_SHAPE: dict[tuple[str, str], tuple[int, int]] = {
    ("two-branches", "easy"): (7, 10),
    ("ferry", "easy"): (7, 10),
    ("ferry", "medium"): (11, 15),
    ("two-branches", "hard"): (18, 22),
    ("ferry", "hard"): (17, 21),
    ("nested", "hard"): (17, 24),
    ("crossing", "hard"): (17, 21),
    ("branch", "very-hard"): (25, 34),
    ("two-branches", "very-hard"): (25, 34),
    ("ferry", "very-hard"): (25, 29),
    ("nested", "very-hard"): (23, 34),
    ("crossing", "very-hard"): (23, 29),
}
#: The par range of each level over every shape (the type record's).
PAR_RANGE: dict[str, tuple[int, int]] = {
    level: (
        min([lo_hi[0]] + [lo for (_, lv), (lo, _) in PAR_OF_SHAPE.items() if lv == level]),
        max([lo_hi[1]] + [hi for (_, lv), (_, hi) in PAR_OF_SHAPE.items() if lv == level]),
    )
    for level, lo_hi in PAR.items()
}


def par_range(shape: str, difficulty: str) -> tuple[int, int]:
    """The optimal action counts a board of ``shape`` is drawn with at ``difficulty``."""
    return PAR_OF_SHAPE.get((shape, difficulty), PAR[difficulty])


def shape_of(seed: int) -> Shape:
    """The shape a seed names: the seed modulo the number of shapes."""
    return SHAPES[seed % len(SHAPES)]


#: The shape drawn in place of one a level cannot hold in its band: nested doors need three
#: keys, whose taking and opening alone score above easy's band. Two branches stand in: of the
#: shapes around nested doors in a run's turn (:func:`run_seed`), neither is two branches, so
#: five boards still show three shapes (only floors 1 and 2 have easy boards).
STAND_IN: dict[tuple[str, str], str] = {("nested", "easy"): "two-branches"}


def shape_at(seed: int, difficulty: str) -> Shape:
    """The shape a seed draws at ``difficulty``: the one it names (:func:`shape_of`), or its
    stand-in at a level that cannot hold that one (:data:`STAND_IN`)."""
    shape = shape_of(seed)
    stand_in = STAND_IN.get((shape.name, difficulty))
    return shape if stand_in is None else SHAPES[SHAPE_NAMES.index(stand_in)]


def run_seed(seed: int, world: int, order: int) -> int:
    """The seed of a keydoor pedestal that is the ``order``-th of its run's keydoor places
    (the game counts floors and the keydoors on a floor): ``seed`` moved so that it draws
    shape ``(offset + order) % len(SHAPES)``, the offset a function of the world. Places one
    after another get shapes one after another, so any five of a run's keydoor boards on five
    floors of at most eight show three shapes at least (each shape falls on two of eight
    floors at most; an easy board's stand-in, :data:`STAND_IN`, keeps that true)."""
    n = len(SHAPES)
    offset = seeds.text_seed(f"{world}/keydoor-shapes") % n
    moved = seed - seed % n + (offset + order) % n  # the nearest such seed at or below it
    return moved - n if moved > seed and moved >= n else moved


class Size(NamedTuple):
    """How a difficulty's instances are drawn (the encoding's constants, and a filter)."""

    main: tuple[int, int]  # main corridor rooms, lo..hi
    branch: tuple[int, int]  # branch rooms, lo..hi
    keys: int
    chain: int  # 1: key K+1 lies behind door K (the keys are won one after another)
    ferry: int  # 1: some key lies 3+ steps before the key of a door that stands before its own
    drop: bool  # keep only instances where drop matters (Measures.drop_matters)


SIZE: dict[str, Size] = {
    "easy": Size((4, 5), (1, 2), 1, 0, 0, False),
    "medium": Size((5, 6), (2, 2), 2, 1, 0, False),
    "hard": Size((6, 7), (2, 2), 3, 0, 1, False),
    "very-hard": Size((8, 8), (2, 3), 3, 0, 1, True),
}

#: A shape's hand at a level, where not the shape's own: very-hard's nested doors take a one-key
#: hand (with a bag of two keys, their boards score in very-hard's band only at a par of 27,
#: which few corridors give).
HAND_AT: dict[tuple[str, str], int] = {("nested", "very-hard"): 1}
#: The shapes whose doors eat their keys at a level although the shape's keep them: medium's
#: crossing boards, whose spent keys made them either a walk (par 8 or 9) or above the band.
EATS_AT: frozenset[tuple[str, str]] = frozenset({("crossing", "medium")})
#: A shape's branch rooms at a level, where not the level's: very-hard's nested doors in a
#: branch of two rooms give a par of 17 to 19 nine times in ten, far below the band.
BRANCH_AT: dict[tuple[str, str], tuple[int, int]] = {("nested", "very-hard"): (3, 3)}
#: Conflicts clingo may spend on one call before it is re-seeded.
CONFLICT_LIMIT = 20000
#: Corridors drawn at most, and instances clingo chooses from each one's grounding.
ATTEMPTS = 60
MODELS = 8


def rules(shape: Shape, difficulty: str, eats: bool) -> dict[str, int]:
    """The encoding's generation rules for a board of ``shape`` at ``difficulty`` (``SIZE``:
    the chain and ferry rules, for the first shape only; the shape's own rules), with doors
    that eat their keys or keep them."""
    size, first = SIZE[difficulty], shape is SHAPES[0]
    out = {"chain": size.chain if first else 0, "ferry": size.ferry if first else 0}
    out |= {"across": shape.across, "nested": shape.nested, "crossing": shape.crossing}
    return out | {"eats": int(eats)}


def check_plan(p: KeyDoor, budget: int = 100_000) -> asp_solve.Outcome:
    """clingo's check of a generated board's plan: the encoding under the rules the board was
    drawn by (:func:`rules`), the instance fixed and the plan given (``given_do``). "sat" with
    the plan's atoms when the plan plays from the start to the goal and the instance keeps the
    generation rules. The generator does not call it (the breadth-first search's plan is exact,
    and the check cost a fifth of a very-hard board's generation): the tests run it on every
    shape at every level (``tests/puzzles/test_keydoor_shapes.py``)."""
    shape = SHAPES[SHAPE_NAMES.index(p.shape)]
    constants = p.constants() | rules(shape, p.difficulty, not p.keeps) | {"horizon": p.par}
    facts = p.encoding_facts() + [f"given_do({t},{a})." for t, a in enumerate(p.plan)]
    return asp_solve.solve(["keydoor"], constants, [1, 2], budget, facts=facts)


def _parse(atoms: tuple[asp_solve.Atom, ...], k: int) -> tuple[list[int], list[int], list[str]]:
    """The encoding's answer: the room of each door and key (by number), and the plan's actions
    in step order."""
    doors, keys = [0] * k, [0] * k
    steps: dict[int, str] = {}
    for name, args in atoms:
        if name == "door":
            key, room = asp_solve.numbers(args)
            doors[key - 1] = room
        elif name == "keyat":
            key, room = asp_solve.numbers(args)
            keys[key - 1] = room
        elif name == "plan":
            step, action = args
            assert isinstance(step, int) and isinstance(action, str)
            steps[step] = action
    return doors, keys, [steps[t] for t in sorted(steps)]


def generate(difficulty: str, seed: int) -> KeyDoor:
    """A keydoor puzzle of the shape the seed draws at ``difficulty`` (:func:`shape_at`) whose
    optimal plan (exact) fits the shape's par range there (:func:`par_range`) and whose
    difficulty score lies in the level's band.

    The stream draws the corridor's size and junctions; clingo grounds the encoding's rules
    (:func:`rules`: the chain and ferry rules of ``SIZE``; the shape's rules) for that corridor
    once, without a plan (horizon 0, which is cheap), and chooses up to ``MODELS`` instances
    (doors, keys) from it, one per solver seed (named by the stream's name and a running attempt
    number, with a conflict budget), solved one at a time until an instance is kept: the
    grounding costs far more than a model. A* gives each instance's exact optimum
    (:meth:`KeyDoor.distance`, cut off past the range), which skips unsolvable instances and
    those out of range at once; where ``SIZE`` asks for it (very-hard, a one-key hand), an
    instance where the optimum without ``drop`` is no longer is skipped too, and so is one
    whose difficulty score lies outside the level's band (milliseconds). The plan kept is the
    breadth-first search's (:meth:`KeyDoor.solve`). clingo checks it in the tests, not here
    (:func:`check_plan`, and the proof that no plan is shorter:
    ``tests/puzzles/test_keydoor_shapes.py``, every shape at every level): the check cost a
    fifth of a very-hard board's time, the proof half, and the search is exact without them.
    """
    # function-level import: the difficulty module reaches this one through the registry
    from roguelike.puzzles import difficulty as scoring

    check_difficulty(difficulty)
    rng = rng_for("keydoor", difficulty, seed)
    stage = f"puzzle:keydoor:{difficulty}"
    size, shape = SIZE[difficulty], shape_at(seed, difficulty)
    first = shape is SHAPES[0]
    (r_lo, r_hi), (h_lo, h_hi) = size.main, size.branch
    k = size.keys if first else max(shape.keys, size.keys)
    # an easy board's hand holds every key (a two-key hand of three keys asks too much there)
    # and its doors eat their keys (a spent key to put down makes a ferry too long for easy)
    hand = HAND_AT.get((shape.name, difficulty), shape.hand)
    hand = k if difficulty == "easy" and shape.hand > 1 else hand
    eats = shape.eats or difficulty == "easy" or (shape.name, difficulty) in EATS_AT
    h_lo, h_hi = (h_lo, h_hi) if first else (max(2, h_lo), max(2, h_hi))
    h_lo, h_hi = BRANCH_AT.get((shape.name, difficulty), (h_lo, h_hi))
    pars = par_range(shape.name, difficulty)
    band_lo, band_hi = scoring.BANDS[difficulty]
    calls = 0
    seen: set[tuple[tuple[int, ...], tuple[int, ...], tuple[int, int, int, int, int]]] = set()
    for _ in range(ATTEMPTS):
        r = int(rng.integers(r_lo, r_hi + 1))
        h = int(rng.integers(h_lo, h_hi + 1))
        j = int(rng.integers(1, r))
        h2 = j2 = 0
        if shape.branches == 2:
            h2 = int(rng.integers(h_lo, h_hi + 1))
            j2 = int(rng.integers(1, r - 1))
            j2 += j2 >= j  # another main room before the last
        p = KeyDoor(r, h, j, (), (), (), difficulty, 0, h2, j2, hand, (), shape.name)
        base = p.constants() | {"keys": k} | rules(shape, difficulty, eats)
        solver_seeds = [seeds.solver_seed(seed, 0, stage, calls + i) for i in range(MODELS)]
        calls += MODELS
        corridor = (r, h, j, h2, j2)
        grounding = asp_solve.Grounding(["keydoor"], base | {"horizon": 0}, CONFLICT_LIMIT)
        for out in grounding.each(solver_seeds):
            if out.status != "sat":
                continue
            doors, keys, _ = _parse(out.atoms, k)
            drawn = (tuple(doors), tuple(keys), corridor)
            if drawn in seen:
                continue  # a model drawn twice from one grounding
            seen.add(drawn)
            keeps = () if eats else tuple(range(1, k + 1))
            p = KeyDoor(
                r,
                h,
                j,
                tuple(doors),
                tuple(keys),
                (),
                difficulty,
                0,
                h2,
                j2,
                hand,
                keeps,
                shape.name,
            )
            par = p.distance(p.initial(), pars[1])  # the optimum alone: most candidates stop here
            if par is None or not in_range(par, pars):
                continue
            if size.drop and hand == 1 and no_drop_distance(p, bound=par) is not None:
                continue  # drop does not matter: a plan without it is as short
            plan = p.solve(p.initial())  # the plan kept, and the score's line
            if plan is None or len(plan) != par:
                raise RuntimeError(f"A* and the breadth-first search disagree on {p!r}")
            if not band_lo <= scoring.measure(p, calibration=TYPE.calibration).score < band_hi:
                continue
            made = replace(p, plan=tuple(plan), par=par)
            made._cache.update(p._cache)  # the searches already made (a first hint costs nothing)
            return made
    raise GenerationError(f"no keydoor puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


# --- the difficulty score's greedy rule (the type's record reads it) --------------------------
def greedy(p: KeyDoor, s: State) -> float:
    """The difficulty score's naive measure: the rooms still between the player and the goal,
    less three per opened door and one for a key in hand (walk on, pick up keys, open doors as
    they come)."""
    room, held, _where, opened = s
    if room <= p.rooms:
        away = p.rooms - room
    else:
        junction, first, _last = p.branch_of(room)
        away = room - first + 1 + p.rooms - junction
    return float(away - 3 * int(opened).bit_count() - held.bit_count())


def successor(p: KeyDoor, s: State, m: Move) -> State:
    """The state after a move ``p.moves(s)`` listed, unchecked (the measure's ``apply``)."""
    return p._step(s, m)


# --- the record every layer reads ------------------------------------------------------------
TYPE: PuzzleType[KeyDoor, State, Move] = PuzzleType(
    name=KeyDoor.type_name,
    generate=generate,
    from_json=KeyDoor.from_json,
    par=PAR_RANGE,
    rules=RULES,
    hint_budget=HINT_BUDGET,
    # every level lies in its band: the generator measures its candidates itself, with moves
    # made unchecked (a listed move is legal), which makes each measurement cheaper
    calibration=Calibration(greedy=greedy, attempts=1, banded=True, successor=successor),
)
