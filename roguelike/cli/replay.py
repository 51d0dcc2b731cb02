"""``roguelike replay FILE|RUN``: a recorded run, watched in the replay viewer or, with
``--verify``, replayed headless and checked against what its record claims.

FILE is a run file (``bot --record``, ``runs export``); anything that is not an existing file
is taken as a run's id (or a unique start of one) in the hall of the save folder. A run file is
read with the save layer's bounds and checksum (:func:`saves.record.unpack`), and a recording
made by another generator is refused there, naming both versions.

``--verify`` runs the one check of a record that ``runs import``, the challenge screen and the
hall run too (:func:`saves.verify.verification`): the world it claims (seed and size, floors
and rules, difficulty) against its recording's start, then every input replayed through the
engine and each claim of the record (outcome, floors, turns, kills, keys, puzzles, hints,
score, the final state's digest) compared with what the replay gave. Exit status: 0 when
every claim holds; 1 when the file reads but does
not hold up (a replay out of sync, which names the turn and the input, or a false claim,
which names the claim); 2 when there is nothing to check (no such file or run, not a run
file, damaged, another generator, no recording). Every text taken from the file is made
printable before it is shown.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.cli import Fail, Mismatch
from roguelike.cli import play as play_command
from roguelike.cli.args import add_save_dir_option
from saves.errors import SaveError, StoreError
from saves.files import read_file
from saves.hall import Hall
from saves.record import MAX_FILE, RunFileError, RunRecord, unpack
from saves.store import Store
from saves.text import printable
from saves.verify import Claim, verification

#: A run file that cannot be read, a run that is not in the hall.
USER_ERRORS: tuple[type[Exception], ...] = (SaveError, StoreError)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="FILE|RUN", help="a run file, or a run's id in the hall")
    p.add_argument(
        "--verify",
        action="store_true",
        help="replay it headless and check every claim of its record "
        "(exit 0: all hold, 1: it does not match, 2: it cannot be read)",
    )
    p.add_argument("--format", dest="replay_format", choices=["text", "json"], default="text")
    add_save_dir_option(p)


def load(target: str, save_dir: str | None) -> RunRecord:
    """The record ``target`` names: a run file's, or the hall's run of that id. A path that
    is not a file, and no run of that id, is refused in one line."""
    path = Path(target).expanduser()
    if path.is_file():
        if path.stat().st_size > MAX_FILE:
            raise Fail(f"{printable(target)}: larger than a run file can be ({MAX_FILE >> 20} MiB)")
        try:
            return unpack(read_file(path))
        except (RunFileError, SaveError) as err:
            raise Fail(f"{printable(target)}: {printable(str(err))}") from None
        except OSError as err:
            raise Fail(f"{printable(target)}: {err.strerror or err}") from None
    if path.exists():
        raise Fail(f"{printable(target)}: not a run file (a folder?)")
    looks_like_path = "/" in target or "\\" in target or target.endswith(".run")
    if looks_like_path:
        raise Fail(f"{printable(target)}: no such file")
    hall = Hall(Store(save_dir).path)
    try:
        record, _ = hall.get(target)
    except (RunFileError, SaveError) as err:
        raise Fail(f"{printable(str(err))} (nor a file of that name)") from None
    except OSError as err:
        raise Fail(f"{printable(target)}: {err.strerror or err}") from None
    return record


def outcome_json(claimed: list[Claim], digest: str) -> dict[str, Any]:
    """What the replay gave, by the names ``runs --format json`` uses."""
    true = {c.name: c.true for c in claimed}
    return {
        "result": true["outcome"],
        "floors": true["floors"],
        "total_floors": true["total floors"],
        "turns": true["turns"],
        "kills": true["kills"],
        "keys": true["keys"],
        "puzzles": true["puzzles"],
        "hints_used": true["hints used"],
        "score": true["score"],
        "digest": digest,
    }


def verify_report(record: RunRecord, fmt: str) -> tuple[str, str | None]:
    """Replay ``record`` and check its claims: the report to print, and the one-line reason
    it does not hold (None if every claim holds). Raises :class:`Fail` when there is nothing
    to replay."""
    rec = record.recording
    if rec is None:
        raise Fail(
            f"run {record.id} has no recording (it began before recordings): nothing to check"
        )
    start = time.perf_counter()
    try:
        # the one check of a record, as runs import, the challenge screen and the hall run it
        found = verification(record)
    except RunFileError as err:  # nothing to replay: another generator's recording
        raise Fail(printable(str(err))) from None
    gone = found.divergence
    if gone is not None:
        if fmt == "json":
            sync = {
                "id": record.id,
                "matched": False,
                "out_of_sync": {"turn": gone.turn, "input": gone.index + 1},
                "error": str(gone),
            }
            return json.dumps(sync, indent=1) + "\n", str(gone)
        return "", str(gone)
    checked = list(found.claims)
    false = found.false
    reason = printable(false[0].falsehood()) if false else None
    state, outcome = found.state, found.outcome
    if state is None or outcome is None:  # a false claim about the world: nothing replayed
        return world_report(record, checked, fmt), reason
    seconds = time.perf_counter() - start
    if fmt == "json":
        doc: dict[str, Any] = {
            "id": record.id,
            "matched": not false,
            "claims": {c.name.replace(" ", "_"): claim_json(c) for c in checked},
            "outcome": {**outcome_json(checked, outcome.digest), "cause": state.stats.cause},
            "inputs": len(rec),
            "seconds": round(seconds, 3),
        }
        if reason:
            doc["error"] = reason
        return json.dumps(doc, indent=1) + "\n", reason
    s = state.stats
    result = "won" if state.won else "died" if state.dead else "unfinished"
    cause = f" ({printable(s.cause)})" if s.cause and result != "won" else ""
    lines = [
        f"replayed run {record.id} of {printable(record.world)} "
        f"(seed {seeds.shown(record.seed, record.generator)}, "
        f"{record.preset}): {len(rec)} inputs in {seconds:.2f} s",
        f"outcome      {result}{cause}, floor {s.floors_reached} of {state.total_floors}, "
        f"{state.turn} turns, {s.kills} kills, {s.puzzles_solved} puzzles, "
        f"score {next(c.true for c in checked if c.name == 'score')}",
        f"final state  {outcome.digest}",
        "claims       "
        + (
            f"all {len(checked)} hold: {', '.join(c.name for c in checked)}"
            if not false
            else f"{len(false)} of {len(checked)} false"
        ),
    ]
    lines += [
        f"  FALSE {c.name}: it says {printable(_short(c.claimed))}, "
        f"the replay gives {_short(c.true)}"
        for c in false
    ]
    return "\n".join(lines) + "\n", reason


def world_report(record: RunRecord, checked: list[Claim], fmt: str) -> str:
    """The report of a record refused for what it claims of its world (not replayed)."""
    false = [c for c in checked if not c.holds]
    if fmt == "json":
        doc = {
            "id": record.id,
            "matched": False,
            "claims": {c.name.replace(" ", "_"): claim_json(c) for c in checked},
            "error": printable(false[0].falsehood()),
        }
        return json.dumps(doc, indent=1) + "\n"
    lines = [
        f"run {record.id} of {printable(record.world)} "
        f"(seed {seeds.shown(record.seed, record.generator)}, {record.preset}): "
        "not replayed, its world is not the one it claims",
        f"claims       {len(false)} of {len(checked)} false",
    ]
    lines += [
        f"  FALSE {c.name}: it says {printable(_short(c.claimed))}, "
        f"the recording gives {printable(_short(c.true))}"
        for c in false
    ]
    return "\n".join(lines) + "\n"


def claim_json(c: Claim) -> dict[str, Any]:
    return {"claimed": c.claimed, "replayed": c.true, "matched": c.holds}


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:59] + "…"


def run(args: argparse.Namespace) -> None:
    record = load(args.target, args.save_dir)
    if args.verify:
        report, reason = verify_report(record, args.replay_format)
        sys.stdout.write(report)
        if reason:
            raise Mismatch(reason)
        return
    if args.replay_format != "text":
        raise Fail("--format goes with --verify (the viewer is a screen)")
    play_command.watch_replay(args, record)
