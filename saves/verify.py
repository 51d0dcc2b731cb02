"""The one verification of a run record: its claims checked by replaying its recording.

An imported record is never trusted: :func:`verify` replays its recording and compares every
claim (that its dates could be true, outcome and cause, floors, turns, kills, puzzles, hints,
score, equipment, the final state's digest); a file whose claims do not match is refused,
saying which claim is false, and the final view its morgue shows is the replay's
(:func:`as_proven`). That check, :func:`verification`,
is the one every entry point runs (``replay --verify``, ``runs import``, the title's challenge
import, the hall): the world the record claims (seed, size, floors and rules, difficulty)
against its recording's start (:func:`world_claims`), then what the replay would cost
(:func:`check_cost`), then every claim about the run (:func:`claims`) against the replay.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, replace
from typing import Any

from roguelike import seeds
from roguelike.engine.final import final_view
from roguelike.engine.state import GameState
from roguelike.recording import Divergence, Outcome, Progress, RecordingError, Start, replay
from saves.record import (
    RunFileError,
    RunRecord,
    cause_of,
    daily_day,
    outcome_of,
)
from saves.runs import score_of
from saves.world import parse_date

#: Tests play tiny worlds (one floor, no monsters) to stay fast; a run file is checked only
#: when its recording starts as the game starts a world of its preset (see :func:`world_claims`).
CUSTOM_WORLDS = False


def claims(record: RunRecord, state: GameState, outcome: Outcome) -> list[Claim]:
    """Every claim ``record`` makes, beside what the replay of its recording gave (``state``
    and ``outcome``: the end of that replay), in the order :func:`verify` checks them."""
    s = state.stats
    claimed_puzzles = [[p.floor, p.type, p.difficulty, p.score] for p in record.puzzles]
    return [
        date_claim(record),
        Claim("daily world", record.daily, daily_day(state.seed, record.started)),
        Claim("outcome", record.outcome, outcome_of(state)),
        Claim("cause", record.cause, cause_of(state)),
        Claim("floors", record.floors, s.floors_reached),
        Claim("total floors", record.total_floors, state.total_floors),
        Claim("turns", record.turns, state.turn),
        Claim("kills", record.kills, s.kills),
        Claim("keys", record.keys, s.keys),
        Claim("puzzles", claimed_puzzles, [list(p) for p in s.puzzle_scores]),
        Claim("hints used", record.hints_used, s.hints_used),
        Claim("score", record.score, score_of(state)),
        *(
            []
            if record.equipment is None
            else [Claim("equipment", dict(record.equipment), state.equipment)]
        ),
        Claim("final state", record.digest, outcome.digest),
    ]


def as_proven(record: RunRecord, state: GameState) -> RunRecord:
    """``record`` with the final view (the gear, pack, last messages and map its morgue shows)
    of its replay's end, ``state``: what a morgue shows of a file from elsewhere is what its
    recording proves (the seal is unkeyed, so a re-packed file can claim any view). Replaced,
    not compared: the view is this game's text, and an honest file of an older release of
    the same generator words it otherwise, which must not refuse it."""
    return record if record.final is None else replace(record, final=final_view(state))


#: How far past this machine's clock a record's dates may be (another player's clock may be
#: ahead of ours, or in another time zone badly set).
CLOCK_SLACK = dt.timedelta(days=1)


def date_claim(record: RunRecord, now: dt.datetime | None = None) -> Claim:
    """The claim that the record's dates can be true: it began no later than it ended, and
    neither is in the future (past :data:`CLOCK_SLACK`). The dates are not proved by the
    recording, so nothing ranks on them (:func:`saves.ladder.rank_key`); this refuses only
    what no clock could have written."""
    now = now or dt.datetime.now(dt.UTC)
    started, ended = parse_date(record.started), parse_date(record.ended)
    problem = None
    if started > ended:
        problem = f"it says it began ({record.started}) after it ended ({record.ended})"
    elif ended > now + CLOCK_SLACK:
        problem = f"it says it ended in the future ({record.ended})"
    return Claim(
        "dates",
        "possible",
        "possible" if problem is None else "impossible",
        refusal=f"the record's dates are false: {problem}",
    )


@dataclass(frozen=True)
class Claim:
    """One claim of a record: its name, what the record says, what the replay gave."""

    name: str
    claimed: Any
    true: Any
    #: the line that refuses a record for this claim, when the plain one would say less
    refusal: str | None = None

    @property
    def holds(self) -> bool:
        return bool(self.claimed == self.true)

    def falsehood(self) -> str:
        """The one line that refuses a record for this claim."""
        if self.refusal is not None:
            return self.refusal
        return (
            f"the record's claim of {self.name} is false: it says {_shown(self.claimed)}, "
            f"its recording gives {_shown(self.true)}"
        )


#: What a record claims of its world when it was played as the game makes the world of its
#: seed, preset and difficulty (the claim :func:`world_claims` names "world rules").
STANDARD_WORLD = "the world the game makes of its seed and preset"


def world_claims(record: RunRecord) -> list[Claim]:
    """The claims a record makes about its world, beside what its recording's start says:
    the world (seed and size), its difficulty, and that it is the world the game makes of
    them (floors, monsters, puzzles, view: a test's tiny world is not, unless
    :data:`CUSTOM_WORLDS`). Checked before anything is replayed. ``record`` has a recording."""
    rec = record.recording
    assert rec is not None
    start = rec.start
    standard = Start.standard(start.seed, start.preset, start.difficulty)
    custom = start != standard and not CUSTOM_WORLDS
    return [
        Claim("world", [record.seed, record.preset], [seeds.stored(start.seed), start.preset]),
        Claim("difficulty", record.difficulty, start.difficulty),
        Claim(
            "world rules",
            STANDARD_WORLD,
            f"a custom world ({start.differences(standard)})" if custom else STANDARD_WORLD,
            refusal=(
                f"the run was played in a custom world ({start.differences(standard)}), "
                f"not {STANDARD_WORLD}"
            ),
        ),
    ]


@dataclass(frozen=True)
class Verification:
    """What checking a record gave (:func:`verification`): every claim checked, in order
    (the world's first), the replay's end (None if it was not replayed to its end), and
    the divergence if the recording went out of sync."""

    record: RunRecord
    claims: tuple[Claim, ...]
    state: GameState | None = None
    outcome: Outcome | None = None
    divergence: Divergence | None = None

    @property
    def false(self) -> list[Claim]:
        return [c for c in self.claims if not c.holds]

    @property
    def problem(self) -> str | None:
        """The one line that refuses the record (its first false claim, or where its
        recording went out of sync), or None if every claim holds."""
        false = self.false
        if false:
            return false[0].falsehood()
        if self.divergence is not None:
            return f"the recording does not replay: {self.divergence}"
        return None


def check_cost(record: RunRecord) -> None:
    """Refuse, before any replay, a record whose recording would cost more to replay than a
    run of its world may (:meth:`~roguelike.recording.Recording.cost_problem`): RunFileError
    in one line naming the bound."""
    rec = record.recording
    problem = None if rec is None else rec.cost_problem()
    if problem is not None:
        raise RunFileError(f"the recording is too long to replay: {problem}")


def verification(
    record: RunRecord, *, claims_too: bool = True, progress: Progress | None = None
) -> Verification:
    """The one check of a run record, which ``replay --verify``, ``runs import``, the title's
    challenge import and the hall all run: the world it claims (seed, size, floors and rules,
    difficulty) against its recording's start, then what the replay would cost
    (:func:`check_cost`), then its recording replayed and every claim about the run
    (:func:`claims`) against that replay (``claims_too=False``: the world only, then the
    replay). Stops at the first false claim about the world (the run's claims cannot stand
    on another world) and at a divergence. RunFileError when there is nothing to check: no
    recording, another generator's, or one too costly to replay. ``progress``: told how far
    the replay is (it may raise to stop it)."""
    rec = record.recording
    if rec is None:
        raise RunFileError("the run has no recording: its claims cannot be checked")
    problem = rec.generator_problem()
    if problem:
        raise RunFileError(problem)
    world = world_claims(record)
    if not all(c.holds for c in world):
        return Verification(record, tuple(world))
    check_cost(record)
    try:
        state, outcome = replay(rec, progress=progress)
    except Divergence as err:
        return Verification(record, tuple(world), divergence=err)
    except RecordingError as err:
        raise RunFileError(f"the recording does not replay: {err}") from None
    run = claims(record, state, outcome) if claims_too else []
    return Verification(record, (*world, *run), state, outcome)


def verify(record: RunRecord, *, progress: Progress | None = None) -> tuple[GameState, Outcome]:
    """Replay ``record``'s recording and check every claim it makes (:func:`verification`);
    RunFileError naming the first false claim (or why it cannot be replayed, or that it
    costs more than its world allows). Returns the replayed state and outcome.
    ``progress``: told how far the replay is (it may raise to stop it)."""
    found = verification(record, progress=progress)
    if found.problem is not None:
        raise RunFileError(found.problem)
    assert found.state is not None and found.outcome is not None
    return found.state, found.outcome


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"
