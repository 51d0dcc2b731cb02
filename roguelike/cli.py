"""The ``roguelike`` command: play (no sub-command), ``generate``, ``puzzle``, ``bench``.

Bad input never ends in a traceback: every error a player or script can cause is printed as
one line, ``roguelike: error: …``, with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from roguelike import seeds
from roguelike.version import GAME_VERSION, GENERATOR_VERSION

if TYPE_CHECKING:  # the generator (clingo, scipy) loads only when a command needs it
    from roguelike.topology import DungeonParams

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
    from roguelike.topology import DungeonParams

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

    bench = sub.add_parser("bench", help="measure generation speed (p50/p95/p99)")
    bench.add_argument("--seeds", type=int, default=200, help="seeds per measured set (200)")
    bench.add_argument(
        "--only",
        choices=["topology", "floor", "puzzle", "ui"],
        help="run one part of the bench",
    )
    return parser


def add_puzzle_parser(sub: Any) -> None:
    from roguelike.puzzles import DIFFICULTIES, TYPES

    puzzle = sub.add_parser("puzzle", help="designer tools for the puzzles")
    tools = puzzle.add_subparsers(
        dest="puzzle_command", metavar="{generate,solve}", parser_class=_Parser, required=True
    )
    gen = tools.add_parser("generate", help="generate one puzzle and print it")
    gen.add_argument("--type", choices=TYPES, required=True, help="the puzzle type")
    gen.add_argument("--difficulty", choices=DIFFICULTIES, required=True, help="how hard")
    gen.add_argument("--seed", type=parse_seed, required=True, help="a seed code or any text")
    gen.add_argument("--format", choices=["json", "text"], default="json", help="json (default)")
    tools.add_parser(
        "solve", help="read a puzzle's JSON on stdin, print an optimal solution from its state"
    )


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


def _side_by_side(blocks: list[list[str]], gap: str = "   ") -> list[str]:
    """Text blocks next to one another, each padded to its widest line."""
    height = max(len(b) for b in blocks)
    widths = [max((len(line) for line in b), default=0) for b in blocks]
    return [
        gap.join(
            (b[i] if i < len(b) else "").ljust(w) for b, w in zip(blocks, widths, strict=True)
        ).rstrip()
        for i in range(height)
    ]


def _keydoor_text(p: Any, s: Any) -> list[str]:
    room, held, where, opened = s
    lines = []
    for r in range(1, p.rooms + p.branch + 1):
        notes = []
        if r == 1:
            notes.append("start")
        if r == p.rooms:
            notes.append("goal")
        if p.branch and r == p.junction:
            notes.append("the side branch leaves here")
        if k := p.door_at(r):
            notes.append(f"door {k} " + ("(open)" if opened >> (k - 1) & 1 else "(locked)"))
        notes += [f"key {k + 1}" for k, at in enumerate(where) if at == r]
        if r == room:
            notes.append("YOU")
        lines.append((f"{p.room_name(r):<14} " + ", ".join(notes)).rstrip())
    lines.append(f"holding: key {held}" if held else "holding: nothing")
    return lines


def puzzle_text(p: Any, s: Any) -> str:
    """A puzzle in state ``s`` for a person to read: a title line, then its board."""
    from roguelike.puzzles.base import ordinal_letter

    t = p.type_name
    lines = [f"{t} · {p.difficulty} · par {p.par}", ""]
    if t == "jugs":
        for i, (cap, now) in enumerate(zip(p.capacities, s, strict=True)):
            lines.append(f"jug {ordinal_letter(i)}  {cap:>3} L  holds {now} L")
        lines.append(f"goal: {p.goal_text()}")
    elif t == "sliding":
        n = p.size
        width = len(str(n * n - 1))
        lines += [
            " ".join(str(v).rjust(width) if v else ".".rjust(width) for v in s[r * n : r * n + n])
            for r in range(n)
        ]
        lines.append(f"goal: 1 to {n * n - 1} in reading order, the gap (.) last")
    elif t == "stomp":
        lines += _side_by_side([["now", *p.state_to_json(s)], ["target", *p.rows(p.target)]])
        lines.append("# lit, . dark; stomping a cell flips it and its four neighbours")
    elif t == "ball":
        lines += p.picture(s)
        lines.append("O the ball, letters blocks, # wall; get the ball to the gap in the bottom")
    elif t == "hatgram":
        lines += p.picture(s)
        lines += ["", "pieces (turn and flip them freely):"]
        blocks = []
        for i, shape in enumerate(p.pieces):
            rows = max(r for r, _ in shape) + 1
            cols = max(c for _, c in shape) + 1
            grid = [["."] * cols for _ in range(rows)]
            for r, c in shape:
                grid[r][c] = ordinal_letter(i)
            blocks.append(["".join(row) for row in grid])
        lines += _side_by_side(blocks)
    elif t == "keydoor":
        lines += _keydoor_text(p, s)
    return "\n".join(lines) + "\n"


def cmd_puzzle_generate(args: argparse.Namespace) -> str:
    from roguelike import formats, puzzles

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

    from roguelike import formats, puzzles

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


def _read_stdin() -> str:
    try:
        return sys.stdin.read()
    except UnicodeDecodeError:
        raise Fail("the input is not UTF-8 text") from None


def cmd_bench(args: argparse.Namespace) -> None:
    from roguelike import bench

    if args.seeds < 1:
        raise Fail("--seeds must be at least 1")
    for line in bench.run(args.seeds, args.only):
        print(line, flush=True)
    if args.only in (None, "ui"):
        from screens.bench import ui_lines  # Textual only when the UI is measured

        for line in ui_lines(args.seeds):
            print(line, flush=True)


def cmd_play(args: argparse.Namespace) -> None:
    """The game: the title screen, or the world of ``--seed`` at once."""
    from screens.app import RoguelikeApp  # Textual is imported only to play

    RoguelikeApp(seed=args.play_seed, preset=args.preset).run()


def _user_errors() -> tuple[type[Exception], ...]:
    """The errors a player or a script can cause, reported in one line. Imported here, not
    at the top, so that starting the game does not load the generator before its first
    screen."""
    from roguelike.layout import LayoutError
    from roguelike.topology import ParamsError, TopologyError

    return (Fail, ParamsError, TopologyError, LayoutError, seeds.SeedCodeError)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command and (args.play_seed is not None or args.preset):
            raise Fail(f"--seed and --preset start a game: they do not go with {args.command}")
        if args.command == "generate":
            sys.stdout.write(cmd_generate(args))
        elif args.command == "puzzle" and args.puzzle_command == "generate":
            sys.stdout.write(cmd_puzzle_generate(args))
        elif args.command == "puzzle" and args.puzzle_command == "solve":
            sys.stdout.write(cmd_puzzle_solve(_read_stdin()))
        elif args.command == "bench":
            cmd_bench(args)
        else:
            cmd_play(args)
    except _user_errors() as err:  # evaluated only when something was raised
        print(f"roguelike: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # `roguelike generate … | head`
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
