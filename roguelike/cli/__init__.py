"""The ``roguelike`` command: play (no sub-command), ``generate``, ``puzzle``, ``world``,
``runs``, ``replay``, ``serve``, ``bot``, ``bench``.

One module per command: :mod:`.play` (the game, and the main parser's own options),
:mod:`.generate`, :mod:`.puzzle`, :mod:`.world`, :mod:`.runs`, :mod:`.replay`, :mod:`.serve`,
:mod:`.bot` and
the package :mod:`.bench`;
:mod:`.args` holds the options several commands share. This package is the one place that
may import every layer (screens, saves, the game, asp).

Start-up time: the generator (clingo, scipy) and Textual take about a second to import, so
only what a command needs is loaded. Each command module imports what it needs at its top,
and is itself imported only when the command line names its command: the main parser lists
the commands with a line of help each, and a command's own options are added by its module
(``add_arguments``) once argparse reaches that command, which then runs (``run``). The game's
options belong to the main parser, so :mod:`.play` is always loaded and keeps its two heavy
imports (Textual, the saves) inside the function that starts the game.

Bad input never ends in a traceback: every error a player or script can cause is printed as
one line, ``roguelike: error: …``, with exit status 2. The errors each command can cause are
its module's ``USER_ERRORS``. One answer is not a mistake of the input but a finding: a
recording that reads well but does not replay to what its record claims (``replay --verify``)
is reported the same way with exit status 1 (:class:`Mismatch`), so a script can tell "this run
is false" from "this is not a run file".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any, NoReturn

from roguelike import seeds
from roguelike.cli import args as shared
from roguelike.cli import play
from roguelike.version import GAME_VERSION, GENERATOR_VERSION

EXIT_BAD_INPUT = 2
#: A run file that reads, but whose recording does not replay to its record's claims.
EXIT_MISMATCH = 1

#: The sub-commands, in the order ``--help`` lists them: the module that adds its options and
#: runs it, and its line of help.
COMMANDS: dict[str, tuple[str, str]] = {
    "generate": ("roguelike.cli.generate", "generate one floor and print it"),
    "puzzle": ("roguelike.cli.puzzle", "designer tools for the puzzles"),
    "world": ("roguelike.cli.world", "saved worlds: create, list, export, import, delete"),
    "runs": (
        "roguelike.cli.runs",
        "the hall of finished runs: list, show, export and import challenges",
    ),
    "replay": ("roguelike.cli.replay", "watch a recorded run, or --verify it headless"),
    "serve": ("roguelike.cli.serve", "play in a web browser: a game per tab, saved when it goes"),
    "bot": ("roguelike.cli.bot", "let the autoplayer play whole worlds headless"),
    "bench": (
        "roguelike.cli.bench",
        "measure generation, play and the autoplayer (p50/p95/p99, win rate)",
    ),
}


class Fail(Exception):
    """An error to report in one line."""

    status = EXIT_BAD_INPUT


class Mismatch(Fail):
    """A recording that does not replay to what its record claims (see the module)."""

    status = EXIT_MISMATCH


class Parser(argparse.ArgumentParser):
    """An argument parser that reports a mistake in one line, not usage and message."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Commands(argparse._SubParsersAction):
    """The sub-commands; each one's options are added by its module when argparse reaches the
    command on the command line, so only that command's module is imported."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._filled: set[str] = set()

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        name = values[0]  # argparse checked it is one of the commands
        if name not in self._filled:
            command_module(name).add_arguments(self._name_parser_map[name])
            self._filled.add(name)
        super().__call__(parser, namespace, values, option_string)


def command_module(name: str | None) -> ModuleType:
    """The module of a sub-command (None: the game)."""
    return play if name is None else import_module(COMMANDS[name][0])


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="roguelike", description="A terminal roguelike of provably completable floors."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"roguelike {GAME_VERSION} (generator {GENERATOR_VERSION})",
    )
    play.add_options(parser)
    shared.add_save_dir_option(parser, None)
    sub = parser.add_subparsers(dest="command", parser_class=Parser, action=_Commands)
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text)
    return parser


def check_game_options(args: argparse.Namespace) -> None:
    """Refuse the game's options where they cannot go: with a sub-command, or together."""
    if args.watch and args.command:
        raise Fail(f"--watch starts a game: it does not go with {args.command}")
    if args.watch and (args.daily or args.daily_code):
        raise Fail("--watch does not go with --daily or --daily-code")
    if args.command and (args.play_seed is not None or args.preset or args.play_difficulty):
        raise Fail(
            f"--seed, --preset and --difficulty start a game: they do not go with {args.command}"
        )
    if args.daily and args.play_difficulty:
        raise Fail("--daily is the same world for everyone, at normal: not with --difficulty")
    if args.command and (args.daily or args.daily_code):
        raise Fail(f"--daily and --daily-code do not go with {args.command}")
    if args.import_file is not None and not args.served:
        raise Fail("--import-file is for a browser tab's game (roguelike serve)")
    if args.import_file is not None and (args.command or args.play_seed is not None or args.daily):
        raise Fail("--import-file opens the challenge import: it starts nothing else")
    for given, option in ((args.live_stream, "--live-stream"), (args.follow, "--follow")):
        if given is not None and not args.served:
            raise Fail(f"{option} is for a browser tab's game (roguelike serve)")
    if args.follow is not None and (
        args.command or args.play_seed is not None or args.daily or args.import_file is not None
    ):
        raise Fail("--follow watches a game: it starts nothing else")
    if args.served and args.command not in (None, "replay"):
        raise Fail(f"--served is for a browser tab's game: not with {args.command}")
    if args.daily and args.play_seed is not None:
        raise Fail("--daily starts today's world: it does not go with --seed")


def undecodable(argv: Sequence[str]) -> str | None:
    """The one line that refuses an argument that is not UTF-8 text (bytes from a shell, which
    Python keeps as surrogate escapes: a seed, a name, a path or a code), or None."""
    for i, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = repr(arg.encode("utf-8", "surrogateescape"))[2:-1]  # every byte visible
            return (
                f"argument {i} ({shown[:60]}) is not UTF-8 text: seeds, names, codes and "
                "paths must be"
            )
    return None


def main(argv: Sequence[str] | None = None, *, make_app: Callable[..., Any] | None = None) -> int:
    """The command line; ``make_app``: the game's app class (None: the Textual app)."""
    bad = undecodable(sys.argv[1:] if argv is None else argv)
    if bad is not None:  # before argparse, which would echo it back
        print(f"roguelike: error: {bad}", file=sys.stderr)
        return EXIT_BAD_INPUT
    args = build_parser().parse_args(argv)
    command = command_module(args.command)
    try:
        check_game_options(args)
        if command is play:
            play.run(args, make_app)
        else:
            command.run(args)
    except (Fail, seeds.SeedCodeError, *command.USER_ERRORS) as err:
        # the last guard of the one-line rule: a message may quote a file's text or a path,
        # so its control characters (a newline, an escape sequence) are shown, never acted on;
        # imported here, on the way out, as the saves package loads numpy
        from saves.text import printable

        print(f"roguelike: error: {printable(str(err))}", file=sys.stderr)
        return err.status if isinstance(err, Fail) else EXIT_BAD_INPUT
    except BrokenPipeError:  # `roguelike generate … | head`
        return 0
    return 0
