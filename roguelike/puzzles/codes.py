"""Puzzle codes: one short text that names one puzzle, to share it (in the spirit of the game
IDs of Simon Tatham's puzzle collection). A code has two forms.

A *seed code* is ``type:difficulty#SEED``, for example ``sliding:hard#5-6NJC-NK2Y-YB2P``: a type
of :data:`roguelike.puzzles.TYPES`, a difficulty of :data:`roguelike.puzzles.DIFFICULTIES` and a
seed code as :mod:`roguelike.seeds` shows it, which names its generator. Generation is a pure
function of (type, difficulty, seed) *and the generator*, so the code is tied to
``GENERATOR_VERSION``: the puzzles are part of the generator (a world's puzzle rooms are drawn
from them, and the puzzles' golden catalog fails with the floors' when either changes), so one
number tells a player whether a code will rebuild the same board, with one rule to bump it. A
code of another generator, or of the old form (no generator in it), is refused in one line
naming both generators; it is never played as another puzzle. A puzzle room of a world has a
code too (its pedestal's seed), so a puzzle met in a run can be played again, or shared.

A *descriptive code* is ``type:difficulty:BOARD``, the board itself: ``jugs:easy:10,9,3/9,1,0``
(capacities / the amounts wanted, or ``any6``: six litres in any jug),
``sliding:hard:3/4,1,5,0,3,2,7,8,6`` (size / tiles in reading order, 0 the gap),
``stomp:easy:3/#..-.##-.#./...-...-...`` (size / rows at the start / rows wanted, ``#`` a lit
cell). It rebuilds the same puzzle on every release, whatever its
generator: the par is not in it but found again by the exact solver (within the type's
``SOLVE_BUDGET``), and nothing derived (a hatgram's known tilings, a key-and-door plan) is
carried. Each type has a hook in :data:`BOARDS` that writes its board compactly and reads it
back; a type without one, or a board its hook cannot write (a custom shape it does not know),
uses the JSON of its ``config`` and ``state`` (``stomp:easy:{"config":{...},"state":[...]}``),
so a form grows with the type's records.

Parsing is strict: surrounding spaces and the case of the letters are forgiven in a seed code
(as in seed codes), anything else raises :class:`PuzzleCodeError` with one line naming what is
wrong (no ``#``, no ``:``, an unknown type, an unknown difficulty, the seed code's own complaint
from :func:`roguelike.seeds.decode`, or what is wrong with a board). A seed given as free text
is refused: a code carries the seed code itself, so that what is shared is what is played. Every
byte of a descriptive code is hostile: its length, its characters, the numbers and the nesting
are bounded before the type's ``from_json`` checks the board and the solver proves its par.

The puzzle-scores file keeps seed codes in the stored form (:attr:`PuzzleCode.stored`, the
seed as :func:`roguelike.seeds.stored` writes it), as it always has.

>>> str(PuzzleCode("sliding", "hard", 42))
'sliding:hard#5-0000-0000-01AE'
>>> parse(" Sliding:HARD#5-0000-0000-01ae ") == PuzzleCode("sliding", "hard", 42)
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roguelike import seeds
from roguelike.puzzles import (
    DIFFICULTIES,
    TYPES,
    PuzzleFormatError,
    SearchLimit,
    Unsolvable,
    custom,
    kind,
)
from roguelike.puzzles.base import FORMAT, SOLVE_BUDGET

#: The longest text :func:`parse` reads (a code is at most about 35 characters); longer input
#: is refused without being echoed whole.
MAX_CODE_CHARS = 80
SHOWN_MOST = 100  # characters of a quoted code in an error line


#: The code the messages show as an example (a sliding puzzle of this generator).
EXAMPLE = f"sliding:hard#{seeds.encode(seeds.read_stored('6NJC-NK2Y-YB22'))}"


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

    @property
    def stored(self) -> str:
        """The code as the puzzle-scores file keeps it (the seed's stored form)."""
        return f"{self.type}:{self.difficulty}#{seeds.stored(self.seed)}"


def encode(type_name: str, difficulty: str, seed: int) -> str:
    """The code of the puzzle (type_name, difficulty, seed); ValueError if one is unknown."""
    if type_name not in TYPES:
        raise ValueError(f"unknown puzzle type {type_name!r}")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}")
    return str(PuzzleCode(type_name, difficulty, seed))


def _check_names(type_name: str, difficulty: str) -> None:
    """PuzzleCodeError unless a code's type and difficulty are ones the game has."""
    if type_name not in TYPES:
        raise PuzzleCodeError(
            f"unknown puzzle type {_shown(type_name)} in the code: one of {', '.join(TYPES)}"
        )
    if difficulty not in DIFFICULTIES:
        raise PuzzleCodeError(
            f"unknown difficulty {_shown(difficulty)} in the code: one of {', '.join(DIFFICULTIES)}"
        )


def _shown(text: str) -> str:
    """``text`` as an error message quotes it: repr'd (one line, no escapes), cut short."""
    cut = text if len(text) <= MAX_CODE_CHARS else text[:MAX_CODE_CHARS] + "…"
    shown = repr(cut)
    # escapes make a character up to ten: the quote is cut again, so a line stays short
    return shown if len(shown) <= SHOWN_MOST else shown[:SHOWN_MOST] + "…'"


def parse(text: str) -> PuzzleCode:
    """The puzzle a code names; raises :class:`PuzzleCodeError` saying what is wrong."""
    if not isinstance(text, str):
        raise PuzzleCodeError(f"a puzzle code is a text like {EXAMPLE}")
    code = text.strip()
    if not code:
        raise PuzzleCodeError(f"the puzzle code is empty: type one like {EXAMPLE}")
    if len(code) > MAX_CODE_CHARS:
        raise PuzzleCodeError(
            f"{_shown(code)} is too long for a puzzle code (at most {MAX_CODE_CHARS} characters)"
        )
    name, hash_, seed_text = code.partition("#")
    if not hash_:
        raise PuzzleCodeError(
            f"{_shown(code)} is not a puzzle code: it has no '#' before the seed "
            f"(a code is type:difficulty#SEED, like {EXAMPLE})"
        )
    type_name, colon, difficulty = name.strip().lower().partition(":")
    if not colon:
        raise PuzzleCodeError(
            f"{_shown(code)} is not a puzzle code: it has no ':' between type and difficulty "
            "(a code is type:difficulty#SEED)"
        )
    type_name, difficulty = type_name.strip(), difficulty.strip()
    _check_names(type_name, difficulty)
    try:
        seed = seeds.decode(seed_text)
    except seeds.OtherGeneratorError as err:
        shown = f"puzzle code {type_name}:{difficulty}#{' '.join(seed_text.upper().split())}"
        raise PuzzleCodeError(
            seeds.other_generator(shown, err.generator, "puzzles")
            + "; its descriptive code (type:difficulty:board) plays on any release"
        ) from None
    except seeds.SeedCodeError as err:
        # seeds' own words, less its advice on text seeds (a code takes none)
        why = str(err).removesuffix(f"; {seeds.TEXT_HINT}")
        raise PuzzleCodeError(f"bad seed in the puzzle code: {why}") from None
    return PuzzleCode(type_name, difficulty, seed)


def parse_stored(text: str) -> PuzzleCode:
    """The puzzle a stored code names (as the scores file keeps it); PuzzleCodeError else."""
    name, hash_, seed_text = text.partition("#") if isinstance(text, str) else ("", "", "")
    type_name, _, difficulty = name.partition(":")
    if not hash_ or type_name not in TYPES or difficulty not in DIFFICULTIES:
        raise PuzzleCodeError(f"{_shown(str(text))} is not a stored puzzle code")
    try:
        return PuzzleCode(type_name, difficulty, seeds.read_stored(seed_text))
    except seeds.SeedCodeError:
        raise PuzzleCodeError(f"{_shown(text)} is not a stored puzzle code") from None


# --- descriptive codes ----------------------------------------------------------------------

#: The longest descriptive code read (the largest board of a type, as JSON, is well within).
MAX_DESCRIPTION_CHARS = 2000
#: The deepest nesting of brackets a JSON board may have (boards are lists of lists).
MAX_DEPTH = 6
#: The longest number in a compact board (no board needs more digits).
_NUMBER = re.compile(r"[0-9]{1,4}")
#: Keys of a type's ``config`` that are derived from the board, never carried by a code.
DERIVED = {"hatgram": ("solutions",), "keydoor": ("plan",)}


@dataclass(frozen=True)
class Board:
    """A type's compact board: ``write(doc)`` gives the text of a ``to_json`` document's board
    (None when the board has a part it cannot write), ``read(text)`` gives back the document's
    ``(config, state)`` (ValueError with a short reason for anything else)."""

    write: Callable[[dict[str, Any]], str | None]
    read: Callable[[str], tuple[dict[str, Any], Any]]


def _numbers(text: str, what: str, most: int) -> list[int]:
    parts = text.split(",")
    if len(parts) > most or not all(_NUMBER.fullmatch(p) for p in parts):
        raise ValueError(f"{what}: up to {most} whole numbers separated by commas")
    return [int(p) for p in parts]


def _jugs_write(doc: dict[str, Any]) -> str | None:
    config = doc["config"]
    target = config.get("target", {})
    if set(config) - {"capacities", "target", "start"} or set(target) - {
        "kind",
        "amounts",
        "amount",
    }:
        return None
    if target.get("kind") == "any":
        wanted = f"any{target['amount']}"
    elif target.get("kind") == "vector":
        wanted = ",".join(map(str, target["amounts"]))
    else:
        return None
    text = ",".join(map(str, config["capacities"])) + "/" + wanted
    if "start" in config:
        text += "/" + ",".join(map(str, config["start"]))
    return text


def _jugs_read(text: str) -> tuple[dict[str, Any], Any]:
    parts = text.split("/")
    if len(parts) not in (2, 3):
        raise ValueError(
            "a jugs board is capacities/amounts wanted (or anyN)[/contents at the start]"
        )
    caps = _numbers(parts[0], "the capacities", 8)
    if parts[1].startswith("any"):  # some jug holds this much
        target: dict[str, Any] = {"kind": "any", "amount": _numbers(parts[1][3:], "any", 1)[0]}
    else:
        target = {"kind": "vector", "amounts": _numbers(parts[1], "the amounts", 8)}
    config: dict[str, Any] = {"capacities": caps, "target": target}
    if len(parts) == 3:
        config["start"] = _numbers(parts[2], "the contents", 8)
    return config, None


def _sliding_write(doc: dict[str, Any]) -> str | None:
    config = doc["config"]
    if set(config) - {"size", "goal"}:
        return None
    text = f"{config['size']}/" + ",".join(map(str, doc["state"]))
    if "goal" in config:
        text += "/" + ",".join(map(str, config["goal"]))
    return text


def _sliding_read(text: str) -> tuple[dict[str, Any], Any]:
    parts = text.split("/")
    if len(parts) not in (2, 3) or not _NUMBER.fullmatch(parts[0]):
        raise ValueError("a sliding board is size/tiles[/goal]")
    config: dict[str, Any] = {"size": int(parts[0])}
    if len(parts) == 3:
        config["goal"] = _numbers(parts[2], "the goal", 16)
    return config, _numbers(parts[1], "the tiles", 16)


def _stomp_write(doc: dict[str, Any]) -> str | None:
    config = doc["config"]
    if set(config) - {"size", "target"}:
        return None
    return f"{config['size']}/" + "-".join(doc["state"]) + "/" + "-".join(config["target"])


def _stomp_read(text: str) -> tuple[dict[str, Any], Any]:
    parts = text.split("/")
    if len(parts) != 3 or not _NUMBER.fullmatch(parts[0]):
        raise ValueError("a stomp board is size/rows at the start/rows wanted, rows split by '-'")
    start, target = parts[1].split("-"), parts[2].split("-")
    return {"size": int(parts[0]), "target": target}, start


#: The compact boards, by type; a type not listed (or a board its hook cannot write) is
#: written as the JSON of its config and state.
BOARDS: dict[str, Board] = {
    "jugs": Board(_jugs_write, _jugs_read),
    "sliding": Board(_sliding_write, _sliding_read),
    "stomp": Board(_stomp_write, _stomp_read),
}


@dataclass(frozen=True)
class Described:
    """A puzzle rebuilt from its descriptive code: the puzzle and its canonical code."""

    puzzle: Any
    code: str


def describe(p: Any) -> str:
    """The descriptive code of the puzzle ``p`` (its board; par and derived parts left out)."""
    doc = p.to_json()
    derived = DERIVED.get(doc["type"], ())
    doc["config"] = {k: v for k, v in doc["config"].items() if k not in derived}
    board = BOARDS.get(doc["type"])
    body = board.write(doc) if board is not None else None
    if body is None:
        body = json.dumps(
            {"config": doc["config"], "state": doc["state"]},
            separators=(",", ":"),
            sort_keys=True,
            ensure_ascii=True,
        )
    return f"{doc['type']}:{doc['difficulty']}:{body}"


def _json_board(body: str) -> tuple[dict[str, Any], Any]:
    depth = most = 0
    for c in body:  # bounded before parsing (a bracket inside a string counts too: boards
        depth += (c in "[{") - (c in "]}")  # hold none)
        most = max(most, depth)
    if most > MAX_DEPTH:
        raise ValueError(f"a board nests at most {MAX_DEPTH} deep")
    try:
        doc = json.loads(body, parse_constant=_no_constant)
    except ValueError:
        raise ValueError('a board in braces is JSON: {"config": {...}, "state": ...}') from None
    if (
        not isinstance(doc, dict)
        or set(doc) - {"config", "state"}
        or not isinstance(doc.get("config"), dict)
    ):
        raise ValueError('a board in braces has a "config" object and a "state", nothing else')
    return doc["config"], doc.get("state")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a board holds")


def is_descriptive(text: str) -> bool:
    """True when ``text`` is written as a descriptive code (``type:difficulty:board``)."""
    parts = text.strip().split(":", 2)
    return len(parts) == 3 and "#" not in parts[0] + ":" + parts[1]


def build(text: str) -> Described:
    """The puzzle a descriptive code describes; PuzzleCodeError (one line) for anything else."""
    if not isinstance(text, str):
        raise PuzzleCodeError("a descriptive code is a text like jugs:easy:10,9,3/9,1,0")
    code = text.strip()
    if len(code) > MAX_DESCRIPTION_CHARS:
        raise PuzzleCodeError(
            f"{_shown(code)} is too long for a descriptive code "
            f"(at most {MAX_DESCRIPTION_CHARS} characters)"
        )
    if not code.isascii() or not code.isprintable():
        raise PuzzleCodeError(f"{_shown(code)}: a descriptive code is printable ASCII")
    parts = code.split(":", 2)
    if len(parts) != 3:
        raise PuzzleCodeError(
            f"{_shown(code)} is not a descriptive code: it is type:difficulty:board"
        )
    type_name, difficulty, body = parts[0].strip().lower(), parts[1].strip().lower(), parts[2]
    _check_names(type_name, difficulty)
    body = body.strip()
    try:
        board = BOARDS.get(type_name)
        if body.startswith("{") or board is None:
            config, state = _json_board(body)
        else:
            config, state = board.read(body)
        config = {k: v for k, v in config.items() if k not in DERIVED.get(type_name, ())}
        doc = {
            "format": FORMAT,
            "type": type_name,
            "difficulty": difficulty,
            "par": 0,
            "config": config,
            "state": state,
        }
        record = kind(type_name)
        first = record.from_json(doc)
        plan = first.solve(first.initial(), SOLVE_BUDGET)
        if plan is None:
            raise ValueError("it cannot be solved from its start")
        p = record.from_json(doc | {"par": len(plan)})
    except SearchLimit:
        raise PuzzleCodeError(
            f"bad board in the {type_name} code: its par cannot be found within "
            f"{SOLVE_BUDGET} search nodes"
        ) from None
    except (
        PuzzleFormatError,
        Unsolvable,
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
    ) as err:  # a type's reader refuses a hostile board with PuzzleFormatError; the rest is
        # a defence in depth, so that no board ever ends in a traceback
        why = " ".join(str(err).split())[:200] or type(err).__name__
        raise PuzzleCodeError(f"bad board in the {type_name} code: {why}") from None
    return Described(p, describe(p))


def read(text: str) -> Described:
    """The puzzle a code of either form names (generated, or rebuilt from its board), with its
    canonical code; PuzzleCodeError (one line) for anything else."""
    if isinstance(text, str) and is_descriptive(text):
        return build(text)
    c, options = parse_with_options(text)  # a custom puzzle's options after a '/'
    try:
        puzzle = custom.generate(c.type, c.difficulty, c.seed, options)
    except custom.OptionsError as err:
        raise PuzzleCodeError(f"bad options in the puzzle code: {err}") from None
    return Described(puzzle, with_options(c, options))


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


def stored_with_options(code: PuzzleCode, options: custom.Options) -> str:
    """The stored form of ``code`` (as the scores file keeps it) with its options."""
    extra = custom.text(options)
    return f"{code.stored}/{extra}" if extra else code.stored


def parse_stored_with_options(text: str) -> tuple[PuzzleCode, custom.Options]:
    """A stored code that may carry a custom puzzle's options after a ``/``; PuzzleCodeError
    (one line) for anything else."""
    if not isinstance(text, str):
        raise PuzzleCodeError("a stored puzzle code is a text")
    base, slash, suffix = text.partition("/")
    code = parse_stored(base)
    if not slash:
        return code, custom.NONE
    try:
        return code, custom.parse(code.type, suffix, code.difficulty)
    except custom.OptionsError as err:
        raise PuzzleCodeError(f"bad options in the puzzle code: {err}") from None


__all__ = [
    "BOARDS",
    "Board",
    "DERIVED",
    "Described",
    "MAX_CODE_CHARS",
    "MAX_DESCRIPTION_CHARS",
    "PuzzleCode",
    "PuzzleCodeError",
    "build",
    "describe",
    "encode",
    "is_descriptive",
    "parse",
    "parse_stored",
    "parse_stored_with_options",
    "parse_with_options",
    "read",
    "stored_with_options",
    "with_options",
]
