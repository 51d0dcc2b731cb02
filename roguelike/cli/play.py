"""``roguelike`` with no sub-command: the game. The title screen; ``--seed`` (with
``--preset``) starts that world at once, ``--daily`` today's world, ``--watch`` has the bot play
it; ``--daily-code`` prints the seed code of today's world. :func:`watch_replay` opens the app
straight into the replay viewer (what ``roguelike replay FILE|RUN`` does).

These options belong to the main parser, so this module is loaded by every command: the saves
and Textual are imported only in the functions that need them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from roguelike import seeds
from roguelike.cli.args import parse_seed, preset_sizes
from roguelike.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTY_NAMES, PRESETS

if TYPE_CHECKING:
    from saves.record import RunRecord

#: Errors the game's options can cause beyond the ones every command reports.
USER_ERRORS: tuple[type[Exception], ...] = ()


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--seed",
        dest="play_seed",
        type=parse_seed,
        metavar="CODE",
        help="start this world at once (a seed code or any text), skipping the title screen",
    )
    p.add_argument(
        "--preset",
        choices=list(PRESETS),
        help=f"the world's size: {preset_sizes()} ({DEFAULT_PRESET})",
    )
    p.add_argument(
        "--difficulty",
        dest="play_difficulty",
        choices=list(DIFFICULTY_NAMES),
        help=f"the new world's difficulty: {', '.join(DIFFICULTY_NAMES)} ({DEFAULT_DIFFICULTY})",
    )
    p.add_argument(
        "--daily",
        action="store_true",
        help="start today's world (by UTC date: the same for every player that day)",
    )
    p.add_argument(
        "--daily-code", action="store_true", help="print the seed code of today's world and exit"
    )
    # set by ``roguelike serve`` for the game of a browser tab, never typed: hidden
    p.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--import-file", metavar="FILE", help=argparse.SUPPRESS)
    p.add_argument("--live-stream", metavar="FILE", help=argparse.SUPPRESS)
    p.add_argument("--follow", metavar="FILE", help=argparse.SUPPRESS)
    p.add_argument(
        "--watch",
        action="store_true",
        help="watch the bot play the world of --seed (or a random one); "
        "any game key takes over, and only then is the world saved",
    )


def run(args: argparse.Namespace, make_app: Callable[..., Any] | None = None) -> None:
    """Print today's code, or play: the title screen, or the world of ``--seed`` (or today's)
    at once. ``make_app``: the app's class (None: the Textual app; tests pass a recorder)."""
    from saves.world import daily_seed  # here, not at the top: no other command needs the saves

    if args.daily_code:
        print(seeds.encode(daily_seed()))
        return
    if args.daily:
        args.play_seed = daily_seed()
    start(args, make_app)


def start(args: argparse.Namespace, make_app: Callable[..., Any] | None = None) -> None:
    """The app, on the title screen or in the world of ``--seed`` (``--watch``: the bot plays
    it), saving in ``--save-dir`` (None: the default folder)."""
    served: dict[str, Any] = {}
    if getattr(args, "served", False):  # a browser tab's game (roguelike serve)
        served = {
            "daily": args.daily,
            "import_file": args.import_file,
            "live_stream": args.live_stream,
            "follow": args.follow,
        }
    if make_app is None:
        # Textual loads only when a game starts
        if served:
            from screens.served import ServedApp

            make_app = ServedApp
        else:
            from screens.lasting import LastingApp  # saved when told to end (SIGHUP…)

            make_app = LastingApp
    app = make_app(
        seed=args.play_seed,
        preset=args.preset,
        difficulty=args.play_difficulty,
        watch=args.watch,
        save_dir=args.save_dir,
        pregenerate="process",  # the next floor is made while the player plays
        **served,
    )
    app.run()
    unsaved = getattr(app, "unsaved", None)  # the app closed and its game could not be saved
    if unsaved:
        from roguelike.cli import Fail  # the package imports this module first: not at its top

        raise Fail(unsaved)


def watch_replay(
    args: argparse.Namespace, record: RunRecord, make_app: Callable[..., Any] | None = None
) -> None:
    """The app, showing ``record``'s recording in the replay viewer at once (over the title,
    where Esc leads), saving in ``args.save_dir`` (None: the default folder). ``make_app``:
    the app's class (None: the Textual app; tests pass a recorder)."""
    if make_app is None:
        # Textual loads only when the viewer starts
        if getattr(args, "served", False):  # a browser tab's (roguelike serve)
            from screens.served import ServedApp

            make_app = ServedApp
        else:
            from screens.lasting import LastingApp

            make_app = LastingApp
    make_app(save_dir=getattr(args, "save_dir", None), replay=record).run()
