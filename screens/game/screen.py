"""The game screen: the map, a side panel, the message log and the footer.

The screen never decides a rule: every key becomes an engine action played in the game
session it was given (:mod:`screens.game.session`: the app's :class:`saves.Session`, which
records, remembers the floors left behind and autosaves; without one, the engine's ``step``),
and the screen then draws the state again. ``S`` has the game saved (the app's ``leave``, which
asks the player what to do when saving fails) and then dismisses the screen with None; once
the run is over, Enter dismisses it with the final :class:`~roguelike.engine.GameState`.

What the direction keys, Enter, Tab, ``>`` and a click do is the current mode's to say
(:mod:`screens.game.modes`: play, look, travel, a door's direction, throw, ended). The bot's
wheel is :mod:`screens.game.watch`; any key that plays takes it back (``takes_over``) and then
does what it always does; the first time, a watched session becomes a saved world.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec

from textual.binding import Binding
from textual.worker import get_current_worker

from roguelike import seeds
from roguelike.engine import (
    Action,
    Bumped,
    ChoosePerk,
    Descend,
    Drop,
    Explore,
    GameState,
    LevelUp,
    Message,
    PickUp,
    PuzzleFound,
    Rest,
    Search,
    SolvePuzzle,
    TakeOff,
    Use,
    Wait,
    Wear,
    doors_around,
)
from roguelike.engine.creatures import ITEMS
from roguelike.engine.legend import legend_for
from roguelike.engine.places import stairs_action
from saves.session import SESSION_ERRORS, failure_reason
from saves.text import printable
from screens.bindings import textual_bindings
from screens.character import CharacterScreen
from screens.dungeon import DungeonScreen
from screens.game import watch as watching
from screens.game.modes import Cursor, DoorDirection, Ended, Look, Mode, Play, Throw, Travel
from screens.game.session import GameSession, Unsaved
from screens.game.watch import DEFAULT_SPEED, Clock, Watch
from screens.help import HelpScreen, key_label
from screens.history import HistoryScreen
from screens.inventory import InventoryScreen, identify_picker
from screens.map_view import MapView
from screens.overview import OverviewScreen
from screens.perks import PerkScreen
from screens.puzzle import PuzzleOutcome, PuzzleScreen

P = ParamSpec("P")
#: What the prompt says once the floor below is made in the game's own process.
MAKING_FLOOR = "Down the stairs… making the floor here (Esc stays here)"

#: The prompt the first time a diagonal step is refused at a corner (the log says it shortly
#: every time): the rule surprises players of games where a diagonal squeezes past.
CORNER_RULE = (
    "You cannot squeeze past the corner: a diagonal step needs both cells beside it open, for "
    "monsters too. Step round it (look at a wall, x, to read the rule again)."
)

#: The prompt while ``>`` waits for the floor below (made ahead in the background): the keys
#: that play wait with it, so that ``>`` on the stairs always descends.
STAIRS_WAIT = "Down the stairs… (the floor below is still being made; Esc stays here)"


def takes_over(
    action: Callable[Concatenate[GameScreen, P], None],
) -> Callable[Concatenate[GameScreen, P], None]:
    """A key that plays: it takes the wheel from the bot (if it has it) before it acts; while
    ``>`` waits for the floor below, it does nothing but say so (no stray turn)."""

    @wraps(action)
    def taking_over(screen: GameScreen, /, *args: P.args, **kwargs: P.kwargs) -> None:
        screen.take_over()
        if screen.stairs_held():
            return
        action(screen, *args, **kwargs)

    return taking_over


def looks(
    action: Callable[Concatenate[GameScreen, P], None],
) -> Callable[Concatenate[GameScreen, P], None]:
    """A key that only looks (look, travel's cursor, Tab, the overview, a click): it leaves
    the bot the wheel (the bot waits while a cursor is up); while ``>`` waits for the floor
    below, it does nothing but say so."""

    @wraps(action)
    def looking(screen: GameScreen, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if screen.stairs_held():
            return
        action(screen, *args, **kwargs)

    return looking


class GameScreen(DungeonScreen[GameState | None]):
    """A run in progress. Dismissed with the final state when the run ends (death or escape)
    and the player presses Enter; with None when the player saves and quits (``S``). With
    ``autopilot``, the bot plays (:mod:`screens.game.watch`)."""

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
        session: GameSession | None = None,
        autopilot: bool = False,
        speed: int = DEFAULT_SPEED,
        clock: Clock | None = None,
        leave: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        """``permadeath``: the world's save is deleted at death (the side panel and the
        character sheet say so); ``session``: where the keys are played (its state is
        ``state``; None: :class:`~screens.game.session.Unsaved`); ``autopilot``: the bot plays
        from the start, at ``speed`` (1 to ``len(SPEEDS)``), ticked by ``clock`` (None:
        Textual's timers); ``leave``: how the player leaves a game not over (``S``): it
        saves, and calls what it is given once the game may close (the app's
        ``leave_game``, which asks the player when saving fails; None: close at once)."""
        super().__init__(state, world_name=world_name, permadeath=permadeath)
        self.session: GameSession = session or Unsaved(state)
        assert self.session.state is state, "the screen shows the session's state"
        self.mode: Mode = Play()
        self._leave = leave
        #: The bot's wheel (watch mode).
        self.bot = Watch(
            self, autopilot=autopilot, speed=speed, clock=clock or watching.default_clock(self)
        )
        #: The puzzle screen this screen opened, while it is up.
        self.puzzle_screen: PuzzleScreen | None = None
        #: A puzzle screen was dismissed and its outcome has not reached the engine yet.
        self.puzzle_closing = False
        #: where the player pressed ``>`` while the floor below was still being made
        self._stairs_wait: tuple[int, int] | None = None
        #: the worker missed its deadline and the floor is being made here (set by a thread)
        self._making_floor = False
        #: the corner rule was explained (once per screen: :data:`CORNER_RULE`)
        self._corner_told = False

    @property
    def cursor(self) -> tuple[int, int] | None:
        """The cursor of a look, travel or throw (None in the other modes)."""
        return self.mode.cursor

    @property
    def waiting_stairs(self) -> bool:
        """The stairs were taken before the floor below was made: waiting for it."""
        return self._stairs_wait is not None

    @property
    def looking(self) -> bool:
        """A cursor is up (look, travel, throw): the bot waits (watch mode)."""
        return self.cursor is not None

    @property
    def ended(self) -> bool:
        """The run is over: only Enter (and the keys that play nothing) still work."""
        return isinstance(self.mode, Ended)

    # ------------------------------------------------------------------ layout

    def on_mount(self) -> None:
        self._check_end()
        if self.ended:
            self.bot.autopilot = False
        self.redraw()
        self.bot.restart()

    def redraw(self) -> None:
        super().redraw()
        self.map_view.set_cursor(self.cursor)

    def status_line(self, width: int) -> str | None:
        return self.bot.status(width)

    def draw_status(self) -> None:
        """The prompt line again (the bot's words changed)."""
        self._draw_messages()

    def watch_changed(self) -> None:
        """The bot's wheel, pause or speed changed: the prompt line and the footer."""
        if self.is_mounted:
            self._draw_messages()
            self.refresh_bindings()

    # ------------------------------------------------------------------ acting

    def act(self, action: Action) -> None:
        """Play ``action`` in the session, draw the result, and notice the end of the run."""
        if self.ended:
            return
        session = self.session
        events_ = session.step(action, autosave_now=False)
        if session.save_due:  # a new floor: drawn first, saved just after
            self.call_after_refresh(self._save_due)
        if session.save_error:  # a write that failed during the step (a best score)
            self.notify(
                f"Not saved: {session.save_error}", severity="error", timeout=6, markup=False
            )
        self._fresh = sum(isinstance(e, Message) for e in events_)
        self.prompt = None
        cornered = any(isinstance(e, Bumped) and e.what == "corner" for e in events_)
        if cornered and not self._corner_told and not self.bot.autopilot:
            self._corner_told = True
            self.prompt = CORNER_RULE
        self._check_end()
        self.redraw()
        levelled = any(isinstance(e, LevelUp) for e in events_)
        if levelled and self.state.perk_offer and not self.ended and not self.bot.autopilot:
            self.action_perks()
        found = [e for e in events_ if isinstance(e, PuzzleFound)]
        if found and not self.ended:
            room = self.state.puzzles.get((found[-1].x, found[-1].y))
            if room is not None and not room.solved:
                self.open_puzzle()

    def _save_due(self) -> None:
        """The autosave of a new floor, once it is on the screen."""
        if not self.session.save_if_due():
            self.notify(
                f"Not saved: {self.session.save_error}", severity="error", timeout=6, markup=False
            )

    def take_over(self) -> None:
        """The player plays: the bot stops, and a watched session becomes a saved world (not
        once the run is over: the bot played it to its end; if saving fails, the next key
        tries again)."""
        self.bot.stop()
        session = self.session
        if not session.watching or self.ended:
            return
        try:
            world = session.take_over()
        except SESSION_ERRORS as err:
            why = failure_reason(err)
            self.notify(f"Not saved: {why}", severity="error", timeout=6, markup=False)
            return
        self.world_name = world.name
        self.notify(f"Saved as {world.name}", timeout=4, markup=False)

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
            self.say("There is no puzzle pedestal here.")
            return
        if room.solved:
            self.say("You solved this pedestal's puzzle already.")
            return
        self.say("The pedestal's puzzle is being carved…")
        puzzle = room.puzzle()

        def done(outcome: PuzzleOutcome | None) -> None:
            if not self.puzzle_closing and self.bot.autopilot:
                # the watcher left the bot's puzzle (Esc): the bot would open it again at once
                self.bot.pause()
            self.puzzle_screen = None
            self.puzzle_closing = False
            if outcome is not None:
                self.report_puzzle(outcome)

        self.puzzle_screen = PuzzleScreen(
            puzzle,
            moves=list(room.moves),
            coins=self.state.hint_coins,
            hints_used=room.hints_used,
            resets=room.resets,
            on_player_key=self.take_over,
        )
        self.bot.puzzle_opened()
        self.app.push_screen(self.puzzle_screen, done)

    def close_puzzle(self, screen: PuzzleScreen) -> None:
        """The bot leaves the puzzle screen: its moves go to the engine once it is gone."""
        self.puzzle_closing = True
        screen.dismiss(screen.outcome())

    def _check_end(self) -> None:
        state = self.state
        if state.dead:
            cause = f" ({printable(state.cause)})" if state.cause else ""
            self.prompt = f"You die{cause}… press Enter"
            self.mode = Ended()
        elif state.won:
            self.prompt = "You escaped! press Enter"
            self.mode = Ended()

    def say(self, text: str | None) -> None:
        """Show ``text`` on the prompt line (not in the log)."""
        self.prompt = text
        self._draw_messages()

    def leave_mode(self) -> None:
        """Back to play from look, travel, a door's direction or throw (not from the end)."""
        if isinstance(self.mode, Play | Ended):
            return
        self.mode = Play()
        self.map_view.set_cursor(None)
        self.map_view.set_path([])
        self.say(None)

    def _busy(self) -> bool:
        """True when a key must not act (see :meth:`Mode.interrupts`)."""
        return self.mode.interrupts(self)

    def _start(self, mode: Cursor) -> None:
        """Enter the cursor mode ``mode`` and say what lies under its cursor."""
        self.mode = mode
        mode.point(self, mode.cursor)

    # ------------------------------------------------------------------ actions (bindings)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the bot's pause and speed keys work (and show in the footer) while it has the wheel
        if action in ("pause", "faster", "slower"):
            return self.bot.autopilot
        if action == "step_once":
            return self.bot.autopilot and self.bot.paused
        return True

    def action_autopilot(self) -> None:
        """``A``: the bot takes the wheel, or gives it back."""
        if self.bot.autopilot:
            self.take_over()
            self.say("You have the wheel.")
        elif self.ended:
            self.say("The run is over: press Enter.")
        else:
            self.leave_mode()
            self.bot.start()

    def action_pause(self) -> None:
        self.bot.toggle_pause()

    def action_faster(self) -> None:
        self.bot.set_speed(self.bot.speed + 1)

    def action_slower(self) -> None:
        self.bot.set_speed(self.bot.speed - 1)

    def action_step_once(self) -> None:
        self.bot.step_once()

    @takes_over
    def action_move(self, dx: int, dy: int) -> None:
        self.mode.direction(self, dx, dy)

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
        """Send the seed code to the terminal's clipboard (OSC 52, through Textual) and show it:
        no terminal answers OSC 52, so the game cannot know it was taken, and says so."""
        code = seeds.encode(self.state.seed)
        self.app.copy_to_clipboard(code)
        self.say(
            f"Seed code {code}: sent to your terminal's clipboard, if it accepts it (else copy "
            "it from here). Anyone who types it gets this dungeon."
        )

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
        seen (:func:`~roguelike.engine.places.stairs_action`); in look or travel, put the
        cursor on them. On the stairs before the floor below is made (it is made ahead, in the
        background), say so and take them when it is (:meth:`descend_when_ready`; the keys
        that play wait till then: see :meth:`stairs_held`)."""
        if self.mode.stairs(self) or self._busy() or self._stairs_wait is not None:
            return
        action = stairs_action(self.state)
        if isinstance(action, str):
            self.say(action)
            return
        if isinstance(action, Descend) and self.descend_when_ready():
            return
        self.act(action)

    def descend_when_ready(self) -> bool:
        """On the stairs before the floor below is made: say so (:data:`STAIRS_WAIT`), have a
        worker thread wait for it (the session's deadline, then made in this process:
        :data:`MAKING_FLOOR`), and take the stairs once it is (True). False: the floor is
        ready, nothing waits. The screen's own thread never waits: it looks every frame, and
        answers every key."""
        if self._stairs_wait is not None:
            return True
        if self.session.next_floor_ready():
            return False
        self._stairs_wait = self.state.player
        self._making_floor = False
        self.say(STAIRS_WAIT)
        self.run_worker(self._wait_for_floor, thread=True, exit_on_error=False, group="stairs")
        self.set_timer(1 / 60, self._descend_when_ready)
        return True

    def _wait_for_floor(self) -> None:
        """In a worker thread: wait for the floor below (stopped if the worker is cancelled:
        the screen or the game went away)."""
        worker = get_current_worker()

        def making() -> None:  # read by the screen's thread at its next look
            self._making_floor = True

        self.session.wait_for_next_floor(stopped=lambda: worker.is_cancelled, making=making)

    def stairs_held(self) -> bool:
        """True while ``>`` waits for the floor below: a key that plays then says so and does
        nothing, so the player cannot walk off the stairs meanwhile (Esc stays instead)."""
        if self._stairs_wait is None:
            return False
        self.say(MAKING_FLOOR if self._making_floor else STAIRS_WAIT)
        return True

    def _descend_when_ready(self) -> None:
        """Take the stairs pressed earlier once the floor below is made (unless Esc called the
        descent off, or the player is somehow no longer on them)."""
        if self._stairs_wait is None:  # Esc: the player stays
            return
        if not self.session.next_floor_ready():
            if self._making_floor and self.prompt == STAIRS_WAIT:
                self.say(MAKING_FLOOR)
            self.set_timer(1 / 60, self._descend_when_ready)
            return
        pressed_at, self._stairs_wait = self._stairs_wait, None
        if self.prompt in (STAIRS_WAIT, MAKING_FLOOR):
            self.say(None)
        if pressed_at == self.state.player and isinstance(self.mode, Play):
            self.act(Descend())

    @looks
    def action_next_place(self, direction: int) -> None:
        """Tab (Shift+Tab): the cursor jumps to the next (previous) place worth going to,
        nearest first (:func:`~roguelike.engine.places.places`), cycling; in throw mode, to
        the next monster in view. From play, it starts travel mode on the nearest."""
        self.mode.jump(self, direction)

    @looks
    def action_overview(self) -> None:
        """``M``: the whole floor at a glance (what the player knows of it)."""
        self.leave_mode()
        self.app.push_screen(OverviewScreen(self.state))

    @takes_over
    def action_open_door(self) -> None:
        self._door(opening=True)

    @takes_over
    def action_close_door(self) -> None:
        self._door(opening=False)

    def _door(self, *, opening: bool) -> None:
        if self._busy():
            return
        doors = doors_around(self.state, closed=opening)
        which = "open" if opening else "close"
        if not doors:
            self.say(f"There is no {'closed' if opening else 'open'} door next to you.")
        elif len(doors) == 1:
            DoorDirection(opening).direction(self, *doors[0])
        else:
            self.mode = DoorDirection(opening)
            self.say(f"Which direction? ({which} a door; Esc cancels)")

    @takes_over
    def action_inventory(self) -> None:
        if not self._busy():
            take_off = key_label(self.app, "game.take_off")
            pack = InventoryScreen(
                dict(self.state.inventory),
                worn=self.state.equipment,
                state=self.state,
                worn_note=f"({take_off} on the map takes off what you wear or wield)",
            )
            self.app.push_screen(pack, self._used)

    @takes_over
    def action_wear(self) -> None:
        """``w``: the pack's wearables, to wear or wield one (what its slot held goes back)."""
        if not self._busy():
            pack = InventoryScreen(
                dict(self.state.inventory),
                only="wear",
                title="Wear or wield",
                verb="wear",
                worn=self.state.equipment,
                state=self.state,
            )
            self.app.push_screen(pack, self._worn)

    def _worn(self, kind: str | None) -> None:
        if kind is not None:
            self.act(Wear(kind))

    @takes_over
    def action_take_off(self) -> None:
        """``W``: take off what is worn (asking which, when both a weapon and an armour are)."""
        if self._busy():
            return
        worn = list(self.state.equipment)
        if not worn:
            self.say("You wear nothing to take off.")
        elif len(worn) == 1:
            self._taken_off(worn[0])
        else:
            pack = InventoryScreen(
                {k: 1 for k in worn}, title="Take off", verb="take off", worn=self.state.equipment
            )
            self.app.push_screen(pack, self._taken_off)

    def _taken_off(self, kind: str | None) -> None:
        if kind is not None:
            self.act(TakeOff(ITEMS[kind].slot))

    @takes_over
    def action_perks(self) -> None:
        """``P`` (and a level up): the perks offered, to take one; Esc puts it off."""
        if self._busy():
            return
        state = self.state
        if not state.perk_offer:
            self.say("No perk is on offer: each level up offers one.")
            return
        owed = len(state.perks) + 2
        self.app.push_screen(PerkScreen(state.perk_offer, owed, list(state.perks)), self._perk)

    def _perk(self, index: int | None) -> None:
        if index is not None:
            self.act(ChoosePerk(index))

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
        if isinstance(self.mode, Throw):
            self.leave_mode()
            return
        if self._busy():
            return
        item = next((k for k in self.state.inventory if ITEMS[k].verb == "throw"), None)
        if item is None:
            self.say("You have nothing to throw.")
            return
        targets = [m.pos for m in self.state.visible_monsters()]
        self._start(Throw(item, targets[0] if targets else self.state.player, targets))

    @looks
    def action_look(self) -> None:
        self._toggle(Look)

    @looks
    def action_travel(self) -> None:
        self._toggle(Travel)

    def _toggle(self, kind: type[Look]) -> None:
        """The look or travel key: leave that mode if in it, else start it on the player."""
        if type(self.mode) is kind:
            self.leave_mode()
        elif not self._busy():
            self._start(kind(self.state.player))

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
        """``S``: leave the game (saved first: if that fails the player chooses, and the
        game stays until they do); after the run's end, the summary."""
        self.bot.stop()
        self.leave_mode()
        if self.ended or self._leave is None:
            self.dismiss(self.state if self.ended else None)
            return
        self._leave(self._left)

    def _left(self) -> None:
        """The game was saved (or left unsaved by the player's choice): close its screen."""
        if self.is_attached:
            self.dismiss(None)

    def action_cancel(self) -> None:
        if self._stairs_wait is not None:
            self._stairs_wait = None
            self.say("You stay on this floor.")
            return
        self.leave_mode()

    def action_confirm(self) -> None:
        self.mode.confirm(self)

    @looks
    def on_map_view_tile_clicked(self, message: MapView.TileClicked) -> None:
        self.mode.click(self, message.x, message.y)
