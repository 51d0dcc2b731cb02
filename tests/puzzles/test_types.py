"""Each puzzle type's own rules and its solver's optimality against plain breadth-first search."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asp import solve as asp_solve
from roguelike.puzzles import (
    ball,
    hatgram,
    hatgram_solve,
    jugs,
    keydoor,
    keydoor_gen,
    sliding,
    stomp,
)
from roguelike.puzzles.base import IllegalMove, bfs_plan


def bfs_len(p, s, max_states=None):
    plan = bfs_plan(s, p.moves, p.apply, p.is_solved, max_states)
    return None if plan is None else len(plan)


# --- jugs -----------------------------------------------------------------------------------
def test_jugs_classic_8_5_3():
    p = jugs.Jugs((8, 5, 3), ("vector", (4, 4, 0)))
    plan = p.solve(p.initial())
    assert len(plan) == 7
    assert p.apply((8, 0, 0), (0, 2)) == (5, 0, 3)  # pours only what fits
    assert p.apply((5, 0, 3), (2, 1)) == (5, 3, 0)
    with pytest.raises(IllegalMove):
        p.apply((8, 0, 0), (1, 0))  # B is empty
    with pytest.raises(IllegalMove):
        p.apply((0, 5, 3), (1, 2))  # C is full
    q = jugs.Jugs((8, 5, 3), ("any", (4,)))
    assert len(q.solve(q.initial())) == 6
    assert q.is_solved((4, 1, 3)) and not q.is_solved((5, 0, 3))


@given(
    st.integers(4, 14).flatmap(
        lambda a: st.tuples(
            st.just(a), st.integers(1, a - 1), st.integers(1, a - 1), st.integers(1, a - 1)
        )
    )
)
@settings(max_examples=40)
def test_jugs_solver_matches_independent_search(caps):
    caps = tuple(caps)
    dist, _ways = jugs._explore(caps)
    for amount in range(1, caps[0]):
        p = jugs.Jugs(caps, ("any", (amount,)))
        hits = [d for s, d in dist.items() if amount in s]
        plan = p.solve(p.initial())
        assert (plan is None) == (not hits)
        if plan is not None:
            assert len(plan) == min(hits) == bfs_len(p, p.initial())


@pytest.mark.parametrize("difficulty", jugs.PAR)
def test_jugs_generated_have_a_unique_shortest_plan_when_possible(difficulty):
    for seed in range(4):
        p = jugs.generate(difficulty, seed)
        assert bfs_len(p, p.initial()) == p.par
        assert p.capacities[0] == max(p.capacities)


def test_jugs_dead_end_is_unsolvable():
    p = jugs.Jugs((6, 4, 2), ("any", (3,)))  # only even amounts ever
    assert p.solve(p.initial()) is None
    assert "again" in p.nudge(p.initial(), 1)


# --- sliding --------------------------------------------------------------------------------
def walk(n, moves):
    T = sliding.tables(n)
    board = list(T.goal)
    blank, prev = board.index(0), -1
    for k in moves:
        opts = [q for q in T.nbr[blank] if q != prev]  # never straight back
        p = opts[k % len(opts)]
        board[blank], board[p] = board[p], 0
        prev, blank = blank, p
    return tuple(board)


@given(st.lists(st.integers(0, 3), min_size=4, max_size=18))
@settings(max_examples=60)
def test_sliding_3x3_ida_matches_bfs_and_heuristic_is_admissible(ks):
    s = walk(3, ks)
    p = sliding.Sliding(3, s)
    d = bfs_len(p, s)
    assert p.heuristic(s) <= d
    assert len(p.solve(s)) == d


@given(st.lists(st.integers(0, 3), min_size=4, max_size=11))
@settings(max_examples=30)
def test_sliding_4x4_ida_matches_bfs(ks):
    s = walk(4, ks)
    p = sliding.Sliding(4, s)
    d = bfs_len(p, s)
    assert p.heuristic(s) <= d
    assert len(p.solve(s)) == d


def test_sliding_linear_conflict_counts_the_admissible_way():
    # row 1 holds 3 2 1: two tiles must leave the row, so 4 extra moves, not 6 (3 pairs)
    T = sliding.tables(3)
    assert T.row_lc(0, (3, 2, 1, 4, 5, 6, 7, 8, 0)) == 4
    assert T.row_lc(0, (1, 2, 3, 4, 5, 6, 7, 8, 0)) == 0


@pytest.mark.parametrize("difficulty", ["easy", "medium"])
def test_sliding_generated_optimal_by_bfs(difficulty):
    for seed in range(3):
        p = sliding.generate(difficulty, seed)
        assert bfs_len(p, p.initial()) == p.par


def test_sliding_cached_paths_give_the_same_lengths_as_a_fresh_search():
    rng = np.random.default_rng(2)
    p = sliding.generate("very-hard", 3)
    plan = p.solve(p.initial())
    for _ in range(10):
        s = p.initial()
        for m in plan[: int(rng.integers(0, len(plan)))]:
            s = p.apply(s, m)
        for _ in range(int(rng.integers(1, 5))):
            ms = p.moves(s)
            s = p.apply(s, ms[int(rng.integers(0, len(ms)))])
        fresh = sliding.Sliding(4, s)
        assert len(p.solve(s)) == len(fresh.solve(s))


def test_sliding_rejects_unsolvable_parity():
    with pytest.raises(ValueError):
        sliding.Sliding(3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    assert not sliding.solvable((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0), 4)


# --- stomp ----------------------------------------------------------------------------------
@cache
def stomp_min_weights(n):
    """diff -> minimum number of stomps, by trying every subset of cells."""
    T = stomp.toggles(n)
    best: dict[int, int] = {}
    for x in range(1 << (n * n)):
        d = 0
        for i in range(n * n):
            if x >> i & 1:
                d ^= T[i]
        w = x.bit_count()
        if best.get(d, 99) > w:
            best[d] = w
    return best


@given(st.integers(0, (1 << 16) - 1), st.integers(0, (1 << 16) - 1))
@settings(max_examples=60)
def test_stomp_4x4_minimum_matches_brute_force(start, target):
    p = stomp.Stomp(4, start, target)
    plan = p.solve(start)
    best = stomp_min_weights(4)
    diff = start ^ target
    if diff not in best:
        assert plan is None
    else:
        assert len(plan) == best[diff]
        assert p.is_solved(play(p, start, plan))


def play(p, s, plan):
    for m in plan:
        s = p.apply(s, m)
    return s


@pytest.mark.parametrize("difficulty", stomp.PAR)
def test_stomp_generated_are_unique_minimum(difficulty):
    for seed in range(6):
        p = stomp.generate(difficulty, seed)
        assert p.unique()
        if p.size == 3:
            assert bfs_len(p, p.initial()) == p.par
        if p.size == 4:
            assert stomp_min_weights(4)[p.start ^ p.target] == p.par


def test_stomp_order_is_irrelevant():
    p = stomp.generate("hard", 4)
    plan = p.solve(p.initial())
    assert p.is_solved(play(p, p.initial(), list(reversed(plan))))


# --- ball -----------------------------------------------------------------------------------
def test_ball_tiny_hand_made():
    # 3 rows × 2 columns, ball on top, exit under both columns: one move down
    g = ball.geometry(3, 2)
    s = g.pack([1 << g.bit(0, 0), 0, 0, 0, 0])
    p = ball.Ball(3, 2, 0, s)
    assert p.solve(s) == [(0, 0, "down")]
    assert p.moves(s) == [(0, 0, "down")]
    with pytest.raises(IllegalMove):
        p.apply(s, (0, 0, "up"))


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_ball_solver_matches_plain_bfs(difficulty):
    rng = np.random.default_rng(1)
    for seed in range(2):
        p = ball.generate(difficulty, seed)
        assert bfs_len(p, p.initial()) == p.par
        s = p.initial()
        for _ in range(5):
            ms = p.moves(s)
            s = p.apply(s, ms[int(rng.integers(0, len(ms)))])
        assert bfs_len(p, s) == len(p.solve(s))


def test_ball_identical_blocks_are_interchangeable():
    p = ball.generate("medium", 3)
    s = p.initial()
    # the state names cells, not block identities: moving a block away and back is the same
    for m in p.moves(s):
        t = p.apply(s, m)
        back = {p.apply(t, n) for n in p.moves(t)}
        assert s in back


# --- hatgram --------------------------------------------------------------------------------
def brute_count(p, limit):
    """Count solutions by plain backtracking: fill the first empty cell in reading order."""
    free = set(p.free_cells)
    options = {
        i: [(pl, frozenset(p.cells_of(i, pl))) for pl in p.placements(i)]
        for i in range(len(p.pieces))
    }
    count = 0

    def rec(empty, left):
        nonlocal count
        if count >= limit:
            return
        if not empty:
            count += 1
            return
        cell = min(empty)
        for i in sorted(left):
            for _pl, cells in options[i]:
                if cell in cells and cells <= empty:
                    rec(empty - cells, left - {i})

    rec(frozenset(free), frozenset(options))
    return count


def test_dancing_links_small_cases():
    assert hatgram_solve.exact_cover(3, [[0], [1], [2], [0, 1], [1, 2]], 100) == [
        [0, 1, 2],
        [0, 4],
        [2, 3],
    ]
    assert hatgram_solve.exact_cover(2, [[0]], 5) == []
    # Knuth's example: the unique cover is rows 0, 3, 4
    rows = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    assert hatgram_solve.exact_cover(7, rows, 10) == [[0, 3, 4]]


@given(st.integers(0, 10_000))
@settings(max_examples=25)
def test_dancing_links_count_matches_backtracking(seed):
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(2, 5)), int(rng.integers(3, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    parts = hatgram._partition(cells, 2, 4, rng)
    if parts is None:
        return
    p = hatgram.Hatgram(rows, cols, (), tuple(hatgram.canonical(x) for x in parts))
    assert p.count_solutions(limit=50) == brute_count(p, 50)


@given(st.integers(0, 10_000))
@settings(max_examples=40)
def test_bitmask_tilings_match_dancing_links(seed):
    """The generator's uniqueness check finds the same solutions as the solver, blocked cells
    and all (in another order)."""
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(2, 6)), int(rng.integers(3, 6))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = {cells[int(i)] for i in rng.choice(len(cells), size=int(rng.integers(0, 3)))}
    free = [cell for cell in cells if cell not in blocked]
    if not hatgram._connected(set(free)):
        return
    parts = hatgram._partition(free, 2, 4, rng, distinct=bool(seed % 2))
    if parts is None:
        return
    pieces = tuple(hatgram.canonical(x) for x in parts)
    p = hatgram.Hatgram(rows, cols, tuple(sorted(blocked)), pieces)
    for limit in (1, 2, 60):
        fast = hatgram_solve.tilings(p, limit)
        slow = hatgram_solve.solve_board(p, limit)
        assert len(fast) == len(slow)
        if len(slow) < limit:
            assert sorted(fast) == sorted(slow)
        for sol in fast:
            assert p.is_solved(p.state_from_json([list(pl) for pl in sol]))


@given(st.integers(0, 10_000))
@settings(max_examples=25)
def test_partition_into_distinct_shapes(seed):
    rng = np.random.default_rng(seed)
    cells = [(r, c) for r in range(6) for c in range(6)]
    parts = hatgram._partition(cells, 4, 6, rng, distinct=True)
    if parts is None:
        return
    assert sorted(cell for part in parts for cell in part) == cells
    assert all(4 <= len(part) <= 6 and hatgram._connected(set(part)) for part in parts)
    assert len({hatgram.canonical(part) for part in parts}) == len(parts)


@pytest.mark.parametrize("difficulty", hatgram.PAR)
def test_hatgram_generated_have_exactly_one_solution(difficulty):
    for seed in range(3):
        p = hatgram.generate(difficulty, seed)
        assert p.count_solutions(limit=3) == 1
        assert p.solutions() == hatgram_solve.solve_board(p, 3)  # the one dancing links finds
        if difficulty in ("easy", "medium"):
            assert brute_count(p, 3) == 1
        assert len(set(p.pieces)) == len(p.pieces) == p.par


def test_hatgram_plan_from_a_wrong_state_is_optimal():
    p = hatgram.generate("easy", 5)
    sol = p.solutions()[0]
    s = p.initial()
    # put piece 0 somewhere it does not belong (if it fits), then compare with BFS
    wrong = next(pl for pl in p.placements(0) if pl != sol[0])
    s = p.apply(s, ("place", 0, *wrong))
    plan = p.solve(s)
    assert plan[0] == ("remove", 0)
    assert len(plan) == bfs_len(p, s) == p.par + 1


# --- keydoor --------------------------------------------------------------------------------
def check_structure(p):
    total = p.total
    assert 1 not in p.doors
    assert p.rooms not in p.keys
    assert len(set(p.doors)) == len(p.doors) and len(set(p.keys)) == len(p.keys)
    assert any(k > p.rooms for k in p.keys)  # a key in the branch
    assert any(d <= p.rooms for d in p.doors)  # a door on the main corridor
    assert any(k > p.rooms and d <= p.rooms for k, d in zip(p.keys, p.doors, strict=True))
    assert all(1 <= x <= total for x in p.doors + p.keys)

    def way(room):  # rooms from the start to ``room``
        if room <= p.rooms:
            return set(range(1, room + 1))
        junction, first, _last = p.branch_of(room)
        return set(range(1, junction + 1)) | set(range(first, room + 1))

    for k, d in zip(p.keys, p.doors, strict=True):
        assert d not in way(k)  # each key before its door


@pytest.mark.parametrize("difficulty", keydoor_gen.PAR)
def test_keydoor_clingo_plan_is_the_bfs_optimum(difficulty):
    for seed in range(3):
        p = keydoor_gen.generate(difficulty, seed)
        check_structure(p)
        assert len(p.plan) == p.par == bfs_len(p, p.initial())
        s = p.initial()
        for a in p.plan:
            s = p.apply(s, a)
        assert p.is_solved(s)


def test_keydoor_clingo_proves_nothing_shorter():
    p = keydoor_gen.generate("medium", 9)
    constants = p.constants() | {"chain": 0}
    facts = p.encoding_facts()
    shorter = asp_solve.solve(["keydoor"], constants | {"horizon": p.par - 1}, [1], 100_000, facts)
    assert shorter.status == "unsat"
    exact = asp_solve.solve(["keydoor"], constants | {"horizon": p.par}, [1], 100_000, facts)
    assert exact.status == "sat"


def keydoor_instances(difficulty, n):
    """Instances as the generator's first call draws them (horizon 0: no plan), in or out of
    the par range, with the constants that describe them to ``asp/keydoor.lp``."""
    shape = keydoor_gen.SIZE[difficulty]
    k = shape.keys
    for i in range(n):
        r, h = shape.main[0], shape.branch[0]
        j = 1 + i % (r - 1)
        constants = {"rooms": r, "branch": h, "junction": j, "keys": k}
        constants |= {"chain": shape.chain, "ferry": shape.ferry}
        out = asp_solve.solve(["keydoor"], constants | {"horizon": 0}, [i + 1], 100_000)
        assert out.status == "sat"
        doors, keys, plan = keydoor_gen._parse(out.atoms, k)
        assert plan == []
        yield keydoor.KeyDoor(r, h, j, tuple(doors), tuple(keys)), constants


@pytest.mark.parametrize("difficulty", keydoor_gen.PAR)
def test_keydoor_drawn_instances_follow_the_rules_and_can_be_solved(difficulty):
    """The encoding only draws instances whose keys can all be won, so every one is solvable."""
    for p, _ in keydoor_instances(difficulty, 12):
        check_structure(p)
        assert p.solve(p.initial()) is not None


@pytest.mark.parametrize("difficulty", ["medium", "very-hard"])
def test_keydoor_clingo_and_bfs_agree_on_drawn_instances(difficulty):
    """With the instance fixed, clingo finds a plan exactly at the BFS optimum and none shorter
    (the encoding's lower bound on the actions left cuts no optimal plan)."""
    for p, constants in keydoor_instances(difficulty, 6):
        par = len(p.solve(p.initial()))
        facts = [f"given_door({i + 1},{d})." for i, d in enumerate(p.doors)]
        facts += [f"given_key({i + 1},{x})." for i, x in enumerate(p.keys)]
        exact = asp_solve.solve(["keydoor"], constants | {"horizon": par}, [1], 100_000, facts)
        assert exact.status == "sat"
        plan = keydoor_gen._parse(exact.atoms, len(p.keys))[2]
        assert len(plan) == par and keydoor.plays(p, plan)
        less = asp_solve.solve(["keydoor"], constants | {"horizon": par - 1}, [1], 100_000, facts)
        assert less.status == "unsat"


def test_keydoor_rules():
    # rooms 1..4, branch room 5 off room 2; key 1 in the branch opens the door of room 3
    p = keydoor.KeyDoor(4, 1, 2, (3,), (5,))
    s = p.initial()
    assert p.moves(s) == ["right"]
    s = p.apply(s, "right")
    with pytest.raises(IllegalMove):
        p.apply(s, "right")  # door 1 is locked
    for a in ("enter", "take"):
        s = p.apply(s, a)
    with pytest.raises(IllegalMove):
        p.apply(s, "take")  # nothing left here, and the hand is full
    with pytest.raises(IllegalMove):
        p.apply(s, "open")  # the door is not next to the branch room
    s = p.apply(s, "leave")
    s = p.apply(s, "open")
    assert s[1] == 0  # the key is used up
    s = p.apply(p.apply(s, "right"), "right")
    assert p.is_solved(s)
    assert len(p.solve(p.initial())) == 7  # right enter take leave open right right


def test_keydoor_drop_and_take_back():
    p = keydoor.KeyDoor(4, 1, 2, (3,), (5,))
    s = p.initial()
    for a in ("right", "enter", "take", "leave", "drop"):
        s = p.apply(s, a)
    assert s[2] == (2,)
    with pytest.raises(IllegalMove):
        p.apply(s, "drop")
    s = p.apply(s, "take")
    assert s[1] == 1


@pytest.mark.parametrize("n", range(8))
def test_hatgram_and_ball_pictures_cover_the_board(n):
    p = hatgram.generate("medium", n)
    s = p.initial()
    for m in p.solve(s):
        s = p.apply(s, m)
    assert "." not in "".join(p.picture(s))
    b = ball.generate("easy", n)
    pic = b.picture(b.initial())
    assert sum(row.count("O") for row in pic) == 4


def test_orientations():
    L = ((0, 0), (1, 0), (2, 0), (2, 1))
    assert len(hatgram.orientations(L)) == 8
    assert len(hatgram.orientations(((0, 0), (0, 1), (1, 0), (1, 1)))) == 1
    assert len(hatgram.orientations(((0, 0), (0, 1), (0, 2)))) == 2
    for o in itertools.chain(hatgram.orientations(L)):
        assert hatgram.canonical(o) == hatgram.canonical(L)


def test_hatgram_json_carries_its_solutions_and_works_without_them():
    p = hatgram.generate("hard", 2)
    d = p.to_json()
    assert len(d["config"]["solutions"]) == 1
    bare = dict(d, config={k: v for k, v in d["config"].items() if k != "solutions"})
    q = hatgram.Hatgram.from_json(bare)
    assert q == p and q.solve(q.initial()) == p.solve(p.initial())
    bad = dict(d, config=dict(d["config"], solutions=[[None] * len(p.pieces)]))
    with pytest.raises(ValueError):
        hatgram.Hatgram.from_json(bad)
