"""The players that make the golden recordings (no tests here), each a plain function of a
seed text that plays one run and returns its :class:`Recording`.

Every run starts from a :class:`Start` the normal engine can make again (a seed, a preset, the
number of floors, monsters and puzzles on or off), and every input is an action a person could
send: the recording replays through the engine alone, with nothing set by hand. The worlds are
small (one or two floors of the small preset) so that the golden test replays each in about a
second.

- :func:`bot_run`: the autoplayer (:func:`roguelike.autoplay.play`) recording as it plays;
- :func:`reckless_run`: the autoplayer that never rests, drinks, reads or retreats, but strikes
  whatever stands next to it: it walks into fights it cannot win, which is how a death is got
  without weakening the player by hand;
- :func:`hinted_run`: the autoplayer that, at a puzzle pedestal, plays the puzzle as a person
  at the puzzle screen does (:class:`roguelike.puzzles.visit.Visit`): buys hints (with coins
  when it has them, with score when not), makes a move and starts again, then solves it;
- :func:`continued_run`: the autoplayer playing through :class:`saves.session.Games` with a
  store in a temporary folder, saving and quitting twice on the way and loading again; the
  recording is the one the final save holds.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable

from roguelike import seeds
from roguelike.autoplay import Autopilot, play
from roguelike.engine import Action, GameState, Move, Rest, SolvePuzzle, Wait, new_game, step
from roguelike.engine.grid import chebyshev
from roguelike.puzzles.visit import Visit
from roguelike.recording import Recording
from saves import Store, World
from saves.session import Games, Session

#: The most actions any of these players sends (their runs take a few hundred).
LIMIT = 5_000
#: Hint asks the hinted player makes at each pedestal (with no coins, each second ask pays):
#: with coins, two nudges, the milestone, the move and two steps after it; with two coins, two
#: nudges, then the milestone and the move paid with score (the hinted move is then played).
HINT_ASKS = 6
#: What the reckless player refuses to do, by the autoplayer's reason (besides resting).
CAREFUL = ("drinking a potion", "blinking away", "retreating")

#: A policy: (state, the autoplayer's action, its reason) → the action sent instead.
ChooseFor = Callable[[GameState, Action, str], Action]


def game(text: str, *, floors: int, puzzles: bool = True, monsters: bool = True) -> GameState:
    """A fresh small game of the seed ``text`` with ``floors`` floors."""
    return new_game(
        seeds.text_seed(text),
        preset="small",
        total_floors=floors,
        puzzles=puzzles,
        monsters=monsters,
    )


def bot_run(text: str, *, floors: int, puzzles: bool = True) -> Recording:
    """The autoplayer's run of ``text``."""
    state = game(text, floors=floors, puzzles=puzzles)
    rec = Recording.begin(state)
    play(state, limit=LIMIT, recording=rec)
    return rec


def _drive(state: GameState, rec: Recording, choose_for: ChooseFor, limit: int = LIMIT) -> None:
    """Play ``state`` with the autoplayer's pilot, each action passed through ``choose_for``
    (which may replace it), recording every action sent."""
    pilot = Autopilot(state)
    for _ in range(limit):
        if state.over or pilot.stuck(state):
            return
        before = (state.turn, state.number)
        decision = pilot.decide(state)
        action = choose_for(state, decision.action, decision.why)
        step(state, action)
        rec.add(action, state)
        pilot.acted((state.turn, state.number) != before)


def _reckless(state: GameState, action: Action, why: str) -> Action:
    if not isinstance(action, Rest) and why not in CAREFUL:
        return action
    px, py = state.player
    near = [m for m in state.visible_monsters() if chebyshev(m.pos, state.player) == 1]
    return Move(near[0].x - px, near[0].y - py) if near else Wait()


def reckless_run(text: str, *, floors: int) -> Recording:
    """The reckless player's run of ``text`` (no puzzles: it is about fighting)."""
    state = game(text, floors=floors, puzzles=False)
    rec = Recording.begin(state)
    _drive(state, rec, _reckless)
    return rec


def hinted_solve(state: GameState) -> SolvePuzzle:
    """What a player at the pedestal underfoot reports after a visit with hints: asks for
    HINT_ASKS hints (coins first, then score), makes the hinted move, starts again, and
    solves the puzzle by the solver's plan."""
    room = state.puzzles[state.player]
    p = room.puzzle()
    visit = Visit(p, coins=state.hint_coins, hints_used=room.hints_used, resets=room.resets)
    for _ in range(HINT_ASKS):
        visit.hint(False)
    if visit.hint_moves:
        visit.play(visit.hint_moves[0])
    visit.reset()
    for m in p.solve(p.initial()) or []:
        visit.play(m)
    out = visit.outcome()
    return SolvePuzzle(
        tuple(out.moves),
        hints_used=out.hints_used - room.hints_used,
        coins_spent=out.coins_spent,
        resets=out.resets - room.resets,
    )


def _hinted(state: GameState, action: Action, why: str) -> Action:
    return hinted_solve(state) if isinstance(action, SolvePuzzle) else action


def hinted_run(text: str, *, floors: int) -> Recording:
    """The hinted player's run of ``text``."""
    state = game(text, floors=floors)
    rec = Recording.begin(state)
    _drive(state, rec, _hinted)
    return rec


def _session_play(session: Session, actions: int) -> int:
    """Let the autoplayer play ``actions`` actions (fewer if the run ends) through the
    session, which records them; how many it played."""
    pilot = Autopilot(session.state)
    played = 0
    state = session.state
    while played < actions and not state.over and not pilot.stuck(state):
        before = (state.turn, state.number)
        action = pilot.decide(state).action
        session.step(action)
        played += 1
        pilot.acted((state.turn, state.number) != before)
    return played


def continued_run(text: str, *, floors: int, legs: tuple[int, int]) -> tuple[Recording, list[int]]:
    """The autoplayer's run of ``text`` played as a person with little time would: ``legs[0]``
    actions, save and quit, load, ``legs[1]`` more, save and quit, load, and on to the end.
    The recording of the final save, and the actions played in each of the three sessions."""

    def make(world: World) -> GameState:
        return new_game(world.seed, preset=world.preset, world_name=world.name, total_floors=floors)

    with tempfile.TemporaryDirectory(prefix="roguelike-golden-") as tmp:
        games = Games(Store(tmp), make_game=make)
        world = World("Golden Continued", seeds.text_seed(text), "small")
        played = []
        session = games.new(world)
        for leg in (*legs, LIMIT):
            if played:
                session = games.load(world.name)
            played.append(_session_play(session, leg))
            session.save_and_quit()
        rec = games.store.open(world.name).recording
    assert rec is not None, "the final save holds no recording"
    return rec, played
