"""``roguelike serve``: the game in a web browser, one game process per tab (textual-serve).

``--host`` (127.0.0.1: this machine only) and ``--port`` (8000) say where it listens; binding
anything else is explicit and said on start. Each tab runs ``roguelike --served`` in a process
of its own, saving in ``--save-dir`` (the default folder if none); a tab's URL may start a world
directly (``?seed=CODE``, ``?daily``, ``?replay=RUN``): see :mod:`screens.web.start` for the
parameters, :mod:`screens.web.club` for a club's players and :mod:`screens.web.server` for what
is extended around textual-serve (a tab that goes never loses its game, uploads, the page). This
command only reads its options and starts that server.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from roguelike.cli import Fail
from roguelike.cli.args import add_save_dir_option

#: Errors the command can cause beyond the ones every command reports.
USER_ERRORS: tuple[type[Exception], ...] = ()
#: The most a port can be.
MAX_PORT = 65535
#: The most ``--games`` may be (each game is a process of its own).
MAX_GAMES_BOUND = 256


def port(text: str) -> int:
    """A TCP port from the command line (0 is refused: a player needs to know the port)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= n <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"{n} is not a port (1 to {MAX_PORT})")
    return n


def games(text: str) -> int:
    """The most games at once, from the command line (1 to ``MAX_GAMES_BOUND``)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of games") from None
    if not 1 <= n <= MAX_GAMES_BOUND:
        raise argparse.ArgumentTypeError(f"{n} games: give 1 to {MAX_GAMES_BOUND}")
    return n


def seconds(text: str) -> float:
    """A time from the command line: 1 s to a day, in seconds."""
    try:
        n = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 1 <= n <= 86400:
        raise argparse.ArgumentTypeError(f"{text} s: give 1 to 86400")
    return n


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 lets any machine that reaches this one play)",
    )
    p.add_argument("--port", type=port, default=8000, help="the port to listen on (8000)")
    p.add_argument(
        "--games",
        type=games,
        default=16,
        help="the most games running at once (16); a tab beyond them is asked to try later",
    )
    p.add_argument(
        "--club",
        action="store_true",
        help="host a club: each browser picks a player name and keeps it, each player's "
        "worlds are their own, the hall is shared, games in progress can be watched (/watch: "
        "replayed from their inputs, a daily 50 turns behind)",
    )
    p.add_argument(
        "--idle",
        type=seconds,
        default=1800.0,
        metavar="SECONDS",
        help="a club's game without a key this long is saved and ended (1800)",
    )
    add_save_dir_option(p)


def run(args: argparse.Namespace) -> None:
    # here, not at the top: the server loads aiohttp and the saves, which no other command needs
    from screens.web.club import RegisterDamaged
    from screens.web.server import GameServer

    save_dir = getattr(args, "save_dir", None)
    if save_dir is not None:  # the games run in processes of their own: one folder for all
        save_dir = str(Path(save_dir).expanduser().resolve())
    try:
        GameServer(
            save_dir,
            args.host,
            args.port,
            args.games,
            club=args.club,
            idle=args.idle,
        ).serve()
    except RegisterDamaged as err:
        raise Fail(str(err)) from None
    except OSError as err:  # the port is taken, the address is not this machine's
        raise Fail(f"cannot serve on {args.host}:{args.port}: {err.strerror or err}") from None
