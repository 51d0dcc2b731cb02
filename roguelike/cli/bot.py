"""``roguelike bot``: the autoplayer plays whole worlds headless. ``--seed``: one world and its
result (``--record FILE``: and its recording, as a run file that ``roguelike replay --verify``
checks); ``--seeds N``: N worlds in parallel processes, then the win rate, the deaths by
floor, how close the runs came to death, the consumables used, and every loss.

The policy switches make it a measuring instrument (:class:`roguelike.autoplay.Policy`):
``--invulnerable`` (can every world be finished at all?), ``--no-items`` and
``--skip-treasure`` (what items and treasure are worth to survival), ``--naive-monsters``
(what knowing the breathers' lines and the ghosts' fire is worth), ``--first-perk`` (what
choosing perks is worth); ``--difficulty`` plays the
worlds at another level (the same maps, other numbers)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.autoplay import (
    Policy,
    Result,
    bot_seeds,
    play,
    play_many,
    play_seed,
    power_curves,
    summary,
)
from roguelike.cli import Fail
from roguelike.cli.args import parse_seed
from roguelike.engine import new_game
from roguelike.gen.layout import LayoutError
from roguelike.gen.topology import ParamsError, TopologyError
from roguelike.presets import DEFAULT_DIFFICULTY, DEFAULT_PRESET, DIFFICULTY_NAMES, PRESETS
from roguelike.recording import Recording
from saves.files import write_atomic
from saves.record import pack, record_of
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
    bot.add_argument(
        "--difficulty",
        dest="bot_difficulty",
        choices=list(DIFFICULTY_NAMES),
        default=DEFAULT_DIFFICULTY,
        help=f"the worlds' difficulty: {', '.join(DIFFICULTY_NAMES)} ({DEFAULT_DIFFICULTY})",
    )
    bot.add_argument("--format", dest="bot_format", choices=["text", "json"], default="text")
    bot.add_argument("--jobs", type=int, default=0, help="processes for --seeds (0: one per core)")
    bot.add_argument(
        "--invulnerable",
        action="store_true",
        help="blows cannot kill it: measures whether worlds can be finished, not survived",
    )
    bot.add_argument(
        "--no-items", action="store_true", help="it never uses a consumable (an ablation)"
    )
    bot.add_argument(
        "--skip-treasure",
        action="store_true",
        help="it never enters a treasure room (an ablation)",
    )
    bot.add_argument(
        "--no-sneak",
        action="store_true",
        help="it takes sleepers for awake monsters: never sneaks (an ablation)",
    )
    bot.add_argument(
        "--ignore-fire",
        action="store_true",
        help="it pays fire no mind: walks through it as over floor, never steps out of it nor "
        "off a breath's line, never aims a bomb at moss (an ablation)",
    )
    bot.add_argument(
        "--naive-monsters",
        action="store_true",
        help="it ignores the ways of breathers and ghosts (an ablation)",
    )
    bot.add_argument(
        "--first-perk",
        action="store_true",
        help="it takes the first perk offered at each level up (an ablation)",
    )
    bot.add_argument(
        "--no-unknown",
        action="store_true",
        help="it never drinks or reads an unknown potion or scroll (an ablation)",
    )
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
        "died_on": r.died_on,
        "lowest_hp": round(r.lowest_hp, 3),
        "items_used": r.items_used,
        "items_left": r.items_left,
        "spared": r.spared,
    }


def policy_of(args: argparse.Namespace) -> Policy:
    """The policy the flags ask for: each switch of :class:`Policy` is the flag of its name."""
    return Policy(**{f.name: getattr(args, f.name) for f in dataclasses.fields(Policy)})


def record_bot(
    seed: int,
    preset: str,
    dest: str,
    policy: Policy | None = None,
    difficulty: str = DEFAULT_DIFFICULTY,
) -> Result:
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
    state = new_game(seed, preset=preset, world_name=code, difficulty=difficulty)
    recording = Recording.begin(state)
    result = play(state, recording=recording, policy=policy or Policy())
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
    policy = policy_of(args)
    if args.record is not None and policy.invulnerable:
        raise Fail("--record keeps a run a player could play: not with --invulnerable")
    if args.bot_seed is not None:
        if args.record is None:
            result = result_json(
                play_seed(args.bot_seed, args.bot_preset, policy, args.bot_difficulty)
            )
        else:
            result = result_json(
                record_bot(args.bot_seed, args.bot_preset, args.record, policy, args.bot_difficulty)
            )
            result["record"] = args.record
        if args.bot_format == "json":
            return json.dumps(result) + "\n"
        verdict = "won" if result["won"] else "lost"
        recorded = f", recorded in {args.record}" if args.record is not None else ""
        return (
            f"{result['seed']} {args.bot_preset} {args.bot_difficulty}: "
            f"{verdict} ({result['cause']}), "
            f"{result['floors']} floors reached in {result['turns']} turns, "
            f"{result['seconds']} s{recorded}\n"
        )
    if args.bot_seeds < 1:
        raise Fail("--seeds must be at least 1")
    if args.jobs < 0:
        raise Fail("--jobs must be 0 (one per core) or more")
    played = play_many(
        bot_seeds(args.bot_seeds), args.bot_preset, args.jobs, policy, args.bot_difficulty
    )
    results = [result_json(r) for r in played]
    stats = summary(played)
    if args.bot_format == "json":
        doc = {
            "preset": args.bot_preset,
            "difficulty": args.bot_difficulty,
            "policy": policy.describe(),
            **stats,
            "power_by_floor": power_curves(played),
            "results": results,
        }
        return json.dumps(doc, indent=1) + "\n"
    return summary_text(stats, args.bot_preset, policy, args.bot_difficulty) + "".join(
        f"  lost {r['seed']}: {r['cause']}\n" for r in results if not r["won"]
    )


def summary_text(
    stats: dict[str, Any], preset: str, policy: Policy, difficulty: str = DEFAULT_DIFFICULTY
) -> str:
    """The lines of ``bot --seeds N`` (and of the bench) for a :func:`summary`."""
    n, won = stats["worlds"], stats["won"]
    how = f" ({policy.describe()})" if policy.describe() else ""
    floors = ", ".join(f"{f}: {k}" for f, k in stats["deaths_by_floor"].items()) or "none"
    share = stats["largest_floor_share"]
    worst = "" if share is None else f"; the worst floor holds {100 * share:.0f}%"
    won_items = stats["items_used_won_p50"]
    return (
        f"{won}/{n} {preset} {difficulty} worlds won ({100 * won / n:.0f}%){how}\n"
        f"  deaths {stats['deaths']} by floor ({floors}{worst}); stuck {stats['stuck']}\n"
        f"  lowest HP {100 * stats['lowest_hp_p50']:.0f}% of max p50, "
        f"{100 * stats['lowest_hp_min']:.0f}% at worst"
        + (f"; {stats['spared_blows']} blows would have killed" if policy.invulnerable else "")
        + "\n"
        f"  consumables used {stats['items_used_p50']:g} a run p50"
        + ("" if won_items is None else f" ({won_items:g} in a won run)")
        + f", {stats['items_left_p50']:g} left unused p50\n"
    )


def run(args: argparse.Namespace) -> None:
    sys.stdout.write(bot_text(args))
