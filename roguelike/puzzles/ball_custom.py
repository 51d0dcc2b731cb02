"""The ball puzzle's custom boards (the source's custom puzzles): a chosen board, depth,
blocked cells and target cell, drawn on a random stream of their own."""

from __future__ import annotations

from roguelike import seeds
from roguelike.puzzles.ball import (
    BOARD,
    PAR,
    Ball,
    component_distances,
    fill,
    geometry,
)
from roguelike.puzzles.base import GenerationError, check_difficulty

#: The sides a custom board may have.
CUSTOM_SIDES = (4, 5)
#: The most blocked cells a custom board may have (on a 4×4 board two: with three, too few
#: cells are left for blocks to make the deepest boards).
CUSTOM_BLOCKED = 3


def custom_blocked(rows: int, cols: int) -> int:
    """The most blocked cells a ``rows × cols`` custom board may have."""
    return 2 if rows * cols < 20 else CUSTOM_BLOCKED


#: The depths (true optimal move counts) a custom board may ask for, from 1 to this.
CUSTOM_DEPTH = 16
#: The most states of a custom board's component (a larger one is drawn again): generation and
#: a first hint stay fast.
CUSTOM_STATES = 3000
#: The blocks' relative chances (1x1, 1x2, 2x1, 2x2) on a custom board: few small blocks, so
#: that the components stay small on every size.
CUSTOM_FILL = (1, 4, 4, 3)
CUSTOM_ATTEMPTS = 3000


def generate_custom(
    difficulty: str,
    seed: int,
    *,
    rows: int | None = None,
    cols: int | None = None,
    depth: int | None = None,
    blocked: int = 0,
    target: bool = False,
) -> Ball:
    """A ball puzzle of a player's choosing: a ``rows × cols`` board (the level's when None)
    with ``blocked`` fixed wall cells inside it, the goal a free ``target`` cell anywhere (else
    an exit in the bottom wall), whose TRUE optimal move count is ``depth`` (when None, drawn
    from the level's par range, within 1 to :data:`CUSTOM_DEPTH`).

    Backward from a solved board, as :func:`generate`: the ball on its goal, the blocked cells
    and then blocks drawn round it, the component measured, a start drawn among its states
    exactly ``depth`` moves away. Its own random stream (``puzzle:ball:<level>:custom``): the
    level's boards are not touched. ValueError for options outside the bounds."""
    check_difficulty(difficulty)
    level_rows, level_cols, free, _weights, _mixes, _most = BOARD[difficulty]
    h = level_rows if rows is None else rows
    w = level_cols if cols is None else cols
    lo_side, hi_side = CUSTOM_SIDES
    if not (lo_side <= h <= hi_side and lo_side <= w <= hi_side):
        raise ValueError(f"a ball board is {lo_side} to {hi_side} cells a side")
    if not 0 <= blocked <= custom_blocked(h, w):
        raise ValueError(f"a {h}x{w} ball board has 0 to {custom_blocked(h, w)} blocked cells")
    rng = seeds.stream(seed, 0, f"puzzle:ball:{difficulty}:custom")
    if depth is None:
        p_lo, p_hi = PAR[difficulty]
        depth = int(rng.integers(min(p_lo, CUSTOM_DEPTH), min(p_hi, CUSTOM_DEPTH) + 1))
    if not 1 <= depth <= CUSTOM_DEPTH:
        raise ValueError(f"a ball board's depth is 1 to {CUSTOM_DEPTH} moves")
    for _ in range(CUSTOM_ATTEMPTS):
        goal = (
            (int(rng.integers(0, h - 1)), int(rng.integers(0, w - 1)))
            if target
            else (h - 2, int(rng.integers(0, w - 1)))
        )
        around = {(goal[0] + dr, goal[1] + dc) for dr in (0, 1) for dc in (0, 1)}
        open_cells = [(r, c) for r in range(h) for c in range(w) if (r, c) not in around]
        picks = rng.choice(len(open_cells), size=blocked, replace=False) if blocked else ()
        walls = tuple(sorted(open_cells[int(i)] for i in picks))
        mask = 0
        for r, c in walls:
            mask |= 1 << (r * (w + 1) + c)
        g = geometry(h, w, mask)
        solved = fill(g, goal, free, CUSTOM_FILL, rng)
        if solved is None:
            continue
        dist = component_distances(g, solved, 1 << g.bit(*goal), CUSTOM_STATES)
        if dist is None:
            continue
        cands = sorted(s for s, d in dist.items() if d == depth)
        if not cands:
            continue
        start = cands[int(rng.integers(0, len(cands)))]
        p = Ball(
            h,
            w,
            -1 if target else goal[1],
            start,
            difficulty,
            depth,
            target=goal if target else None,
            blocked=walls,
        )
        p._dist.update(dist)
        return p
    raise GenerationError(f"no {h}x{w} ball puzzle {depth} moves deep in {CUSTOM_ATTEMPTS} tries")
