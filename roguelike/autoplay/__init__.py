"""The autoplayer: it plays through the same actions as a person and sees only what a
person sees (the field of view, the explored map, what lies or stands there, the messages).
A test redraws everything a person has not seen and checks it decides the same.

A package, one module per job:

- :mod:`.core`: the turn's decision (:func:`decide`, which also says why), :class:`Autopilot`
  (turn after turn, for watch mode and :func:`play`), :func:`play` (a world to its end: a
  :class:`Result`);
- :mod:`.policy`: the :class:`Policy` switches that make it a measuring instrument, its
  :class:`Memory` from one turn to the next, and the :class:`Decision` it gives;
- :mod:`.moves`: its ways over the map it knows (a step towards, away, or to explore) and the
  threats it sees (:func:`threats_seen`);
- :mod:`.sneak`: sneaking up on sleepers, and keeping clear of a sleeping group;
- :mod:`.fire`: stepping out of fire, and where a fire bomb is worth throwing;
- :mod:`.monsters`: the monsters whose answer is not a corridor: breathers and ghosts;
- :mod:`.kit`: the gamble of unknown items, perks, gear and a treasure's choice;
- :mod:`.many`: many worlds: :func:`play_many` in processes, :func:`summary`,
  :func:`power_curves`, :func:`bot_seeds`.

Every name the game, the commands and the tests import from ``roguelike.autoplay`` is
re-exported here (the few private helpers the tests call directly included).
"""

from __future__ import annotations

from roguelike.autoplay.core import (
    ALLY_WAIT,
    DRINK_BELOW,
    GUARD_REACH,
    IDLE_WAIT,
    PATIENCE,
    REST_BELOW,
    STALL_TURNS,
    STUCK_AFTER,
    TURN_LIMIT,
    Autopilot,
    Result,
    _decide,
    arrival,
    choose,
    decide,
    play,
    play_seed,
    progress,
    threat,
)
from roguelike.autoplay.kit import (
    DESPERATE,
    PERK_PREFERENCE,
    PERK_REPEAT,
    TREASURE_PREFERENCE,
    TYPICAL_BLOW,
)
from roguelike.autoplay.many import bot_seeds, play_many, power_curves, summary
from roguelike.autoplay.monsters import _fire_at_ghost, _off_breath, breath_mask
from roguelike.autoplay.moves import can_step_to, threats_seen
from roguelike.autoplay.policy import (
    BIG_HP,
    FULL,
    HUNT_TURNS,
    Decision,
    Memory,
    Policy,
    treasure_cells,
)
from roguelike.autoplay.sneak import GROUP_REACH, QUIET_RADIUS

__all__ = [
    "ALLY_WAIT",
    "Autopilot",
    "BIG_HP",
    "DESPERATE",
    "DRINK_BELOW",
    "Decision",
    "FULL",
    "GROUP_REACH",
    "GUARD_REACH",
    "HUNT_TURNS",
    "IDLE_WAIT",
    "Memory",
    "PATIENCE",
    "PERK_PREFERENCE",
    "PERK_REPEAT",
    "Policy",
    "QUIET_RADIUS",
    "REST_BELOW",
    "Result",
    "STALL_TURNS",
    "STUCK_AFTER",
    "TREASURE_PREFERENCE",
    "TURN_LIMIT",
    "TYPICAL_BLOW",
    "_decide",
    "_fire_at_ghost",
    "_off_breath",
    "breath_mask",
    "arrival",
    "bot_seeds",
    "can_step_to",
    "choose",
    "decide",
    "play",
    "play_many",
    "play_seed",
    "power_curves",
    "progress",
    "summary",
    "threat",
    "threats_seen",
    "treasure_cells",
]
