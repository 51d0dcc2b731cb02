"""Fire: it catches on moss, spreads by a seeded rule, burns out, and hurts what stands in it.

The burning cells are ``state.fire`` (cell → turns it still burns). :func:`ignite` sets a cell
alight: a moss cell burns ``FIRE_FUEL_TURNS`` turns and is ash after (walkable, and it never
burns again); bare ground (floor, rubble, cave floor, ash) only flickers ``FIRE_BARE_TURNS``
where a bomb or a blast lit it. Water and deep water never burn, nor do doors (iron-bound),
bridges (stone), stairs, the exit, pedestals or anything that is not walkable: fire stops at
them. A bomb's burst (:func:`roguelike.engine.items.throw`) lights its cell and the eight round
it; an incineration potion calls :func:`ignite` the same way.

Once a world turn (:func:`burn`, from :func:`roguelike.engine.turn.world_turn`):

1. spread: every burning cell, in the order of rows then columns, sets each moss cell beside it
   (up, down, left, right; not yet burning) alight with ``FIRE_SPREAD`` percent, one roll of
   the play stream (``state.rng``) for each, so a replay burns exactly as the run did;
2. the fire ages: a cell whose turns run out goes out (moss left as ash);
3. the cells set alight in step 1 catch; marsh gas (:mod:`roguelike.engine.gas`) in a burning
   cell or beside one explodes, the whole cloud at once (:func:`explode`): a blast for every
   creature in the cloud or beside it, and the cloud's cells burn;
4. whoever stands in a burning cell (the player, then the monsters, then the allies, in their
   lists' order) takes a ``FIRE_DAMAGE`` roll and ``FIRE_SHARE`` percent of its maximum HP
   (:func:`fire_damage`).

A monster or an ally scores a burning cell ``FIRE_AVOID`` lower (engine/monsters.py,
engine/allies.py), so it steps out of the fire and never into it while it has a choice. Fire
is temporary and never changes what is walkable (moss and ash are both walkable), so a floor
that was provably completable stays so.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.balance import (
    FIRE_BARE_TURNS,
    FIRE_DAMAGE,
    FIRE_FUEL_TURNS,
    FIRE_SHARE,
    FIRE_SPREAD,
    GAS_BLAST,
)
from roguelike.engine.combat import gain_xp, hurt_player, remains
from roguelike.engine.creatures import Monster, shown_name
from roguelike.engine.events import Event, Message
from roguelike.engine.gas import cloud
from roguelike.engine.state import GameState

__all__ = [
    "FIRE_PROOF",
    "burn",
    "can_burn",
    "explode",
    "fire_damage",
    "ignite",
    "ignite_around",
    "burning_near",
]

Pos = tuple[int, int]

#: Walkable tiles that never hold fire: it stops at them.
FIRE_PROOF = frozenset(
    {
        tiles.WATER,
        tiles.DEEP_WATER,
        tiles.DOOR,
        tiles.DOOR_OPEN,
        tiles.BRIDGE,
        tiles.STAIRS,
        tiles.EXIT,
        tiles.PEDESTAL,
    }
)
#: Tiles that feed a fire (they burn long, spread it, and are ash after).
FUEL = tiles.FUEL

_SIDES = ((0, -1), (-1, 0), (1, 0), (0, 1))
_ROUND = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))


def _row_major(p: Pos) -> tuple[int, int]:
    return (p[1], p[0])


def _inside(state: GameState, x: int, y: int) -> bool:
    return 0 <= x < state.width and 0 <= y < state.height


def can_burn(state: GameState, x: int, y: int) -> bool:
    """Whether fire can stand on (x, y): walkable ground that is not fire-proof."""
    if not _inside(state, x, y):
        return False
    t = int(state.tiles[y, x])
    return bool(tiles.WALKABLE[t]) and t not in FIRE_PROOF


def ignite(state: GameState, x: int, y: int) -> list[Event]:
    """Set (x, y) alight, if fire can stand there: moss for ``FIRE_FUEL_TURNS``, bare ground
    for ``FIRE_BARE_TURNS`` (a cell already burning keeps the longer of the two). Marsh gas
    there explodes. The one way anything starts a fire (bombs, the incineration potion, a
    blast, the spread)."""
    events: list[Event] = []
    if (x, y) in state.gas:
        events += explode(state, (x, y))
    if not can_burn(state, x, y):
        return events
    turns = FIRE_FUEL_TURNS if int(state.tiles[y, x]) in FUEL else FIRE_BARE_TURNS
    state.fire[(x, y)] = max(state.fire.get((x, y), 0), turns)
    return events


def ignite_around(state: GameState, at: Pos) -> list[Event]:
    """Set ``at`` and the eight cells round it alight (a bomb's burst), saying so when the
    player sees moss catch."""
    events: list[Event] = []
    caught = False
    for dx, dy in _ROUND:
        x, y = at[0] + dx, at[1] + dy
        events += ignite(state, x, y)
        fed = _inside(state, x, y) and int(state.tiles[y, x]) in FUEL
        caught |= fed and (x, y) in state.fire and bool(state.visible[y, x])
    if caught:
        events.append(Message("The moss catches fire!"))
    return events


def burning_near(state: GameState, pos: Pos, radius: int = 1) -> bool:
    """Whether a cell within ``radius`` steps (Chebyshev) of ``pos`` is burning."""
    px, py = pos
    return any(max(abs(x - px), abs(y - py)) <= radius for x, y in state.fire)


def burn(state: GameState) -> list[Event]:
    """The fire's turn (see the module's docstring): spread, age, catch, scorch."""
    if not state.fire:
        return []
    lit: list[Pos] = []
    for x, y in sorted(state.fire, key=_row_major):
        for dx, dy in _SIDES:
            c = (x + dx, y + dy)
            if c in state.fire or c in lit or not _inside(state, *c):
                continue
            if int(state.tiles[c[1], c[0]]) not in FUEL:
                continue
            if state.rng.integers(100) < FIRE_SPREAD:
                lit.append(c)
    for pos in sorted(state.fire, key=_row_major):
        left = state.fire[pos] - 1
        if left > 0:
            state.fire[pos] = left
            continue
        del state.fire[pos]
        x, y = pos
        if int(state.tiles[y, x]) in FUEL:
            state.tiles[y, x] = tiles.ASH
    events: list[Event] = []
    for x, y in lit:
        events += ignite(state, x, y)
    # marsh gas beside a fire catches (each cloud once: an explosion takes the whole cloud)
    for gx, gy in sorted(state.gas, key=_row_major):
        if (gx, gy) in state.gas and burning_near(state, (gx, gy)):
            events += explode(state, (gx, gy))
    return events + _scorch(state)


def _scorch(state: GameState) -> list[Event]:
    """Whoever stands in a burning cell takes a roll of the fire's damage."""
    events: list[Event] = []
    if state.player in state.fire and not state.dead:
        dmg = fire_damage(state, state.max_hp)
        events.append(Message("You stand in the flames!"))
        events += hurt_player(state, dmg, "burnt to death")
    for m in list(state.monsters):
        if m.pos in state.fire and m in state.monsters:
            events += _burn_monster(state, m, fire_damage(state, m.max_hp), "burns")
    for ally in list(state.allies):
        if ally.pos in state.fire and ally in state.allies:
            events += _burn_ally(state, ally, fire_damage(state, ally.max_hp))
    return events


def fire_damage(state: GameState, max_hp: int) -> int:
    """A turn in the flames for one of ``max_hp``: a ``FIRE_DAMAGE`` roll of the play stream,
    and ``FIRE_SHARE`` percent of ``max_hp`` on top."""
    lo, hi = FIRE_DAMAGE
    return int(state.rng.integers(lo, hi + 1)) + max_hp * FIRE_SHARE // 100


def explode(state: GameState, at: Pos) -> list[Event]:
    """The cloud of marsh gas holding ``at`` explodes: it is gone, every creature in it or
    beside it takes a ``GAS_BLAST`` roll (the player, then the monsters, then the allies), and
    every cell of the cloud and round it that can burn is set alight."""
    cells = cloud(state.gas, at)
    if not cells:
        return []
    state.gas.difference_update(cells)
    near = {(x + dx, y + dy) for x, y in cells for dx, dy in _ROUND}
    seen = any(state.visible[y, x] for x, y in cells)
    events: list[Event] = []
    if seen:
        events.append(Message("The marsh gas explodes in a ball of flame!"))
    else:
        events.append(Message("You hear a dull boom."))
    lo, hi = GAS_BLAST
    if state.player in near and not state.dead:
        events += hurt_player(state, int(state.rng.integers(lo, hi + 1)), "blown up by marsh gas")
    for m in list(state.monsters):
        if m.pos in near and m in state.monsters:
            events += _burn_monster(state, m, int(state.rng.integers(lo, hi + 1)), "is blasted")
    for ally in list(state.allies):
        if ally.pos in near and ally in state.allies:
            events += _burn_ally(state, ally, int(state.rng.integers(lo, hi + 1)))
    for x, y in sorted(near, key=_row_major):
        events += ignite(state, x, y)
    return events


def _burn_monster(state: GameState, m: Monster, damage: int, verb: str) -> list[Event]:
    """``m`` takes ``damage`` from fire (it wakes). A kill counts as the player's, who set the
    fire: its experience is gained and a thief's loot falls."""
    m.hp -= damage
    m.awake = True
    seen = bool(state.visible[m.y, m.x])
    if m.hp > 0:
        return [Message(f"The {shown_name(state, m)} {verb} for {damage}.")] if seen else []
    state.monsters.remove(m)
    state.stats.kills += 1
    events: list[Event] = [Message(f"The {shown_name(state, m)} burns to death.")] if seen else []
    return events + remains(state, m) + gain_xp(state, m.info.xp)


def _burn_ally(state: GameState, ally: Monster, damage: int) -> list[Event]:
    """The ally (or captive) ``ally`` takes ``damage`` from fire; one that dies is gone."""
    ally.hp -= damage
    if ally.hp > 0:
        return [Message(f"Your {ally.kind} burns for {damage}.")]
    state.allies.remove(ally)
    return [Message(f"Your {ally.kind} burns to death! Your ally is dead.")]
