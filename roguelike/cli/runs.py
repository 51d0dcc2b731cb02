"""``roguelike runs``: the hall of finished runs from a shell.

``runs`` lists the player's runs, best score first (``--seed``, ``--outcome``, ``--daily``
filter it; ``--challenges`` lists the runs imported from others instead); ``runs show ID``
prints one as a morgue-style text; ``runs export ID -o FILE`` writes it as a challenge file to
send; ``runs import FILE`` checks a received one by replaying it (a claim that does not match
its recording is refused, named) and keeps it among the challenges; ``runs ladder FILE...``
ranks many players' runs of one world, each verified by replay (:mod:`saves.ladder`), the
refused listed one line each, and ``-o`` writes them as one ladder file to pass on.

Every text that came from a file (world names, causes, puzzle names) is made printable
(:func:`saves.morgue.printable`) before it reaches the terminal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.cli import Fail, Parser
from roguelike.cli.args import add_save_dir_option
from roguelike.presets import DEFAULT_DIFFICULTY
from roguelike.version import GENERATOR_VERSION
from saves.errors import SaveError, StoreError
from saves.files import NotRegularFile, check_replaceable, write_atomic
from saves.hall import Hall
from saves.ladder import DEADLINE, Ladder, build, gather, ladder_table
from saves.ladder import pack as pack_ladder
from saves.morgue import morgue, printable, run_floors
from saves.record import OUTCOMES, RunFileError, RunRecord
from saves.store import Store

#: A run file that cannot be read or is refused, a run that is not in the hall.
USER_ERRORS: tuple[type[Exception], ...] = (SaveError, StoreError)

#: The widest world name the table shows (the rest is cut, with an ellipsis).
NAME_WIDTH = 24


def add_arguments(runs: argparse.ArgumentParser) -> None:
    runs.add_argument("--format", dest="runs_format", choices=["text", "json"], default="text")
    runs.add_argument(
        "--seed", dest="runs_seed", metavar="CODE", help="only the runs of this seed code"
    )
    runs.add_argument("--outcome", choices=OUTCOMES, help="only the runs that ended so")
    runs.add_argument(
        "--daily", dest="runs_daily", action="store_true", help="only the daily worlds' runs"
    )
    runs.add_argument(
        "--challenges", action="store_true", help="the runs imported from others instead"
    )
    add_save_dir_option(runs)
    tools = runs.add_subparsers(
        dest="runs_command", metavar="{show,export,import,ladder}", parser_class=Parser
    )
    show = tools.add_parser("show", help="one run as readable text (a morgue file)")
    show.add_argument("run_id", metavar="ID", help="the run's id, or a unique start of it")
    export = tools.add_parser("export", help="write a run as a challenge file to send")
    export.add_argument("run_id", metavar="ID")
    export.add_argument("-o", "--output", metavar="FILE", required=True, help="the file to write")
    imp = tools.add_parser("import", help="check a challenge file by replaying it, and keep it")
    imp.add_argument("file", metavar="FILE")
    for p in (show, export, imp):
        add_save_dir_option(p)
    ladder = tools.add_parser(
        "ladder", help="rank runs of one world from many files, each verified by replay"
    )
    ladder.add_argument("files", metavar="FILE", nargs="+", help="run, challenge or ladder files")
    ladder.add_argument("--format", dest="ladder_format", choices=["text", "json"])
    ladder.add_argument("-o", "--output", metavar="FILE", help="write the verified runs here")
    ladder.add_argument(
        "--jobs", type=int, default=None, metavar="N", help="processes that replay (default: cores)"
    )
    ladder.add_argument(
        "--deadline",
        type=float,
        default=DEADLINE,
        metavar="SECONDS",
        help=f"stop verifying after this long (default {DEADLINE:g})",
    )


def row_json(r: RunRecord) -> dict[str, Any]:
    """A run as ``runs --format json`` lists it (JSON escapes every control character)."""
    return {
        "id": r.id,
        "world": r.world,
        "seed": seeds.shown(r.seed, r.generator),
        "preset": r.preset,
        "difficulty": r.difficulty,
        "started": r.started,
        "ended": r.ended,
        "outcome": r.outcome,
        "cause": r.cause,
        "floors": r.floors,
        "total_floors": r.total_floors,
        "turns": r.turns,
        "kills": r.kills,
        "keys": r.keys,
        "puzzles_solved": r.puzzles_solved,
        "puzzle_points": r.puzzle_points,
        "hints_used": r.hints_used,
        "score": r.score,
        "daily": r.daily,
        "scored": r.scored,
        "challenge": r.challenge,
        "inputs": None if r.recording is None else len(r.recording),
    }


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def runs_table(records: list[RunRecord], where: str, what: str) -> str:
    """``runs``' table: a row a run, in the order given."""
    if not records:
        return f"no {what} in {printable(where)}\n"
    rows = [("ID", "ENDED", "WORLD", "SEED", "PRESET", "OUTCOME", "FLOOR", "TURNS", "SCORE")]
    for r in records:
        outcome = r.outcome + ("" if r.scored else " (practice)") + (" daily" if r.daily else "")
        rows.append(
            (
                r.id,
                r.ended[:10],
                _cut(printable(r.world), NAME_WIDTH),
                seeds.shown(r.seed, r.generator),
                r.preset + ("" if r.difficulty == DEFAULT_DIFFICULTY else f" {r.difficulty}"),
                outcome,
                f"{r.floors}/{r.total_floors}",
                str(r.turns),
                str(r.score),
            )
        )
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    right = {6, 7, 8}
    return "".join(
        "  ".join(
            cell.rjust(w) if c in right else cell.ljust(w)
            for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        + "\n"
        for row in rows
    )


def listing(args: argparse.Namespace, hall: Hall) -> str:
    """``runs`` without a sub-command: the hall (or the challenges), filtered."""
    records = hall.challenges() if args.challenges else hall.runs()
    problems = list(hall.problems)
    if args.runs_seed is not None:
        # a code of any generator finds that generator's runs (the old form: any generator's)
        try:
            if seeds.looks_like_code(args.runs_seed):
                generator, seed = seeds.read(args.runs_seed)
            else:
                generator, seed = GENERATOR_VERSION, seeds.parse(args.runs_seed)
        except seeds.SeedCodeError as err:
            raise Fail(f"--seed: {err}") from None
        code = seeds.stored(seed)
        records = [r for r in records if r.seed == code and generator in (None, r.generator)]
    if args.outcome:
        records = [r for r in records if r.outcome == args.outcome]
    if args.runs_daily:
        records = [r for r in records if r.daily]
    for problem in problems:  # a damaged file is skipped, and said so, not fatal
        print(f"roguelike: skipped {printable(problem)}", file=sys.stderr)
    what = "challenges" if args.challenges else "runs"
    if args.runs_format == "json":
        doc = {
            "dir": str(hall.path),
            what: [row_json(r) for r in records],
            "streak": hall.streak(),
            "skipped": problems,
        }
        return json.dumps(doc, indent=1) + "\n"
    filtered = args.runs_seed is not None or args.outcome or args.runs_daily
    table = runs_table(records, str(hall.path), f"{what} that match" if filtered else what)
    if args.runs_daily and records:
        streak = hall.streak()
        table += f"daily streak: {streak} day{'s' if streak != 1 else ''}\n"
    return table


def show(hall: Hall, run_id: str) -> str:
    """``runs show ID``: the morgue text of the run, with the daily streak for a daily run."""
    record, imported = hall.get(run_id)
    streak = hall.streak() if record.daily and not imported else None
    text = morgue(record, streak=streak, floors=run_floors(record))
    if imported:
        text += "Imported     a challenge from another player, checked by replay on import\n"
        text += f"Answer it    roguelike {play_flags(record)}\n"
    return text


def play_flags(record: RunRecord) -> str:
    """The options that start ``record``'s world: its seed, size and (unless normal)
    difficulty."""
    flags = f"--seed {seeds.shown(record.seed, record.generator)} --preset {record.preset}"
    if record.difficulty != DEFAULT_DIFFICULTY:
        flags += f" --difficulty {record.difficulty}"
    return flags


def export(hall: Hall, run_id: str, output: str) -> str:
    """``runs export ID -o FILE``: the run as a challenge file."""
    if Path(output).expanduser().is_dir():
        raise Fail(f"{printable(output)} is a folder: give the file to write, like -o run.run")
    record, _ = hall.get(run_id)
    dest = hall.export(record.id, output)
    return (
        f"exported run {record.id} to {printable(str(dest))}: send it; "
        "`roguelike runs import FILE` checks it by replay and keeps it\n"
    )


def import_(hall: Hall, source: str) -> str:
    """``runs import FILE``: the challenge checked by replay, then kept."""
    record = hall.import_file(source)
    outcome = record.outcome if record.outcome != "died" else f"died ({record.cause or '?'})"
    return (
        f"imported challenge {record.id}: {printable(record.world)} "
        f"(seed {seeds.shown(record.seed, record.generator)}, "
        f"{record.preset}, {record.difficulty}), {printable(outcome)} on floor {record.floors} of "
        f"{record.total_floors} in {record.turns} turns, score {record.score}; "
        "every claim checked by replay\n"
        f"  watch it:      roguelike replay {record.id}\n"
        f"  play it too:   roguelike {play_flags(record)}\n"
    )


def ladder_json(ladder: Ladder) -> str:
    """``runs ladder --format json``."""
    w = ladder.world
    doc = {
        "world": None
        if w is None
        else {
            "seed": seeds.shown(w.seed, GENERATOR_VERSION),
            "preset": w.preset,
            "difficulty": w.difficulty,
        },
        "daily": ladder.daily,
        "runs": [
            {"rank": n, "file": x.source, **row_json(x.record)}
            for n, x in enumerate(ladder.runs, 1)
        ],
        "refused": [{"file": r.source, "reason": r.reason} for r in ladder.refused],
    }
    return json.dumps(doc, indent=1) + "\n"


def ladder_text(args: argparse.Namespace) -> str:
    """``runs ladder FILE...``: the files read, every run of their world verified (in
    parallel processes), ranked; ``-o``: the verified runs written as one ladder file."""
    if args.jobs is not None and not 1 <= args.jobs <= 64:
        raise Fail("--jobs: give 1 to 64 processes")
    if not 0 < args.deadline <= 86_400:
        raise Fail("--deadline: give a number of seconds above 0, at most a day")
    entries, refused = gather(args.files)
    jobs = args.jobs or min(len(entries), os.cpu_count() or 1, 8)
    ladder = build(entries, refused, jobs=jobs, deadline=args.deadline)
    text = (
        ladder_json(ladder)
        if (args.ladder_format or args.runs_format) == "json"
        else (ladder_table(ladder))
    )
    if args.output is not None:
        path = Path(args.output).expanduser()
        if path.is_dir():
            raise Fail(f"{printable(args.output)} is a folder: give the file to write")
        try:
            check_replaceable(path)
        except NotRegularFile as err:
            raise Fail(f"{printable(str(path))} is {err.strerror}: choose another path") from None
        write_atomic(path, pack_ladder(ladder))
        note = f"wrote {len(ladder.runs)} verified runs to {printable(str(path))}\n"
        if (args.ladder_format or args.runs_format) == "json":
            sys.stderr.write(note)
        else:
            text += note
    return text


def runs_text(args: argparse.Namespace) -> str:
    """What a ``runs`` command prints (errors raise)."""
    hall = Hall(Store(args.save_dir).path)
    what = args.runs_command
    try:
        if what is None:
            return listing(args, hall)
        if what == "show":
            return show(hall, args.run_id)
        if what == "export":
            return export(hall, args.run_id, args.output)
        if what == "ladder":
            return ladder_text(args)
        return import_(hall, args.file)
    except (RunFileError, SaveError) as err:
        raise Fail(printable(str(err))) from None
    except OSError as err:  # a file that cannot be read or written
        where = f"{printable(str(err.filename))}: " if err.filename else ""
        raise Fail(f"{where}{err.strerror or err}") from None


def run(args: argparse.Namespace) -> None:
    sys.stdout.write(runs_text(args))
