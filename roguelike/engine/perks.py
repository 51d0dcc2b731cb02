"""Perks: at each level up the player takes one of three perks offered.

The offer for level ``L`` is drawn from its own stream, ``seeds.stream(seed, L, "perks")``
(never the play stream, so an offer draws nothing a fight would), as an order of every perk in
:data:`~roguelike.engine.balance.PERKS`; the offer is the first three of that order the player
may still take (a perk taken its ``most`` times is no longer offered). So two players of one
world at the same level are offered the same three unless one of them has used up a perk.

Each level beyond the first owes one perk: ``state.perk_offer`` holds the offer of the lowest
level not yet chosen for (empty when none is owed). :func:`choose_perk` (the engine's
:class:`~roguelike.engine.actions.ChoosePerk`) takes one; it spends no turn, and play goes on
while an offer waits (the game screen shows it as a modal, which Esc puts off).

What a perk does is read where its rule is: :func:`has_perk` and :func:`perk_count` (toughness
adds HP when taken; accuracy and thick skin are in :func:`roguelike.engine.gear.refresh`;
regeneration in the healing clock; stealth adds to ``state.stealth``; bomb craft in a bomb's
roll; keen eyes in spotting traps; identify by touch names the potions and scrolls of the pack
when taken and each one picked up after, :func:`roguelike.engine.identify.touch`).
"""

from __future__ import annotations

from roguelike import seeds
from roguelike.engine.balance import PERK_OFFERED, PERK_STEALTH, PERK_TOUGHNESS_HP, PERKS
from roguelike.engine.events import Event, Message
from roguelike.engine.gear import refresh
from roguelike.engine.identify import look, touch
from roguelike.engine.state import GameState
from roguelike.engine.words import a, upper_first

__all__ = ["PERK_STREAM", "choose_perk", "has_perk", "offer_for", "perk_count", "update_offer"]

PERK_STREAM = "perks"


def has_perk(state: GameState, name: str) -> bool:
    """The player has taken the perk ``name``."""
    return name in state.perks


def perk_count(state: GameState, name: str) -> int:
    """How many times the player has taken the perk ``name``."""
    return state.perks.count(name)


def offer_for(state: GameState, level: int) -> tuple[str, ...]:
    """The perks offered at ``level``: the first :data:`PERK_OFFERED` of the level's seeded
    order of every perk that the player may still take."""
    names = list(PERKS)
    order = seeds.stream(state.seed, level, PERK_STREAM).permutation(len(names))
    open_ = [
        names[int(i)] for i in order if perk_count(state, names[int(i)]) < PERKS[names[int(i)]].most
    ]
    return tuple(open_[:PERK_OFFERED])


def update_offer(state: GameState) -> None:
    """Set ``state.perk_offer`` to the offer of the lowest level not yet chosen for (every
    level beyond the first owes one perk), or () when none is owed."""
    owed = len(state.perks) + 2  # the level the next perk is for
    state.perk_offer = offer_for(state, owed) if owed <= state.level else ()


def choose_perk(state: GameState, index: int) -> list[Event]:
    """Take the perk at ``index`` of the offer (no turn); the next owed offer follows."""
    if not state.perk_offer:
        return [Message("No perk is on offer.")]
    if not 0 <= index < len(state.perk_offer):
        return [Message(f"Choose a perk from 1 to {len(state.perk_offer)}.")]
    name = state.perk_offer[index]
    state.perks.append(name)
    said = f"You take the perk {name}. {PERKS[name].description}"
    if name == "toughness":
        state.max_hp += PERK_TOUGHNESS_HP
        state.hp += PERK_TOUGHNESS_HP
    elif name == "stealth":
        state.stealth += PERK_STEALTH
    learned = touch(state, [n for n, count in state.inventory.items() if count > 0])
    if learned:
        named = "; ".join(f"the {look(state, n)[0]} is {a(n)}" for n in learned)
        said += f" {upper_first(named)}."
    refresh(state)
    update_offer(state)
    return [Message(said)]
