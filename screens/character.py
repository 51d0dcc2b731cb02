"""The character sheet (``@``): the player's numbers, what they took and carry, and the run so
far, in one box.

Everything shown is read from the :class:`~roguelike.engine.GameState` (and the world's name
and permadeath flag, which the state does not hold); the equipment is the state's
(``state.equipment``, in the words of :mod:`roguelike.engine.describe`). The
world's name comes from a file: it is drawn as plain text, never as markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from roguelike import seeds, tiles
from roguelike.engine import ITEMS, GameState
from roguelike.engine.balance import PERKS
from roguelike.engine.describe import equipment_words, item_colour, item_label, passing_words
from roguelike.engine.identify import known_looks
from roguelike.presets import PRESETS
from saves.text import printable
from screens.bindings import ClosedByItsKey, keys_of
from screens.box import BoxScreen
from screens.help import key_names
from screens.map_view import colour_of
from screens.side_panel import LABEL, OLD, hp_colour, permadeath_style


def _row(text: Text, label: str, *values: str | tuple[str, str] | Text) -> None:
    """A ``label  value…`` line at the end of ``text``."""
    text.append(f"\n{label:<11}", style=LABEL)
    for v in values:
        if isinstance(v, Text):
            text.append_text(v)
        elif isinstance(v, str):
            text.append(v)
        else:
            text.append(v[0], style=v[1])


def sheet_text(
    state: GameState, world_name: str = "", *, permadeath: bool = False, closes: str = "@"
) -> Text:
    """The character sheet of ``state`` as text: stats, equipment, keys, coins, the pack,
    and the run so far (floor, turns, kills, puzzles with their scores, hints, the world)."""
    text = Text("Character", style="bold")
    name = world_name or state.world_name
    code = seeds.encode(state.seed)
    if name and name != code:
        text.append(" · ")
        text.append(printable(name), style="bold")

    text.append("\n\nStats", style="bold")
    _row(text, "HP", (f"{state.hp}/{state.max_hp}", hp_colour(state.hp, state.max_hp)))
    _row(text, "Level", f"{state.level}", (f"  XP {state.xp}/{state.xp_to_next}", OLD))
    lo, hi = state.attack
    _row(text, "Attack", f"{lo}-{hi}", (f"  ({state.accuracy}% to hit)", OLD))
    _row(text, "Defence", f"{state.defence}", ("  (each blow against you lands that softer)", OLD))
    _row(text, "Speed", f"{state.speed}", ("  (a monster's speed is against this)", OLD))
    if state.berserk:
        _row(text, "Fury", f"berserk {state.berserk} turns", ("  (then weary)", OLD))
    elif state.weary:
        _row(text, "Fury", f"weary {state.weary} turns", ("  (blows land softer)", OLD))

    passing = passing_words(state)
    if passing:
        _row(text, "Potions", ", ".join(passing))

    text.append("\n\nEquipment", style="bold")
    worn = equipment_words(state.equipment)
    if not worn:
        text.append("\nYour starting blade and clothes: nothing else worn.", style=OLD)
    for kind, _, what in worn:
        item = ITEMS[kind]
        text.append("\n")
        text.append(item.glyph, style=f"bold {colour_of(item.colour)}")
        text.append(f" {kind}")
        text.append(f"  ({'wielded' if item.slot == 'weapon' else 'worn'}: {what})", style=OLD)

    text.append("\n\nPerks", style="bold")
    if not state.perks:
        text.append("\nNone yet: each level up offers three.", style=OLD)
    for name in dict.fromkeys(state.perks):
        n = state.perks.count(name)
        text.append(f"\n{name}" + (f" ×{n}" if n > 1 else ""))
        text.append(f"  ({PERKS[name].description})", style=OLD)
    if state.perk_offer:
        text.append("\nA perk is on offer: P to choose it.", style="bold")

    text.append("\n")
    keys = Text()
    for k in sorted(state.keys_held):
        colour, hexc = tiles.key_colour(k)
        keys.append(f"{tiles.key_letter(k)} {colour}", style=f"bold {hexc}")
        keys.append("  ")
    if not state.keys_held:
        keys.append("none (keys stay on their floor)", style=OLD)
    _row(text, "Keys", keys)
    _row(text, "Coins", f"{state.hint_coins}", ("  (hint coins: a pedestal takes them)", OLD))
    if state.inventory:
        pack = Text()
        for i, (kind, count) in enumerate(state.inventory.items()):
            found = ITEMS.get(kind)
            if i:
                pack.append(", ")
            if found is None:
                pack.append("?")
                shown = kind
            else:
                pack.append(found.glyph, style=f"bold {colour_of(item_colour(state, kind))}")
                shown = item_label(state, kind)
            pack.append(f" {printable(shown)}" + (f" ×{count}" if count > 1 else ""))
        _row(text, "Pack", pack)
    else:
        _row(text, "Pack", ("empty", OLD))

    known = Text()
    for i, (kind, seen_as) in enumerate(known_looks(state)):
        known.append(", " if i else "")
        known.append(ITEMS[kind].glyph, style=f"bold {colour_of(item_colour(state, kind))}")
        known.append(f" {seen_as}: {kind}")
    _row(text, "Known", known if known else ("no potion or scroll yet", OLD))

    stats = state.stats
    text.append("\n\nThe run", style="bold")
    _row(text, "Floor", f"{state.number} of {state.total_floors}")
    _row(text, "Turns", f"{state.turn}")
    _row(text, "Kills", f"{stats.kills}")
    _row(
        text, "Puzzles", f"{stats.puzzles_solved} solved", (f"  hints used {stats.hints_used}", OLD)
    )
    for floor, kind, difficulty, score in stats.puzzle_scores:
        text.append(f"\n  floor {floor}: {printable(kind)} ({printable(difficulty)})  ")
        text.append(f"score {score}", style="bold")
    _row(text, "Seed", code)
    floors = PRESETS.get(state.preset)
    _row(text, "Size", f"{state.preset}" + (f" ({floors} floors)" if floors else ""))
    _row(text, "Difficulty", state.difficulty)
    if permadeath:
        warning = ("yes: one life, the save is deleted at death", permadeath_style())
        _row(text, "Permadeath", warning)
    else:
        _row(text, "Permadeath", ("no", OLD))
    if state.over:
        text.append(f"\n\n{printable(state.cause or 'The run is over.')}", style="bold")
    text.append(f"\n\n{closes} or Esc closes", style=OLD)
    return text


class CharacterScreen(ClosedByItsKey, BoxScreen[None]):
    """The character sheet of a game in progress (see the module). ``@``, Esc or q closes it."""

    DEFAULT_CSS = """
    CharacterScreen #character-box {
        width: 64;
    }
    """

    BINDINGS = [Binding("escape,at,q", "close", "Close", key_display="esc")]
    opened_by = "game.character"

    def __init__(self, state: GameState, *, world_name: str = "", permadeath: bool = False) -> None:
        super().__init__()
        self.state = state
        self.world_name = world_name
        self.permadeath = permadeath

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="character-box", classes="box"):
            yield Static(
                sheet_text(
                    self.state,
                    self.world_name,
                    permadeath=self.permadeath,
                    closes=key_names(self.app, ",".join(keys_of(self.app, self.opened_by))),
                ),
                id="character-sheet",
            )

    def action_close(self) -> None:
        self.dismiss(None)
