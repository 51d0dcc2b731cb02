"""The autoplayer over many worlds: :func:`play_many` plays worlds (seeds; :func:`bot_seeds`
names those of ``roguelike bot --seeds N`` and the bench) in processes; :func:`summary` turns
the results into the difficulty figures ``bot --seeds N`` and the bench print, and
:func:`power_curves` sets the player's power on arriving at each floor beside the strength of
the monsters placed there.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from roguelike import seeds
from roguelike.autoplay.core import Result, play_seed
from roguelike.autoplay.policy import FULL, Policy
from roguelike.engine.balance import DEFAULT_DIFFICULTY


def bot_seeds(count: int) -> list[int]:
    """The worlds of ``roguelike bot --seeds N`` and of the bench: the texts ``bot-1`` …"""
    return [seeds.text_seed(f"bot-{i}") for i in range(1, count + 1)]


def _play_job(job: tuple[int, str, Policy, str]) -> Result:
    return play_seed(*job)


def play_many(
    worlds: list[int],
    preset: str = "normal",
    jobs: int = 0,
    policy: Policy = FULL,
    difficulty: str = DEFAULT_DIFFICULTY,
) -> list[Result]:
    """Play every world of ``worlds`` (seeds) at ``difficulty`` in ``jobs`` processes (0:
    one per core), in order. Each world is a pure function of its seed, so the processes
    change nothing but the time taken."""
    todo = [(seed, preset, policy, difficulty) for seed in worlds]
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if workers <= 1:
        return [_play_job(j) for j in todo]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play_job, todo))


def summary(results: list[Result]) -> dict[str, Any]:
    """What ``bot --seeds N`` reports of ``results``: the win rate, the deaths by floor (and
    the largest share one floor holds), how close the runs came to death, and the
    consumables used (in every run, and in the won ones), as a JSON-ready dict."""
    n = len(results)
    won = [r for r in results if r.won]
    died = [r.died_on for r in results if r.died_on is not None]
    by_floor = {str(f): died.count(f) for f in sorted(set(died))}
    low = [r.lowest_hp for r in results]

    def median(values: list[float] | list[int]) -> float | None:
        return None if not values else round(float(np.median(values)), 3)

    return {
        "worlds": n,
        "won": len(won),
        "win_rate": round(len(won) / n, 3) if n else None,
        "deaths": len(died),
        "stuck": sum(r.cause.startswith("stuck") for r in results),
        "deaths_by_floor": by_floor,
        "largest_floor_share": round(max(by_floor.values()) / len(died), 3) if died else None,
        "floors_2_3_share": (
            round((by_floor.get("2", 0) + by_floor.get("3", 0)) / len(died), 3) if died else None
        ),
        "lowest_hp_p50": median(low),
        "lowest_hp_min": round(min(low), 3) if low else None,
        "items_used_p50": median([r.items_used for r in results]),
        "items_used_won_p50": median([r.items_used for r in won]),
        "items_left_p50": median([r.items_left for r in results]),
        "spared_blows": sum(r.spared for r in results),
    }


def power_curves(results: list[Result]) -> list[dict[str, Any]]:
    """The player's power against the monsters' strength, floor by floor, over ``results``:
    on arriving at each floor, the median maximum HP, the mean of the damage roll's mean and
    the mean defence of the runs that reached it; beside them the mean maximum HP and the mean
    expected damage a turn of the monsters placed there (see :func:`threat`). A run that
    died early weighs only on the floors it reached."""
    floors = sorted({f for r in results for f, *_ in r.arrivals})
    out: list[dict[str, Any]] = []
    for floor in floors:
        mine = [a for r in results for a in r.arrivals if a[0] == floor]
        theirs = [t for r in results for t in r.monsters if t[0] == floor and t[1] > 0]
        out.append(
            {
                "floor": floor,
                "runs": len(mine),
                "hp_p50": float(np.median([a[1] for a in mine])),
                "attack_mean": round(float(np.mean([a[2] for a in mine])), 2),
                "defence_mean": round(float(np.mean([a[3] for a in mine])), 2),
                "monsters_mean": round(float(np.mean([t[1] for t in theirs])), 1)
                if theirs
                else 0.0,
                "monster_hp_mean": round(float(np.mean([t[2] for t in theirs])), 2)
                if theirs
                else 0.0,
                "monster_dpt_mean": round(float(np.mean([t[3] for t in theirs])), 3)
                if theirs
                else 0.0,
            }
        )
    return out
