"""Blows: the player's and the monsters' attacks, damage, death, experience and levels.

A blow hits with a chance (the player's accuracy, 85% unless a clumsy weapon lowers it; a
monster's own accuracy minus ``DEFENCE_DODGE`` per point of the player's defence), then deals
its damage roll (the player's raised while berserk, lowered while weary; a monster's scaled by
the world's difficulty) minus the target's defence, at least 1. All rolls draw from
``state.rng``, the floor's gameplay stream. A kill gives the monster's experience; each level
up adds ``LEVEL_HP`` HP (maximum and current), 1 to the top of the damage roll and, on every
odd level, 1 to its bottom, and owes a perk (engine/perks.py). An invulnerable player (a
measuring switch of the autoplayer, never saved) is left at 1 HP by a blow that would kill it.

Some kinds' blows do more than damage: a swarming kind hits surer and harder for each other
swarming monster next to the player; a thief's blow takes an item from the pack (or a hint
coin) instead of HP, and the thief drops it where it dies; a corroding kind's blow may lower
the enchantment of the worn armour by 1, or with no armour left to eat the weapon's
(engine/gear.py).

The kinds whose answer is not a corridor: a breathing kind burns every creature on a straight
line from it (:func:`breathes`; a corridor is that line); a splitting kind struck and not
killed splits in two (:func:`split`); blows pass through an ethereal kind; fire hurts a
monster through :func:`burn` (or the ground's fire, :mod:`roguelike.engine.fire`: ethereal
kinds too, and it never splits); a lurking kind is shown a while after it strikes or is struck.
"""

from __future__ import annotations

from roguelike import tiles
from roguelike.engine.balance import (
    BERSERK_BONUS,
    DEFENCE_DODGE,
    FIRE_FUEL_TURNS,
    LEVEL_HP,
    LURK_SHOWN,
    NOISE_BLOW,
    PLAYER_ACCURACY,
    SNEAK_MULTIPLIER,
    SWARM_ACCURACY,
    WEARY_MALUS,
)
from roguelike.engine.creatures import Monster, monster_attack, shown_name
from roguelike.engine.describe import a, item_name
from roguelike.engine.events import Attacked, Died, Event, LevelUp, Message
from roguelike.engine.gear import corrode, refresh
from roguelike.engine.grid import DIRS8, can_step
from roguelike.engine.perks import update_offer
from roguelike.engine.state import GameState
from roguelike.engine.stealth import alert, awareness, make_noise, sneaky

__all__ = [
    "PLAYER_ACCURACY",
    "breath_line",
    "breathes",
    "burn",
    "drop_loot",
    "fury",
    "gain_xp",
    "hurt_monster",
    "hurt_player",
    "remains",
    "take_damage",
    "monster_hits",
    "player_attacks",
    "split",
]


def player_attacks(state: GameState, m: Monster) -> list[Event]:
    """The player strikes ``m`` (and wakes it, and shows it if it lurks); the blow's noise
    carries from the player's cell. A blow at a sleeping or unaware monster is a sneak attack:
    it always lands, for ``SNEAK_MULTIPLIER`` times the damage (see
    :mod:`roguelike.engine.stealth`). A blow passes through an ethereal kind; one that does not
    kill a splitting kind splits it."""
    sneak = awareness(m) if sneaky(m) else ""
    alert(m)
    _show(m)
    if not sneak and state.rng.integers(100) >= state.accuracy:
        missed = Message(f"You miss the {shown_name(state, m)}.")
        return [Attacked("you", m.kind, 0, False), missed, *_blow_noise(state)]
    if m.info.ethereal:
        through = (
            f"Your blow passes through the {shown_name(state, m)}: blows cannot hurt it, fire can."
        )
        return [Attacked("you", m.kind, 0, False), Message(through), *_blow_noise(state)]
    roll = int(state.rng.integers(state.attack[0], state.attack[1] + 1)) + fury(state)
    damage = max(1, roll - m.info.defence)
    if sneak:
        damage *= SNEAK_MULTIPLIER
        mood = "sleeping" if sneak == "asleep" else "unaware"
        said = f"You strike the {mood} {shown_name(state, m)} from the shadows: {damage}!"
        events = hurt_monster(state, m, damage, "you", said=said)
    else:
        events = hurt_monster(state, m, damage, "you")
    if m in state.monsters:
        events += split(state, m)
    return events + _blow_noise(state)


def _blow_noise(state: GameState) -> list[Event]:
    """The noise of the player's blow, from the player's cell."""
    return make_noise(state, *state.player, NOISE_BLOW)


def _show(m: Monster) -> None:
    """A lurking ``m`` stays in plain sight for ``LURK_SHOWN`` of its turns."""
    if m.info.lurks:
        m.extra["shown"] = LURK_SHOWN


def split(state: GameState, m: Monster) -> list[Event]:
    """A splitting ``m`` that a blow left alive splits in two: it keeps half of its HP
    (rounded up), the new half the rest, on the first free cell next to it in the order of
    the directions; each piece has made one split more (none past its kind's ``splits``). No
    split with 1 HP left, nor without room."""
    made = m.extra.get("split", 0)
    if not m.info.splits or made >= m.info.splits or m.hp < 2:
        return []
    cell = next(
        (
            (m.x + dx, m.y + dy)
            for dx, dy in DIRS8
            if can_step(state, m.x, m.y, dx, dy)
            and (m.x + dx, m.y + dy) != state.player
            and not state.occupied(m.x + dx, m.y + dy)
        ),
        None,
    )
    if cell is None:
        return []
    half = m.hp // 2
    m.hp -= half
    m.max_hp = m.hp
    m.extra["split"] = made + 1
    mid = max(o.id for o in state.monsters + state.allies) + 1
    piece = Monster(mid, m.kind, cell[0], cell[1], half, home=cell, awake=True, max_hp=half)
    piece.extra["split"] = made + 1
    state.monsters.append(piece)
    return [Message(f"The {shown_name(state, m)} splits in two!")]


def burn(state: GameState, m: Monster, damage: int, by: str = "you") -> list[Event]:
    """Fire burns ``m`` for ``damage``: how a bomb, a scroll of sacrifice or a breath hurts a
    monster (burning ground and marsh gas do the same in :mod:`roguelike.engine.fire`). It
    hurts an ethereal kind as any other and never splits a splitting one. Fire the player
    started (``by="you"``) counts as the player's kill and gives its experience; a monster's
    (``by``: its kind) does not."""
    _show(m)
    if by == "you":  # said as fire, not as a blow ("You hit the fire ant" after a bomb)
        said = f"The {shown_name(state, m)} burns for {damage}."
        return hurt_monster(state, m, damage, "you", ranged=True, said=said)
    m.hp -= damage
    m.awake = True
    if m.hp > 0:
        return [Attacked(by, m.kind, damage, False, True)]
    state.monsters.remove(m)
    events: list[Event] = [
        Attacked(by, m.kind, damage, True, True),
        Message(f"The {shown_name(state, m)} burns to death."),
    ]
    return events + remains(state, m)


def fury(state: GameState) -> int:
    """What the player's blows gain (berserk) or lose (weary) now."""
    return BERSERK_BONUS if state.berserk else -WEARY_MALUS if state.weary else 0


def take_damage(state: GameState, damage: int, cause: str) -> bool:
    """The player loses ``damage`` HP, whatever dealt it; True when that ends the run, as
    ``cause`` ("killed by a goblin") on this floor. The one place a run ends in death, so an
    invulnerable player (a measuring run: see ``GameState.invulnerable``) is spared here: it
    is left at 1 HP and the blow is counted."""
    state.hp -= damage
    if state.hp <= 0 and state.invulnerable:
        state.hp = 1
        state.spared += 1
    if state.hp > 0:
        return False
    state.hp = 0
    state.dead = True
    state.stats.cause = f"{cause} on floor {state.number}"
    return True


def hurt_player(state: GameState, damage: int, cause: str) -> list[Event]:
    """The player takes ``damage`` from something that is not a monster's blow (its own bomb);
    at 0 HP the run ends with ``cause``."""
    if not take_damage(state, damage, cause):
        return [Message(f"You are burnt for {damage}.")]
    return [Died(state.stats.cause or cause), Message(f"You are burnt for {damage}. You die...")]


def hurt_monster(
    state: GameState,
    m: Monster,
    damage: int,
    by: str,
    *,
    ranged: bool = False,
    said: str = "",
) -> list[Event]:
    """``m`` takes ``damage`` from the player's ``by`` (a blow, a bomb), and hunts the player;
    a kill is counted and its experience gained. ``said``: the words for the blow, instead of
    ``You hit the goblin for 4.`` (a kill adds ``You kill the goblin.`` to them)."""
    m.hp -= damage
    alert(m)
    if m.hp > 0:
        return [
            Attacked(by, m.kind, damage, False, ranged),
            Message(said or f"You hit the {shown_name(state, m)} for {damage}."),
        ]
    state.monsters.remove(m)
    state.stats.kills += 1
    kill = f"You kill the {shown_name(state, m)}."
    events: list[Event] = [
        Attacked(by, m.kind, damage, True, ranged),
        Message(f"{said} {kill}" if said else kill),
    ]
    return events + remains(state, m) + gain_xp(state, m.info.xp)


def remains(state: GameState, m: Monster) -> list[Event]:
    """What a monster just dead leaves: a thief's loot (:func:`drop_loot`), and a smouldering
    body (its kind's ``embers``: a fire ant, whose bite also lights the moss under the player:
    :func:`monster_hits`) that sets the moss under it alight, burning for
    ``FIRE_FUEL_TURNS`` and spreading from there as any fire (:mod:`roguelike.engine.fire`):
    a swarm fought on moss burns, and whoever stands beside it."""
    events = drop_loot(state, m) if m.loot else []
    if m.info.embers and _smoulder(state, m.pos) and state.visible[m.y, m.x]:
        events.append(Message(f"The dead {shown_name(state, m)} smoulders: the moss catches fire!"))
    return events


def _smoulder(state: GameState, pos: tuple[int, int]) -> bool:
    """Set the moss on ``pos`` alight (for ``FIRE_FUEL_TURNS``, spreading from there as any
    fire: :mod:`roguelike.engine.fire`); False where nothing there feeds a fire."""
    if int(state.tiles[pos[1], pos[0]]) not in tiles.FUEL:
        return False
    state.fire[pos] = max(state.fire.get(pos, 0), FIRE_FUEL_TURNS)
    return True


def drop_loot(state: GameState, m: Monster) -> list[Event]:
    """A dead thief's loot falls on its cell, or on the nearest free one round it but the
    player's (lost if every cell round it holds something)."""
    walk = tiles.WALKABLE[state.tiles]
    for dx, dy in ((0, 0), *DIRS8):
        x, y = m.x + dx, m.y + dy
        free = (x, y) not in state.items_lying and (x, y) not in state.keys_lying
        inside = 0 <= y < state.height and 0 <= x < state.width
        # never under the player, who would stand on it without taking it
        mine = (x, y) == state.player
        if inside and free and not mine and walk[y, x] and (x, y) not in state.puzzles:
            state.items_lying[(x, y)] = m.loot
            return [Message(f"The {shown_name(state, m)} drops your {item_name(state, m.loot)}.")]
    return []


def gain_xp(state: GameState, xp: int) -> list[Event]:
    """Add ``xp`` experience and take every level it reaches."""
    state.xp += xp
    events: list[Event] = []
    while state.xp >= state.xp_to_next:
        state.xp -= state.xp_to_next
        state.level += 1
        state.max_hp += LEVEL_HP
        state.hp += LEVEL_HP
        refresh(state)
        lo, hi = state.attack
        events += [
            LevelUp(state.level),
            Message(
                f"You reach level {state.level}: {state.max_hp} HP, hits of {lo}-{hi}. "
                "Choose a perk (P)."
            ),
        ]
    if events:
        update_offer(state)
    return events


def breath_line(state: GameState, m: Monster) -> list[tuple[int, int]]:
    """The cells ``m``'s breath would sweep at the player: along the straight line
    (orthogonal or diagonal) from ``m`` through the player, up to its kind's ``breath``
    cells, stopped by the first cell that blocks the view. Empty when the player is not on
    one of its lines within reach, or something blocks the view between them."""
    reach = m.info.breath
    px, py = state.player
    ddx, ddy = px - m.x, py - m.y
    if not reach or (ddx, ddy) == (0, 0):
        return []
    if ddx and ddy and abs(ddx) != abs(ddy):
        return []
    if max(abs(ddx), abs(ddy)) > reach:
        return []
    sx, sy = (ddx > 0) - (ddx < 0), (ddy > 0) - (ddy < 0)
    cells: list[tuple[int, int]] = []
    for k in range(1, reach + 1):
        x, y = m.x + sx * k, m.y + sy * k
        if not (0 <= x < state.width and 0 <= y < state.height):
            break
        if not tiles.TRANSPARENT[state.tiles[y, x]]:
            break
        cells.append((x, y))
    return cells if state.player in cells else []


def breathes(state: GameState, m: Monster) -> list[Event]:
    """``m`` breathes fire along its line at the player (:func:`breath_line`): every creature
    on it is burnt, the player (its armour takes off its defence, at least 1), its allies and
    the monsters alike. It never misses: the answer is to stand off its lines."""
    cells = breath_line(state, m)
    _show(m)
    events: list[Event] = [Message(f"The {shown_name(state, m)} breathes fire!")]
    lo, hi = monster_attack(m.info, state.difficulty, breath=True)
    for cell in cells:
        if state.dead:
            break
        roll = int(state.rng.integers(lo, hi + 1))
        if cell == state.player:
            damage = max(1, roll - state.defence)
            died = take_damage(state, damage, f"burnt by {a(m.kind)}")
            events.append(Attacked(m.kind, "you", damage, died, True))
            if died:
                events += [
                    Died(state.stats.cause or ""),
                    Message(f"You burn for {damage}. You die..."),
                ]
            else:
                events.append(Message(f"You are burnt for {damage}."))
            continue
        other = state.monster_at(*cell)
        if other is not None and other is not m:
            events += burn(state, other, roll, m.kind)
            continue
        ally = state.ally_at(*cell)
        if ally is not None:
            ally.hp -= roll
            events.append(Message(f"Your {ally.kind} is burnt for {roll}."))
            if ally.hp <= 0:
                state.allies.remove(ally)
                events.append(Message(f"Your {ally.kind} burns to death."))
    return events


def monster_hits(state: GameState, m: Monster, *, ranged: bool) -> list[Event]:
    """``m`` attacks the player (a shot when ``ranged``); at 0 HP the run ends."""
    info = m.info
    _show(m)
    verb = "shoots at" if ranged else "attacks"
    noise = make_noise(state, m.x, m.y, NOISE_BLOW)  # heard whether it lands or not
    swarm = _swarming(state, m) if info.swarm and not ranged else 0
    accuracy = info.accuracy + SWARM_ACCURACY * swarm
    if state.rng.integers(100) >= accuracy - DEFENCE_DODGE * state.defence:
        return [
            Attacked(m.kind, "you", 0, False, ranged),
            Message(f"The {shown_name(state, m)} {verb} you and misses."),
            *noise,
        ]
    if info.steals and not m.loot and not ranged:
        took = _steal(state, m)
        if took:
            return [Attacked(m.kind, "you", 0, False, ranged), Message(took), *noise]
    lo, hi = monster_attack(info, state.difficulty)
    roll = int(state.rng.integers(lo, hi + 1)) + info.swarm * swarm
    damage = max(1, roll - state.defence)
    worn = _corrode(state, m) if info.corrodes and not ranged else []
    died = take_damage(state, damage, f"killed by {a(m.kind)}")
    events: list[Event] = [Attacked(m.kind, "you", damage, died, ranged)]
    if not died:
        said = [Message(f"The {shown_name(state, m)} {verb} you: {damage} damage.")]
        # a smouldering kind's bite sets the moss under the player alight
        if info.embers and not ranged and _smoulder(state, state.player):
            bite = f"The {shown_name(state, m)}'s bite sets the moss under you alight!"
            said.append(Message(bite))
        return events + said + worn + noise
    cause = state.stats.cause or ""
    dies = f"The {shown_name(state, m)} {verb} you: {damage} damage. You die..."
    return events + [Died(cause), Message(dies)]


def _swarming(state: GameState, m: Monster) -> int:
    """The other swarming monsters next to the player, who make ``m``'s blow surer."""
    px, py = state.player
    return sum(
        1
        for o in state.monsters
        if o is not m and o.info.swarm and max(abs(o.x - px), abs(o.y - py)) == 1
    )


def _steal(state: GameState, m: Monster) -> str | None:
    """The thief ``m`` takes one item of the pack (drawn by the gameplay stream, from the
    names in order) or, with an empty pack, one hint coin; what it says, or None with nothing
    to take."""
    names = sorted(n for n, count in state.inventory.items() if count > 0)
    if names:
        name = names[int(state.rng.integers(len(names)))]
        state.inventory[name] -= 1
        if not state.inventory[name]:
            del state.inventory[name]
    elif state.hint_coins:
        state.hint_coins -= 1
        name = "hint coin"
    else:
        return None
    m.loot = name
    return f"The {shown_name(state, m)} snatches your {item_name(state, name)} and runs!"


def _corrode(state: GameState, m: Monster) -> list[Event]:
    """By chance, ``m``'s blow eats into what the player wears (engine/gear.py)."""
    if state.rng.integers(100) >= m.info.corrodes:
        return []
    return corrode(state, shown_name(state, m))
