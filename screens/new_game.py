"""The new-game screen: a seed code (blank for a random world), a world name, a size, a
difficulty (normal unless the player picks another) and permadeath (the save is deleted at
death).

The screen does not start anything itself: it dismisses with the :class:`saves.World` to
create (or ``None`` on Back), and the app starts it. A name the app refuses (taken by a
saved world: ``name_problem`` says so, with a free name to try) is shown under the name field
and nothing starts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.validation import ValidationResult, Validator
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    RadioButton,
    RadioSet,
    Static,
)

from roguelike import seeds
from roguelike.engine.balance import DEFAULT_DIFFICULTY, DIFFICULTIES
from roguelike.presets import DEFAULT_PRESET, PRESETS
from saves import World
from saves.world import world_name_for


class TickBox(Checkbox):
    """A checkbox that looks unchecked when it is: an empty box, where Textual's draws a dim
    ``X`` (told from a checked one by its colour alone, which a monochrome theme loses)."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # Textual reads this name
        return "X" if self.value else " "


class Choice(RadioButton):
    """A radio button whose choice shows by its shape: ``●`` when chosen, empty when not
    (Textual's draws a ``●`` in both, told apart by colour alone, which mono loses)."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # Textual reads this name
        return "●" if self.value else " "


class SeedValidator(Validator):
    """A seed field is valid when blank (random) or when :func:`seeds.parse` accepts it."""

    def validate(self, value: str) -> ValidationResult:
        if not value.strip():
            return self.success()
        try:
            seeds.parse(value)
        except seeds.SeedCodeError as err:
            return self.failure(str(err))
        return self.success()


def seed_status(text: str) -> tuple[str, bool]:
    """What the line under the seed field says for ``text``, and whether it is an error."""
    if not text.strip():
        return "random world", False
    try:
        seed = seeds.parse(text)
    except seeds.SeedCodeError as err:
        return str(err), True
    if seeds.looks_like_code(text):
        return f"✓ seed {seeds.encode(seed)}", False
    shown = text.strip() if len(text.strip()) <= 24 else text.strip()[:23] + "…"
    return f"✓ text {shown!r} → seed {seeds.encode(seed)}", False


class PresetChoice(RadioSet):
    """A radio set whose arrow keys pick the option they move to (Enter starts the game).

    The choice does not wrap around: at the first size ↑ moves to the field above, at the last
    ↓ to the one below (← and → stay), so a player going up never lands on the largest world.
    """

    BINDINGS = [
        Binding("down", "pick(1, True)", "Next size", show=False),
        Binding("right", "pick(1)", "Next size", show=False),
        Binding("up", "pick(-1, True)", "Previous size", show=False),
        Binding("left", "pick(-1)", "Previous size", show=False),
    ]

    def on_mount(self) -> None:
        # the set highlights its first option when mounted; highlight the chosen one instead
        self.call_later(self._highlight_pressed)

    def _highlight_pressed(self) -> None:
        if self.pressed_index >= 0:
            self._selected = self.pressed_index

    def action_pick(self, step: int, leave_at_end: bool = False) -> None:
        buttons = list(self.query(RadioButton))
        now = self.pressed_index
        then = now + step if now >= 0 else 0
        if 0 <= then < len(buttons):
            buttons[then].value = True
        elif leave_at_end:
            if step < 0:
                self.screen.focus_previous()
            else:
                self.screen.focus_next()


Focus = Literal["seed", "preset", "difficulty"]


class NewGameScreen(Screen[World | None]):
    """Pick a seed code, a world name, a size and a difficulty, then Start (Enter) or Back
    (Esc)."""

    BINDINGS = [
        Binding("enter", "start", "Start", priority=True, key_display="⏎"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self,
        *,
        preset: str | None = None,
        difficulty: str | None = None,
        focus: Focus = "seed",
        name_problem: Callable[[str], str | None] | None = None,
    ) -> None:
        """``preset``, ``difficulty``: the choices offered first (None: the defaults).
        ``name_problem(name)``: why a world cannot be given that name, or None."""
        super().__init__()
        self.name_problem = name_problem
        self.presets = dict(PRESETS)
        self.preset = preset if preset in self.presets else DEFAULT_PRESET
        self.difficulty = difficulty if difficulty in DIFFICULTIES else DEFAULT_DIFFICULTY
        self.initial_focus: Focus = focus
        #: the world a blank seed field starts, rolled once so its name can be shown
        self.random_seed = seeds.random_seed()
        self._auto_name = world_name_for(self.random_seed)

    def compose(self) -> ComposeResult:
        with Vertical(id="new-game-box"):
            yield Static("A new world", id="new-game-title")
            with Horizontal(classes="field"):
                yield Label("Seed code", classes="field-label")
                yield Input(
                    placeholder=f"blank: random · a code like {seeds.EXAMPLE_CODE} · any text",
                    validators=[SeedValidator()],
                    valid_empty=True,
                    id="seed",
                )
            yield Static("random world", id="seed-status", markup=False)
            with Horizontal(classes="field"):
                yield Label("World name", classes="field-label")
                yield Input(value=self._auto_name, placeholder="a name for this world", id="name")
            yield Static("", id="name-status", markup=False)
            with Horizontal(classes="field"):
                yield Label("Size", classes="field-label")
                with PresetChoice(id="preset"):
                    for name, floors in self.presets.items():
                        yield Choice(
                            f"{name} · {floors} floors", value=name == self.preset, name=name
                        )
            with Horizontal(classes="field", id="difficulty-field"):
                yield Label("Difficulty", classes="field-label")
                with PresetChoice(id="difficulty"):
                    for level, d in DIFFICULTIES.items():
                        button = Choice(level, value=level == self.difficulty, name=level)
                        button.tooltip = d.description
                        yield button
            with Horizontal(classes="field"):
                yield Label("", classes="field-label")
                yield TickBox(
                    "Permadeath: the save is deleted at death", id="permadeath", compact=True
                )
            with Horizontal(id="new-game-buttons"):
                yield Button("Start ⏎", id="start", variant="primary")
                yield Button("Back esc", id="back")
        yield Footer()

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False  # Enter always starts; Tab moves between the fields
        self.query_one(f"#{self.initial_focus}").focus()

    # -- live validation -------------------------------------------------------------------

    @on(Input.Changed, "#seed")
    def seed_changed(self, event: Input.Changed) -> None:
        text, error = seed_status(event.value)
        status = self.query_one("#seed-status", Static)
        status.update(text)
        status.set_class(error, "-error")
        if error:
            return
        name = self.query_one("#name", Input)
        if name.value == self._auto_name:  # the player has not named the world: follow the seed
            self._auto_name = world_name_for(self._seed_of(event.value))
            name.value = self._auto_name

    @on(Input.Changed, "#name")
    def name_changed(self) -> None:
        status = self.query_one("#name-status", Static)
        status.update("")
        status.remove_class("-error")

    def _seed_of(self, text: str) -> int:
        return seeds.parse(text) if text.strip() else self.random_seed

    # -- actions ---------------------------------------------------------------------------

    def chosen_preset(self) -> str:
        pressed = self.query_one("#preset", PresetChoice).pressed_button
        return pressed.name if pressed is not None and pressed.name else self.preset

    def chosen_difficulty(self) -> str:
        pressed = self.query_one("#difficulty", PresetChoice).pressed_button
        return pressed.name if pressed is not None and pressed.name else self.difficulty

    def action_start(self) -> None:
        text = self.query_one("#seed", Input).value
        try:
            seed = self._seed_of(text)
        except seeds.SeedCodeError:
            self.query_one("#seed", Input).focus()
            self.app.bell()
            return  # the status line already says what is wrong
        name = self.query_one("#name", Input).value.strip() or world_name_for(seed)
        problem = self.name_problem(name) if self.name_problem is not None else None
        if problem is None:
            permadeath = self.query_one("#permadeath", Checkbox).value
            try:
                world = World(
                    name,
                    seed,
                    self.chosen_preset(),
                    permadeath,
                    difficulty=self.chosen_difficulty(),
                )
            except ValueError as err:  # a name that cannot be used
                problem = str(err)
            else:
                self.dismiss(world)
                return
        status = self.query_one("#name-status", Static)
        status.update(problem)
        status.add_class("-error")
        self.query_one("#name", Input).focus()
        self.app.bell()

    def action_back(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()
