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
    base = DungeonParams.scaled(rooms, args.keys, args.cycles, args.start_degree)
    return DungeonParams(
        rooms=rooms,
        leaves=args.leaves or base.leaves,
        finish_distance=args.finish_distance or base.finish_distance,
        keys=args.keys,
        start_degree=args.start_degree,
        max_depth=args.max_depth or base.max_depth,
        cycles=args.cycles,
    )


def add_generator_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("topology parameters (unnamed ranges scale with --rooms)")
    g.add_argument("--rooms", type=parse_range, metavar="LO:HI", help="room count (15:20)")
    g.add_argument("--keys", type=int, default=3, help="keys, each with one lock (3)")
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
        "--stage", choices=["topology"], default="topology", help="stop after this stage"
    )
    gen.add_argument("--format", choices=["json", "dot", "ascii"], default="ascii")
    add_generator_options(gen)

    bench = sub.add_parser("bench", help="measure generation speed (p50/p95/p99)")
    bench.add_argument("--seeds", type=int, default=200, help="seeds per measured set (200)")
    bench.add_argument("--only", choices=["topology"], help="run one part of the bench")
    return parser


def cmd_generate(args: argparse.Namespace) -> str:
    from roguelike import formats
    from roguelike.topology import generate_topology

    if args.floor < 1:
        raise Fail(f"floor must be 1 or more, got {args.floor}")
    topo = generate_topology(args.seed, args.floor, params_from(args))
    if args.format == "json":
        return formats.dumps(formats.topology_json(args.seed, args.floor, topo)) + "\n"
    if args.format == "dot":
        return formats.topology_dot(args.seed, args.floor, topo)
    return formats.topology_ascii(args.seed, args.floor, topo, colour=sys.stdout.isatty())


def cmd_bench(args: argparse.Namespace) -> str:
    from roguelike import bench

    if args.seeds < 1:
        raise Fail("--seeds must be at least 1")
    return bench.run(args.seeds, args.only)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "generate":
            sys.stdout.write(cmd_generate(args))
        elif args.command == "bench":
            sys.stdout.write(cmd_bench(args))
        else:
            from screens.app import RoguelikeApp

            RoguelikeApp().run()
    except (Fail, ParamsError, TopologyError, seeds.SeedCodeError) as err:
        print(f"roguelike: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `roguelike generate … | head`
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
