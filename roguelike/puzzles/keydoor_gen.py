"""Keys and doors: what is drawn (the par tables, the shape a seed draws), the instance
generator (clingo draws the doors and keys) and the type's record (``TYPE``).

Generation: ``asp/keydoor.lp`` chooses the instance (doors, keys) under its rules (no door in
the first room, no key behind its own door, a key in the branch that opens a door on the main
corridor, at hard and very-hard a key to ferry, the shape's own rules, ...; horizon 0: no plan
yet), eight instances from one grounding; a breadth-first search in Python gives each one's
exact optimum and plan, very-hard keeps only instances where drop matters, every level only
those whose difficulty score lies in its band (each shape has its own par range, hand or
branch at a level where the level's would miss the band; easy draws two branches in place of
nested doors, whose three keys score above easy's band), and the same encoding, with the
instance fixed, checks that plan under its own rules. That no plan is shorter is the search's
answer; the tests have clingo prove it too, on every shape at every level (in the generator
the proof cost half a very-hard board's time). Over seeds 0..39 on a shared two-core machine
(CPU time of ``puzzles.generate``, the median of two runs), a board took p50 / p99: easy 20 /
45 ms, medium 25 / 65 ms, hard 40 / 132 ms, very-hard 118 / 271 ms (one-branch boards of par
19..24, below very-hard's band, took 55 / 155 ms). The plan is stored with the instance.
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
    plays,
)
from roguelike.puzzles.keydoor_measures import no_drop_plan

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
#: states that measuring its score took 0.2..0.5 s.
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
RESEEDS = 4


def _call(
    constants: dict[str, int], facts: list[str], stage: str, seed: int, first_attempt: int
) -> tuple[asp_solve.Outcome, int]:
    """Ground once and solve with up to RESEEDS solver seeds (named by the stage and a running
    attempt number), moving to the next seed on "unknown"; returns the outcome and the next
    attempt number."""
    solver_seeds = [
        seeds.solver_seed(seed, 0, stage, attempt)
        for attempt in range(first_attempt, first_attempt + RESEEDS)
    ]
    out = asp_solve.solve(["keydoor"], constants, solver_seeds, CONFLICT_LIMIT, facts=facts)
    used = out.attempt + 1 if out.status != "unknown" else RESEEDS
    return out, first_attempt + used


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
    optimal plan (exact, and checked by clingo) fits the shape's par range there
    (:func:`par_range`) and whose difficulty score lies in the level's band.

    The stream draws the corridor's size and junctions; clingo grounds the encoding's rules
    (``SIZE``: the chain and ferry rules; the shape's rules) for that corridor once, without a
    plan (horizon 0, which is cheap), and chooses up to ``MODELS`` instances (doors, keys) from
    it, one per solver seed (named by the stream's name and a running attempt number, with a
    conflict budget): the grounding costs far more than a model. The Python breadth-first
    search gives each instance's exact optimum and a plan, which skips unsolvable instances
    and those out of range at once; where ``SIZE`` asks for it (very-hard, a one-key hand), an
    instance where the optimum without ``drop`` is no longer is skipped too, and so is one
    whose difficulty score lies outside the level's band (milliseconds). Then clingo, with the
    instance fixed, checks the plan under its own rules. Its proof that no plan is shorter (unsat
    one action below) is left to the tests (``tests/puzzles/test_keydoor_shapes.py``, every
    shape at every level): it cost a very-hard board half its generation time, and the search's
    optimum is exact without it. An instance where clingo spends its budget is skipped; one
    where clingo and the search disagree is a bug and raises RuntimeError.
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
        base = p.constants() | {"keys": k}
        base |= {"chain": size.chain if first else 0, "ferry": size.ferry if first else 0}
        base |= {"across": shape.across, "nested": shape.nested, "crossing": shape.crossing}
        base |= {"eats": int(eats)}
        solver_seeds = [seeds.solver_seed(seed, 0, stage, calls + i) for i in range(MODELS)]
        calls += MODELS
        corridor = (r, h, j, h2, j2)
        grounding = asp_solve.Grounding(["keydoor"], base | {"horizon": 0}, CONFLICT_LIMIT)
        outs = grounding.solve_each(solver_seeds)
        for out in outs:
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
            predicted = p.solve(p.initial())
            if predicted is None or not in_range(len(predicted), pars):
                continue
            par = len(predicted)
            blind = no_drop_plan(p) if size.drop and hand == 1 else None
            if blind is not None and len(blind) <= par:
                continue
            if not band_lo <= scoring.measure(p, calibration=TYPE.calibration).score < band_hi:
                continue
            facts = p.encoding_facts()
            steps = [f"given_do({t},{a})." for t, a in enumerate(predicted)]
            found, calls = _call(base | {"horizon": par}, facts + steps, stage, seed, calls)
            if found.status == "unknown":
                continue
            plan = _parse(found.atoms, k)[2]
            if found.status != "sat" or len(plan) != par or not plays(p, plan):
                raise _disagree(p, f"a plan of {par} actions")
            made = replace(p, plan=tuple(plan), par=par)
            made._cache.update(p._cache)  # the searches already made (a first hint costs nothing)
            return made
    raise GenerationError(f"no keydoor puzzle of difficulty {difficulty} in {ATTEMPTS} attempts")


def _disagree(p: KeyDoor, what: str) -> RuntimeError:
    """clingo and the breadth-first search read the rules differently (a bug, never a retry)."""
    return RuntimeError(f"asp/keydoor.lp and the Python rules disagree on {p!r}: {what}")


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
