"""How the game names things to the player: articles, keys, the look-mode text of a cell, a
monster's numbers, and the words for the equipment the state keeps (the character sheet's,
look's and the morgue's).

Look mode starts the text of each thing on a cell with the glyph the map draws for it (from
:mod:`roguelike.engine.legend`), quoted (:func:`shown_glyph`: ```%`` A corpse…"), so a player
who wonders what ``%`` is can point at one.

A monster's numbers (:func:`monster_numbers`): the player is taken to know a kind's numbers
once it is in view (its damage, defence, accuracy and speed are those of the bestiary in
:mod:`roguelike.engine.creatures`, which never change) and its hit points exactly (the side
panel already shows them, as every hit is reported in the log). How dangerous it is comes
from the same rules as :mod:`roguelike.engine.combat`: the expected damage of a blow, its
chance to hit, the monster's speed and its regeneration.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from roguelike import tiles
from roguelike.engine.balance import (
    DEFENCE_DODGE,
    FREE_TURNS,
    PLAYER_ACCURACY,
    PLAYER_ATTACK,
    SNEAK_MULTIPLIER,
)
from roguelike.engine.changes import promise
from roguelike.engine.creatures import (
    ITEMS,
    SHACKLED,
    Monster,
    monster_attack,
    monster_shown,
    shown_name,
)
from roguelike.engine.identify import is_known, look
from roguelike.engine.legend import (
    FIRE_GLYPH,
    FIRE_TEXT,
    GAS_GLYPH,
    GAS_TEXT,
    KEY_GLYPH,
    PLAYER_GLYPH,
    TILE_MEANING,
    TRAP_GLYPH,
    TRAP_TEXT,
)
from roguelike.engine.state import GameState
from roguelike.engine.stealth import awareness, notice_chance, sneaky
from roguelike.engine.words import a, upper_first

__all__ = [
    "PLAYER_HIT_CHANCE",
    "TILE_TEXT",
    "MonsterNumbers",
    "a",
    "describe",
    "equipment_text",
    "equipment_words",
    "item_colour",
    "item_description",
    "item_label",
    "item_name",
    "key_name",
    "monster_numbers",
    "monster_shown",
    "shown_name",
    "passing_words",
    "monster_text",
    "run_gear",
]

#: The player's chance to hit (the rule is combat's; the look text and the sheet quote it).
PLAYER_HIT_CHANCE = PLAYER_ACCURACY
#: Turns beyond which a fight is reported as endless ("never").
ENDLESS = 999


def key_name(key: int) -> str:
    """How the player reads key ``key``: ``the red key (A)``."""
    return f"the {tiles.key_colour(key)[0]} key ({tiles.key_letter(key)})"


def vault_keys(state: GameState) -> set[int]:
    """The keys of this floor's sealed vaults (each opens a seal, not a coloured door)."""
    return {v.key for v in state.floor.vaults}


# ------------------------------------------------------------------------ items as known


def item_label(state: GameState, name: str) -> str:
    """How the player names item ``name``: its kind when known, else the world's look for it
    marked unknown (``murky potion (unknown)``). The pack, the side panel, look, the legend
    and the character sheet all say it so."""
    if is_known(state, name):
        return name
    return f"{look(state, name)[0]} (unknown)"


def item_name(state: GameState, name: str) -> str:
    """The name in a sentence: the kind when known, the bare look when not (``murky potion``)."""
    return name if is_known(state, name) else look(state, name)[0]


def item_colour(state: GameState, name: str) -> str:
    """The colour the item is drawn in: a potion's look's colour, the scrolls' one colour (so
    colour never gives an unknown kind away), any other item's own."""
    return look(state, name)[1]


def item_description(state: GameState, name: str) -> str:
    """What the player knows an item does: its kind's description, or, unknown, a gamble."""
    item = ITEMS[name]
    if is_known(state, name):
        return item.description
    verb = "Drink" if item.verb == "quaff" else "Read"
    return (
        f"Unknown: {verb.lower()} it to learn what it is (it may help or harm), or identify it "
        "with a scroll of identification."
    )


def passing_words(state: GameState) -> list[str]:
    """The potions' passing states on the player, with their turns left (``hasted 12``)."""
    states = (
        ("hasted", state.hasted),
        ("sensing monsters", state.detecting),
        ("in darkness", state.darkness),
        ("hallucinating", state.hallucinating),
        ("confused", state.confused),
    )
    return [f"{name} {left}" for name, left in states if left]


#: Look-mode text of each tile, by its name (the legend's meaning).
TILE_TEXT = TILE_MEANING


# ------------------------------------------------------------------------ a monster's numbers


@dataclass(frozen=True)
class MonsterNumbers:
    """What the player knows of a monster in view, and how a fight with it would go."""

    name: str
    glyph: str
    hp: int
    max_hp: int
    attack: tuple[int, int]  # its damage roll
    defence: int
    to_hit_you: int  # percent, against your defence now
    speed: int  # 100 is yours
    #: "asleep", "unaware", "awake, hunting you", "guarding" or "fleeing"
    mood: str
    traits: tuple[str, ...]  # its kind's ways: "hunts in packs", "flees below 25% HP" …
    blows_to_kill: int  # your expected swings to kill it (ENDLESS: you cannot)
    turns_to_kill_you: int  # your turns its attacks would expectedly take (ENDLESS: never)
    danger: str  # "an easy kill", "a fair fight", "risky", "deadly"
    #: asleep or unaware: its chance (percent) to notice you this turn where you stand, and a
    #: blow now is a sneak attack; -1 when it has noticed you
    notice: int = -1


def _mean_damage(roll: tuple[int, int], defence: int) -> float:
    """The expected damage of a blow that lands: the roll less the defence, at least 1."""
    lo, hi = roll
    return sum(max(1, r - defence) for r in range(lo, hi + 1)) / (hi - lo + 1)


def _turns(hp: int, per_turn: float) -> int:
    """Turns to take ``hp`` at ``per_turn`` expected damage a turn (ENDLESS if it never
    does)."""
    if per_turn <= 0:
        return ENDLESS
    return min(ENDLESS, math.ceil(hp / per_turn))


def _speed_words(speed: int) -> str:
    if speed == 100:
        return "as fast as you"
    ratio = speed / 100
    return f"{'fast' if speed > 100 else 'slow'}: {ratio:g} moves to your 1"


def _danger(blows: int, turns_to_die: int) -> str:
    """How a fight to the end would go: your turns to kill it against its turns to kill you."""
    if blows >= ENDLESS or turns_to_die <= blows:
        return "deadly: it would likely kill you first"
    if turns_to_die < 1.5 * blows:
        return "risky"
    if turns_to_die < 3 * blows:
        return "a fair fight"
    return "an easy kill"


def monster_numbers(state: GameState, m: Monster) -> MonsterNumbers:
    """``m``'s numbers as the player knows them (see the module), and the fight's odds."""
    info = m.info
    if sneaky(m):
        mood = awareness(m)
    elif m.fleeing:
        mood = "fleeing"
    elif m.guard:
        mood = "guarding"
    else:
        mood = "awake, hunting you"
    traits: list[str] = []
    if info.ranged:
        traits.append(f"shoots from up to {info.ranged} cells")
    if info.pack:
        traits.append("hunts in packs")
    if info.erratic:
        traits.append(f"flutters at random ({round(info.erratic * 100)}% of its moves)")
    if info.regen:
        traits.append(f"heals {info.regen} HP each move")
    if info.skirmish:
        traits.append("strikes and darts back out of reach")
    if info.kite:
        traits.append("backs away to keep its distance")
    if info.flank:
        traits.append("circles round you with its pack")
    if info.swarm:
        traits.append(f"bites surer and {info.swarm} harder for each ally next to you")
    if info.steals:
        traits.append("steals from your pack and runs")
    if info.corrodes:
        traits.append("corrodes your armour and blade")
    if info.shriek:
        traits.append(f"shrieks to wake everything within {info.shriek} cells")
    if info.summons:
        traits.append(f"raises {info.summons}s")
    if info.breath:
        lo, hi = monster_attack(info, state.difficulty, breath=True)
        traits.append(
            f"breathes fire {lo}-{hi} along a straight line of {info.breath} cells, "
            "burning all on it (stand off its lines)"
        )
    if info.splits:
        left = info.splits - m.extra.get("split", 0)
        traits.append(
            f"splits in two when a blow leaves it alive ({left} more time{'s' * (left != 1)}); "
            "fire does not split it"
            if left > 0
            else "splits no more"
        )
    if info.ethereal:
        traits.append("cannot be hurt by blows, only by fire")
    if info.bashes:
        traits.append("smashes closed doors (never locked ones)")
    if info.paws:
        traits.append("cannot open doors")
    if info.lurks:
        traits.append(f"is unseen farther than {info.lurks} cells until it strikes")
    if info.still:
        traits.append("never moves")
    if info.sentinel:
        traits.append("never leaves its post")
    if m.loot:
        traits.append(f"carries your {item_name(state, m.loot)}")
    if m.extra.get("cornered"):
        traits.append("has turned at bay")
    elif info.flee_below:
        traits.append(f"flees below {round(info.flee_below * 100)}% HP")
    elif not info.steals:
        traits.append("never flees")
    if m.guard:
        traits.append("guards a key")
    shown = monster_shown(state, m)
    if shown is not info:  # hallucinating: its name and numbers are another kind's, made up
        info = shown
        traits = ["shimmers and shifts before your eyes"]
    mine = 0.0 if info.ethereal else state.accuracy / 100 * _mean_damage(state.attack, info.defence)
    blows = _turns(m.hp, mine - info.regen * info.speed / 100)
    to_hit = max(0, min(100, info.accuracy - DEFENCE_DODGE * state.defence))
    attack = monster_attack(info, state.difficulty)
    theirs = to_hit / 100 * _mean_damage(attack, state.defence) * info.speed / state.pace
    turns_to_die = _turns(state.hp, theirs)
    return MonsterNumbers(
        name=info.name,
        glyph=info.glyph,
        hp=m.hp,
        max_hp=m.max_hp,
        attack=attack,
        defence=info.defence,
        to_hit_you=to_hit,
        speed=info.speed,
        mood=mood,
        traits=tuple(traits),
        blows_to_kill=blows,
        turns_to_kill_you=turns_to_die,
        danger=_danger(blows, turns_to_die),
        notice=notice_chance(state, m) if sneaky(m) else -1,
    )


def ally_text(m: Monster) -> str:
    """Look's words for a captive (how many bumps its shackles still need) or a free ally."""
    if SHACKLED in m.extra:
        left = FREE_TURNS - m.extra[SHACKLED]
        return (
            f"{shown_glyph(m.info.glyph)} A shackled {m.kind}: bump it to free it "
            f"({left} more bump{'s' if left != 1 else ''})."
        )
    return (
        f"{shown_glyph(m.info.glyph)} Your ally, {a(m.kind)} ({m.hp}/{m.max_hp} HP): "
        "walk into it to swap."
    )


def monster_text(n: MonsterNumbers) -> str:
    """``m``'s numbers in a few short sentences, for look mode."""
    lo, hi = n.attack
    b, t = n.blows_to_kill, n.turns_to_kill_you
    blows = "you cannot hurt it" if b >= ENDLESS else f"~{b} blow{'s' * (b != 1)}"
    dies = "never" if t >= ENDLESS else f"~{t} turn{'s' * (t != 1)}"
    sneak = (
        f" It has not noticed you ({n.notice}% a turn that it does, from where you stand): "
        f"a blow now is a sneak attack, sure and {SNEAK_MULTIPLIER} times as hard."
        if n.notice >= 0
        else ""
    )
    return (
        f"{shown_glyph(n.glyph)} {upper_first(a(n.name))} ({n.hp}/{n.max_hp} HP, {n.mood}). "
        f"Hits {lo}-{hi}, {n.to_hit_you}% to hit you; defence {n.defence}; "
        f"{_speed_words(n.speed)}. It {', '.join(n.traits)}. "
        f"To kill it: {blows}; to kill you: {dies}: {n.danger}.{sneak}"
    )


# ------------------------------------------------------------------------ the character sheet


def level_attack(level: int) -> tuple[int, int]:
    """The damage roll levels alone give at ``level`` (see ``combat.gain_xp``: each level
    adds 1 to the top, each odd level 1 to the bottom)."""
    lo, hi = PLAYER_ATTACK
    return (lo + (level - 1) // 2, hi + level - 1)


def equipment_words(equipment: dict[str, int]) -> list[tuple[str, int, str]]:
    """Each item worn or wielded, the weapon first: its name, its enchantment (0, or below by
    corrosion), and what it gives now and costs while worn (``+3 damage, cost -15% to hit``).
    The character sheet, look and the morgue say the same."""
    out = []
    for slot in ("weapon", "armour"):
        for name, enchant in equipment.items():
            item = ITEMS[name]
            if item.slot != slot:
                continue
            gives = max(0, item.amount + enchant)
            what = f"+{gives} damage" if item.effect == "attack" else f"+{gives} defence"
            if enchant:
                what += f" (corroded {enchant})"
            if item.clumsy:
                what += f", cost -{item.clumsy}% to hit"
            if item.slow:
                what += f", cost -{item.slow} speed"
            out.append((name, enchant, what))
    return out


def equipment_text(equipment: dict[str, int]) -> str:
    """What is worn and wielded in a few words: ``a war axe, an iron plate`` (or ``none``)."""
    words = [a(name) for name, _, _ in equipment_words(equipment)]
    return ", ".join(words) or "none"


def run_gear(state: GameState) -> list[str]:
    """What the player ended the run with, one line each, for the run's text: what was worn
    and wielded (what each gives and costs), or the starting gear if nothing, then the perks
    taken. The one place the morgue's equipment and perks section is made."""
    worn = [f"{name}  ({what})" for name, _, what in equipment_words(state.equipment)]
    perks = [f"perk: {name}" for name in state.perks]
    return (worn or ["the starting blade and clothes: nothing else worn"]) + perks


# ------------------------------------------------------------------------ look


def shown_glyph(glyph: str) -> str:
    """A map glyph as look writes it: quoted (```.`` Bare stone floor"), so that a glyph that
    is a stop or a comma is never read as one ("…for hints. . Bare stone floor.")."""
    return f"`{glyph}`"


def describe(
    state: GameState, x: int, y: int, *, key_glyph: Callable[[int], str] | None = None
) -> str:
    """What the player knows about cell (x, y), for look mode: each thing on it introduced
    by the glyph the map draws for it. A monster's numbers replace its kind's description
    and the ground's (the legend in the help has both) so that the text fits the prompt.
    ``key_glyph``: how the map draws a key lying on the floor, when the theme in use draws
    it otherwise than :data:`KEY_GLYPH` (by its door's letter)."""
    if not (0 <= x < state.width and 0 <= y < state.height) or not state.explored[y, x]:
        return "You have not seen that place."
    seen = bool(state.visible[y, x])
    parts: list[str] = []
    if (x, y) == state.player:
        gear = f"; wearing {equipment_text(state.equipment)}" if state.equipment else ""
        parts.append(
            f"{shown_glyph(PLAYER_GLYPH)} You ({state.hp}/{state.max_hp} HP, "
            f"level {state.level}{gear}), on:"
        )
    m = state.monster_at(x, y) if seen else None
    if m is not None and not state.shows(m):  # a lurker out of sight
        if "shown" in m.extra:  # seen once: the player knows something is there
            parts.append("Something unseen lurks here.")
        m = None
    if m is not None:
        parts.append(monster_text(monster_numbers(state, m)))
    ally = state.ally_at(x, y)
    if ally is not None and (seen or SHACKLED in ally.extra):
        parts.append(ally_text(ally))
    if (x, y) in state.keys_lying:
        k = state.keys_lying[(x, y)]
        glyph = key_glyph(k) if key_glyph else KEY_GLYPH
        opens = (
            "a vault's seal nearby"
            if k in vault_keys(state)
            else f"the {tiles.key_colour(k)[0]} door"
        )
        parts.append(f"{shown_glyph(glyph)} {upper_first(key_name(k))}: it opens {opens}.")
    if (x, y) in state.items_lying:
        item = state.items_lying[(x, y)]
        parts.append(
            f"{shown_glyph(ITEMS[item].glyph)} {upper_first(a(item_label(state, item)))}. "
            f"{item_description(state, item)}"
        )
        group = state.choices.get((x, y))
        if group is not None:
            rest = sum(1 for g in state.choices.values() if g == group) - 1
            parts.append(
                f"One of a hoard: take it (g) and the {rest} other treasure"
                f"{'s' if rest != 1 else ''} beside it crumble to dust."
            )
    if (x, y) in state.traps_known:
        parts.append(f"{shown_glyph(TRAP_GLYPH)} {TRAP_TEXT[state.traps[(x, y)]]}")
    if seen and (x, y) in state.fire:
        left = state.fire[(x, y)]
        parts.append(
            f"{shown_glyph(FIRE_GLYPH)} Burning ({left} more turn{'s' * (left > 1)}). {FIRE_TEXT}"
        )
    if (x, y) in state.gas:
        parts.append(f"{shown_glyph(GAS_GLYPH)} {GAS_TEXT}")
    room = state.puzzles.get((x, y))
    tile = tiles.TILES[int(state.tiles[y, x])]
    if room is not None:
        colour = tiles.key_colour(room.key)[0]
        status = "solved" if room.solved else "unsolved: step on it to play"
        opens = (
            "It breaks the seal of a vault nearby."
            if room.key in vault_keys(state)
            else promise(state, room.key) or f"It opens the {colour} door."
        )
        parts.append(
            f"{shown_glyph(tile.glyph)} A pedestal with {a(room.difficulty)} {room.type} "
            f"puzzle ({status}). " + opens
        )
    lock = tiles.lock_of(tile.id)
    if lock is not None:
        # "Door, locked", not "A door": the glyph is the lock's letter ("A A door locked …")
        parts.append(f"{shown_glyph(tile.glyph)} Door, locked: {key_name(lock)} opens it.")
    elif m is not None or ally is not None:  # the numbers take the room: the ground is named
        parts.append(f"On {shown_glyph(tile.glyph)} {tile.name}.")
    elif room is None:
        parts.append(
            f"{shown_glyph(tile.glyph)} {TILE_TEXT.get(tile.name, tile.name.capitalize() + '.')}"
        )
    if not seen:
        parts.append("(remembered)")
    return " ".join(p.strip() for p in parts)
