"""The ``roguelike`` command: play (no sub-command), ``generate``, ``bench``.

Bad input never ends in a traceback: every error a player or script can cause is printed as
one line, ``roguelike: error: …``, with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from roguelike import seeds
from roguelike.layout import LayoutError
from roguelike.topology import DungeonParams, ParamsError, TopologyError
from roguelike.version import GAME_VERSION, GENERATOR_VERSION

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
    base = DungeonParams.scaled(rooms, keys, args.cycles, args.start_degree)
    return DungeonParams(
        rooms=rooms,
        leaves=args.leaves or base.leaves,
        finish_distance=args.finish_distance or base.finish_distance,
        keys=keys,
        start_degree=args.start_degree,
        max_depth=args.max_depth or base.max_depth,
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

    bench = sub.add_parser("bench", help="measure generation speed (p50/p95/p99)")
    bench.add_argument("--seeds", type=int, default=200, help="seeds per measured set (200)")
    bench.add_argument("--only", choices=["topology", "floor"], help="run one part of the bench")
    return parser


def cmd_generate(args: argparse.Namespace) -> str:
    from roguelike import formats
    from roguelike.floor import generate_floor, params_for_floor

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


def cmd_bench(args: argparse.Namespace) -> None:
    from roguelike import bench

    if args.seeds < 1:
        raise Fail("--seeds must be at least 1")
    for line in bench.run(args.seeds, args.only):
        print(line, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "generate":
            sys.stdout.write(cmd_generate(args))
        elif args.command == "bench":
            cmd_bench(args)
        else:
            from screens.app import RoguelikeApp

            RoguelikeApp().run()
    except (Fail, ParamsError, TopologyError, LayoutError, seeds.SeedCodeError) as err:
        print(f"roguelike: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `roguelike generate … | head`
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
