"""Rough edges found in play: what comes into view is counted and grammatical, the keys-and-
doors actions name the way the board is drawn, the hatgram says how a piece is turned, a toast
never covers the newest message, and a floor preview does not outlive a game."""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import pytest
from textual.widgets import Static

from roguelike import puzzles, tiles
from roguelike.engine import GameState, Message, Travel, new_game, step
from roguelike.engine.pathing import FAR
from roguelike.engine.travel import come_into_view, travel_distances
from roguelike.puzzles.hatgram import flipped, orientations, pose, turned
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.puzzle import PuzzleScreen
from screens.title import TitleScreen
from tests.engine.support import add, fresh
from tests.screens.support import GameApp, Host, panel_text

# -- what comes into view ---------------------------------------------------------------------

#: The monsters that appeared (in any order) → what the log says.
SEEN = {
    ("rat",): "a rat comes into view",
    ("orc",): "an orc comes into view",
    ("goblin", "rat"): "a goblin and a rat come into view",
    ("rat", "rat"): "two rats come into view",
    ("goblin", "rat", "rat"): "two rats and a goblin come into view",
    ("bat", "goblin archer", "goblin archer", "rat"): (
        "two goblin archers, a bat and a rat come into view"
    ),
    ("jackal",) * 12: "12 jackals come into view",
}


@pytest.mark.parametrize("kinds, said", SEEN.items())
def test_what_comes_into_view_is_counted_with_the_verb_agreeing(kinds, said):
    assert come_into_view(list(kinds)) == said
    assert come_into_view(list(reversed(kinds))) == said  # the order met does not matter


def test_travel_names_every_monster_that_appeared_once_counted():
    state = fresh(0)
    state.items_lying.clear()
    state.keys_lying.clear()
    state.traps.clear()  # a dart on the way would stop the walk for another reason
    state.explored[:] = True
    # out of sight on plain floor (not deep water, which a walk may not cross, nor behind a
    # locked door): the cells a walk can reach
    reach = travel_distances(state, *state.player) < FAR
    ys, xs = np.nonzero((state.tiles == tiles.FLOOR) & reach & ~state.visible)
    hidden = set(zip(xs.tolist(), ys.tolist(), strict=True))
    # three monsters asleep side by side out of sight, the walk going to the cell beyond them
    spot = next((x, y) for x, y in sorted(hidden) if all((x + d, y) in hidden for d in (1, 2, 3)))
    for d, kind in enumerate(("rat", "goblin", "rat")):
        add(state, kind, (spot[0] + d, spot[1]), awake=False)
    events = step(state, Travel(spot[0] + 3, spot[1]))
    said = [e.text for e in events if isinstance(e, Message) and e.text.startswith("You stop")]
    seen = tuple(sorted(m.kind for m in state.monsters if state.visible[m.y, m.x]))
    assert len(seen) >= 2, "the walk should see at least two of them at once"
    assert said == [f"You stop: {SEEN[seen]}."]


# -- keys and doors: the words of the board as drawn ------------------------------------------


def keydoor_path_to_branch(p: Any) -> list[str]:
    """The fewest moves from the start to a room of the side branch (breadth-first)."""
    start = p.initial()
    came: dict[Any, tuple[Any, str] | None] = {start: None}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if p.is_side(s[0]):
            path = []
            while came[s] is not None:
                s, m = came[s]
                path.append(m)
            return path[::-1]
        for m in p.moves(s):
            t = p.apply(s, m)
            if t not in came:
                came[t] = (s, m)
                todo.append(t)
    raise AssertionError("the side branch cannot be reached")


def test_keydoor_walks_in_the_branch_say_up_and_down():
    for seed in range(6):
        p = puzzles.generate("keydoor", "medium", seed)
        for room in range(p.rooms + 1, p.rooms + p.branch + 1):
            s = (room, 0, tuple(0 for _ in p.keys), 0)
            for m, way in (("right", "go down the branch"), ("left", "go up the branch")):
                if p.dest(m, room) is not None:
                    words = p.describe_move(m, s)
                    assert words.startswith(way) and "right" not in words, words
        junction = (p.junction, 0, tuple(0 for _ in p.keys), 0)
        assert p.describe_move("enter", junction).startswith("go down into the side branch")
        on_main = (1, 0, tuple(0 for _ in p.keys), 0)
        assert p.describe_move("right", on_main).startswith("go right")


async def test_the_keydoor_screen_lists_the_branch_walks_as_drawn():
    p = puzzles.generate("keydoor", "medium", 3)
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.puzzle_screen
        for m in keydoor_path_to_branch(p):
            await pilot.press(str(p.moves(screen.visit.state).index(m) + 1))
        await pilot.pause()
        assert p.is_side(screen.visit.state[0])
        panel = panel_text(screen)
        assert "go up" in panel and "go left" not in panel and "go right" not in panel


# -- hatgram: how a piece is turned -----------------------------------------------------------


def _apply_pose(shape: Any, words: str) -> int:
    """The orientation reached from the first by doing what ``words`` say (flip, then turn)."""
    j = flipped(shape, 0) if words.startswith("flipped") else 0
    quarters = {"a quarter": 1, "half round": 2, "three quarters": 3}
    for name, n in quarters.items():
        if words.endswith(f"turned {name}"):
            for _ in range(n):
                j = turned(shape, j)
    return j


def test_every_pose_named_leads_back_to_its_orientation():
    for seed in range(4):
        p = puzzles.generate("hatgram", "hard", seed)
        for shape in p.pieces:
            for j in range(len(orientations(shape))):
                assert _apply_pose(shape, pose(shape, j)) == j


async def test_two_turns_read_as_half_round_not_a_count_of_orientations():
    p = puzzles.generate("hatgram", "medium", 5)
    i = next(k for k, shape in enumerate(p.pieces) if len(orientations(shape)) == 8)
    app = Host(PuzzleScreen(p))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.puzzle_screen
        await pilot.press(str(i + 1))
        await pilot.pause()
        assert "(not turned)" in panel_text(screen)
        await pilot.press("t", "t")
        await pilot.pause()
        assert "(turned half round)" in panel_text(screen)
        assert " of 8" not in panel_text(screen)
        await pilot.press("f")
        await pilot.pause()
        assert "(flipped and turned" in panel_text(screen) or "(flipped)" in panel_text(screen)


# -- the toast and the message log ------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_toast_never_covers_the_newest_message(size):
    state: GameState = new_game(12345, total_floors=3, monsters=False)
    app = GameApp(state)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        app.notify("Saved as Some Long World Name", timeout=30)
        await pilot.pause()
        await pilot.pause()
        messages = app.screen.query_one("#messages").region
        toasts = [w.region for w in app.screen.query("Toast")]
        assert toasts and all(t.area > 0 for t in toasts)
        assert not any(t.overlaps(messages) for t in toasts)


# -- the title's floor preview ----------------------------------------------------------------


async def test_a_floor_preview_is_gone_after_a_game(quiet_worlds):
    app = RoguelikeApp(make_game=quiet_worlds, preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        preview = app.screen.query_one("#preview-text", Static)
        assert str(preview.render()).startswith("floor 1 · seed ")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # a random small world
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("S")  # save and back to the title
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert str(app.screen.query_one("#preview-text", Static).render()) == ""
        await pilot.press("p")  # a preview can still be asked for again
        await pilot.pause()
        assert str(preview.render()).startswith("floor 1 · seed ")


# -- helpers ----------------------------------------------------------------------------------
