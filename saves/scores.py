"""Best puzzle scores, and the puzzles met in saved worlds: what the puzzle index shows.

Best scores
    One small JSON file in the save folder, ``puzzle-scores.json``, holding the best score of
    every puzzle played to the end in free play or in a world (:func:`keep_room_score`, which
    a game session calls when a pedestal is solved), keyed by its puzzle code
    (:mod:`roguelike.puzzles.codes`)::

        {"format": 1, "scores": [{"code": "jugs:easy#0000-0000-01AB", "score": 90}, ...]}

    The file keeps each code in its stored form (the seed without its generator,
    :attr:`~roguelike.puzzles.codes.PuzzleCode.stored`, as it always has; a custom puzzle's code
    carries its options after a ``/``, ``stomp:hard#…/3x4,d5``); :meth:`BestScores.read` gives
    them as the game shows them (``jugs:easy#5-0000-0000-01AE``).

    oldest entry first. It is written like a save (:func:`saves.files.write_atomic`: a
    temporary file, fsynced, renamed over the old one), so a writer killed at any moment leaves
    the old file or the new one; and under the file's lock (:func:`saves.locks.shared_lock`),
    read afresh and merged there, so two games keeping scores at once lose none. At most
    :data:`MAX_ENTRIES` entries are kept (a new puzzle beyond that pushes out the entry
    longest unchanged).

    Reading is bounded and checked: a file over :data:`MAX_BYTES`, not JSON, of another format,
    with more than :data:`MAX_ENTRIES` entries, a code that is not a canonical puzzle code, a
    code listed twice or a score outside 0..100 is *damaged*. A damaged file is never a crash
    and never lost: it is renamed aside (``puzzle-scores.json.bad-<random>``), the scores start
    afresh, and :attr:`BestScores.notice` says so in one line for the screen to show. A file
    that cannot be read or set aside (permissions) is left alone and nothing is written over it.

Puzzles met
    :func:`puzzles_met` lists the puzzle rooms of every saved world that the player has stepped
    on or played (world, floor, type, difficulty, code, solved, moves, hints). A save keeps the
    puzzle rooms of the floor its player is on; of the floors left behind it keeps each solved
    puzzle's floor, type, difficulty and score (the run's statistics), and the puzzle's code is
    found again among the best scores (:func:`left_behind`: a pedestal's seed is a function of
    the world's seed, the floor and its key), so the index still names its world and floor.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from roguelike.engine.puzzle_rooms import PuzzleRoom, pedestal_seeds, room_score
from roguelike.engine.state import GameState
from roguelike.puzzles import codes
from saves.errors import SaveError, StoreError
from saves.files import read_file, write_atomic
from saves.locks import shared_lock
from saves.store import Store

FILE_NAME = "puzzle-scores.json"
FORMAT = 1
#: The largest file read (a full file of MAX_ENTRIES entries is about 120 KB).
MAX_BYTES = 256 * 1024
#: The most entries kept.
MAX_ENTRIES = 2000
MAX_SCORE = 100


class ScoresDamaged(ValueError):
    """The best-scores file is not one this game wrote; the message is one line."""


def _parse(data: bytes) -> dict[str, int]:
    """The scores in ``data`` (code → score, oldest first); raises ScoresDamaged."""
    if len(data) > MAX_BYTES:
        raise ScoresDamaged(f"it is larger than {MAX_BYTES} bytes")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ScoresDamaged("it is not JSON") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ScoresDamaged(f"it is not a scores file of format {FORMAT}")
    entries = doc.get("scores")
    if not isinstance(entries, list):
        raise ScoresDamaged("its scores are not a list")
    if len(entries) > MAX_ENTRIES:
        raise ScoresDamaged(f"it holds more than {MAX_ENTRIES} scores")
    out: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or set(entry) != {"code", "score"}:
            raise ScoresDamaged(f"score {i + 1} is not a code and a score")
        code, score = entry["code"], entry["score"]
        try:
            known, options = codes.parse_stored_with_options(code)
        except codes.PuzzleCodeError:
            known, options = None, None
        if known is None or options is None or codes.stored_with_options(known, options) != code:
            raise ScoresDamaged(f"score {i + 1} has no puzzle code")
        code = codes.with_options(known, options)  # as the game shows it
        if type(score) is not int or not 0 <= score <= MAX_SCORE:
            raise ScoresDamaged(f"score {i + 1} is not a whole number from 0 to {MAX_SCORE}")
        if code in out:
            raise ScoresDamaged(f"the puzzle {code} is listed twice")
        out[code] = score
    return out


class BestScores:
    """The best score of each puzzle code, kept in ``folder`` (see the module docstring).

    Every call reads the file afresh (another game may have written it since).
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.path = Path(folder) / FILE_NAME
        #: one line for the player about the last read of a damaged or unreadable file
        self.notice: str | None = None
        self._writable = True

    def read(self) -> dict[str, int]:
        """Every best score (code → score, oldest first); {} with a :attr:`notice` if the
        file is damaged (then set aside) or cannot be read."""
        self._writable = True
        try:
            # a regular file only (a FIFO here would hang the puzzle screen), read with a bound
            data = read_file(self.path, MAX_BYTES)
        except SaveError:  # larger than any scores file
            self.notice = self._set_aside(f"it is larger than {MAX_BYTES} bytes")
            return {}
        except FileNotFoundError:
            return {}
        except OSError as err:
            self._writable = False
            self.notice = f"The best puzzle scores could not be read: {err.strerror or err}"
            return {}
        try:
            return _parse(data)
        except ScoresDamaged as err:
            self.notice = self._set_aside(str(err))
            return {}

    def _set_aside(self, why: str) -> str:
        """Rename the damaged file out of the way; what to tell the player."""
        aside = self.path.with_name(f"{FILE_NAME}.bad-{secrets.token_hex(4)}")
        try:
            os.replace(self.path, aside)
        except OSError as err:
            self._writable = False
            return (
                f"The best puzzle scores are damaged ({why}) and could not be set aside "
                f"({err.strerror or err}): they are ignored"
            )
        return f"The best puzzle scores were damaged ({why}): kept aside as {aside.name}"

    def record(self, code: str, score: int) -> bool:
        """Keep ``score`` for the puzzle ``code`` if it beats the best; True if it did (and
        was written). ValueError for a code or score that cannot be kept; OSError if the file
        cannot be read, locked or written (nothing is lost: the file on disk is as it was)."""
        canonical = codes.with_options(*codes.parse_with_options(code))
        if type(score) is not int or not 0 <= score <= MAX_SCORE:
            raise ValueError(f"a score is a whole number from 0 to {MAX_SCORE}, got {score!r}")
        self.read()  # a file that cannot be read (or set aside) is never written over
        if not self._writable:
            raise OSError(errno.EACCES, self.notice or "the scores file cannot be read")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # another game may be writing its own scores: read, merge and write under the lock
        # of the file, so neither loses the other's (the file is read afresh inside it)
        with shared_lock(self.path):
            scores = self.read()
            if not self._writable:
                raise OSError(errno.EACCES, self.notice or "the scores file cannot be read")
            old = scores.pop(canonical, None)
            if old is not None and old >= score:
                return False
            scores[canonical] = score  # now the newest
            while len(scores) > MAX_ENTRIES:
                del scores[next(iter(scores))]
            doc = {
                "format": FORMAT,
                "scores": [
                    {"code": codes.stored_with_options(*codes.parse_with_options(c)), "score": s}
                    for c, s in scores.items()
                ],
            }
            write_atomic(self.path, (json.dumps(doc, indent=0) + "\n").encode("utf-8"))
        return True


def keep_room_score(folder: str | os.PathLike[str], room: PuzzleRoom) -> bool:
    """A world's puzzle room was solved: keep its score if it is the best of its code; True
    if it was kept. OSError if the scores file cannot be written (the caller tells the
    player: the world's game is not affected); a room whose seed no code can carry is not
    kept (False)."""
    try:
        code = codes.encode(room.type, room.difficulty, room.seed)
    except ValueError:
        return False
    return BestScores(folder).record(code, room_score(room))


# --- the puzzles met in saved worlds ---------------------------------------------------------


@dataclass(frozen=True)
class MetPuzzle:
    """A puzzle room of a saved world that its player has stepped on or played."""

    world: str
    floor: int
    type: str
    difficulty: str
    seed: int
    solved: bool
    #: the moves made (the solution's length once solved)
    moves: int
    hints_used: int
    #: resets counted against the score (0 where the pedestal keeps no count)
    resets: int = 0
    #: the score the run kept (a floor left behind, whose moves are not saved), else None
    score: int | None = None

    @property
    def code(self) -> str:
        return codes.encode(self.type, self.difficulty, self.seed)


def left_behind(state: GameState, world: str, scored: Collection[str]) -> list[MetPuzzle]:
    """The puzzles ``state``'s run solved on floors it has left (or whose rooms it no longer
    holds), as far as their codes are among ``scored`` (the best scores' codes): the run keeps
    each one's floor, type, difficulty and score, and its seed is one a pedestal of that type
    on that floor can have (``puzzle_rooms.pedestal_seeds``: chosen as the floor chose it), so
    the code is the one of those that was scored."""
    here = {codes.encode(r.type, r.difficulty, r.seed) for r in state.puzzles.values()}
    taken: set[str] = set()
    out: list[MetPuzzle] = []
    for number, kind, difficulty, points in state.stats.puzzle_scores:
        for seed in pedestal_seeds(state.seed, number, kind):
            try:
                code = codes.encode(kind, difficulty, seed)
            except ValueError:  # a seed no code can carry
                continue
            if code in scored and code not in here and code not in taken:
                taken.add(code)
                out.append(
                    MetPuzzle(world, number, kind, difficulty, seed, True, 0, 0, score=points)
                )
                break
    return out


def puzzles_met(
    store: Store,
    *,
    on_problem: Callable[[str, str], None] | None = None,
    scored: Collection[str] = (),
) -> list[MetPuzzle]:
    """The puzzles met in every saved world, world by world (the most recently saved first),
    the solved ones of floors left behind first (:func:`left_behind`, found among ``scored``,
    the codes of the best scores), then the current floor's in key order. A world that cannot
    be loaded is skipped, and ``on_problem(name, why)`` told."""
    out: list[MetPuzzle] = []
    for info in store.readable_list():
        if info.problem is not None:
            if on_problem is not None:
                on_problem(info.name, info.problem)
            continue
        try:
            # a backup used is no news to the index (asked not to warn: warning filters are
            # process-wide, and this runs in a thread)
            _world, state, _visited = store.load(info.name, warn=False)
        except (SaveError, StoreError, OSError) as err:
            if on_problem is not None:
                on_problem(info.name, str(err))
            continue
        out += left_behind(state, info.name, scored)
        rooms: list[PuzzleRoom] = sorted(state.puzzles.values(), key=lambda r: r.key)
        for room in rooms:
            if not (room.visited or room.solved or room.moves):
                continue
            with contextlib.suppress(ValueError):  # a seed no code can carry is not listed
                codes.encode(room.type, room.difficulty, room.seed)
                out.append(
                    MetPuzzle(
                        world=info.name,
                        floor=state.number,
                        type=room.type,
                        difficulty=room.difficulty,
                        seed=room.seed,
                        solved=room.solved,
                        moves=len(room.moves),
                        hints_used=room.hints_used,
                        resets=room.resets,
                    )
                )
    return out


__all__ = [
    "FILE_NAME",
    "MAX_BYTES",
    "MAX_ENTRIES",
    "BestScores",
    "MetPuzzle",
    "ScoresDamaged",
    "keep_room_score",
    "puzzles_met",
    "room_score",
]
