"""The game screen's side panel as lines of text: the world (and whether it is permadeath),
who and where the player is, what they carry, and the monsters in view."""

from __future__ import annotations

from rich.text import Text

from roguelike import seeds, tiles
from roguelike.engine import ITEMS, GameState, Monster
from roguelike.engine.balance import DEFAULT_DIFFICULTY, MonsterKind
from roguelike.engine.describe import item_colour, item_label, monster_shown
from roguelike.engine.legend import AWARENESS_MARK
from roguelike.engine.stealth import awareness
from saves.text import printable
from saves.world import practice_turn
from screens.map_view import colour_of

#: Colours of the panels.
BRIGHT = "#f0f0f0"
OLD = "#8a8a8a"
LABEL = "#9a9aaa"
BAR_EMPTY = "#3a3a44"
#: The permadeath line: a warning, in words (never in colour alone).
PERMADEATH_COLOUR = "#e06060"
PERMADEATH = f"bold {PERMADEATH_COLOUR}"


def bar(value: int, maximum: int, width: int) -> Text:
    """A horizontal bar, green/yellow/red by how full it is; its empty part is drawn ``░``, so it
    reads without colour too (in the mono theme, or copied as text)."""
    maximum = max(1, maximum)
    frac = max(0.0, min(1.0, value / maximum))
    filled = round(frac * width)
    if value > 0:
        filled = max(1, filled)
    colour = hp_colour(value, maximum)
    return Text.assemble(("█" * filled, colour), ("░" * (width - filled), BAR_EMPTY))


def permadeath_style() -> str:
    """The style of the permadeath warning, in the palette in use."""
    return f"bold {colour_of(PERMADEATH_COLOUR)}"


def hp_colour(value: int, maximum: int) -> str:
    """Green, yellow or red by how full; in the palette in use (white in mono: the bar's
    length and the numbers say it)."""
    frac = value / max(1, maximum)
    return colour_of("#50c050" if frac > 0.6 else "#e0c040" if frac > 0.3 else "#e04040")


def side_panel_lines(
    state: GameState,
    world_name: str = "",
    width: int = 21,
    height: int | None = None,
    *,
    permadeath: bool = False,
) -> list[Text]:
    """The side panel's lines: the world, who and where the player is, what they carry, what
    they see (as many monsters as ``height`` rows leave room for, nearest first). A
    ``permadeath`` world says so under its seed: its save is deleted at death; so does a world
    of any difficulty but normal. A practice world's mark ("(practice from turn N)") has a
    line of its own under its name."""
    lines: list[Text] = []
    code = seeds.encode(state.seed)
    name = world_name or state.world_name
    practice = practice_turn(name)
    if practice is not None:  # the mark on a line of its own, so no cut can lose it
        name = practice[0]
    if name and name != code:
        lines.append(Text(abbreviate(printable(name), width), style="bold"))  # from a file
    if practice is not None:
        turn, room = practice[1], width - len("Practice ")
        fits = [w for w in (f"from turn {turn}", f"from t. {turn}") if len(w) <= room]
        lines.append(Text.assemble(("Practice ", LABEL), fits[0] if fits else f"t. {turn}"))
    lines.append(Text.assemble(("Seed ", LABEL), code))
    if state.difficulty != DEFAULT_DIFFICULTY:  # normal goes without saying
        lines.append(Text.assemble(("Difficulty ", LABEL), state.difficulty))
    if permadeath:
        lines.append(Text("Permadeath: one life"[:width], style=permadeath_style()))
    depth = state.room_depth()
    where = "corridor" if depth is None else f"depth {depth}"
    lines.append(Text.assemble(("Floor ", LABEL), f"{state.number}/{state.total_floors}  {where}"))
    hp_label = f"HP {state.hp}/{state.max_hp} "
    lines.append(
        Text.assemble((hp_label, "bold"), bar(state.hp, state.max_hp, width - len(hp_label)))
    )
    lines.append(
        Text.assemble(
            ("Level ", LABEL), str(state.level), ("  XP ", LABEL), f"{state.xp}/{state.xp_to_next}"
        )
    )
    lo, hi = state.attack
    lines.append(
        Text.assemble(("Atk ", LABEL), f"{lo}-{hi}", ("  Def ", LABEL), str(state.defence))
    )
    keys = Text("Keys ", style=LABEL)
    for k in sorted(state.keys_held):
        keys.append(tiles.key_letter(k), style=f"bold {colour_of(f'key{k}')}")  # as the map
        keys.append(" ")
    if not state.keys_held:
        keys.append("none", style=OLD)
    lines.append(keys)
    lines.append(
        Text.assemble(("Coins ", LABEL), str(state.hint_coins), ("  Turn ", LABEL), str(state.turn))
    )
    if state.inventory:
        lines.append(Text("Pack (i to use)", style=LABEL))
        for kind, count in state.inventory.items():
            item = ITEMS.get(kind)
            glyph = item.glyph if item else "?"
            colour = colour_of(item_colour(state, kind)) if item else BRIGHT
            shown = item_label(state, kind) if item else kind
            times = f" ×{count}" if count > 1 else ""
            room = width - 2 - len(times)
            label = abbreviate(pack_name(shown, room) if item else shown, room) + times
            lines.append(Text.assemble((glyph, f"bold {colour}"), " ", label))
    else:
        lines.append(Text.assemble(("Pack ", LABEL), ("empty", OLD)))
    foes = monsters_in_view(state)
    if foes:
        lines.append(Text(""))
        lines.append(Text("In view", style=LABEL))
        room = len(foes) if height is None else max(1, height - len(lines))
        if room < len(foes):
            room -= 1
        for m in foes[:room]:
            lines.append(monster_line(m, width, monster_shown(state, m)))
        if room < len(foes):
            lines.append(Text(f"… and {len(foes) - room} more", style=OLD))
    return lines


#: The most letters a shortened word keeps before its dot ("gnoll sent.").
ABBREVIATED = 4


def pack_name(label: str, room: int) -> str:
    """An item's name (``label``, :func:`~roguelike.engine.item_label`'s) in the side panel's
    ``room`` cells: an unknown one's look short, marked ``(?)`` ("KIRJE scroll (?)", "murky
    potion (?)"; a long title without "scroll", which the ``?`` glyph before it says), so that
    it fits whole instead of shortened to "scroll titled K. (."."""
    if not label.endswith(UNKNOWN):
        return label
    seen_as = label.removesuffix(UNKNOWN)
    if seen_as.startswith(TITLED):
        title = seen_as.removeprefix(TITLED)
        seen_as = f"{title} scroll" if len(title) + len(" scroll (?)") <= room else title
    return f"{seen_as} (?)"


#: How :func:`~roguelike.engine.item_label` marks an unknown item, and names a scroll's look.
UNKNOWN = " (unknown)"
TITLED = "scroll titled "


def shortenable(word: str) -> bool:
    """A word :func:`abbreviate` may shorten: a plain word of four letters or more, not a
    title in capitals ("KIRJE"), a number or punctuation ("(?)")."""
    return len(word) > 3 and word.isalpha() and not word.isupper()


def abbreviate(name: str, room: int) -> str:
    """``name`` in at most ``room`` cells: whole if it fits, else its plain words
    (:func:`shortenable`) shortened from the last one back, each to at most
    :data:`ABBREVIATED` letters and a dot ("gnoll sent.", "cent. a."), so a cut word says it
    was cut; a name that cannot be shortened so ends in "…"."""
    if len(name) <= room:
        return name
    words = name.split(" ")
    for i in reversed(range(len(words))):
        word = words[i]
        if not shortenable(word):
            continue
        for keep in range(min(ABBREVIATED, len(word) - 2), 0, -1):
            words[i] = word[:keep] + "."
            shown = " ".join(words)
            if len(shown) <= room:
                return shown
        if len(word) > 2:
            words[i] = word[:1] + "."
    return name[: room - 1] + "…" if room > 1 else name[:room]


def monsters_in_view(state: GameState) -> list[Monster]:
    """Live monsters the player sees, nearest first."""
    return [m for m in state.visible_monsters() if m.hp > 0]


def monster_line(m: Monster, width: int, info: MonsterKind | None = None) -> Text:
    """``g goblin z    5/8``: the glyph in its colour, the name, the mark of a sleeping (``z``)
    or unaware (``?``) one (:data:`AWARENESS_MARK`), the HP coloured by health (``info``: the
    kind it looks like, when not its own)."""
    info = info or m.info
    hp = f"{m.hp}/{m.max_hp}"
    mark = AWARENESS_MARK[awareness(m)]
    tail = f" {mark}" if mark else ""
    name = abbreviate(info.name, max(1, width - len(hp) - 3 - len(tail)))
    gap = max(1, width - 2 - len(name) - len(tail) - len(hp))
    return Text.assemble(
        (info.glyph, f"bold {colour_of(info.colour)}"),
        " ",
        name,
        (tail, f"bold {LABEL}"),
        " " * gap,
        (hp, hp_colour(m.hp, m.max_hp)),
    )
