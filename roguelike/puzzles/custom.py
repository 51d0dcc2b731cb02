"""The source's custom puzzles: the options a player may choose for a generated puzzle (in free
play and ``roguelike puzzle generate``), their bounds, and their text in a puzzle code.

- sliding: the board's side (``3x3`` or ``4x4``), the depth (the TRUE optimal move count: steps
  from the goal) and the goal (a named one, :data:`roguelike.puzzles.sliding.GOALS`, or the
  tiles written out row by row, ``1`` to ``9`` then ``A`` to ``F``, ``0`` the gap);
- stomp: any rectangle (``3x4``) and the depth (the stomps of the one minimum set);
- ball: the board (``4x5``), the depth, how many blocked cells (``b2``) and a free target cell
  instead of the exit (``t``).

An option left out is the level's; no option at all is the level's own puzzle, unchanged
(:func:`roguelike.puzzles.generate`). With options each type's ``generate_custom`` makes the
board from its own random stream, so a puzzle is a pure function of (type, level, seed,
options) and a code carries all four.

The text of options (after a code's ``/``, :func:`roguelike.puzzles.codes.parse_with_options`)
is items joined by commas, in this order: ``RxC``, ``dN``, ``g=GOAL``, ``bN``, ``t``; for
example ``sliding:hard#6NJC-NK2Y-YB22/3x3,d20,g=spiral``. Parsing is strict: every byte is
hostile, each item is checked against its type's bounds, and anything else is refused by
:class:`OptionsError` in one line.

>>> text(parse("stomp", " 3X4 , D5 "))
'3x4,d5'
>>> parse("jugs", "d3")
Traceback (most recent call last):
...
roguelike.puzzles.custom.OptionsError: jugs puzzles take no options
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from roguelike.puzzles import ball, ball_custom, sliding, stomp
from roguelike.puzzles import generate as level_puzzle
from roguelike.puzzles.base import check_difficulty

#: The longest options text read (a 4×4 goal written out is the longest, some 30 characters).
MAX_OPTIONS_CHARS = 60
#: The types that take options.
CUSTOM_TYPES = ("sliding", "stomp", "ball")
#: The symbols of a written-out sliding goal: the gap, then tiles 1 to 15.
GOAL_SYMBOLS = "0123456789ABCDEF"


class OptionsError(ValueError):
    """Options a puzzle cannot take; the message is one line saying why."""


@dataclass(frozen=True)
class Options:
    """A player's choices for one generated puzzle (None or 0/False: the level's)."""

    rows: int | None = None
    cols: int | None = None
    depth: int | None = None
    #: sliding: a goal's name or its tiles written out (canonical: see :func:`goal_text`)
    goal: str | None = None
    #: ball: how many blocked cells
    blocked: int = 0
    #: ball: a free target cell instead of the exit
    target: bool = False

    @property
    def empty(self) -> bool:
        return self == NONE


NONE = Options()


def _sides(type_name: str) -> tuple[int, int]:
    if type_name == "sliding":
        return min(sliding.CUSTOM_SIDES), max(sliding.CUSTOM_SIDES)
    return stomp.CUSTOM_SIDES if type_name == "stomp" else ball_custom.CUSTOM_SIDES


def board_of(type_name: str, difficulty: str, o: Options) -> tuple[int, int]:
    """(rows, cols) of the board ``o`` asks for (the level's when it names none)."""
    if o.rows is not None and o.cols is not None:
        return o.rows, o.cols
    if type_name == "sliding":
        n = sliding.SIZE[difficulty]
        return n, n
    if type_name == "stomp":
        n = stomp.SIZE[difficulty]
        return n, n
    rows, cols, *_rest = ball.BOARD[difficulty]
    return rows, cols


def depths(type_name: str, rows: int, cols: int) -> tuple[int, int]:
    """The depths a ``rows × cols`` board of ``type_name`` may ask for."""
    if type_name == "sliding":
        return sliding.CUSTOM_DEPTH[rows]
    if type_name == "stomp":
        return stomp.custom_depths(rows, cols)
    return 1, ball_custom.CUSTOM_DEPTH


def goal_tiles(goal: str, n: int) -> tuple[int, ...]:
    """The tiles of the goal ``goal`` (a name or written out) on an ``n × n`` board;
    OptionsError when it is neither."""
    if goal in sliding.GOALS:
        return sliding.named_goal(goal, n)
    if len(goal) != n * n:
        raise OptionsError(
            f"a {n}x{n} goal is one of {', '.join(sliding.GOALS)} or its {n * n} tiles written "
            f"out row by row (1-9, A-F, 0 the gap), got {goal[:20]!r}"
        )
    symbols = GOAL_SYMBOLS[: n * n]
    tiles = tuple(symbols.find(ch) for ch in goal)
    if sorted(tiles) != list(range(n * n)):
        raise OptionsError(f"the goal {goal!r} must hold each of {symbols[1:]} and the gap 0 once")
    return tiles


def goal_text(tiles: tuple[int, ...]) -> str:
    """A goal written out (``123804765``), or its name when it has one."""
    n = round(len(tiles) ** 0.5)
    for name in sliding.GOALS:
        if sliding.named_goal(name, n) == tiles:
            return name
    return "".join(GOAL_SYMBOLS[t] for t in tiles)


def check(type_name: str, difficulty: str, o: Options) -> Options:
    """``o`` if a ``type_name`` puzzle at ``difficulty`` can take it, canonical (a goal by
    its name when it has one); OptionsError saying why not."""
    check_difficulty(difficulty)
    if o.empty:
        return o
    if type_name not in CUSTOM_TYPES:
        raise OptionsError(f"{type_name} puzzles take no options")
    if (o.rows is None) != (o.cols is None):
        raise OptionsError("a board's size is rows and columns, like 3x4")
    lo, hi = _sides(type_name)
    if o.rows is not None and o.cols is not None:
        if not (lo <= o.rows <= hi and lo <= o.cols <= hi):
            raise OptionsError(
                f"a {type_name} board is {lo} to {hi} cells a side, not {o.rows}x{o.cols}"
            )
        if type_name == "sliding" and o.rows != o.cols:
            raise OptionsError(f"a sliding board is square, not {o.rows}x{o.cols}")
    rows, cols = board_of(type_name, difficulty, o)
    if o.depth is not None:
        d_lo, d_hi = depths(type_name, rows, cols)
        if not d_lo <= o.depth <= d_hi:
            raise OptionsError(
                f"a {rows}x{cols} {type_name} board is {d_lo} to {d_hi} moves deep, not {o.depth}"
            )
    goal = o.goal
    if goal is not None:
        if type_name != "sliding":
            raise OptionsError(f"only sliding puzzles take a goal, not {type_name}")
        goal = goal_text(goal_tiles(goal, rows))
    if type_name != "ball" and (o.blocked or o.target):
        raise OptionsError(f"only ball puzzles take blocked cells or a target, not {type_name}")
    if o.blocked:
        most = ball_custom.custom_blocked(rows, cols)
        if not 0 <= o.blocked <= most:
            raise OptionsError(f"a {rows}x{cols} ball board has 0 to {most} blocked cells")
    return Options(o.rows, o.cols, o.depth, goal, o.blocked, o.target)


def generate(type_name: str, difficulty: str, seed: int, o: Options = NONE) -> Any:
    """The puzzle (type, level, seed) with options ``o``: the level's own puzzle when ``o`` is
    empty, else the type's ``generate_custom``. OptionsError for options it cannot take; the
    generators' GenerationError as they raise it."""
    o = check(type_name, difficulty, o)
    if o.empty:
        return level_puzzle(type_name, difficulty, seed)
    if type_name == "sliding":
        rows, _cols = board_of(type_name, difficulty, o)
        goal = None if o.goal is None else goal_tiles(o.goal, rows)
        return sliding.generate_custom(difficulty, seed, size=o.rows, depth=o.depth, goal=goal)
    if type_name == "stomp":
        return stomp.generate_custom(difficulty, seed, rows=o.rows, cols=o.cols, depth=o.depth)
    return ball_custom.generate_custom(
        difficulty,
        seed,
        rows=o.rows,
        cols=o.cols,
        depth=o.depth,
        blocked=o.blocked,
        target=o.target,
    )


def text(o: Options) -> str:
    """The options as a code writes them (``3x4,d5``; empty for none)."""
    size = None if o.rows is None else f"{o.rows}x{o.cols}"
    return ",".join(option_items(size, o.depth, o.goal, o.blocked, o.target))


def option_items(
    size: str | None, depth: int | None, goal: str | None, blocked: int, target: bool
) -> list[str]:
    """The options given, each as a code writes it and as given (unchecked: :func:`parse`
    checks them); none for none."""
    out = []
    if size is not None:
        out.append(size)
    if depth is not None:
        out.append(f"d{depth}")
    if goal is not None:
        out.append(f"g={goal}")
    if blocked:
        out.append(f"b{blocked}")
    if target:
        out.append("t")
    return out


_ITEM = re.compile(
    r"(?:(?P<rows>[0-9]{1,2})x(?P<cols>[0-9]{1,2})|d(?P<depth>[0-9]{1,3})|"
    r"g=(?P<goal>[0-9a-z]{1,20})|b(?P<blocked>[0-9])|(?P<target>t))"
)
_ORDER = ("rows", "depth", "goal", "blocked", "target")


def parse(type_name: str, raw: str, difficulty: str = "easy") -> Options:
    """The options a text names for a ``type_name`` puzzle at ``difficulty``, canonical;
    OptionsError with one line for anything else (see the module docstring)."""
    if not isinstance(raw, str):
        raise OptionsError("options are a text like 3x4,d5")
    cut = raw if len(raw) <= MAX_OPTIONS_CHARS else raw[:MAX_OPTIONS_CHARS] + "…"
    if len(raw) > MAX_OPTIONS_CHARS:
        raise OptionsError(f"{cut!r} is too long for options (at most {MAX_OPTIONS_CHARS})")
    body = raw.strip().lower()
    if not body:
        raise OptionsError("no options after '/': write some, like 3x4,d5, or leave out the '/'")
    found: dict[str, Any] = {}
    last = -1
    for item in body.split(","):
        m = _ITEM.fullmatch(item.strip())
        if m is None:
            raise OptionsError(
                f"unknown option {item.strip()[:20]!r}: options are RxC, dN, g=GOAL, bN and t"
            )
        name = next(k for k in _ORDER if m.group(k) is not None)
        if _ORDER.index(name) <= last:
            raise OptionsError(
                f"option {item.strip()!r} is repeated or out of order (RxC, dN, g=GOAL, bN, t)"
            )
        last = _ORDER.index(name)
        found[name] = m
    size, depth = found.get("rows"), found.get("depth")
    goal = found["goal"].group("goal") if "goal" in found else None
    if goal is not None and goal not in sliding.GOALS:
        goal = goal.upper()  # tiles written out: their symbols are upper case
    blocked = found.get("blocked")
    o = Options(
        rows=int(size.group("rows")) if size else None,
        cols=int(size.group("cols")) if size else None,
        depth=int(depth.group("depth")) if depth else None,
        goal=goal,
        blocked=int(blocked.group("blocked")) if blocked else 0,
        target="target" in found,
    )
    if blocked is not None and o.blocked == 0:
        raise OptionsError("b0 is no blocked cells: leave it out")
    return check(type_name, difficulty, o)


__all__ = [
    "CUSTOM_TYPES",
    "NONE",
    "Options",
    "OptionsError",
    "board_of",
    "check",
    "depths",
    "generate",
    "goal_text",
    "goal_tiles",
    "parse",
    "text",
]
