"""Every puzzle type × difficulty: determinism, par, optimal solve, hints, legality, JSON."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from functools import cache

import numpy as np
import pytest

from roguelike import puzzles
from roguelike.puzzles import DIFFICULTIES, TYPES, IllegalMove, Unsolvable, hint, hint_text
from roguelike.puzzles.ball import DIRECTIONS
from roguelike.puzzles.hatgram import orientations
from roguelike.puzzles.keydoor import ACTIONS

SEEDS = (0, 1, 2)
CASES = [(t, d) for t in TYPES for d in DIFFICULTIES]


@cache
def gen(type_name: str, difficulty: str, seed: int):
    return puzzles.generate(type_name, difficulty, seed)


def play(p, moves):
    s = p.initial()
    for m in moves:
        s = p.apply(s, m)
    return s


def random_states(p, rng: np.random.Generator, count: int, max_walk: int = 8):
    """States reachable from the start: a prefix of the optimal plan, then a random walk."""
    plan = p.solve(p.initial())
    out = []
    for _ in range(count):
        s = play(p, plan[: int(rng.integers(0, len(plan) + 1))])
        for _ in range(int(rng.integers(0, max_walk + 1))):
            ms = p.moves(s)
            if not ms:
                break
            s = p.apply(s, ms[int(rng.integers(0, len(ms)))])
        out.append(s)
    return out


def move_universe(p, s):
    """A superset of the legal moves of ``s`` (with illegal ones mixed in)."""
    t = p.type_name
    if t == "jugs":
        n = len(p.capacities)
        return [(a, b) for a in range(-1, n + 1) for b in range(-1, n + 1)]
    if t == "sliding":
        return list(range(-1, p.size**2 + 1))
    if t == "stomp":
        return [(r, c) for r in range(-1, p.size + 1) for c in range(-1, p.size + 1)]
    if t == "ball":
        return [
            (r, c, d)
            for r in range(-1, p.rows + 1)
            for c in range(-1, p.cols + 1)
            for d in DIRECTIONS
        ]
    if t == "hatgram":
        out = [("remove", i) for i in range(-1, len(p.pieces) + 1)]
        for i, piece in enumerate(p.pieces):
            for j in range(len(orientations(piece))):
                for r in range(-1, p.rows):
                    for c in range(-1, p.cols):
                        out.append(("place", i, j, r, c))
        return out
    if t == "keydoor":
        return list(ACTIONS) + ["jump"]
    raise AssertionError(t)


@pytest.mark.parametrize("type_name,difficulty", CASES)
def test_generation_is_deterministic_and_par_is_in_range(type_name, difficulty):
    for seed in SEEDS:
        p = gen(type_name, difficulty, seed)
        again = puzzles.generate(type_name, difficulty, seed)
        assert again.to_json() == p.to_json()
        assert p.type_name == type_name and p.difficulty == difficulty
        lo, hi = puzzles.kind(type_name).par[difficulty]
        assert lo <= p.par <= hi
    assert len({json.dumps(gen(type_name, difficulty, s).to_json()) for s in SEEDS}) > 1


@pytest.mark.parametrize("type_name,difficulty", CASES)
def test_solve_from_start_has_length_par_and_solves(type_name, difficulty):
    for seed in SEEDS:
        p = gen(type_name, difficulty, seed)
        # a fresh copy from JSON has no cached search: it must find the same length
        q = puzzles.from_json(p.to_json())
        for inst in (p, q):
            plan = inst.solve(inst.initial())
            assert plan is not None and len(plan) == p.par
            assert inst.is_solved(play(inst, plan))
        assert not p.is_solved(p.initial())


@pytest.mark.parametrize("type_name,difficulty", CASES)
def test_hints_lie_on_optimal_paths(type_name, difficulty):
    rng = np.random.default_rng(7)
    for seed in SEEDS[:2]:
        p = gen(type_name, difficulty, seed)
        for s in random_states(p, rng, 6):
            try:
                move, left = hint(p, s)
            except Unsolvable:
                assert p.solve(s) is None
                continue
            if move is None:
                assert left == 0 and p.is_solved(s)
                continue
            assert move in p.moves(s)
            t = p.apply(s, move)
            _, left_after = hint(p, t)
            assert left_after == left - 1
            for tier in (1, 2, 3, 4):
                text = hint_text(p, s, tier)
                assert isinstance(text, str) and text
            assert f"{left} step" in hint_text(p, s, 4)
            assert p.describe_move(move) and p.describe_move(move, s)


@pytest.mark.parametrize("type_name,difficulty", CASES)
def test_illegal_moves_raise_and_legal_moves_apply(type_name, difficulty):
    rng = np.random.default_rng(11)
    p = gen(type_name, difficulty, 0)
    for s in random_states(p, rng, 3, max_walk=4):
        legal = p.moves(s)
        assert len(set(legal)) == len(legal)
        for m in move_universe(p, s):
            if m in legal:
                p.apply(s, m)
            else:
                with pytest.raises(IllegalMove):
                    p.apply(s, m)
        with pytest.raises(IllegalMove):
            p.apply(s, "not a move" if type_name != "keydoor" else 42)


@pytest.mark.parametrize("type_name,difficulty", CASES)
def test_json_round_trip(type_name, difficulty):
    rng = np.random.default_rng(3)
    p = gen(type_name, difficulty, 1)
    d = p.to_json()
    for key in ("format", "type", "difficulty", "par", "config", "state"):
        assert key in d
    text = json.dumps(d, sort_keys=True)
    q = puzzles.from_json(json.loads(text))
    assert q == p and json.dumps(q.to_json(), sort_keys=True) == text
    assert q.state_from_json(d["state"]) == p.initial()
    for s in random_states(p, rng, 4):
        assert p.state_from_json(json.loads(json.dumps(p.state_to_json(s)))) == s
        for m in p.moves(s)[:5]:
            assert p.move_from_json(json.loads(json.dumps(p.move_to_json(m)))) == m


def test_from_json_rejects_garbage():
    with pytest.raises(puzzles.PuzzleFormatError):
        puzzles.from_json({"type": "chess"})
    with pytest.raises(puzzles.PuzzleFormatError):
        puzzles.from_json([1, 2])
    d = gen("jugs", "easy", 0).to_json()
    with pytest.raises(puzzles.PuzzleFormatError):
        puzzles.from_json(d | {"format": 99})
    with pytest.raises(puzzles.PuzzleFormatError):
        puzzles.from_json(d | {"difficulty": "impossible"})


def test_hint_on_a_solved_state():
    p = gen("stomp", "easy", 0)
    s = play(p, p.solve(p.initial()))
    assert hint(p, s) == (None, 0)
    assert "solved" in hint_text(p, s, 3) and "solved" in hint_text(p, s, 4)


def test_unknown_type_and_difficulty():
    with pytest.raises(ValueError):
        puzzles.generate("chess", "easy", 1)
    with pytest.raises(ValueError):
        puzzles.generate("jugs", "trivial", 1)


def test_same_puzzles_in_another_process():
    """No hash() or set order reaches the output: a fresh interpreter with another hash seed
    generates byte-identical JSON."""
    code = (
        "import json, hashlib\n"
        "from roguelike import puzzles\n"
        "out = [puzzles.generate(t, 'medium', 5).to_json() for t in puzzles.TYPES]\n"
        "print(hashlib.sha256(json.dumps(out, sort_keys=True).encode()).hexdigest())\n"
    )
    here = [gen(t, "medium", 5).to_json() for t in TYPES]
    want = hashlib.sha256(json.dumps(here, sort_keys=True).encode()).hexdigest()
    env = {"PYTHONHASHSEED": "12345"}
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=os.environ | env,
        check=True,
    )
    assert res.stdout.strip() == want
