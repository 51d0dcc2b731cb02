"""What the autoplayer carries and grows with.

The gamble of unknown items (:func:`_gamble`, off with ``no_unknown``): a known scroll of
identification names an unknown kind; an unknown scroll is read in safety, an unknown potion
only when it holds two or more alike (most potions heal: a lone one drunk at full HP would be
wasted, so it is kept for a fight), and either is tried when desperate (below ``DESPERATE`` of
its HP with a threat in view).

Growing: a perk on offer is taken at once (:data:`PERK_PREFERENCE`); with no monster in view
it wears the best wearable of its pack (a heavy plate too, when the defence is worth the
slowness against :data:`TYPICAL_BLOW`), puts a fresh one on over one of its kind that corrosion
ate at, and takes off a plate corroded down to its cost. Of a treasure's choice it keeps one
upgrade, by :data:`TREASURE_PREFERENCE`.
"""

from __future__ import annotations

from roguelike.autoplay.policy import Decision, Memory, Policy
from roguelike.engine import ChoosePerk, TakeOff, Use, Wear
from roguelike.engine.creatures import ITEMS
from roguelike.engine.describe import a as a_
from roguelike.engine.gear import SLOTS, bonus, worn
from roguelike.engine.identify import unknown_in_pack
from roguelike.engine.items import held_known
from roguelike.engine.perks import perk_count
from roguelike.engine.state import GameState

#: Which upgrade of a treasure's choice it keeps: the first of these that lies there.
TREASURE_PREFERENCE = ("iron plate", "sharp blade", "heart elixir", "war axe", "tower plate")
#: How much it wants each perk (the best of the offer is taken), and how much less for each
#: time it has taken it already.
PERK_PREFERENCE = {
    "toughness": 5.0,
    "thick skin": 4.5,
    "accuracy": 4.0,
    "regeneration": 3.5,
    "bomb craft": 2.0,
    "stealth": 1.5,
    "identify by touch": 1.5,
    "keen eyes": 1.0,
}
PERK_REPEAT = 1.0
#: The blow it weighs armour against (a typical monster's mean damage): each point of defence
#: takes one off it, each point of slowness gives the monsters more of their turns.
TYPICAL_BLOW = 6.0
#: Below this share of its HP, with a threat in view and nothing known to help, it gambles on
#: an unknown potion or scroll.
DESPERATE = 0.3


def _gamble(state: GameState, memory: Memory, *, threats: bool) -> Decision | None:
    """Learning what the pack holds (off with ``no_unknown`` or ``no_items``): a known scroll
    of identification names an unknown kind; an unknown scroll, or a potion of which it holds
    two or more, is tried when it is safe (full HP, no monster in view); any is tried when
    desperate (a threat, low HP, nothing known to help), a potion first (more potions heal
    than scrolls save)."""
    policy = memory.policy
    unknown = unknown_in_pack(state)
    if policy.no_unknown or policy.no_items or not unknown:
        return None
    names = held_known(state, "identify")
    if names is not None and any(k != names for k in unknown) and not threats:
        choice = next(k for k in unknown if k != names)
        return Decision(Use(names, choice), "reading a scroll of identification")
    seen = bool(state.visible_monsters())
    if not seen and not threats and state.hp >= state.max_hp and not state.confused:
        # a potion tried in safety is most likely a healing one, wasted: one of two or more
        # alike is worth it (the rest are known), a lone one is kept for a fight; scrolls are
        # read at once (a map, a blade enchanted, a scroll of identification are worth most
        # early)
        spare = [k for k in unknown if ITEMS[k].verb != "quaff" or state.inventory[k] >= 2]
        if spare:
            return Decision(Use(spare[0]), "trying an unknown item in safety")
    if threats and state.hp < DESPERATE * state.max_hp:
        potions = [k for k in unknown if ITEMS[k].verb == "quaff"]
        return Decision(Use((potions or unknown)[0]), "trying an unknown item in despair")
    return None


def _perk_choice(state: GameState, policy: Policy) -> Decision:
    """The perk it takes of the offer: the first one (``first_perk``), else the best by
    :data:`PERK_PREFERENCE`, each one taken before counting for less."""
    if policy.first_perk:
        return Decision(ChoosePerk(0), f"taking the perk {state.perk_offer[0]}")
    scores = [
        PERK_PREFERENCE.get(name, 0.0) - PERK_REPEAT * perk_count(state, name)
        for name in state.perk_offer
    ]
    best = max(range(len(scores)), key=lambda i: (scores[i], -i))
    return Decision(ChoosePerk(best), f"taking the perk {state.perk_offer[best]}")


def _gear_score(state: GameState, slot: str, item: str | None, enchant: int = 0) -> float:
    """How good wearing ``item`` (None: nothing) in ``slot`` is, higher better: for a weapon
    the expected damage of a blow; for armour, less of a typical blow (``TYPICAL_BLOW``) taken
    per player turn, the slowness counted as the monsters' extra turns."""
    info = ITEMS[item] if item is not None else None
    amount = max(0, info.amount + enchant) if info is not None else 0
    worn_item = worn(state, slot)
    if slot == "weapon":
        lo, hi = state.attack
        if worn_item is not None:  # the numbers without what is wielded now
            lo, hi = lo - bonus(state, worn_item), hi - bonus(state, worn_item)
            hit = state.accuracy + ITEMS[worn_item].clumsy
        else:
            hit = state.accuracy
        if info is not None:
            hit -= info.clumsy
        return max(5, hit) / 100 * ((lo + hi) / 2 + amount)
    speed = state.speed + (ITEMS[worn_item].slow if worn_item is not None else 0)
    if info is not None:
        speed -= info.slow
    return -max(1.0, TYPICAL_BLOW - amount) * 100 / max(1, speed)


def _gear_change(state: GameState) -> Decision | None:
    """Wear a better item from the pack, or take off one worse than nothing (a plate corroded
    down to its cost); None when what is worn is the best it has."""
    for slot in SLOTS:
        now = worn(state, slot)
        best_score = _gear_score(state, slot, now, state.equipment.get(now, 0) if now else 0)
        best: str | None = None  # one from the pack (a fresh one of the kind worn, too)
        for item in sorted(state.inventory):
            if ITEMS[item].slot == slot and _gear_score(state, slot, item) > best_score + 1e-9:
                best, best_score = item, _gear_score(state, slot, item)
        if best is None and now is not None and _gear_score(state, slot, None) > best_score + 1e-9:
            return Decision(TakeOff(slot), f"taking off its {now}")
        if best is not None:
            return Decision(Wear(best), f"putting on {a_(best)}")
    return None


def _treasure_pick(state: GameState) -> tuple[int, int] | None:
    """The upgrade it keeps of the first treasure choice it has seen, by
    :data:`TREASURE_PREFERENCE`."""
    groups: dict[int, list[tuple[int, int]]] = {}
    for pos, g in state.choices.items():
        if state.explored[pos[1], pos[0]] and pos in state.items_lying:
            groups.setdefault(g, []).append(pos)
    for g in sorted(groups):
        rank = {name: i for i, name in enumerate(TREASURE_PREFERENCE)}
        cells = sorted(groups[g], key=lambda p: (rank.get(state.items_lying[p], 99), p))
        return cells[0]
    return None
