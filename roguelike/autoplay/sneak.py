"""Sneaking (:func:`_sneak`), for the full autoplayer: with no threat in view, it creeps up on a
sleeping (or unaware) monster in view whose group (the sleepers within ``GROUP_REACH`` of it)
is worth it (:func:`_worth_sneaking`: at most two, each an easy kill or a fair fight) for the
sure triple blow; a group not worth it is kept clear of while exploring (``QUIET_RADIUS``,
:func:`_quiet_step`), unless no other way is left.

Without sneaking (``no_sneak``), the sleepers it can reach are threats like the others
(:func:`_threats`), and next to ones that have not noticed it, it waits until one does
(:func:`_loud_wait`).
"""

from __future__ import annotations

import numpy as np

from roguelike import tiles
from roguelike.autoplay.moves import _explore_step, _towards, threats_seen
from roguelike.autoplay.policy import HUNT_TURNS, Decision, Memory
from roguelike.engine import Action, Move, Wait
from roguelike.engine.creatures import Monster, shown_name
from roguelike.engine.describe import monster_numbers
from roguelike.engine.grid import chebyshev
from roguelike.engine.monsters import SCENT_RANGE
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.state import GameState
from roguelike.engine.stealth import notice_chance, sneaky

#: Sleepers within this many cells (Chebyshev) of each other are one group, woken together.
GROUP_REACH = 3
#: How near (Chebyshev) a sleeping group not worth a fight it walks while exploring.
QUIET_RADIUS = 3


def _threats(state: GameState, memory: Memory) -> list[Monster]:
    """The threats it answers: those in view (:func:`threats_seen`), and without sneaking
    (``no_sneak``) the sleepers and unaware ones it can reach too, nearest by the way first
    (then by Chebyshev): a sleeper near as the crow flies but far round a chasm must not come
    first from one cell and second from the next, or it walks back and forth for ever."""
    seen = threats_seen(state)
    if not memory.policy.no_sneak:
        return seen
    known = tiles.WALKABLE[state.tiles] | ~state.explored
    dist = distance_map(known, [state.player], SCENT_RANGE)
    asleep = [
        m
        for m in state.visible_monsters()
        if sneaky(m) and not m.fleeing and dist[m.y, m.x] < FAR and m not in seen
    ]
    return sorted(
        seen + asleep, key=lambda m: (int(dist[m.y, m.x]), chebyshev(m.pos, state.player), m.id)
    )


def _loud_wait(state: GameState, memory: Memory, adjacent: list[Monster]) -> Decision | None:
    """Without sneaking (``no_sneak``): next to monsters that have all not noticed it, it
    waits until one does (never a sneak attack), unless none ever could where it stands."""
    if not memory.policy.no_sneak or not all(sneaky(m) for m in adjacent):
        return None
    if max(notice_chance(state, m) for m in adjacent) <= 0:
        return None
    return Decision(Wait(), f"waiting for the {shown_name(state, adjacent[0])} to notice it")


def _groups(state: GameState, sleepers: list[Monster]) -> list[list[Monster]]:
    """``sleepers`` in groups: each within ``GROUP_REACH`` of another of its group."""
    groups: list[list[Monster]] = []
    for m in sleepers:
        near = [g for g in groups if any(chebyshev(m.pos, o.pos) <= GROUP_REACH for o in g)]
        merged = [m] + [o for g in near for o in g]
        groups = [g for g in groups if g not in near] + [merged]
    return groups


def _worth_sneaking(state: GameState, group: list[Monster]) -> bool:
    """Whether a sleeping group is worth waking with a sneak attack: at most two, each an
    easy kill or a fair fight (look's numbers, before the sure triple blow)."""
    if len(group) > 2:
        return False
    return all(monster_numbers(state, m).danger in ("an easy kill", "a fair fight") for m in group)


def _sneak(state: GameState, memory: Memory) -> Decision | None:
    """A step towards the nearest sleeping or unaware monster in view whose group is worth
    a sneak attack (the blow itself is the adjacent fight's), if it knows a way. It goes on
    for it out of view as for a monster it lost (its :class:`Memory`'s hunt), so a sleeper
    that comes in and out of view as it walks does not turn it back and forth."""
    avoid = memory.avoid
    sleepers = [m for m in state.visible_monsters() if sneaky(m) and not m.info.still]
    for group in _groups(state, sleepers):
        if not _worth_sneaking(state, group):
            continue
        m = min(group, key=lambda m: (chebyshev(m.pos, state.player), m.id))
        step_ = _towards(state, m.x, m.y, avoid, heed_fire=memory.heed_fire)
        if step_ is not None:
            memory.hunt, memory.until = (state.number, m.x, m.y), state.turn + HUNT_TURNS
            memory.kind, memory.target = shown_name(state, m), m.id
            return Decision(step_, f"sneaking up on the sleeping {memory.kind}")
    return None


def _in_the_way(state: GameState, memory: Memory) -> Decision | None:
    """Exploring found no way on while a monster that never moves (a shrieker) sleeps in view:
    it stands in the way (every walk steps round it), and no sneaking goes for it, so the bot
    would head for the stairs, lose sight of it, and come back for ever. It goes and strikes
    the nearest one it can reach instead (asleep, a sneak attack)."""
    px, py = state.player
    still = [m for m in state.visible_monsters() if m.info.still and sneaky(m)]
    for m in sorted(still, key=lambda m: (chebyshev(m.pos, state.player), m.id)):
        if chebyshev(m.pos, state.player) == 1:
            return Decision(
                Move(m.x - px, m.y - py), f"striking the {shown_name(state, m)} in the way"
            )
        step_ = _towards(state, m.x, m.y, memory.avoid, heed_fire=memory.heed_fire)
        if step_ is not None:
            return Decision(step_, f"going for the {shown_name(state, m)} in the way")
    return None


def _quiet_step(state: GameState, memory: Memory) -> Action | None:
    """One step of exploring that keeps ``QUIET_RADIUS`` clear of the sleeping groups not
    worth waking it remembers on this floor; None with none, or with no such way (then the
    engine's explore goes the plain way)."""
    dozing = list(memory.dozing.values())
    if not dozing:
        return None
    loud = [g for g in _groups(state, dozing) if not _worth_sneaking(state, g)]
    if not loud:
        return None
    quiet = np.zeros(state.tiles.shape, dtype=bool)
    for g in loud:
        for m in g:
            y0, x0 = max(0, m.y - QUIET_RADIUS), max(0, m.x - QUIET_RADIUS)
            quiet[y0 : m.y + QUIET_RADIUS + 1, x0 : m.x + QUIET_RADIUS + 1] = True
    px, py = state.player
    quiet[py, px] = False
    avoid = quiet if memory.avoid is None else quiet | memory.avoid
    return _explore_step(state, avoid, heed_fire=memory.heed_fire)
