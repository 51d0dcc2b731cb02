"""The one table of game-screen key bindings.

Input, the footer and the help screen all read :data:`GAME_BINDINGS`, so a key can never do
one thing and be documented as another. Each row names Textual keys (comma-separated), the
action it runs on the game screen, a description for the help screen, its group, and the
footer's short label (the footer is narrow at 80 columns, so only the essentials are shown,
in a word each).

Rebinding: every game row has an id (``game.explore``, ``game.move-north``); the player's
options map ids to new keys (:class:`saves.options.Options`). The app hands that map to
Textual as its keymap, which replaces the keys of the bindings with those ids on every screen
(so input and the footer follow), and the help screen draws :func:`rebound` of the table with
the same map: one table, one set of overrides, never two lists of keys. :func:`conflict`
refuses a key bound twice, naming both actions, and a key a terminal sends as another one
(``ctrl+i`` arrives as Tab: :func:`saves.options.terminal_twin`), naming it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from textual.binding import Binding
from textual.events import Key

from saves.options import terminal_twin

#: (dx, dy) → (arrow/numpad/vi keys, description)
DIRECTIONS: tuple[tuple[int, int, str, str], ...] = (
    (0, -1, "up,k,8", "north"),
    (0, 1, "down,j,2", "south"),
    (-1, 0, "left,h,4", "west"),
    (1, 0, "right,l,6", "east"),
    (-1, -1, "y,7,home", "north-west"),
    (1, -1, "u,9,pageup", "north-east"),
    (-1, 1, "b,1,end", "south-west"),
    (1, 1, "n,3,pagedown", "south-east"),
)


@dataclass(frozen=True)
class KeyBinding:
    keys: str  # Textual key names, comma-separated: "up,k,8"
    action: str  # an action of the game screen: "move(0,-1)"
    description: str  # what the help screen says
    group: str  # "Move", "Act", "Info" or "Watch": the help screen's headings
    footer: str = ""  # the footer's short label; empty: not in the footer
    key_display: str | None = None  # how the footer writes the key
    name: str = ""  # the id's name when the action is not one ("move-north"); "": the action

    @property
    def id(self) -> str:
        """The row's id, what the options file names it by: ``game.explore`` (an action with
        arguments, ``travel_to('stairs')``, becomes ``game.travel_to-stairs``: an id is what
        :mod:`saves.options` accepts)."""
        word = re.sub(r"[^a-z0-9_.-]+", "-", (self.name or self.action).lower()).strip("-")
        return f"game.{word}"


GAME_BINDINGS: tuple[KeyBinding, ...] = (
    *(
        KeyBinding(keys, f"move({dx},{dy})", f"Move or attack {name}", "Move", name=f"move-{name}")
        for dx, dy, keys, name in DIRECTIONS
    ),
    KeyBinding("full_stop,5,s", "wait", "Wait a turn", "Act", key_display="."),
    KeyBinding("R,z", "rest", "Rest until healed or disturbed", "Act", key_display="R"),
    KeyBinding("slash", "search", "Search the cells around you for hidden traps", "Act", "", "/"),
    KeyBinding(
        "e",
        "explore",
        "Explore until something new happens",
        "Act",
        "explore",
        "e",
    ),
    KeyBinding("p", "puzzle", "Play the puzzle of the pedestal you stand on", "Act", "", "p"),
    KeyBinding("g,comma", "pick_up", "Pick up what lies here", "Act", "", "g"),
    KeyBinding(
        "greater_than_sign",
        "descend",
        "Take the stairs or exit (walk there first)",
        "Act",
        "stairs",
        ">",
    ),
    # an id of its own (game.exit): two rows of one id would be rebound together and
    # would make the options screen's list refuse to show
    KeyBinding("less_than_sign", "descend", "As > (the exit is drawn <)", "Info", name="exit"),
    KeyBinding("o", "open_door", "Open a door (then a direction)", "Act"),
    KeyBinding("c", "close_door", "Close a door (then a direction)", "Act"),
    KeyBinding("i", "inventory", "Use an item from the pack", "Act", "pack", "i"),
    KeyBinding("q", "quaff", "Quaff a potion", "Act"),
    KeyBinding("r", "read", "Read a scroll", "Act"),
    KeyBinding("d", "drop", "Drop an item from the pack where you stand", "Act"),
    KeyBinding("w", "wear", "Wear or wield from the pack", "Act"),
    KeyBinding("W", "take_off", "Take off your armour or weapon (into the pack)", "Act"),
    KeyBinding("P", "perks", "Choose the perk a level up offers", "Act"),
    # t is travel's: throwing takes the capital. The aiming keys are left to the prompt of
    # throw mode, which names the jump key as the player has it (it may be rebound) and keeps
    # this line short enough not to wrap in the help's column at 120x40
    KeyBinding("T", "throw", "Throw a bomb: aim at a cell, Enter throws", "Act"),
    KeyBinding("x", "look", "Look around (move the cursor, Esc to stop)", "Info", "look", "x"),
    KeyBinding("t", "travel", "Travel to a seen place (pick it like look)", "Act", "travel", "t"),
    KeyBinding(
        "tab",
        "next_place(1)",
        "Travel: the next place worth a visit",
        "Info",
        key_display="Tab",
    ),
    KeyBinding(
        "shift+tab", "next_place(-1)", "Travel: jump back a place", "Info", key_display="⇧Tab"
    ),
    KeyBinding("C", "copy_seed", "Copy the world's seed code (to share it)", "Info", "", "C"),
    KeyBinding("S", "save_quit", "Save the world and go back to the title", "Info", "", "S"),
    KeyBinding("m", "history", "Message history", "Info", "log", "m"),
    KeyBinding("at", "character", "Character sheet: you and the run so far", "Info", "", "@"),
    KeyBinding("M", "overview", "The whole floor at a glance", "Info", "", "M"),
    KeyBinding("question_mark,f1", "help", "Help: every key", "Info", "help", "?"),
    KeyBinding("O", "app.options", "Options: keys and colours", "Info", name="options"),
    # watch mode: the autoplayer at the wheel (any key above but C, S, m, @, O and ? takes it back)
    KeyBinding(
        "A", "autopilot", "Let the bot play (A again takes the wheel back)", "Watch", "bot", "A"
    ),
    KeyBinding("space", "pause", "Pause or resume the bot", "Watch", "pause", "␣"),
    KeyBinding("plus,equals_sign", "faster", "The bot plays faster", "Watch", key_display="+"),
    KeyBinding("minus", "slower", "The bot plays slower", "Watch", key_display="-"),
    KeyBinding("f", "step_once", "The bot's next action, while paused", "Watch"),
)


#: Keys the game screen keeps for itself (cancel, confirm, quit): never rebound to an action.
RESERVED_KEYS: dict[str, str] = {
    "escape": "Cancel",
    "enter": "Confirm",
    "ctrl+q": "Quit",
}


def textual_bindings(
    table: tuple[KeyBinding, ...] = GAME_BINDINGS, *, rebindable: bool = True
) -> list[Binding]:
    """The table as Textual bindings for a screen's ``BINDINGS``; with ``rebindable``, each
    carries its row's id, so the app's keymap (the player's options) can rebind it."""
    return [
        Binding(
            b.keys,
            b.action,
            b.footer or b.description,
            show=bool(b.footer),
            key_display=b.key_display,
            id=b.id if rebindable else None,
        )
        for b in table
    ]


def rebound(
    overrides: Mapping[str, str], table: tuple[KeyBinding, ...] = GAME_BINDINGS
) -> tuple[KeyBinding, ...]:
    """``table`` with the keys of the rows named in ``overrides`` (id → keys) replaced; a
    rebound row's footer writes its new key as Textual does."""
    return tuple(
        replace(b, keys=overrides[b.id], key_display=None) if b.id in overrides else b
        for b in table
    )


def conflict(
    overrides: Mapping[str, str],
    row_id: str,
    keys: str,
    table: tuple[KeyBinding, ...] = GAME_BINDINGS,
    *,
    shown: Callable[[str], str] = str,
) -> str | None:
    """Why binding ``keys`` to the row ``row_id`` (over ``overrides``) is refused, in one line
    naming both actions; None if no other action has any of those keys. ``shown``: how a
    key is written (the options screen writes it as the footer does: ``@``, not ``at``)."""
    current = rebound(overrides, table)
    row = next((b for b in current if b.id == row_id), None)
    if row is None:
        return f"No action {row_id!r} to rebind"
    for key in keys.split(","):
        twin = terminal_twin(key, shown(key))
        if twin is not None:  # bound, it would never fire: the action left without a key
            return f"{twin}: {row.description!r} is not rebound to it"
        if key in RESERVED_KEYS:
            return (
                f"{shown(key)} is kept for {RESERVED_KEYS[key]}: {row.description} is not rebound"
            )
        for other in current:
            if other.id != row_id and key in other.keys.split(","):
                return (
                    f"{shown(key)} is already {other.description!r}: "
                    f"{row.description!r} is not rebound to it"
                )
    return None


def usable_overrides(
    overrides: Mapping[str, str], table: tuple[KeyBinding, ...] = GAME_BINDINGS
) -> tuple[dict[str, str], list[str]]:
    """The overrides that name a row of ``table`` and clash with nothing, and one line for
    each one dropped (an options file may come from another version, or be hand-edited)."""
    ids = {b.id for b in table}
    dropped = [f"no action {row_id!r}" for row_id in overrides if row_id not in ids]
    # each is checked against all the others still kept, so two actions may swap their keys;
    # dropping one gives its row back its default keys, which may clash with one kept before:
    # so check again until a whole pass drops nothing
    kept = {row_id: keys for row_id, keys in overrides.items() if row_id in ids}
    changed = True
    while changed:
        changed = False
        for row_id, keys in list(kept.items()):
            why = conflict(kept, row_id, keys, table)
            if why is not None:
                dropped.append(why)
                del kept[row_id]
                changed = True
    return kept, dropped


def keys_of(app: object, row_id: str, table: tuple[KeyBinding, ...] = GAME_BINDINGS) -> list[str]:
    """The keys the game row ``row_id`` has now, with the player's rebinding (the app's
    ``key_overrides``): what a screen opened by that row also closes with, as a toggle."""
    current = rebound(getattr(app, "key_overrides", {}), table)
    return next((b.keys.split(",") for b in current if b.id == row_id), [])


class ClosedByItsKey:
    """A mixin for a screen a game row opens (``M``, ``@``, ``m``, ``?``): the row's key,
    as rebound, closes it too (its ``BINDINGS`` name the default key, which a rebinding does
    not reach). ``opened_by``: the row's id; the screen has an ``action_close``."""

    opened_by = ""

    def on_key(self, event: Key) -> None:
        if event.key in keys_of(getattr(self, "app", None), self.opened_by):
            event.stop()
            event.prevent_default()
            self.action_close()  # type: ignore[attr-defined]


#: The replay viewer's keys (:class:`screens.replay.ReplayScreen`): its footer and actions.
REPLAY_BINDINGS: tuple[KeyBinding, ...] = (
    KeyBinding("space", "pause", "Pause or resume", "Replay", "pause", "␣"),
    KeyBinding("plus,equals_sign", "faster", "Play faster", "Replay", "faster", "+"),
    KeyBinding("minus", "slower", "Play slower", "Replay", "slower", "-"),
    KeyBinding("full_stop,right", "step_once", "One input, while paused", "Replay", "step", "."),
    KeyBinding("f", "next_floor", "Seek to the next floor", "Replay", "floor", "f"),
    KeyBinding("right_square_bracket", "seek_by(100)", "Seek 100 turns on", "Replay", "+100", "]"),
    KeyBinding("left_square_bracket", "seek_by(-100)", "Seek 100 turns back", "Replay", "", "["),
    KeyBinding("g", "ask_turn", "Seek to a turn (type its number)", "Replay", "turn", "g"),
    KeyBinding("home", "seek_turn(0)", "Back to the start", "Replay"),
    KeyBinding("m", "history", "Message history", "Replay"),
    KeyBinding("p", "practise", "Practise from here: a new world, unscored", "Replay", "practise"),
    KeyBinding("escape,q", "leave", "Leave the replay", "Replay", "back", "q"),
)
