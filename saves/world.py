"""Worlds: what a player names and shares, apart from the game in progress.

A :class:`World` is a name, a seed (shown as its seed code), a preset, the generator version
that made it, a permadeath flag and the date it was created. A saved game is a world plus the
:class:`~roguelike.engine.GameState` and the earlier floors visited (:class:`VisitedFloor`),
which the game state does not keep.

A world's default name is two words drawn from its seed (:func:`world_name_for`), the same on
every machine.

The daily world is the same for every player on a given UTC day: its seed is
``seeds.text_seed("daily-YYYY-MM-DD")`` (:func:`daily_seed`), so ``roguelike --daily-code``
prints the same code on every machine that day.

This module is light (no engine, no numpy at import time beyond what :class:`VisitedFloor`
needs): the command line lists worlds without loading the game.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from roguelike import seeds
from roguelike.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTY_NAMES, PRESETS
from roguelike.version import GENERATOR_VERSION
from saves.errors import BadWorldName
from saves.text import printable

if TYPE_CHECKING:
    import numpy as np

    from roguelike.engine import GameState

PRESET_NAMES = tuple(PRESETS)
MAX_NAME = 64
MAX_SLUG = 48
#: File names Windows refuses whatever their extension.
_RESERVED = (
    {"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(10)} | {f"lpt{i}" for i in range(10)}
)


def now_iso() -> str:
    """The current UTC time as ISO 8601 with milliseconds: ``2025-11-21T18:04:05.123+00:00``."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def parse_date(text: str) -> dt.datetime:
    """An ISO 8601 date with a time zone, within the years a clock holds once in UTC (a
    file's ``9999-12-31T23:59-14:00`` is not: converting it would overflow); ValueError
    otherwise."""
    when = dt.datetime.fromisoformat(text)
    if when.tzinfo is None:
        raise ValueError(f"{text!r} has no time zone")
    try:
        when.astimezone(dt.UTC)
    except OverflowError:
        raise ValueError(f"{text!r} is outside the years 1 to 9999 in UTC") from None
    return when


#: The one rule for world names, said once: the new-game screen, ``world create``, ``world
#: import --name``, a challenge's world, and every name read from a file (a save's header and
#: payload, a run file) go through :func:`check_name`, which quotes it when it refuses.
NAME_RULE = (
    f"a world name is 1 to {MAX_NAME} printable characters once the spaces around it are "
    "stripped: no control, format or line-break characters"
)


def check_name(name: str) -> str:
    """``name`` stripped, if it keeps :data:`NAME_RULE`; BadWorldName (one line) otherwise.

    Printable is Python's ``str.isprintable``: letters, marks, numbers, punctuation, symbols
    and the plain space, in any script; never a control character (an escape sequence could
    drive the terminal), a format character (a bidi override could disguise the name), a line
    break, a lone surrogate or an unassigned code point. Brackets are allowed: screens show a
    name as plain text, so ``[b]`` is part of the name, never markup. Names from files are
    refused, not repaired: a file that breaks the rule was not written by the game."""
    if not isinstance(name, str):
        raise BadWorldName("a world name must be text")
    stripped = name.strip()
    if not stripped:
        raise BadWorldName(f"a world name cannot be empty ({NAME_RULE})")
    if len(stripped) > MAX_NAME:
        raise BadWorldName(f"a world name has at most {MAX_NAME} characters, got {len(stripped)}")
    if not stripped.isprintable():
        shown = printable(stripped[: MAX_NAME + 1])
        raise BadWorldName(f"the world name '{shown}' breaks the rule: {NAME_RULE}")
    return stripped


def slug(name: str) -> str:
    """The file name stem of a world: lowercase ASCII letters and digits joined by ``-``
    (``world-<hash>`` for a name without any). Different names can share a slug (``My World``
    and ``my-world``); the store refuses the second."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_name.lower())
    stem = "-".join(words)[:MAX_SLUG].strip("-")
    if not stem:  # a name in another script: a short hash keeps such names apart
        digest = hashlib.blake2b(name.encode("utf-8"), digest_size=4).hexdigest()
        stem = f"world-{digest}"
    if stem in _RESERVED:
        stem += "-world"
    return stem


#: A run's id (``20261124-3fa9c2``): letters, digits and dashes, as a file name may hold.
RUN_ID = re.compile(r"[0-9A-Za-z-]{1,40}", re.ASCII)


@dataclass(frozen=True)
class World:
    """A world: everything a player chose when creating it."""

    name: str
    seed: int
    preset: str = DEFAULT_PRESET
    permadeath: bool = False
    created: str = field(default_factory=now_iso)
    generator: str = GENERATOR_VERSION
    #: the challenge (an imported run's id) this world was made to answer, else None
    challenge: str | None = None
    #: the difficulty chosen at creation (one of ``presets.DIFFICULTY_NAMES``)
    difficulty: str = DEFAULT_DIFFICULTY
    #: a practice world (``Games.practice``): the input of another run it was started from,
    #: whose inputs before it its recording replays; its run is never scored, never the
    #: daily, never ranked (None: a world played from its start)
    practice_from: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", check_name(self.name))
        if not isinstance(self.seed, int) or not 0 <= self.seed < 1 << seeds.SEED_BITS:
            raise ValueError(f"seed {self.seed!r} is outside 0..2^{seeds.SEED_BITS}-1")
        if self.preset not in PRESET_NAMES:
            raise ValueError(f"unknown preset {self.preset!r}: one of {', '.join(PRESET_NAMES)}")
        if self.difficulty not in DIFFICULTY_NAMES:
            raise ValueError(
                f"unknown difficulty {self.difficulty!r}: one of {', '.join(DIFFICULTY_NAMES)}"
            )

    @property
    def code(self) -> str:
        """The seed code players share, naming the world's generator (files keep
        ``seeds.stored(seed)``, beside the generator)."""
        return seeds.encode(self.seed, self.generator)

    @classmethod
    def new(
        cls,
        name: str,
        seed: str | int | None = None,
        *,
        preset: str = DEFAULT_PRESET,
        permadeath: bool = False,
        difficulty: str = DEFAULT_DIFFICULTY,
    ) -> World:
        """A fresh world. ``seed`` is a seed code, any other text (hashed), a number, or None
        for a random one."""
        if seed is None:
            value = seeds.random_seed()
        elif isinstance(seed, int):
            value = seed
        else:
            value = seeds.parse(seed)
        return cls(name, value, preset, permadeath, difficulty=difficulty)


@dataclass(frozen=True)
class WorldInfo:
    """One line of the world list, read from a save's header without loading the game."""

    name: str
    seed: str  # the seed code
    preset: str
    floor: int
    floors: int  # floors in the run
    turn: int
    created: str
    saved: str
    permadeath: bool
    dead: bool
    won: bool
    generator: str
    game_version: str
    path: str
    difficulty: str = DEFAULT_DIFFICULTY
    #: the main file was damaged and this came from the backup (``<slug>.rgl.bak``)
    from_backup: bool = False
    #: why the world cannot be loaded (a newer format, another generator, both files damaged)
    problem: str | None = None
    #: what the player should know though the world loads: why its main file was passed over
    #: for the backup (set with ``from_backup``)
    note: str | None = None

    @property
    def playable(self) -> bool:
        return self.problem is None

    @property
    def unfinished(self) -> bool:
        """Loadable and still being played (what Continue resumes)."""
        return self.playable and not (self.dead or self.won)

    def to_json(self) -> dict[str, Any]:
        """The world as ``world list --format json`` shows it (the code as players see it)."""
        return {
            "name": self.name,
            "seed": seeds.shown(self.seed, self.generator) if self.seed else self.seed,
            "preset": self.preset,
            "difficulty": self.difficulty,
            "floor": self.floor,
            "floors": self.floors,
            "turn": self.turn,
            "date": self.saved,
            "created": self.created,
            "permadeath": self.permadeath,
            "dead": self.dead,
            "won": self.won,
            "generator": self.generator,
            "problem": self.problem,
            "from_backup": self.from_backup,
            "note": self.note,
        }


def resumable(worlds: list[WorldInfo]) -> WorldInfo | None:
    """The first world of ``worlds`` still being played: what Continue resumes from a list
    sorted the most recently saved first."""
    return next((i for i in worlds if i.unfinished), None)


@dataclass
class VisitedFloor:
    """An earlier floor as the player left it: its live tiles and what was explored. (The
    floor as generated is a pure function of the seed and ``number``.)"""

    number: int
    tiles: np.ndarray  # uint8 (height, width)
    explored: np.ndarray  # bool (height, width)

    @classmethod
    def of(cls, state: GameState) -> VisitedFloor:
        """A copy of the current floor of ``state``."""
        return cls(state.number, state.tiles.copy(), state.explored.copy())


_ADJECTIVES = (
    "Amber", "Ashen", "Bitter", "Broken", "Copper", "Crimson", "Drowned", "Dusky",
    "Ember", "Fallen", "Forgotten", "Gilded", "Glass", "Hollow", "Iron", "Ivory",
    "Lonely", "Mossy", "Noble", "Pale", "Quiet", "Restless", "Rusted", "Silent",
    "Silver", "Sleeping", "Sunken", "Thorned", "Twisted", "Velvet", "Weeping", "Winter",
)  # fmt: skip
_NOUNS = (
    "Abbey", "Anvil", "Barrow", "Bell", "Cairn", "Candle", "Cellar", "Crown",
    "Crypt", "Deep", "Falcon", "Forge", "Gate", "Grotto", "Hall", "Harbour",
    "Hearth", "Keep", "Lantern", "Maze", "Mill", "Mirror", "Orchard", "Raven",
    "Sanctum", "Serpent", "Spire", "Stair", "Tower", "Vault", "Warren", "Well",
)  # fmt: skip


def world_name_for(seed: int) -> str:
    """A two-word name for a world, the same for the same seed on every machine."""
    rng = seeds.stream(seed, 0, "world-name")
    adjective = _ADJECTIVES[int(rng.integers(len(_ADJECTIVES)))]
    return f"{adjective} {_NOUNS[int(rng.integers(len(_NOUNS)))]}"


def practice_name(base: str, turn: int) -> str:
    """The name of a practice world started at ``turn`` of a run of the world ``base``."""
    return f"{base} (practice from turn {turn})"


_PRACTICE_MARK = re.compile(r" \(practice from turn ([0-9]+)\)")


def practice_turn(name: str) -> tuple[str, int] | None:
    """A practice world's name (:func:`practice_name`, perhaps with the number that made it
    free) without its practice mark, and the turn the mark names; None for any other name."""
    found = _PRACTICE_MARK.search(name)
    if found is None:
        return None
    return (name[: found.start()] + name[found.end() :]).strip(), int(found.group(1))


def daily_seed(day: dt.date | None = None) -> int:
    """The seed of the daily world of ``day`` (today, UTC, by default)."""
    day = day or dt.datetime.now(dt.UTC).date()
    return seeds.text_seed(f"daily-{day.isoformat()}")


def daily_code(day: dt.date | None = None) -> str:
    """The seed code of the daily world of ``day`` (today, UTC, by default)."""
    return seeds.encode(daily_seed(day))


def daily_name(day: dt.date | None = None) -> str:
    day = day or dt.datetime.now(dt.UTC).date()
    return f"Daily {day.isoformat()}"
