"""``roguelike generate``: one floor, printed as ASCII (the default), JSON or a Graphviz graph,
after the whole pipeline or the stage ``--stage`` names."""

from __future__ import annotations

import argparse
import sys

from roguelike.cli import Fail
from roguelike.cli.args import add_generator_options, parse_seed
from roguelike.gen import STAGES, formats
from roguelike.gen.layout import LayoutError
from roguelike.gen.pipeline import generate_floor
from roguelike.gen.topology import DungeonParams, ParamsError, TopologyError, params_for_floor

#: Parameters no floor can meet, and the rare floor the generator cannot build.
USER_ERRORS: tuple[type[Exception], ...] = (ParamsError, TopologyError, LayoutError)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=parse_seed, required=True, help="a seed code or any text")
    p.add_argument("--floor", type=int, default=1, help="floor number (1)")
    p.add_argument(
        "--stage",
        choices=STAGES,
        default="proof",
        help="stop after this stage (proof: the whole floor)",
    )
    p.add_argument("--last", action="store_true", help="make it the last floor (an exit)")
    p.add_argument("--format", choices=["json", "dot", "ascii"], default="ascii")
    add_generator_options(p)


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
        max_depth=base.max_depth if args.max_depth is None else args.max_depth,
        cycles=args.cycles,
    )


def floor_text(args: argparse.Namespace) -> str:
    """The floor the command line asks for, as it prints it (colour only on a terminal)."""
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
        return formats.dumps(formats.stage_json(fl)) + "\n"
    return formats.stage_ascii(fl, colour=colour)


def run(args: argparse.Namespace) -> None:
    sys.stdout.write(floor_text(args))
