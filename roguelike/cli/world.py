"""``roguelike world``: the saved worlds from a shell. ``create``, ``list``, ``export``,
``import``, ``delete`` (which keeps a run not yet over in the hall, as abandoned, before the
world goes, and keeps the world if the hall cannot be written); each takes ``--save-dir`` as
the main parser does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.cli import Fail, Parser
from roguelike.cli.args import add_save_dir_option, preset_sizes
from roguelike.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTY_NAMES, PRESETS
from saves import Store, World
from saves.errors import HallNotWritten, SaveError, StoreError
from saves.text import printable

#: A save that cannot be read, a world that is not there or already is, a name refused.
USER_ERRORS: tuple[type[Exception], ...] = (SaveError, StoreError)


def add_arguments(world: argparse.ArgumentParser) -> None:
    tools = world.add_subparsers(
        dest="world_command",
        metavar="{create,list,export,import,delete}",
        parser_class=Parser,
        required=True,
    )
    create = tools.add_parser("create", help="create a world (not yet played)")
    create.add_argument("name", metavar="NAME", help="the world's name")
    create.add_argument(
        "--seed",
        dest="world_seed",
        metavar="CODE",
        help="a seed code or any text (random if left out)",
    )
    create.add_argument(
        "--preset",
        dest="world_preset",
        choices=list(PRESETS),
        default=DEFAULT_PRESET,
        help=f"{preset_sizes()} ({DEFAULT_PRESET})",
    )
    create.add_argument(
        "--difficulty",
        dest="world_difficulty",
        choices=list(DIFFICULTY_NAMES),
        default=DEFAULT_DIFFICULTY,
        help=f"{', '.join(DIFFICULTY_NAMES)} ({DEFAULT_DIFFICULTY})",
    )
    create.add_argument(
        "--permadeath", action="store_true", help="the world ends with its first death"
    )
    listing = tools.add_parser("list", help="list the saved worlds, the latest first")
    listing.add_argument("--format", choices=["text", "json"], default="text")
    export = tools.add_parser("export", help="copy a world's save to a file")
    export.add_argument("name", metavar="NAME")
    export.add_argument("-o", "--output", metavar="FILE", required=True, help="the file to write")
    imp = tools.add_parser("import", help="add a world from a save file")
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--name", metavar="NEW", help="import it under this name")
    delete = tools.add_parser("delete", help="delete a world and its backup")
    delete.add_argument("name", metavar="NAME")
    delete.add_argument("--yes", action="store_true", help="really delete it (required)")
    for p in (create, listing, export, imp, delete):
        add_save_dir_option(p)


def world_table(infos: list[Any], where: str) -> str:
    """``world list``'s table: a row a world, its problems or state last."""
    if not infos:
        return f"no worlds in {where}\n"
    rows: list[tuple[str, ...]] = [
        ("NAME", "SEED", "PRESET", "DIFFICULTY", "FLOOR", "TURN", "SAVED", "")
    ]
    for i in infos:
        status = i.problem or ", ".join(
            word
            for word, on in (("dead", i.dead), ("won", i.won), ("permadeath", i.permadeath))
            if on
        )
        if i.from_backup and not i.problem:
            status = ", ".join(
                filter(None, [status, "from backup: the save is damaged, the next save repairs it"])
            )
        saved = i.saved[:16].replace("T", " ") if i.saved else "?"
        floor = f"{i.floor}/{i.floors}" if i.floors else "?"
        cells = (
            i.name,
            seeds.shown(i.seed, i.generator) if i.seed else "?",
            i.preset or "?",
            i.difficulty if i.preset else "?",
            floor,
            str(i.turn),
            saved,
            status,
        )
        rows.append(tuple(printable(c) for c in cells))  # every cell may come from a file
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]) - 1)]
    return "".join(
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)).rstrip()
        + ("  " + r[-1] if r[-1] else "")
        + "\n"
        for r in rows
    )


def world_text(args: argparse.Namespace) -> str:
    """What a ``world`` command prints (errors raise)."""
    store = Store(args.save_dir)
    what = args.world_command
    if what == "create":
        world = World.new(
            args.name,
            args.world_seed,
            preset=args.world_preset,
            permadeath=args.permadeath,
            difficulty=args.world_difficulty,
        )
        store.create(world)
        where = store.file(world.name)
        return (
            f"created world {world.name!r}: seed {world.code}, {world.preset}, "
            f"{world.difficulty}, in {where}\n"
        )
    if what == "list":
        infos = store.list()
        if args.format == "json":
            # here, not at the top: the generator (clingo, scipy) keeps start-up heavy
            from roguelike.gen import formats

            return (
                formats.dumps({"dir": str(store.path), "worlds": [i.to_json() for i in infos]})
                + "\n"
            )
        return world_table(infos, str(store.path))
    if what == "export":
        if Path(args.output).is_dir():
            folder = printable(args.output)
            raise Fail(f"{folder} is a folder: give the file to write, like -o world.rgl")
        dest = store.export(args.name, args.output)
        if store.last_warning:  # the backup went out: never without saying so
            print(f"roguelike: warning: {store.last_warning}", file=sys.stderr)
        return f"exported {args.name!r} to {printable(str(dest))}\n"
    if what == "import":
        info = store.import_file(args.file, args.name)
        return (
            f"imported world {info.name!r}: seed {seeds.shown(info.seed, info.generator)}, "
            f"floor {info.floor}/{info.floors}, into {info.path}\n"
        )
    if not args.yes:  # delete
        if not store.exists(args.name):
            raise Fail(f"no world named {args.name!r} in {store.path}")
        raise Fail(f"deleting world {args.name!r} cannot be undone: add --yes to delete it")
    # here, not at the top: the session loads the engine, which keeps start-up heavy
    from saves.session import Games

    try:  # the run is kept in the hall first (if its recording proves it), then the world goes
        kept, why = Games(store).give_up(args.name)
    except HallNotWritten as err:
        raise Fail(f"{err}: world {args.name!r} is not deleted") from None
    if why is not None:
        print(f"roguelike: warning: {printable(why)}", file=sys.stderr)
    store.delete(args.name)
    note = f"; its run is kept in the hall as {kept.id}" if kept is not None else ""
    return f"deleted world {args.name!r}{note}\n"


def run(args: argparse.Namespace) -> None:
    try:
        # names, dates and problems may come from a file: each line is made printable
        lines = world_text(args).split("\n")
        sys.stdout.write("\n".join(printable(line) for line in lines))
    except BrokenPipeError:
        raise
    except OSError as err:  # a file that cannot be read or written
        where = f"{printable(str(err.filename))}: " if err.filename else ""
        raise Fail(f"{where}{err.strerror or err}") from None
