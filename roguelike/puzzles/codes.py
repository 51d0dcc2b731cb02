"""Puzzle codes: one short text that names one puzzle, to share it (in the spirit of the game
IDs of Simon Tatham's puzzle collection).

A code is ``type:difficulty#SEED``, for example ``sliding:hard#6NJC-NK2Y-YB22``: a type of
:data:`roguelike.puzzles.TYPES`, a difficulty of :data:`roguelike.puzzles.DIFFICULTIES` and a
seed code as :mod:`roguelike.seeds` writes it (twelve symbols with a check symbol). Since
generation is a pure function of (type, difficulty, seed), the same code gives the same puzzle
on every machine; a puzzle room of a world has a code too (its pedestal's seed), so a puzzle met
in a run can be played again, or shared, by its code.

Parsing is strict: surrounding spaces and the case of the letters are forgiven (as in seed
codes), anything else raises :class:`PuzzleCodeError` with one line naming what is wrong (no
``#``, no ``:``, an unknown type, an unknown difficulty, or the seed code's own complaint from
:func:`roguelike.seeds.decode`). A seed given as free text is refused: a code carries the seed
code itself, so that what is shared is what is played.

>>> str(PuzzleCode("sliding", "hard", 42))
'sliding:hard#0000-0000-01AB'
>>> parse(" Sliding:HARD#0000-0000-01ab ") == PuzzleCode("sliding", "hard", 42)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike import seeds
from roguelike.puzzles import DIFFICULTIES, TYPES, custom

#: The longest text :func:`parse` reads (a code is at most about 35 characters); longer input
#: is refused without being echoed whole.
MAX_CODE_CHARS = 80


class PuzzleCodeError(ValueError):
    """A text that is not a puzzle code; the message is one line saying why."""


@dataclass(frozen=True)
class PuzzleCode:
    """One puzzle's name: its type, difficulty and seed. ``str()`` gives the code."""

    type: str
    difficulty: str
    seed: int

    def __str__(self) -> str:
        return f"{self.type}:{self.difficulty}#{seeds.encode(self.seed)}"


def encode(type_name: str, difficulty: str, seed: int) -> str:
    """The code of the puzzle (type_name, difficulty, seed); ValueError if one is unknown."""
    if type_name not in TYPES:
        raise ValueError(f"unknown puzzle type {type_name!r}")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}")
    return str(PuzzleCode(type_name, difficulty, seed))


def _shown(text: str) -> str:
    """``text`` as an error message quotes it: repr'd (one line, no escapes), cut short."""
    cut = text if len(text) <= MAX_CODE_CHARS else text[:MAX_CODE_CHARS] + "…"
    return repr(cut)


def parse(text: str) -> PuzzleCode:
    """The puzzle a code names; raises :class:`PuzzleCodeError` saying what is wrong."""
    if not isinstance(text, str):
        raise PuzzleCodeError("a puzzle code is a text like sliding:hard#6NJC-NK2Y-YB22")
    code = text.strip()
    if not code:
        raise PuzzleCodeError("the puzzle code is empty: type one like sliding:hard#6NJC-NK2Y-YB22")
    if len(code) > MAX_CODE_CHARS:
        raise PuzzleCodeError(
            f"{_shown(code)} is too long for a puzzle code (at most {MAX_CODE_CHARS} characters)"
        )
    name, hash_, seed_text = code.partition("#")
    if not hash_:
        raise PuzzleCodeError(
            f"{_shown(code)} is not a puzzle code: it has no '#' before the seed "
            "(a code is type:difficulty#SEED, like sliding:hard#6NJC-NK2Y-YB22)"
        )
    type_name, colon, difficulty = name.strip().lower().partition(":")
    if not colon:
        raise PuzzleCodeError(
            f"{_shown(code)} is not a puzzle code: it has no ':' between type and difficulty "
            "(a code is type:difficulty#SEED)"
        )
    type_name, difficulty = type_name.strip(), difficulty.strip()
    if type_name not in TYPES:
        raise PuzzleCodeError(
            f"unknown puzzle type {_shown(type_name)} in the code: one of {', '.join(TYPES)}"
        )
    if difficulty not in DIFFICULTIES:
        raise PuzzleCodeError(
            f"unknown difficulty {_shown(difficulty)} in the code: one of {', '.join(DIFFICULTIES)}"
        )
    try:
        seed = seeds.decode(seed_text)
    except seeds.SeedCodeError as err:
        # seeds' own words, less its advice on text seeds (a code takes none)
        why = str(err).removesuffix(f"; {seeds.TEXT_HINT}")
        raise PuzzleCodeError(f"bad seed in the puzzle code: {why}") from None
    return PuzzleCode(type_name, difficulty, seed)


# --- the source's custom puzzles: options after a '/' ---------------------------------------
def parse_with_options(text: str) -> tuple[PuzzleCode, custom.Options]:
    """A code that may carry a custom puzzle's options after a ``/``
    (``stomp:hard#6NJC-NK2Y-YB22/3x4,d5``, see :mod:`roguelike.puzzles.custom`): the puzzle
    code and its options (empty without a ``/``). PuzzleCodeError with one line."""
    if not isinstance(text, str):
        return parse(text), custom.NONE
    base, slash, suffix = text.partition("/")
    if not slash:
        return parse(text), custom.NONE
    try:
        code = parse(base)
    except PuzzleCodeError:
        parse(text)  # the whole text's complaint, which quotes all of a bad seed
        raise
    try:
        return code, custom.parse(code.type, suffix, code.difficulty)
    except custom.OptionsError as err:
        raise PuzzleCodeError(f"bad options in the puzzle code: {err}") from None


def with_options(code: PuzzleCode, options: custom.Options) -> str:
    """The text of ``code`` with its options (the plain code when there are none)."""
    extra = custom.text(options)
    return f"{code}/{extra}" if extra else str(code)


__all__ = [
    "MAX_CODE_CHARS",
    "PuzzleCode",
    "PuzzleCodeError",
    "encode",
    "parse",
    "parse_with_options",
    "with_options",
]
