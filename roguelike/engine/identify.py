"""Items to gamble on: which potion and scroll kinds the player knows, and how the others look.

Every potion and scroll kind (an item read or quaffed) is unknown at the start of a run. Each
world deals its potion kinds the looks of :data:`~roguelike.engine.balance.POTION_LOOKS`
("a murky potion") and its scroll kinds the titles of
:data:`~roguelike.engine.balance.SCROLL_TITLES` ("a scroll titled XOBAH"), shuffled by the
stream ``seeds.stream(seed, 0, "appearances")``: a function of the world's seed alone, so two
players of one code meet the same looks and can compare notes, and nothing played changes
them (they are derived, never saved).

A kind becomes known (``state.identified``) when the player uses one, reads a scroll of
identification on it, or sees a monster drink one (:mod:`roguelike.engine.monsters`); with the
perk identify by touch (:data:`TOUCH`), when they pick one up, and every kind in the pack when
they take the perk (:func:`touch`).
"""

from __future__ import annotations

from functools import lru_cache

from roguelike import seeds
from roguelike.engine.balance import POTION_LOOKS, SCROLL_COLOUR, SCROLL_TITLES
from roguelike.engine.creatures import ITEMS
from roguelike.engine.state import GameState

__all__ = [
    "APPEARANCE_STREAM",
    "POTIONS",
    "SCROLLS",
    "Look",
    "appearances",
    "TOUCH",
    "is_known",
    "known_looks",
    "learn",
    "look",
    "touch",
    "unknown_in_pack",
]

#: The perk that names a potion or scroll as it is picked up.
TOUCH = "identify by touch"

#: The name of the stream the looks are dealt from (floor 0: the world's, not a floor's).
APPEARANCE_STREAM = "appearances"
#: The kinds to identify, in the order of the item table.
POTIONS = tuple(n for n, i in ITEMS.items() if i.verb == "quaff")
SCROLLS = tuple(n for n, i in ITEMS.items() if i.verb == "read")
assert len(POTIONS) <= len(POTION_LOOKS) and len(SCROLLS) <= len(SCROLL_TITLES)

#: How an unknown kind looks: its words ("murky potion", "scroll titled XOBAH") and colour.
Look = tuple[str, str]


@lru_cache(maxsize=64)
def appearances(seed: int) -> dict[str, Look]:
    """Each potion and scroll kind's look in world ``seed`` (see the module)."""
    rng = seeds.stream(seed, 0, APPEARANCE_STREAM)
    looks = [POTION_LOOKS[int(i)] for i in rng.permutation(len(POTION_LOOKS))]
    titles = [SCROLL_TITLES[int(i)] for i in rng.permutation(len(SCROLL_TITLES))]
    out: dict[str, Look] = {}
    for name, (word, colour) in zip(POTIONS, looks, strict=False):
        out[name] = (f"{word} potion", colour)
    for name, title in zip(SCROLLS, titles, strict=False):
        out[name] = (f"scroll titled {title}", SCROLL_COLOUR)
    return out


def unknowable(name: str) -> bool:
    """True for a kind that starts unknown (a potion or a scroll)."""
    item = ITEMS.get(name)
    return item is not None and item.verb in ("quaff", "read")


def is_known(state: GameState, name: str) -> bool:
    """The player knows what ``name`` is (every other item than potions and scrolls is known)."""
    return not unknowable(name) or name in state.identified


def look(state: GameState, name: str) -> Look:
    """How ``name`` looks in this world, whether known or not."""
    found = appearances(state.seed).get(name)
    if found is None:
        item = ITEMS.get(name)
        return (name, item.colour if item else "#c0c0c0")
    return found


def learn(state: GameState, name: str) -> bool:
    """Mark ``name`` known; True when it was not known before."""
    if is_known(state, name):
        return False
    state.identified.add(name)
    return True


def touch(state: GameState, names: list[str]) -> list[str]:
    """With the perk :data:`TOUCH`, learn the unknown ones of ``names`` (items just picked up,
    or the pack when the perk is taken): those learned now, in order; none without it."""
    if TOUCH not in state.perks:
        return []
    return [n for n in dict.fromkeys(names) if learn(state, n)]


def known_looks(state: GameState) -> list[tuple[str, str]]:
    """(kind, look) of each potion and scroll kind the player has learned, in table order."""
    return [(n, look(state, n)[0]) for n in POTIONS + SCROLLS if n in state.identified]


def unknown_in_pack(state: GameState) -> list[str]:
    """The unknown kinds in the pack, in pack order (what a scroll of identification may
    name)."""
    return [n for n, c in state.inventory.items() if c > 0 and not is_known(state, n)]
