"""``roguelike bot``: the autoplayer plays whole worlds headless. ``--seed``: one world and its
result (``--record FILE``: and its recording, as a run file that ``roguelike replay --verify``
checks); ``--seeds N``: N worlds in parallel processes, then the win rate and every loss."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.autoplay import Result, bot_seeds, play, play_many, play_seed
from roguelike.cli import Fail
from roguelike.cli.args import parse_seed
from roguelike.engine import new_game
from roguelike.gen.layout import LayoutError
from roguelike.gen.topology import ParamsError, TopologyError
from roguelike.presets import DEFAULT_PRESET, PRESETS
from roguelike.recording import Recording
from saves.runs import pack, record_of
from saves.store import write_atomic
from saves.world import now_iso

#: A world the generator cannot build.
USER_ERRORS: tuple[type[Exception], ...] = (ParamsError, TopologyError, LayoutError)


def add_arguments(bot: argparse.ArgumentParser) -> None:
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
        choices=list(PRESETS),
        default=DEFAULT_PRESET,
        help=f"the worlds' size ({DEFAULT_PRESET})",
    )
    bot.add_argument("--format", dest="bot_format", choices=["text", "json"], default="text")
    bot.add_argument("--jobs", type=int, default=0, help="processes for --seeds (0: one per core)")
    bot.add_argument(
        "--record",
        metavar="FILE",
        help="with --seed: write the run, with every input, as a run file "
        "(check it with: roguelike replay FILE --verify)",
    )


def result_json(r: Result) -> dict[str, Any]:
    return {
        "seed": seeds.encode(r.seed),
        "won": r.won,
        "floors": r.floors,
        "turns": r.turns,
        "cause": r.cause,
        "seconds": round(r.seconds, 2),
    }


def record_bot(seed: int, preset: str, dest: str) -> Result:
    """Play ``seed`` as ``bot --seed`` does, recording every input, and write the run as a run
    file at ``dest`` (named after its seed code; a run the bot gave up on, stuck, is kept as
    abandoned). The destination is checked before the run, so a bad path costs no play."""
    path = Path(dest).expanduser()
    if path.is_dir():
        raise Fail(f"{dest} is a folder: give the file to write, like --record run.run")
    if not path.parent.is_dir():
        raise Fail(f"{path.parent}: no such folder")
    started = now_iso()
    code = seeds.encode(seed)
    state = new_game(seed, preset=preset, world_name=code)
    recording = Recording.begin(state)
    result = play(state, recording=recording)
    record = record_of(
        state, world=code, started=started, recording=recording, abandoned=not state.over
    )
    try:
        write_atomic(path, pack(record))
    except OSError as err:
        raise Fail(f"{dest}: {err.strerror or err}") from None
    return result


def bot_text(args: argparse.Namespace) -> str:
    """``bot --seed``: one world, one result. ``bot --seeds N``: N worlds (seed codes of the
    texts ``bot-1`` … ``bot-N``), in parallel processes, then the win rate and every loss."""
    if args.record is not None and args.bot_seed is None:
        raise Fail("--record records one world: give --seed, not --seeds")
    if args.bot_seed is not None:
        if args.record is None:
            result = result_json(play_seed(args.bot_seed, args.bot_preset))
        else:
            result = result_json(record_bot(args.bot_seed, args.bot_preset, args.record))
            result["record"] = args.record
        if args.bot_format == "json":
            return json.dumps(result) + "\n"
        verdict = "won" if result["won"] else "lost"
        recorded = f", recorded in {args.record}" if args.record is not None else ""
        return (
            f"{result['seed']} {args.bot_preset}: {verdict} ({result['cause']}), "
            f"{result['floors']} floors reached in {result['turns']} turns, "
            f"{result['seconds']} s{recorded}\n"
        )
    if args.bot_seeds < 1:
        raise Fail("--seeds must be at least 1")
    if args.jobs < 0:
        raise Fail("--jobs must be 0 (one per core) or more")
    played = play_many(bot_seeds(args.bot_seeds), args.bot_preset, args.jobs)
    results = [result_json(r) for r in played]
    won = sum(r["won"] for r in results)
    losses = [r for r in results if not r["won"]]
    if args.bot_format == "json":
        doc = {"preset": args.bot_preset, "worlds": len(results), "won": won, "results": results}
        return json.dumps(doc, indent=1) + "\n"
    lines = [f"{won}/{len(results)} {args.bot_preset} worlds won ({100 * won / len(results):.0f}%)"]
    lines += [f"  lost {r['seed']}: {r['cause']}" for r in losses]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> None:
    sys.stdout.write(bot_text(args))
