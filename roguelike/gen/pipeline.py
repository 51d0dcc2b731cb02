"""The generation pipeline: a floor's seven stages, run in order.

Each stage is a pure function of the previous stage's record and its own random stream
(``seeds.stream(seed, number, stage)``), so a floor is the same in every process and a stage's
output does not depend on how far the pipeline runs. ``stop_after`` ends the pipeline early, so
that a person can look at one stage (``roguelike generate --stage layout``).
"""

from __future__ import annotations

from typing import Literal, overload

from roguelike import seeds
from roguelike.gen import STAGES
from roguelike.gen.changes import CHANGE_STREAM, place_change
from roguelike.gen.floor import Floor, Planned
from roguelike.gen.layout import lay_out
from roguelike.gen.populate import populate
from roguelike.gen.prove import certify
from roguelike.gen.roles import assign_roles
from roguelike.gen.stamp import stamp
from roguelike.gen.terrain import dress
from roguelike.gen.topology import DungeonParams, generate_topology, params_for_floor

__all__ = ["STAGES", "generate_floor"]


@overload
def generate_floor(
    seed: int,
    number: int = ...,
    params: DungeonParams | None = ...,
    *,
    last: bool = ...,
    stop_after: Literal["proof"] = ...,
) -> Floor: ...


@overload
def generate_floor(
    seed: int,
    number: int = ...,
    params: DungeonParams | None = ...,
    *,
    last: bool = ...,
    stop_after: str,
) -> Planned: ...


def generate_floor(
    seed: int,
    number: int = 1,
    params: DungeonParams | None = None,
    *,
    last: bool = False,
    stop_after: str = "proof",
) -> Planned:
    """Floor ``number`` of world ``seed``, through the stage ``stop_after``: that stage's
    record (a :class:`Floor` after "proof"). ``params`` default to ``params_for_floor``."""
    if stop_after not in STAGES:
        raise ValueError(f"unknown stage {stop_after!r}; one of {', '.join(STAGES)}")
    params = params or params_for_floor(number)
    topology = generate_topology(seed, number, params)
    planned = Planned(seed=seed, number=number, last=last, params=params, topology=topology)
    if stop_after == "topology":
        return planned
    cast = assign_roles(planned, seeds.stream(seed, number, "roles"))
    if stop_after == "roles":
        return cast
    laid = lay_out(cast)
    if stop_after == "layout":
        return laid
    stamped = stamp(laid, seeds.stream(seed, number, "stamp"))
    if stop_after == "stamp":
        return stamped
    decorated = dress(stamped, seeds.stream(seed, number, "terrain"))
    if stop_after == "terrain":
        return decorated
    populated = populate(
        decorated,
        seeds.stream(seed, number, "population"),
        seeds.stream(seed, number, "traps"),
    )
    populated = place_change(populated, seeds.stream(seed, number, CHANGE_STREAM))
    if stop_after == "population":
        return populated
    return certify(populated)
