"""Keys and items: taking them, and using what the pack holds.

Keys and items are taken by walking onto them (or with :class:`PickUp` on their cell). An item
does what its kind's ``effect`` says (:data:`roguelike.engine.creatures.ITEMS`): a pack item
waits in the pack until used (:data:`USE`), any other is applied when taken (:data:`TAKE`).
Which handler runs depends on the effect, never on the item's name. A wearable (a blade, an
axe, a plate) goes into the pack, or on at once only into an empty slot when it costs
nothing (:mod:`roguelike.engine.gear`, which also wears and takes off); using one wears it.
Using an item spends a turn, unless it is refused (a potion at full HP, a bomb with nothing in
view): then it is kept and no time passes.

A bomb is thrown at a cell (:func:`throw`, along :func:`flight`); a pack item can be dropped
(:func:`drop`) and taken again. Treasure lies in choice groups (``state.choices``): taking one
item of a group makes the rest crumble. Some items carry a cost, said in their description:
the berserk potion's weariness, the sacrifice scroll's maximum HP, the war axe's misses, the
tower plate's slowness.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from roguelike import tiles
from roguelike.engine.balance import (
    BERSERK_TURNS,
    BOMB_DAMAGE,
    CONFUSED_STRAY,
    CONFUSED_TURNS,
    DARK_TURNS,
    DETECT_TURNS,
    ENCHANT_AMOUNT,
    HALLUCINATION_TURNS,
    HASTE_TURNS,
    INCINERATION_DAMAGE,
    INCINERATION_SELF,
    LIFE_MAX_HP,
    MAX_CARRIED,
    MONSTER_DRINK_BELOW,
    MONSTER_DRINK_HEAL,
    PERK_BOMB,
    POTION_DRINKERS,
    SACRIFICE_COST,
    SACRIFICE_DAMAGE,
    SUMMON_SCROLL_COUNT,
    SUMMON_SCROLL_LEVEL,
    THROW_RANGE,
    WEARY_TURNS,
)
from roguelike.engine.combat import burn, hurt_player
from roguelike.engine.creatures import ITEMS, MONSTERS, ItemKind, Monster, monster_hp, shown_name
from roguelike.engine.describe import a, item_name, key_name, upper_first
from roguelike.engine.events import Event, ItemDropped, ItemTaken, ItemUsed, KeyTaken, Message
from roguelike.engine.fire import ignite_around
from roguelike.engine.gear import refresh, stow, wear, worn
from roguelike.engine.grid import DIRS8, chebyshev
from roguelike.engine.identify import is_known, learn, look, touch, unknown_in_pack
from roguelike.engine.pathing import FAR, distance_map
from roguelike.engine.perks import perk_count
from roguelike.engine.state import GameState
from roguelike.engine.stealth import make_noise
from roguelike.engine.words import counted

__all__ = [
    "BOMB_DAMAGE",
    "TAKE",
    "bomb_roll",
    "USE",
    "burst_fire",
    "drop",
    "flight",
    "held",
    "held_known",
    "monster_drinks",
    "stray",
    "receive",
    "room_for",
    "take_here",
    "throw",
    "tick_effects",
    "use",
]

#: A pack item's effect: its events, or why it cannot be used now (a string: no turn passes).
UseEffect = Callable[[GameState, ItemKind], list[Event] | str]
#: An effect applied when its item is taken: what to say.
TakeEffect = Callable[[GameState, ItemKind], str]


# --- taking -----------------------------------------------------------------------------------


def take_here(state: GameState, *, choose: bool = False) -> list[Event]:
    """Take the key and the item on the player's cell; no events when there is nothing. An
    item of a treasure's choice is taken only when ``choose`` (picking up, not walking over
    it): taking it is a decision, since the rest of its group crumbles."""
    events: list[Event] = []
    key = state.keys_lying.pop(state.player, None)
    if key is not None:
        state.keys_held.add(key)
        state.stats.keys += 1
        events += [KeyTaken(key), Message(f"You take {key_name(key)}.")]
    name = state.items_lying.get(state.player)
    if name is not None and state.player in state.choices and not choose:
        return events + [
            Message(
                f"{upper_first(a(item_name(state, name)))} of a hoard: g takes it, and the rest "
                "crumbles."
            )
        ]
    if name is not None and not room_for(state, name):
        return events + [Message(f"You cannot carry more {item_name(state, name)}.")]
    item = state.items_lying.pop(state.player, None)
    if item is not None:
        events += [ItemTaken(item), Message(receive(state, item))]
        group = state.choices.pop(state.player, None)
        rest = sorted(c for c, g in state.choices.items() if g == group)
        for c in rest:
            del state.choices[c]
            state.items_lying.pop(c, None)
        if rest:
            events.append(Message("The other treasures of the hoard crumble to dust."))
    return events


def room_for(state: GameState, item: str) -> bool:
    """Whether the player can take one more ``item``: at most :data:`MAX_CARRIED` of a kind
    carried (in the pack and worn), and of hint coins held."""
    info = ITEMS[item]
    if info.kind == "pack" or info.slot:
        carried = state.inventory.get(item, 0) + (1 if item in state.equipment else 0)
        return carried < MAX_CARRIED
    if info.effect == "coin":
        return state.hint_coins < MAX_CARRIED
    return True


def receive(state: GameState, item: str) -> str:
    """Put ``item`` where it goes (the pack, or straight into effect); what to say."""
    info = ITEMS[item]
    if info.kind == "pack":
        state.inventory[item] = state.inventory.get(item, 0) + 1
        seen_as = item_name(state, item)
        if touch(state, [item]):
            return f"You pick up {a(seen_as)}: by touch, you know it is {a(item)}."
        return f"You pick up {a(seen_as)}."
    if info.slot:  # into the pack, or on at once when its slot is empty and it costs nothing
        return stow(state, item)
    return TAKE[info.effect](state, info)


def _coin(state: GameState, item: ItemKind) -> str:
    state.hint_coins += 1
    return f"You pick up a hint coin ({state.hint_coins} held)."


def _vigour(state: GameState, item: ItemKind) -> str:
    state.max_hp += item.amount
    state.hp = min(state.max_hp, state.hp + item.amount)
    return f"You drink {a(item.name)}: {state.max_hp} HP at most, {state.hp} now."


#: Effects applied when taken, by effect.
TAKE: dict[str, TakeEffect] = {
    "coin": _coin,
    "vigour": _vigour,
}


# --- using ------------------------------------------------------------------------------------


def use(state: GameState, item: str, choice: str = "") -> list[Event]:
    """Use ``item`` from the pack: its effect, one item fewer, a turn spent. ``choice``: the
    unknown kind a scroll of identification names (else it names the first in the pack).

    An unknown kind is learned by using it. Its refusals (a healing potion at full HP) would
    give it away, so an unknown item is never refused: it is spent, to no effect, and
    learned."""
    if state.inventory.get(item, 0) <= 0:
        return [Message(f"You have no {item_name(state, item)}.")]
    info = ITEMS[item]
    if info.slot:  # a wearable in the pack is used by wearing it
        return wear(state, item)
    if info.effect not in USE:  # pragma: no cover - only pack items reach the pack
        raise ValueError(f"{item} cannot be used")
    known = is_known(state, item)
    seen_as = look(state, item)[0]
    if info.effect == "identify" and choice:
        events = _identify(state, info, choice)
    else:
        events = USE[info.effect](state, info)
    if isinstance(events, str):
        if known:
            return [Message(events)]
        verb = "drink" if info.verb == "quaff" else "read"
        why = events[:1].lower() + events[1:]
        events = [Message(f"You {verb} the {seen_as}, to no effect: {why}")]
    if info.noise and info.verb != "throw":  # a thrown one is heard where it bursts
        events += make_noise(state, *state.player, info.noise)
    _spend(state, item)
    if learn(state, item):
        events.append(Message(f"Now you know: the {seen_as} is {a(item)}."))
    return [ItemUsed(item), *events]


def held(state: GameState, effect: str) -> str | None:
    """The first item in the pack with ``effect``, if any."""
    return next((i for i, n in state.inventory.items() if n and ITEMS[i].effect == effect), None)


def held_known(state: GameState, effect: str) -> str | None:
    """The first item in the pack with ``effect`` that the player knows to have it."""
    return next(
        (
            i
            for i, n in state.inventory.items()
            if n and ITEMS[i].effect == effect and is_known(state, i)
        ),
        None,
    )


def _heal(state: GameState, item: ItemKind) -> list[Event] | str:
    if state.hp >= state.max_hp:
        return "You are not hurt."
    healed = min(item.amount, state.max_hp - state.hp)
    state.hp += healed
    return [Message(f"You drink {a(item.name)}: +{healed} HP.")]


def _map(state: GameState, item: ItemKind) -> list[Event] | str:
    state.explored |= state.tiles != tiles.VOID
    return [Message("The scroll burns, and the floor's layout glows in your mind.")]


def _blink(state: GameState, item: ItemKind) -> list[Event] | str:
    """To the free cell in view farthest from the monsters in view (or from the player's own
    cell, with none in view); never into a doorway, onto a pedestal, key or item."""
    walk = tiles.WALKABLE[state.tiles] & state.visible & (state.tiles != tiles.DOOR)
    for pos in state.puzzles:  # landing on a pedestal would skip its puzzle
        walk[pos[1], pos[0]] = False
    for m in state.monsters + state.allies:
        walk[m.y, m.x] = False
    for pos in list(state.keys_lying) + list(state.items_lying):
        walk[pos[1], pos[0]] = False
    ys, xs = np.nonzero(walk)
    threats = [m.pos for m in state.visible_monsters()] or [state.player]
    far = np.min([np.maximum(np.abs(xs - tx), np.abs(ys - ty)) for tx, ty in threats], axis=0)
    best = np.flatnonzero(far == far.max())
    i = int(best[int(state.rng.integers(len(best)))])
    state.player = (int(xs[i]), int(ys[i]))
    return [Message("You read the scroll and blink across the room.")]


def _bomb(state: GameState, item: ItemKind) -> list[Event] | str:
    """Used without a target: thrown at the nearest monster in view."""
    seen = state.visible_monsters()
    if not seen:
        return "There is nothing in view to throw it at."
    return _aimed(state, item, seen[0].x, seen[0].y)


def _berserk(state: GameState, item: ItemKind) -> list[Event] | str:
    if state.berserk:
        return "You are berserk already."
    state.berserk, state.weary = BERSERK_TURNS, 0
    return [Message(f"You drink {a(item.name)}: red fury! Your blows hit harder.")]


def _sacrifice(state: GameState, item: ItemKind) -> list[Event] | str:
    seen = state.visible_monsters()
    if not seen:
        return "There is nothing in view to burn."
    state.max_hp = max(1, state.max_hp - SACRIFICE_COST)
    state.hp = min(state.hp, state.max_hp)
    events: list[Event] = [
        Message(f"You read {a(item.name)}: it takes {SACRIFICE_COST} of your maximum HP.")
    ]
    for m in seen:
        dmg = int(state.rng.integers(SACRIFICE_DAMAGE[0], SACRIFICE_DAMAGE[1] + 1))
        events += burn(state, m, dmg)
    return events


def _haste(state: GameState, item: ItemKind) -> list[Event] | str:
    state.hasted = HASTE_TURNS
    return [Message(f"You drink {a(item.name)}: the world slows around you.")]


def _detect(state: GameState, item: ItemKind) -> list[Event] | str:
    state.detecting = DETECT_TURNS
    n = len(state.monsters)
    return [
        Message(f"You drink {a(item.name)}: you sense {n} monster{'s' * (n != 1)} on this floor.")
    ]


def _darkness(state: GameState, item: ItemKind) -> list[Event] | str:
    state.darkness = DARK_TURNS
    state.update_view()
    return [Message(f"You drink {a(item.name)}: darkness falls over your eyes!")]


def _hallucinate(state: GameState, item: ItemKind) -> list[Event] | str:
    state.hallucinating = HALLUCINATION_TURNS
    return [Message(f"You drink {a(item.name)}: oh wow, everything looks so cosmic!")]


def _incinerate(state: GameState, item: ItemKind) -> list[Event] | str:
    events: list[Event] = [Message(f"You open {a(item.name)}: it bursts into flames!")]
    return events + burst_fire(state, *state.player)


def burst_fire(
    state: GameState,
    x: int,
    y: int,
    roll: tuple[int, int] = INCINERATION_DAMAGE,
    self_roll: tuple[int, int] = INCINERATION_SELF,
    cause: str = "burnt by an incineration potion",
) -> list[Event]:
    """Flames burst on (``x``, ``y``): every monster on it or next to it is burnt for a roll of
    ``roll`` (fire: ghosts too, and no jelly splits), the player there or next to it takes one
    of ``self_roll`` (dying of ``cause``), and the cell and the eight round it catch fire where
    they can (moss burns on). The incineration potion's fire, and a fire bomb's burst."""
    events: list[Event] = []
    for m in [m for m in state.monsters if chebyshev(m.pos, (x, y)) <= 1]:
        events += burn(state, m, int(state.rng.integers(roll[0], roll[1] + 1)))
    if chebyshev(state.player, (x, y)) <= 1:
        dmg = int(state.rng.integers(self_roll[0], self_roll[1] + 1))
        events += hurt_player(state, dmg, cause)
    if not state.dead:
        events += ignite_around(state, (x, y))
    return events


def _confuse(state: GameState, item: ItemKind) -> list[Event] | str:
    state.confused = CONFUSED_TURNS
    return [Message(f"You drink {a(item.name)}: your head spins!")]


def stray(state: GameState, dx: int, dy: int) -> tuple[int, int]:
    """The step a confused player takes when meaning (``dx``, ``dy``): CONFUSED_STRAY% of the
    time a random one of the eight (no draw at all when not confused)."""
    if not state.confused or int(state.rng.integers(100)) >= CONFUSED_STRAY:
        return dx, dy
    return DIRS8[int(state.rng.integers(len(DIRS8)))]


def _identify(state: GameState, item: ItemKind, choice: str = "") -> list[Event] | str:
    """Name one unknown kind in the pack: ``choice``, else the first (the scroll itself, if it
    was unknown, is learned by reading it and is not the one named)."""
    unknown = [n for n in unknown_in_pack(state) if n != item.name]
    if choice and choice not in unknown:
        return "Choose an unknown potion or scroll in your pack."
    if not unknown:
        return "Everything in your pack is known already."
    name = choice or unknown[0]
    seen_as = look(state, name)[0]
    learn(state, name)
    return [Message(f"You read {a(item.name)}: the {seen_as} is {a(name)}.")]


def _enchant(state: GameState, item: ItemKind) -> list[Event] | str:
    """The worn armour (else the wielded weapon) gains ``ENCHANT_AMOUNT`` of enchantment
    (it mends corrosion first); refused with nothing worn."""
    target = worn(state, "armour") or worn(state, "weapon")
    if target is None:
        return "Your bare hands tingle: you wear nothing the scroll could enchant."
    state.equipment[target] += ENCHANT_AMOUNT
    refresh(state)
    what = (
        f"defence {state.defence}"
        if ITEMS[target].slot == "armour"
        else (f"damage {state.attack[0]}-{state.attack[1]}")
    )
    return [Message(f"You read {a(item.name)}: your {target} glows ({what}).")]


def _teleport(state: GameState, item: ItemKind) -> list[Event] | str:
    """To a random free cell the player could walk to from here (never behind a locked door or
    a seal, so no floor is left unfinishable), not a doorway, pedestal, key, item or trap."""
    walkable = tiles.WALKABLE[state.tiles]
    free = (distance_map(walkable, [state.player]) < FAR) & walkable
    free &= state.tiles != tiles.DOOR
    free[state.player[1], state.player[0]] = False
    for pos in [*state.puzzles, *state.keys_lying, *state.items_lying, *state.traps]:
        free[pos[1], pos[0]] = False
    for m in state.monsters + state.allies:
        free[m.y, m.x] = False
    ys, xs = np.nonzero(free)
    if not len(xs):
        return [Message(f"You read {a(item.name)}: the air shimmers, but you stay.")]
    i = int(state.rng.integers(len(xs)))
    state.player = (int(xs[i]), int(ys[i]))
    state.update_view()
    return [Message(f"You read {a(item.name)}: the world twists, and you are elsewhere!")]


def _life(state: GameState, item: ItemKind) -> list[Event] | str:
    state.max_hp += LIFE_MAX_HP
    state.hp = state.max_hp
    return [Message(f"You drink {a(item.name)}: you feel whole, {state.max_hp} HP at most.")]


def _summon(state: GameState, item: ItemKind) -> list[Event] | str:
    """SUMMON_SCROLL_COUNT monsters of a kind no deeper than the floor allows, awake, on the
    free cells next to the player (fewer where fewer are free)."""
    deepest = state.number + SUMMON_SCROLL_LEVEL
    kinds = [k for k in MONSTERS.values() if k.level <= deepest and not (k.still or k.sentinel)]
    kind = kinds[int(state.rng.integers(len(kinds)))]
    px, py = state.player
    called: list[Monster] = []
    for dx, dy in DIRS8:
        x, y = px + dx, py + dy
        if len(called) >= SUMMON_SCROLL_COUNT or not (
            0 <= x < state.width and 0 <= y < state.height
        ):
            continue
        if not tiles.WALKABLE[int(state.tiles[y, x])] or state.occupied(x, y):
            continue
        if int(state.tiles[y, x]) == tiles.DOOR:
            continue
        mid = max((o.id for o in state.monsters + state.allies), default=0) + 1
        hp = monster_hp(kind, state.difficulty)
        called.append(Monster(mid, kind.name, x, y, hp, home=(x, y), awake=True, max_hp=hp))
        state.monsters.append(called[-1])
    if not called:
        return [Message(f"You read {a(item.name)}: something howls far away, and stays there.")]
    names = counted([shown_name(state, m) for m in called])  # as the map shows them
    verb = "appears" if len(called) == 1 else "appear"
    return [Message(f"You read {a(item.name)}: {names} {verb}!")]


def _aggravate(state: GameState, item: ItemKind) -> list[Event] | str:
    woken = 0
    for m in state.monsters:
        woken += not m.awake
        m.awake, m.unseen = True, 0
    stirs = f" {woken} monster{'s' * (woken != 1)} wake." if woken else ""
    return [Message(f"You read {a(item.name)}: a piercing shriek echoes over the floor!{stirs}")]


def monster_drinks(state: GameState, m: Monster) -> list[Event] | None:
    """A monster of POTION_DRINKERS hurt below MONSTER_DRINK_BELOW of its HP drinks its one
    potion of healing (its turn); a player who sees it learns which potion heals. None when
    it does not drink."""
    if m.info.name not in POTION_DRINKERS or m.extra.get("drank") or m.hp <= 0:
        return None
    if m.hp >= MONSTER_DRINK_BELOW * m.max_hp:
        return None
    m.extra["drank"] = 1
    m.hp = min(m.max_hp, m.hp + MONSTER_DRINK_HEAL)
    if not state.visible[m.y, m.x]:
        return []
    potion = next(n for n, i in ITEMS.items() if i.effect == "heal")
    seen_as = look(state, potion)[0]
    who = shown_name(state, m)
    events: list[Event] = [Message(f"The {who} drinks {a(seen_as)}, and its wounds close!")]
    if learn(state, potion):
        events.append(Message(f"Now you know: the {seen_as} is {a(potion)}."))
    return events


#: The passing states of potions that tick down with the turns: (field, what ends it).
PASSING = (
    ("hasted", "You slow down to your own pace."),
    ("detecting", "Your sense of the monsters fades."),
    ("darkness", "The darkness lifts from your eyes."),
    ("hallucinating", "The world looks as it should again."),
    ("confused", "Your head clears."),
)


def tick_effects(state: GameState) -> list[Event]:
    """A turn of the player's passing states: the fury runs out into weariness, which passes;
    the potions' states (:data:`PASSING`) wear off."""
    events: list[Event] = []
    for name, ends in PASSING:
        left = getattr(state, name)
        if left:
            setattr(state, name, left - 1)
            if left == 1:
                events.append(Message(ends))
                if name == "darkness":
                    state.update_view()
    return events + _fury(state)


def _fury(state: GameState) -> list[Event]:
    """The fury runs out into weariness, which passes."""
    if state.berserk:
        state.berserk -= 1
        if not state.berserk:
            state.weary = WEARY_TURNS
            return [Message("Your fury is spent: you are weary, your blows are softer.")]
    elif state.weary:
        state.weary -= 1
        if not state.weary:
            return [Message("Your weariness passes.")]
    return []


# --- throwing and dropping --------------------------------------------------------------------


def _line(start: tuple[int, int], end: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells from ``start`` (excluded) to ``end`` (included), by Bresenham's line."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    err = dx + dy
    cells: list[tuple[int, int]] = []
    x, y = x0, y0
    while (x, y) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x += sx
        if e2 <= dx:
            err += dx
            y += sy
        cells.append((x, y))
    return cells


def flight(state: GameState, x: int, y: int) -> list[tuple[int, int]]:
    """The cells a bomb thrown at (``x``, ``y``) passes, the last being where it bursts: it
    stops on the first monster, before the first cell that is not open floor (a wall, a closed
    door), or on the cell aimed at. Empty when it could not leave the player's hand."""
    path: list[tuple[int, int]] = []
    for c in _line(state.player, (x, y)):
        if not (0 <= c[0] < state.width and 0 <= c[1] < state.height):
            break
        t = int(state.tiles[c[1], c[0]])
        if not (tiles.WALKABLE[t] and tiles.TRANSPARENT[t]):
            break
        path.append(c)
        if state.monster_at(*c) is not None:
            break
    return path


def throw_forecast(state: GameState, x: int, y: int) -> str:
    """What a bomb thrown at (``x``, ``y``) would do, in a sentence for the aiming cursor:
    where it bursts (on whom, or how far from the player, and whether something stops it
    short), whom the blast catches, and a warning when it would burn the player too."""
    refused = _refusal(state, x, y)
    if refused is not None:
        return refused
    path = flight(state, x, y)
    at = path[-1]
    hit = state.monster_at(*at)
    steps = chebyshev(state.player, at)
    where = f"{steps} step{'s' * (steps > 1)} away"
    if hit is not None:
        where = f"on the {shown_name(state, hit)}"
    short = " (something in the way stops it short)" if at != (x, y) and hit is None else ""
    near = [m for m in state.monsters if chebyshev(m.pos, at) <= 1 and m is not hit]
    caught = sorted({shown_name(state, m) for m in near})
    also = f", catching the {' and the '.join(caught)}" if caught else ""
    burn = " It would burn you too!" if steps <= 1 else ""
    return f"It would burst {where}{short}{also}.{burn}"


def _refusal(state: GameState, x: int, y: int) -> str | None:
    """Why a bomb cannot be thrown at (``x``, ``y``), if it cannot."""
    if not (0 <= x < state.width and 0 <= y < state.height) or not state.visible[y, x]:
        return "You cannot see that place."
    if (x, y) == state.player:
        return "You will not throw it at your own feet."
    if chebyshev((x, y), state.player) > THROW_RANGE:
        return f"That is too far: a throw reaches {THROW_RANGE} cells."
    if not flight(state, x, y):
        return "There is no room to throw it that way."
    return None


def throw(state: GameState, item: str, x: int, y: int) -> list[Event]:
    """Throw ``item`` from the pack at (``x``, ``y``): refused (no turn) without one, at a cell
    out of view or range, or at the player's own cell."""
    if state.inventory.get(item, 0) <= 0:
        return [Message(f"You have no {item}.")]
    info = ITEMS[item]
    if info.verb != "throw":
        return [Message(f"You cannot throw {a(item)}.")]
    events = _aimed(state, info, x, y)
    if isinstance(events, str):
        return [Message(events)]
    _spend(state, item)
    return [ItemUsed(item), *events]


def _aimed(state: GameState, item: ItemKind, x: int, y: int) -> list[Event] | str:
    refused = _refusal(state, x, y)
    if refused is not None:
        return refused
    return _burst(state, item, flight(state, x, y)[-1])


def _burst(state: GameState, item: ItemKind, at: tuple[int, int]) -> list[Event]:
    """The bomb bursts on ``at`` (:func:`burst_fire` with the bomb's roll): every monster on
    it or next to it, and the player if there, takes a damage roll; then the nine cells burn
    (moss catches and spreads, marsh gas explodes: engine/fire.py); and it is heard."""
    hit = state.monster_at(*at)
    where = f"the {shown_name(state, hit)}" if hit is not None else "the floor"
    events: list[Event] = [Message(f"You throw {a(item.name)}: it bursts on {where}!")]
    roll = bomb_roll(state)
    events += burst_fire(state, *at, roll, roll, f"burnt by {a(item.name)} of their own")
    return events + make_noise(state, at[0], at[1], item.noise)


def bomb_roll(state: GameState) -> tuple[int, int]:
    """A bomb's damage roll, inclusive: the bomb craft perk makes it burn harder."""
    extra = PERK_BOMB * perk_count(state, "bomb craft")
    return (BOMB_DAMAGE[0] + extra, BOMB_DAMAGE[1] + extra)


def _spend(state: GameState, item: str) -> None:
    """One ``item`` fewer in the pack, and a turn spent."""
    state.inventory[item] -= 1
    if not state.inventory[item]:
        del state.inventory[item]
    state.turn += 1


def drop(state: GameState, item: str) -> list[Event]:
    """Put one ``item`` on the player's cell (a turn), where nothing lies and it is not the
    stairs, the exit or a pedestal."""
    if state.inventory.get(item, 0) <= 0:
        return [Message(f"You have no {item}.")]
    pos = state.player
    if pos in state.items_lying or pos in state.keys_lying:
        return [Message("Something lies here already.")]
    tile = int(state.tiles[pos[1], pos[0]])
    if tile in (tiles.STAIRS, tiles.EXIT, tiles.PEDESTAL) or pos in state.puzzles:
        return [Message(f"You cannot drop anything on the {tiles.TILES[tile].name}.")]
    _spend(state, item)
    state.items_lying[pos] = item
    return [ItemDropped(item), Message(f"You drop {a(item_name(state, item))}.")]


#: Effects of pack items, by effect.
USE: dict[str, UseEffect] = {
    "heal": _heal,
    "map": _map,
    "blink": _blink,
    "bomb": _bomb,
    "berserk": _berserk,
    "sacrifice": _sacrifice,
    "haste": _haste,
    "detect": _detect,
    "darkness": _darkness,
    "hallucinate": _hallucinate,
    "incinerate": _incinerate,
    "confuse": _confuse,
    "identify": _identify,
    "enchant": _enchant,
    "teleport": _teleport,
    "aggravate": _aggravate,
    "life": _life,
    "summon": _summon,
}
