"""The game screen: the map, a side panel, the message log and the footer.

The screen never decides a rule: every key becomes an engine action sent to ``step`` (the
app's game session, which remembers the floors left behind and autosaves; without one,
:func:`roguelike.engine.step`), and the screen then draws the state again. ``S``
dismisses the screen with None (the app saves and goes back to the title). Modes change what the
direction keys do: ``play`` (move or attack), ``look`` and ``travel`` (move a cursor),
``direction`` (the direction of a door to open or close), ``throw`` (a cursor aimed with the
line of fire drawn, Tab cycling the monsters in view) and ``ended`` (the run is over; Enter
dismisses the screen with the final :class:`~roguelike.engine.GameState`).

Watch mode: with ``autopilot`` on, a timer plays the autoplayer's choice
(:func:`roguelike.autoplay.decide`, one turn at a time) through the same :meth:`GameScreen.act` a
key uses, and the prompt line says why; on a pedestal the puzzle screen opens as for a player and
the bot plays its moves there one per tick, then leaves it, and the engine checks them. Space
pauses, ``+``/``-`` set the speed, ``f`` plays one action while paused, ``A`` toggles the bot;
any key that plays (a move, ``e``, ``R`` …) takes the wheel back and then does what it always
does (``on_take_over`` is called the first time: the app saves a watched game from then on).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any, Concatenate, Literal, ParamSpec

from textual.binding import Binding
from textual.timer import Timer

from roguelike import seeds
from roguelike.autoplay import Autopilot, decide
from roguelike.engine import (
    Action,
    Close,
    Descend,
    Drop,
    Event,
    Explore,
    GameState,
    Message,
    Move,
    Open,
    PickUp,
    PuzzleFound,
    Rest,
    Search,
    SolvePuzzle,
    Throw,
    Travel,
    Use,
    Wait,
    describe,
    doors_around,
)
from roguelike.engine import step as engine_step
from roguelike.engine.creatures import ITEMS
from roguelike.engine.describe import a
from roguelike.engine.items import flight, throw_forecast
from roguelike.engine.legend import legend_for
from roguelike.engine.places import Place, finish_known, places, stairs_action
from saves.text import printable
from screens.bindings import textual_bindings
from screens.character import CharacterScreen
from screens.dungeon import DungeonScreen
from screens.help import HelpScreen, key_label
from screens.history import HistoryScreen
from screens.inventory import InventoryScreen, identify_picker
from screens.map_view import MapView, key_glyph
from screens.overview import OverviewScreen
from screens.puzzle import PuzzleOutcome, PuzzleScreen
from screens.side_panel import OLD

Mode = Literal["play", "look", "travel", "direction", "throw", "ended"]

#: The bot's speeds in watch mode, in actions per second (``+``/``-`` choose one).
SPEEDS: tuple[float, ...] = (2, 4, 7, 12, 25, 50)
#: The speed a watch starts at (1 is the slowest): readable, a fight still followed blow by blow.
DEFAULT_SPEED = 3
#: Ticks the bot lingers over a puzzle before its first move and once it is solved, so that a
#: watcher sees the puzzle, then the solved board.
PUZZLE_LINGER = 3

P = ParamSpec("P")


# ---------------------------------------------------------------------------- the screen


def takes_over(
    action: Callable[Concatenate[GameScreen, P], None],
) -> Callable[Concatenate[GameScreen, P], None]:
    """A key that plays: it takes the wheel from the bot (if it has it) before it acts."""

    @wraps(action)
    def taking_over(screen: GameScreen, /, *args: P.args, **kwargs: P.kwargs) -> None:
        screen.take_over()
        action(screen, *args, **kwargs)

    return taking_over


class GameScreen(DungeonScreen[GameState | None]):
    """A run in progress. Dismissed with the final state when the run ends (death or escape)
    and the player presses Enter; with None when the player saves and quits (``S``). With
    ``autopilot``, the bot plays (see the module's docstring)."""

    BINDINGS = [
        *textual_bindings(),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("enter", "confirm", "Confirm", show=False),
    ]

    def __init__(
        self,
        state: GameState,
        *,
        world_name: str = "",
        permadeath: bool = False,
        step: Callable[[Action], list[Event]] | None = None,
        autopilot: bool = False,
        on_take_over: Callable[[], bool] | None = None,
        speed: int = DEFAULT_SPEED,
        floor_ready: Callable[[], bool] | None = None,
    ) -> None:
        """``permadeath``: the world's save is deleted at death (the side panel and the
        character sheet say so); ``step``: plays an action on ``state`` (None: the engine's
        step, nothing saved); ``floor_ready``: whether the stairs can be taken without waiting
        for the floor below to be generated (None: always);
        ``autopilot``: the bot plays from
        the start; ``on_take_over``: called once, when the player first plays a key after the
        bot had the wheel; ``speed``: the bot's, 1 to ``len(SPEEDS)``."""
        super().__init__(state, world_name=world_name, permadeath=permadeath)
        self._step = step or partial(engine_step, state)
        self.mode: Mode = "play"
        self.cursor: tuple[int, int] | None = None
        #: The places the cursor jumps between (Tab), worked out when it first jumps in a
        #: cursor mode (no turn passes meanwhile), and the one it is on.
        self._places: list[Place] | None = None
        self._place_at = -1
        self._door_action: str = "open"
        #: In throw mode: the item thrown, and the monsters in view the cursor cycles through.
        self._throwing = ""
        self._targets: list[tuple[int, int]] = []
        # -- watch mode
        #: The bot has the wheel (paused or not).
        self.autopilot = autopilot
        self.paused = False
        self.speed = min(len(SPEEDS), max(1, speed))
        #: Why the bot did what it did last ("exploring", "fighting a goblin" …).
        self.why = ""
        #: The bot's turn-by-turn loop: its memory, refused tries, and whether it is stuck.
        self._pilot = Autopilot(state, stepwise=True)
        self.on_take_over = on_take_over
        self._timer: Timer | None = None
        self._ticking = False
        #: The puzzle screen this screen opened, while it is up; the bot's moves for it.
        self._puzzle_screen: PuzzleScreen | None = None
        self._puzzle_plan: list[Any] | None = None
        #: A puzzle screen was dismissed and its outcome has not reached the engine yet.
        self._puzzle_closing = False
        #: Ticks left to linger over the puzzle screen (see PUZZLE_LINGER).
        self._puzzle_linger = 0
        # -- the floor below, made ahead by the session
        self._floor_ready = floor_ready
        #: where the player pressed ``>`` while the floor below was still being made
        self._stairs_wait: tuple[int, int] | None = None

    # ------------------------------------------------------------------ layout

    def on_mount(self) -> None:
        self._check_end()
        if self.mode == "ended":
            self.autopilot = False
        self.redraw()
        self._restart_timer()

    def redraw(self) -> None:
        super().redraw()
        self.map_view.set_cursor(self.cursor)

    def status_line(self, width: int) -> str | None:
        return self.watch_status(width)

    # ------------------------------------------------------------------ acting

    def act(self, action: Action) -> None:
        """Send ``action`` to the engine, draw the result, and notice the end of the run."""
        if self.mode == "ended":
            return
        events_ = self._step(action)
        self._fresh = sum(isinstance(e, Message) for e in events_)
        self.prompt = None
        self._check_end()
        self.redraw()
        found = [e for e in events_ if isinstance(e, PuzzleFound)]
        if found and self.mode != "ended":
            room = self.state.puzzles.get((found[-1].x, found[-1].y))
            if room is not None and not room.solved:
                self.open_puzzle()

    def report_puzzle(self, outcome: PuzzleOutcome) -> None:
        """Send what the player did at the pedestal to the engine, which replays it."""
        room = self.state.puzzles.get(self.state.player)
        if room is None:
            return
        self.act(
            SolvePuzzle(
                tuple(outcome.moves),
                hints_used=outcome.hints_used - room.hints_used,
                coins_spent=outcome.coins_spent,
                resets=outcome.resets - room.resets,
            )
        )

    def open_puzzle(self) -> None:
        """Play the puzzle of the pedestal the player stands on; what the player did there
        goes back to the engine, which checks it (the screen never decides it is solved)."""
        room = self.state.puzzles.get(self.state.player)
        if room is None:
            self._say("There is no puzzle pedestal here.")
            return
        if room.solved:
            self._say("You solved this pedestal's puzzle already.")
            return
        self._say("The pedestal's puzzle is being carved…")
        puzzle = room.puzzle()

        def done(outcome: PuzzleOutcome | None) -> None:
            self._puzzle_screen, self._puzzle_plan = None, None
            self._puzzle_closing = False
            if outcome is not None:
                self.report_puzzle(outcome)

        self._puzzle_screen = PuzzleScreen(
            puzzle,
            moves=list(room.moves),
            coins=self.state.hint_coins,
            hints_used=room.hints_used,
            resets=room.resets,
            on_player_key=self.take_over,
        )
        self._puzzle_plan, self._puzzle_linger = None, 0
        self.app.push_screen(self._puzzle_screen, done)

    def _check_end(self) -> None:
        state = self.state
        if state.dead:
            cause = f" ({printable(state.cause)})" if state.cause else ""
            self.prompt = f"You die{cause}… press Enter"
            self.mode = "ended"
        elif state.won:
            self.prompt = "You escaped! press Enter"
            self.mode = "ended"

    def _say(self, text: str | None) -> None:
        """Show ``text`` on the prompt line (not in the log)."""
        self.prompt = text
        self._draw_messages()

    def _leave_mode(self) -> bool:
        """Leave look/travel/direction/throw mode; True when there was one to leave."""
        if self.mode in ("look", "travel", "direction", "throw"):
            self.mode = "play"
            self.cursor = None
            self._places, self._place_at = None, -1
            self.map_view.set_cursor(None)
            self.map_view.set_path([])
            self._say(None)
            return True
        return False

    def _busy(self) -> bool:
        """True when a key must not act: the run is over, or a mode was just left (a key that
        is not a direction leaves look, travel and the direction prompt, and does no more)."""
        return self.mode == "ended" or self._leave_mode()

    # ------------------------------------------------------------------ watch mode

    @property
    def autopilot_interval(self) -> float:
        """Seconds between two of the bot's actions at its current speed."""
        return 1 / SPEEDS[self.speed - 1]

    def watch_status(self, width: int = 78) -> str | None:
        """The prompt line while the bot has the wheel (None when it has not): what it does and
        the keys, the least needed dropped until the line fits in ``width``."""
        if not self.autopilot or self.mode == "ended":
            return None
        # (importance, words) in the order shown: the least important (largest number) goes first
        if self.paused:
            parts = [
                (0, f"Paused: {self.why or 'thinking'}"),
                (4, f"speed {self.speed}/{len(SPEEDS)} +/-"),
                (1, "space resumes"),
                (3, "f steps"),
                (2, "a game key takes over"),
            ]
        else:
            parts = [
                (0, f"Watching: {self.why or 'thinking'}"),
                (3, f"speed {self.speed}/{len(SPEEDS)} +/-"),
                (2, "space pause"),
                (1, "a game key takes over"),
            ]
        while len(parts) > 1 and len(" · ".join(w for _, w in parts)) > width:
            parts.remove(max(parts))
        return " · ".join(w for _, w in parts)

    def start_autopilot(self) -> None:
        """Give the bot the wheel (not after the run's end)."""
        if self.mode == "ended":
            return
        self._leave_mode()
        self.autopilot, self.paused = True, False
        self._pilot = Autopilot(self.state, stepwise=True)
        self._watch_changed()

    def stop_autopilot(self, why: str | None = None) -> None:
        """Take the wheel from the bot (``why``: said on the prompt line)."""
        if not self.autopilot:
            return
        self.autopilot = False
        if why is not None:
            self.prompt = why
        self._watch_changed()

    def take_over(self) -> None:
        """The player plays: the bot stops, and the first time ``on_take_over`` is called (not
        once the run is over: the bot played it to its end; and again next time if it
        reports failure, a world that could not be saved)."""
        self.stop_autopilot()
        if self.on_take_over is not None and self.mode != "ended":
            callback, self.on_take_over = self.on_take_over, None
            if callback() is False:
                self.on_take_over = callback

    def _watch_changed(self) -> None:
        """The bot's wheel, pause or speed changed: its timer, the prompt line, the footer."""
        self._restart_timer()
        if self.is_mounted:
            self._draw_messages()
            self.refresh_bindings()

    def _restart_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.autopilot and not self.paused:
            self._timer = self.set_interval(self.autopilot_interval, self.autopilot_step)

    def autopilot_step(self) -> None:
        """One action of the bot (a timer's tick, or ``f`` while paused). Nothing while another
        screen is on top (help, history, the pack, the too-small message) but the puzzle screen
        this screen opened, where it plays one move; never two at once."""
        if not self.autopilot or self._ticking or self._puzzle_closing:
            return
        if self.mode == "ended":
            self.stop_autopilot()
            return
        top = self.app.screen
        self._ticking = True
        try:
            if top is self:
                self._bot_acts()
            elif self._puzzle_screen is not None and top is self._puzzle_screen:
                self._bot_solves(self._puzzle_screen)
        finally:
            self._ticking = False
        if self.mode == "ended":
            self.stop_autopilot()
        elif self.autopilot:
            self._draw_messages()

    def _bot_acts(self) -> None:
        state, pilot = self.state, self._pilot
        decision = pilot.decide(state)
        self.why = decision.why
        if isinstance(decision.action, SolvePuzzle) and state.puzzles.get(state.player):
            pilot.acted(False)  # until its report spends a turn (a refused one never does)
            self.open_puzzle()  # the bot plays the moves there, one per tick
            return
        before = (state.turn, state.number)
        self.act(decision.action)
        pilot.acted((state.turn, state.number) != before)
        if pilot.stuck(state):
            self.stop_autopilot("The bot is stuck here: A lets it try again, or play on.")

    def _bot_solves(self, screen: PuzzleScreen) -> None:
        """One step of the bot at the pedestal: undo a move that is not in its plan, play the
        next, or leave (solved, or when it has something else to do first: a fight).
        Whether the moves solve the puzzle is for the engine to say once the screen closes."""
        if self._puzzle_linger > 0:
            self._puzzle_linger -= 1
            return
        if self._puzzle_plan is None and not screen.solved:
            decision = decide(self.state, stepwise=True, memory=self._pilot.memory)
            self.why = decision.why
            if isinstance(decision.action, SolvePuzzle):
                self._puzzle_plan = list(decision.action.moves)
                self._puzzle_linger = PUZZLE_LINGER
                n = len(self._puzzle_plan)
                screen.say(f"The bot studies it: {n} moves to go · any key takes over", OLD)
                screen.redraw()
                return
        plan = self._puzzle_plan
        if screen.solved or plan is None:
            self._puzzle_closing = True
            screen.dismiss(screen.outcome())
            return
        made = screen.moves
        same = 0
        while same < min(len(made), len(plan)) and made[same] == plan[same]:
            same += 1
        if same < len(made):
            screen.undo()
        elif same < len(plan):
            note = f"The bot solves it: move {same + 1} of {len(plan)} · any key takes over"
            screen.play_json(plan[same], note)
            if screen.solved:
                self._puzzle_linger = PUZZLE_LINGER
        else:  # its plan is played out and did not solve it: the engine says why
            self._puzzle_closing = True
            screen.dismiss(screen.outcome())

    # ------------------------------------------------------------------ actions (bindings)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the bot's pause and speed keys work (and show in the footer) while it has the wheel
        if action in ("pause", "faster", "slower"):
            return self.autopilot
        if action == "step_once":
            return self.autopilot and self.paused
        return True

    def action_autopilot(self) -> None:
        """``A``: the bot takes the wheel, or gives it back."""
        if self.autopilot:
            self.take_over()
            self._say("You have the wheel.")
        elif self.mode == "ended":
            self._say("The run is over: press Enter.")
        else:
            self.start_autopilot()

    def action_pause(self) -> None:
        if self.autopilot:
            self.paused = not self.paused
            self._watch_changed()

    def action_faster(self) -> None:
        self._set_speed(self.speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self.speed - 1)

    def _set_speed(self, speed: int) -> None:
        speed = min(len(SPEEDS), max(1, speed))
        if self.autopilot and speed != self.speed:
            self.speed = speed
            self._watch_changed()

    def action_step_once(self) -> None:
        if self.autopilot and self.paused:
            self.autopilot_step()

    @takes_over
    def action_move(self, dx: int, dy: int) -> None:
        if self.mode == "play":
            self.act(Move(dx, dy))
        elif self.mode in ("look", "travel", "throw") and self.cursor is not None:
            x, y = self.cursor
            self._set_cursor(
                (
                    min(self.state.width - 1, max(0, x + dx)),
                    min(self.state.height - 1, max(0, y + dy)),
                )
            )
        elif self.mode == "direction":
            self._leave_mode()
            self.act(Open(dx, dy) if self._door_action == "open" else Close(dx, dy))

    @takes_over
    def action_wait(self) -> None:
        if not self._busy():
            self.act(Wait())

    @takes_over
    def action_search(self) -> None:
        if not self._busy():
            self.act(Search())

    @takes_over
    def action_rest(self) -> None:
        if not self._busy():
            self.act(Rest())

    def action_copy_seed(self) -> None:
        """Put the seed code on the terminal's clipboard (OSC 52, through Textual)."""
        code = seeds.encode(self.state.seed)
        self.app.copy_to_clipboard(code)
        self._say(f"Seed code {code} copied: anyone who types it gets this dungeon.")

    @takes_over
    def action_puzzle(self) -> None:
        if not self._busy():
            self.open_puzzle()

    @takes_over
    def action_explore(self) -> None:
        if not self._busy():
            self.act(Explore(onward=True))

    @takes_over
    def action_pick_up(self) -> None:
        if not self._busy():
            self.act(PickUp())

    @takes_over
    def action_descend(self) -> None:
        """``>`` (or ``<``): take the stairs or the exit when on them, else travel there once
        seen (:func:`~roguelike.engine.places.stairs_action`); in a cursor mode, put the cursor
        on them. On the stairs before the floor below is made (it is made ahead, in the
        background), say "…" and take them when it is."""
        if self.mode in ("look", "travel"):
            finish = finish_known(self.state)
            if finish is None:
                self._say("You have not seen the way down yet. (Esc ends)")
            else:
                self._set_cursor(finish)
            return
        if self._busy() or self._stairs_wait is not None:
            return
        action = stairs_action(self.state)
        if isinstance(action, str):
            self._say(action)
            return
        if (
            isinstance(action, Descend)
            and self._floor_ready is not None
            and not self._floor_ready()
        ):
            self._stairs_wait = self.state.player
            self._say("…")
            self.set_timer(1 / 60, self._descend_when_ready)
            return
        self.act(action)

    def _descend_when_ready(self) -> None:
        """Take the stairs pressed earlier once the floor below is made, unless the player has
        moved off them since (or left the play mode)."""
        assert self._floor_ready is not None
        if not self._floor_ready():
            self.set_timer(1 / 60, self._descend_when_ready)
            return
        pressed_at, self._stairs_wait = self._stairs_wait, None
        if self.prompt == "…":
            self._say(None)
        if pressed_at == self.state.player and self.mode == "play":
            self.act(Descend())

    @takes_over
    def action_next_place(self, direction: int) -> None:
        """Tab (Shift+Tab): the cursor jumps to the next (previous) place worth going to,
        nearest first (:func:`~roguelike.engine.places.places`), cycling. From play, it starts
        travel mode on the nearest."""
        if self.mode == "throw":
            self._next_target(direction)
            return
        if self.mode not in ("look", "travel"):
            if self._busy():
                return
            self.mode = "travel"
        if self._places is None:
            self._places, self._place_at = places(self.state), -1
        if not self._places:
            self.cursor = self.cursor or self.state.player
            self.map_view.set_cursor(self.cursor)
            self._say("Nowhere worth a jump: move the cursor by hand. (Esc cancels)")
            return
        n = len(self._places)
        if self._place_at < 0:
            self._place_at = 0 if direction > 0 else n - 1
        else:
            self._place_at = (self._place_at + direction) % n
        place = self._places[self._place_at]
        self._set_cursor(place.pos, place=place, of=(self._place_at + 1, n))

    @takes_over
    def action_overview(self) -> None:
        """``M``: the whole floor at a glance (what the player knows of it)."""
        self._leave_mode()
        self.app.push_screen(OverviewScreen(self.state))

    @takes_over
    def action_open_door(self) -> None:
        self._door("open")

    @takes_over
    def action_close_door(self) -> None:
        self._door("close")

    def _door(self, which: str) -> None:
        if self._busy():
            return
        doors = doors_around(self.state, closed=which == "open")
        if not doors:
            self._say(f"There is no {'closed' if which == 'open' else 'open'} door next to you.")
        elif len(doors) == 1:
            dx, dy = doors[0]
            self.act(Open(dx, dy) if which == "open" else Close(dx, dy))
        else:
            self._door_action = which
            self.mode = "direction"
            self._say(f"Which direction? ({which} a door; Esc cancels)")

    @takes_over
    def action_inventory(self) -> None:
        if not self._busy():
            pack = InventoryScreen(dict(self.state.inventory), state=self.state)
            self.app.push_screen(pack, self._used)

    def _used(self, kind: str | None) -> None:
        if kind is None:
            return
        pick = identify_picker(self.state, kind)  # a known scroll of identification: name one
        if pick is None:
            self.act(Use(kind))
        else:
            self.app.push_screen(
                pick, lambda choice: self.act(Use(kind, choice)) if choice else None
            )

    @takes_over
    def action_quaff(self) -> None:
        """``q``: the pack's potions, to drink one."""
        if not self._busy():
            pack = InventoryScreen(
                dict(self.state.inventory),
                only="quaff",
                title="Quaff",
                verb="quaff",
                state=self.state,
            )
            self.app.push_screen(pack, self._used)

    @takes_over
    def action_read(self) -> None:
        """``r``: the pack's scrolls, to read one."""
        if not self._busy():
            pack = InventoryScreen(
                dict(self.state.inventory), only="read", title="Read", verb="read", state=self.state
            )
            self.app.push_screen(pack, self._used)

    @takes_over
    def action_drop(self) -> None:
        """``d``: the pack, to drop one item where the player stands."""
        if not self._busy():
            pack = InventoryScreen(
                dict(self.state.inventory), title="Drop", verb="drop", state=self.state
            )
            self.app.push_screen(pack, self._dropped)

    def _dropped(self, kind: str | None) -> None:
        if kind is not None:
            self.act(Drop(kind))

    @takes_over
    def action_throw(self) -> None:
        """``T``: throw mode, the cursor on the nearest monster in view and the line of fire
        drawn; Tab cycles the monsters in view, the direction keys move the cursor, Enter
        throws, Esc cancels."""
        if self.mode == "throw":
            self._leave_mode()
            return
        if self._busy():
            return
        item = next((k for k in self.state.inventory if ITEMS[k].verb == "throw"), None)
        if item is None:
            self._say("You have nothing to throw.")
            return
        self.mode, self._throwing = "throw", item
        self._targets = [m.pos for m in self.state.visible_monsters()]
        self._set_cursor(self._targets[0] if self._targets else self.state.player)

    def _next_target(self, direction: int) -> None:
        """Tab in throw mode: the cursor to the next (previous) monster in view, cycling."""
        if not self._targets:
            self._say("No monster in view: move the cursor by hand. (Esc cancels)")
            return
        at = self._targets.index(self.cursor) if self.cursor in self._targets else -1
        if at < 0:
            at = 0 if direction > 0 else len(self._targets) - 1
        else:
            at = (at + direction) % len(self._targets)
        self._set_cursor(self._targets[at])

    @takes_over
    def action_look(self) -> None:
        self._start_cursor("look")

    @takes_over
    def action_travel(self) -> None:
        self._start_cursor("travel")

    def _start_cursor(self, mode: Mode) -> None:
        if self.mode == mode:
            self._leave_mode()
        elif not self._busy():
            self.mode = mode
            self._set_cursor(self.state.player)

    def _set_cursor(
        self,
        cursor: tuple[int, int],
        *,
        place: Place | None = None,
        of: tuple[int, int] | None = None,
    ) -> None:
        """Put the cursor on ``cursor`` and say what lies there; ``place``: the place the
        cursor jumped to, ``of``: its number and how many there are (said first)."""
        self.cursor = cursor
        self.map_view.set_cursor(cursor)
        what = describe(self.state, *cursor, key_glyph=key_glyph)
        if place is not None and of is not None:
            far = f"{place.steps} steps" if place.steps is not None else "no known way"
            if place.kind == "unexplored":
                what = f"{place.what.capitalize()}. {what}"
            what = f"[{of[0]}/{of[1]}, {far}] {what}"
        # the jump key as the player has it (it may be rebound)
        jump = key_label(self.app, "game.next_place-1")
        if self.mode == "throw":
            path = flight(self.state, *cursor) if cursor != self.state.player else []
            self.map_view.set_path(path)
            # what the throw would do comes first: at 80×24 the prompt's last words are cut
            lands = throw_forecast(self.state, *cursor)
            what = (
                f"Throw {a(self._throwing)}: {lands} (Enter throws, {jump} next monster, "
                f"Esc cancels) {what}"
            )
        elif self.mode == "travel":
            what = f"Travel: {what} (Enter goes, {jump} next, Esc cancels)"
        else:
            what = f"{what} ({jump} next, Esc ends)"
        self._say(what)

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.state.log))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(legend_for(self.state)))

    def action_character(self) -> None:
        """``@``: the character sheet (it takes no turn, and leaves the bot the wheel)."""
        self.app.push_screen(
            CharacterScreen(self.state, world_name=self.world_name, permadeath=self.permadeath)
        )

    def action_save_quit(self) -> None:
        """``S``: leave the game (the app saves it); after the run's end, the summary."""
        self.stop_autopilot()
        self._leave_mode()
        self.dismiss(self.state if self.mode == "ended" else None)

    def action_cancel(self) -> None:
        self._leave_mode()

    def action_confirm(self) -> None:
        if self.mode == "ended":
            self.dismiss(self.state)
        elif self.mode == "travel" and self.cursor is not None:
            x, y = self.cursor
            self._leave_mode()
            self.act(Travel(x, y))
        elif self.mode == "throw" and self.cursor is not None:
            x, y = self.cursor
            item = self._throwing
            self._leave_mode()
            self.act(Throw(item, x, y))
        else:
            self._leave_mode()

    @takes_over
    def on_map_view_tile_clicked(self, message: MapView.TileClicked) -> None:
        if self.mode == "look":
            self._set_cursor((message.x, message.y))
        elif self.mode in ("play", "travel") and self.state.explored[message.y, message.x]:
            self._leave_mode()
            self.act(Travel(message.x, message.y))
