"""The ``roguelike`` command: play (no sub-command), ``generate``, ``puzzle``, ``world``,
``bench``.

Bad input never ends in a traceback: every error a player or script can cause is printed as
one line, ``roguelike: error: …``, with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from roguelike import seeds
from roguelike.version import GAME_VERSION, GENERATOR_VERSION

if TYPE_CHECKING:  # the generator (clingo, scipy) loads only when a command needs it
    from roguelike.autoplay import Result
    from roguelike.gen.topology import DungeonParams

EXIT_BAD_INPUT = 2


class Fail(Exception):
    """An error to report in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not usage + message
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parse_range(text: str) -> tuple[int, int]:
    """``"15:20"`` → (15, 20); ``"7"`` → (7, 7)."""
    parts = text.split(":")
    try:
        if len(parts) == 1:
            return int(parts[0]), int(parts[0])
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"{text!r} is not a number or a range like 15:20")


def parse_seed(text: str) -> int:
    try:
        return seeds.parse(text)
    except seeds.SeedCodeError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def params_from(args: argparse.Namespace) -> DungeonParams:
    """The parameters a command line asks for: the defaults scaled to its rooms and keys, with
    every range it names explicitly put in."""
    rooms = args.rooms or (15, 20)
    keys = 3 if args.keys is None else args.keys
    from roguelike.gen.topology import DungeonParams

    base = DungeonParams.scaled(rooms, keys, args.cycles, args.start_degree)
    return DungeonParams(
        rooms=rooms,
        leaves=args.leaves or base.leaves,
        finish_distance=args.finish_distance or base.finish_distance,
        keys=keys,
        start_degree=args.start_degree,
        max_depth=base.max_depth if args.max_depth is None else args.max_depth,
        cycles=args.cycles,
    )


def add_generator_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("topology parameters (unnamed ranges scale with --rooms)")
    g.add_argument("--rooms", type=parse_range, metavar="LO:HI", help="room count (15:20)")
    g.add_argument("--keys", type=int, help="keys, each with one lock (3)")
    g.add_argument("--leaves", type=parse_range, metavar="LO:HI", help="dead-end rooms (5:9)")
    g.add_argument(
        "--finish-distance",
        type=parse_range,
        metavar="LO:HI",
        help="corridors from start to finish (4:8)",
    )
    g.add_argument("--start-degree", type=int, default=3, help="corridors leaving the start (3)")
    g.add_argument("--max-depth", type=int, metavar="N", help="deepest room (10)")
    g.add_argument("--cycles", type=int, default=0, help="extra corridors that make loops (0)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="roguelike", description="A terminal roguelike of provably completable floors."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"roguelike {GAME_VERSION} (generator {GENERATOR_VERSION})",
    )
    parser.add_argument(
        "--seed",
        dest="play_seed",
        type=parse_seed,
        metavar="CODE",
        help="start this world at once (a seed code or any text), skipping the title screen",
    )
    # the engine's PRESETS (tests/test_flow.py keeps them equal), not imported: the engine pulls
    # in scipy, which every command would then pay for at start-up
    parser.add_argument(
        "--preset",
        choices=["small", "normal", "large"],
        help="the world's size: small 3 floors, normal 5, large 8 (normal)",
    )
    parser.add_argument(
        "--daily",
        action="store_true",
        help="start today's world (by UTC date: the same for every player that day)",
    )
    parser.add_argument(
        "--daily-code", action="store_true", help="print the seed code of today's world and exit"
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="watch the bot play the world of --seed (or a random one); "
        "any game key takes over, and only then is the world saved",
    )
    add_save_dir_option(parser, None)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    gen = sub.add_parser("generate", help="generate one floor and print it")
    gen.add_argument("--seed", type=parse_seed, required=True, help="a seed code or any text")
    gen.add_argument("--floor", type=int, default=1, help="floor number (1)")
    gen.add_argument(
        "--stage",
        choices=["topology", "layout", "stamp", "terrain", "population", "proof"],
        default="proof",
        help="stop after this stage (proof: the whole floor)",
    )
    gen.add_argument("--last", action="store_true", help="make it the last floor (an exit)")
    gen.add_argument("--format", choices=["json", "dot", "ascii"], default="ascii")
    add_generator_options(gen)

    add_puzzle_parser(sub)
    add_world_parser(sub)

    bot = sub.add_parser("bot", help="let the autoplayer play whole worlds headless")
    which = bot.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--seed", dest="bot_seed", type=parse_seed, metavar="CODE", help="play this world"
    )
    which.add_argument(
        "--seeds",
        dest="bot_seeds",
        type=int,
        metavar="N",
        help="play N worlds (seeds 1..N) and report the win rate",
    )
    bot.add_argument(
        "--preset",
        dest="bot_preset",
        choices=["small", "normal", "large"],
        default="normal",
        help="the worlds' size (normal)",
    )
    bot.add_argument("--format", dest="bot_format", choices=["text", "json"], default="text")
    bot.add_argument("--jobs", type=int, default=0, help="processes for --seeds (0: one per core)")
    bench = sub.add_parser(
        "bench", help="measure generation, play and the autoplayer (p50/p95/p99, win rate)"
    )
    bench.add_argument("--seeds", type=int, default=200, help="seeds per measured set (200)")
    bench.add_argument(
        "--only",
        choices=["topology", "floor", "puzzle", "saves", "ui", "bot"],
        help="run one part of the bench",
    )
    return parser


def add_save_dir_option(p: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """``--save-dir``: on the main parser (default None) and again on each ``world`` command
    (SUPPRESS, so that one given before the command is not overwritten)."""
    p.add_argument(
        "--save-dir",
        metavar="DIR",
        default=default,
        help="where worlds are saved (default: $ROGUELIKE_SAVE_DIR, else the user data folder)",
    )


def add_world_parser(sub: Any) -> None:
    world = sub.add_parser("world", help="saved worlds: create, list, export, import, delete")
    tools = world.add_subparsers(
        dest="world_command",
        metavar="{create,list,export,import,delete}",
        parser_class=_Parser,
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
        choices=["small", "normal", "large"],
        default="normal",
        help="small 3 floors, normal 5, large 8 (normal)",
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


def add_puzzle_parser(sub: Any) -> None:
    from roguelike.puzzles import DIFFICULTIES, TYPES

    puzzle = sub.add_parser("puzzle", help="designer tools for the puzzles")
    tools = puzzle.add_subparsers(
        dest="puzzle_command",
        metavar="{generate,solve,play}",
        parser_class=_Parser,
        required=True,
    )
    gen = tools.add_parser("generate", help="generate one puzzle and print it")
    gen.add_argument("--type", choices=TYPES, required=True, help="the puzzle type")
    gen.add_argument("--difficulty", choices=DIFFICULTIES, required=True, help="how hard")
    gen.add_argument("--seed", type=parse_seed, required=True, help="a seed code or any text")
    gen.add_argument("--format", choices=["json", "text"], default="json", help="json (default)")
    tools.add_parser(
        "solve", help="read a puzzle's JSON on stdin, print an optimal solution from its state"
    )
    play = tools.add_parser("play", help="play one puzzle in the terminal")
    play.add_argument("--type", choices=TYPES, required=True, help="the puzzle type")
    play.add_argument("--difficulty", choices=DIFFICULTIES, default="easy", help="how hard (easy)")
    play.add_argument("--seed", type=parse_seed, help="a seed code or any text (a random one)")
    play.add_argument("--coins", type=int, default=5, help="hint coins to spend (5)")


def cmd_generate(args: argparse.Namespace) -> str:
    from roguelike.gen import formats
    from roguelike.gen.floor import generate_floor, params_for_floor

    if args.floor < 1:
        raise Fail(f"floor must be 1 or more, got {args.floor}")
    explicit = any(
        getattr(args, name) is not None
        for name in ("rooms", "leaves", "finish_distance", "max_depth")
    ) or (args.keys, args.cycles, args.start_degree) != (None, 0, 3)
    params = params_from(args) if explicit else params_for_floor(args.floor)
    fl = generate_floor(args.seed, args.floor, params, last=args.last, stop_after=args.stage)
    colour = sys.stdout.isatty()
    if args.format == "dot":
        return formats.topology_dot(args.seed, args.floor, fl.topology)
    if args.format == "json":
        if args.stage == "topology":
            return formats.dumps(formats.topology_json(args.seed, args.floor, fl.topology)) + "\n"
        return formats.dumps(formats.floor_json(fl)) + "\n"
    if fl.tiles is None:
        return formats.topology_ascii(args.seed, args.floor, fl.topology, colour=colour)
    return formats.floor_ascii(fl, colour=colour)


def puzzle_text(p: Any, s: Any) -> str:
    """A puzzle in state ``s`` for a person to read: a title line, then its board (drawn by
    the puzzle's own ``render_text``)."""
    return f"{p.type_name} · {p.difficulty} · par {p.par}\n\n{p.render_text(s)}\n"


def cmd_puzzle_generate(args: argparse.Namespace) -> str:
    from roguelike import puzzles
    from roguelike.gen import formats

    try:
        p = puzzles.generate(args.type, args.difficulty, args.seed)
    except puzzles.GenerationError as err:
        raise Fail(str(err)) from None
    if args.format == "json":
        return formats.dumps(p.to_json()) + "\n"
    return puzzle_text(p, p.initial())


def cmd_puzzle_solve(text: str) -> str:
    """``{"moves": [...]}``: an optimal solution of the puzzle in ``text``, from its state."""
    import json

    from roguelike import puzzles
    from roguelike.gen import formats

    if not text.strip():
        raise Fail("no input: pipe a puzzle's JSON in (roguelike puzzle generate … | …)")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
        raise Fail(f"the input is not JSON: {err}") from None
    try:
        p = puzzles.from_json(doc)
        s = p.state_from_json(doc["state"]) if "state" in doc else p.initial()
    # the cores raise PuzzleFormatError for what they check; a hand-written document can also
    # trip a plain type or value error deeper in, which is still the input's fault
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as err:
        raise Fail(f"not a puzzle: {err}") from None
    try:
        plan = p.solve(s)
    except (ValueError, TypeError, IndexError, OverflowError) as err:
        raise Fail(f"cannot solve this state: {err}") from None
    if plan is None:
        raise Fail("this puzzle cannot be solved from its state")
    return formats.dumps({"moves": [p.move_to_json(m) for m in plan]}) + "\n"


def cmd_puzzle_play(args: argparse.Namespace) -> str:
    """Play one puzzle on the puzzle screen; returns a line saying how it went."""
    from roguelike import puzzles

    if args.coins < 0:
        raise Fail(f"--coins must be 0 or more, got {args.coins}")
    seed = seeds.random_seed() if args.seed is None else args.seed
    try:
        p = puzzles.generate(args.type, args.difficulty, seed)
    except puzzles.GenerationError as err:
        raise Fail(str(err)) from None
    from screens.puzzle import PuzzleApp  # Textual is imported only to play

    outcome = PuzzleApp(p, coins=args.coins).run()
    what = f"{args.type} · {args.difficulty} · seed {seeds.encode(seed)}"
    if outcome is None:
        return f"{what}: not played\n"
    n = outcome.move_count
    moves = f"{n} move{'' if n == 1 else 's'}"
    if outcome.solved:
        return f"{what}: solved in {moves} (par {p.par}), score {outcome.score}\n"
    return f"{what}: left unsolved after {moves}\n"


def _read_stdin() -> str:
    try:
        return sys.stdin.read()
    except UnicodeDecodeError:
        raise Fail("the input is not UTF-8 text") from None


def _world_table(infos: list[Any], where: str) -> str:
    if not infos:
        return f"no worlds in {where}\n"
    rows = [("NAME", "SEED", "PRESET", "FLOOR", "TURN", "SAVED", "")]
    for i in infos:
        status = i.problem or ", ".join(
            word
            for word, on in (("dead", i.dead), ("won", i.won), ("permadeath", i.permadeath))
            if on
        )
        if i.from_backup and not i.problem:
            status = ", ".join(filter(None, [status, "from backup: the save is damaged"]))
        saved = i.saved[:16].replace("T", " ") if i.saved else "?"
        floor = f"{i.floor}/{i.floors}" if i.floors else "?"
        rows.append((i.name, i.seed or "?", i.preset or "?", floor, str(i.turn), saved, status))
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]) - 1)]
    return "".join(
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)).rstrip()
        + ("  " + r[-1] if r[-1] else "")
        + "\n"
        for r in rows
    )


def cmd_world(args: argparse.Namespace) -> str:
    """The ``world`` commands: what they print (errors raise)."""
    from roguelike.gen import formats
    from saves import Store, World

    store = Store(args.save_dir)
    what = args.world_command
    if what == "create":
        world = World.new(
            args.name, args.world_seed, preset=args.world_preset, permadeath=args.permadeath
        )
        store.create(world)
        where = store.file(world.name)
        return f"created world {world.name!r}: seed {world.code}, {world.preset}, in {where}\n"
    if what == "list":
        infos = store.list()
        if args.format == "json":
            return (
                formats.dumps({"dir": str(store.path), "worlds": [i.to_json() for i in infos]})
                + "\n"
            )
        return _world_table(infos, str(store.path))
    if what == "export":
        from pathlib import Path

        if Path(args.output).is_dir():
            raise Fail(f"{args.output} is a folder: give the file to write, like -o world.rgl")
        dest = store.export(args.name, args.output)
        return f"exported {args.name!r} to {dest}\n"
    if what == "import":
        info = store.import_file(args.file, args.name)
        return (
            f"imported world {info.name!r}: seed {info.seed}, "
            f"floor {info.floor}/{info.floors}, into {info.path}\n"
        )
    if what == "delete":
        if not args.yes:
            if not store.exists(args.name):
                raise Fail(f"no world named {args.name!r} in {store.path}")
            raise Fail(f"deleting world {args.name!r} cannot be undone: add --yes to delete it")
        store.delete(args.name)
        return f"deleted world {args.name!r}\n"
    raise Fail(f"unknown world command {what!r}")  # pragma: no cover - argparse checks it


def cmd_bench(args: argparse.Namespace) -> None:
    from roguelike import bench

    if args.seeds < 1:
        raise Fail("--seeds must be at least 1")
    for line in bench.run(args.seeds, args.only):
        print(line, flush=True)
    if args.only in (None, "saves"):
        from saves.bench import save_bench_lines  # saves import roguelike, not the reverse

        for line in save_bench_lines(args.seeds):
            print(line, flush=True)
    if args.only in (None, "ui"):
        from screens.bench import ui_lines  # Textual only when the UI is measured

        for line in ui_lines(args.seeds):
            print(line, flush=True)
    if args.only in (None, "bot"):
        from roguelike.autoplay import BENCH_WORLDS, bench_lines

        for line in bench_lines(min(args.seeds, BENCH_WORLDS), "normal"):
            print(line, flush=True)


def _bot_result(r: Result) -> dict[str, Any]:
    return {
        "seed": seeds.encode(r.seed),
        "won": r.won,
        "floors": r.floors,
        "turns": r.turns,
        "cause": r.cause,
        "seconds": round(r.seconds, 2),
    }


def cmd_bot(args: argparse.Namespace) -> str:
    """``bot --seed``: one world, one result. ``bot --seeds N``: N worlds (seed codes of the
    texts ``bot-1`` … ``bot-N``), in parallel processes, then the win rate and every loss."""
    import json

    from roguelike.autoplay import bot_seeds, play_many, play_seed

    if args.bot_seed is not None:
        result = _bot_result(play_seed(args.bot_seed, args.bot_preset))
        if args.bot_format == "json":
            return json.dumps(result) + "\n"
        verdict = "won" if result["won"] else "lost"
        return (
            f"{result['seed']} {args.bot_preset}: {verdict} ({result['cause']}), "
            f"{result['floors']} floors reached in {result['turns']} turns, {result['seconds']} s\n"
        )
    if args.bot_seeds < 1:
        raise Fail("--seeds must be at least 1")
    if args.jobs < 0:
        raise Fail("--jobs must be 0 (one per core) or more")
    played = play_many(bot_seeds(args.bot_seeds), args.bot_preset, args.jobs)
    results = [_bot_result(r) for r in played]
    won = sum(r["won"] for r in results)
    losses = [r for r in results if not r["won"]]
    if args.bot_format == "json":
        doc = {"preset": args.bot_preset, "worlds": len(results), "won": won, "results": results}
        return json.dumps(doc, indent=1) + "\n"
    lines = [f"{won}/{len(results)} {args.bot_preset} worlds won ({100 * won / len(results):.0f}%)"]
    lines += [f"  lost {r['seed']}: {r['cause']}" for r in losses]
    return "\n".join(lines) + "\n"


def cmd_play(args: argparse.Namespace, make_app: Callable[..., Any] | None = None) -> None:
    """The game: the title screen, or the world of ``--seed`` at once (``--watch``: the bot
    plays it), saved in ``--save-dir``. ``make_app``: the app's class (tests pass a recorder)."""
    if make_app is None:
        from screens.app import RoguelikeApp  # Textual is imported only to play

        make_app = RoguelikeApp

    make_app(
        seed=args.play_seed, preset=args.preset, watch=args.watch, save_dir=args.save_dir
    ).run()


def _user_errors() -> tuple[type[Exception], ...]:
    """The errors a player or a script can cause, reported in one line. Imported here, not
    at the top, so that starting the game does not load the generator before its first
    screen."""
    from roguelike.gen.layout import LayoutError
    from roguelike.gen.topology import ParamsError, TopologyError
    from saves.errors import SaveError, StoreError

    return (
        Fail,
        ParamsError,
        TopologyError,
        LayoutError,
        seeds.SeedCodeError,
        SaveError,
        StoreError,
    )


def _daily_seed() -> int:
    from saves.world import daily_seed

    return daily_seed()


def main(argv: Sequence[str] | None = None, *, make_app: Callable[..., Any] | None = None) -> int:
    """The command line; ``make_app``: the game's app class (None: the Textual app)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.watch and args.command:
            raise Fail(f"--watch starts a game: it does not go with {args.command}")
        if args.watch and (args.daily or args.daily_code):
            raise Fail("--watch does not go with --daily or --daily-code")
        if args.command and (args.play_seed is not None or args.preset):
            raise Fail(f"--seed and --preset start a game: they do not go with {args.command}")
        if args.command and (args.daily or args.daily_code):
            raise Fail(f"--daily and --daily-code do not go with {args.command}")
        if args.daily and args.play_seed is not None:
            raise Fail("--daily starts today's world: it does not go with --seed")
        if args.daily_code:
            print(seeds.encode(_daily_seed()))
        elif args.command == "world":
            try:
                sys.stdout.write(cmd_world(args))
            except BrokenPipeError:
                raise
            except OSError as err:  # a file that cannot be read or written
                where = f"{err.filename}: " if err.filename else ""
                raise Fail(f"{where}{err.strerror or err}") from None
        elif args.command == "generate":
            sys.stdout.write(cmd_generate(args))
        elif args.command == "puzzle" and args.puzzle_command == "generate":
            sys.stdout.write(cmd_puzzle_generate(args))
        elif args.command == "puzzle" and args.puzzle_command == "solve":
            sys.stdout.write(cmd_puzzle_solve(_read_stdin()))
        elif args.command == "puzzle" and args.puzzle_command == "play":
            sys.stdout.write(cmd_puzzle_play(args))
        elif args.command == "bench":
            cmd_bench(args)
        elif args.command == "bot":
            sys.stdout.write(cmd_bot(args))
        else:
            if args.daily:
                args.play_seed = _daily_seed()
            cmd_play(args, make_app)
    except _user_errors() as err:  # evaluated only when something was raised
        print(f"roguelike: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `roguelike generate … | head`
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
