"""Explore (``e``) respects what the player knows: it keeps out of the reach of a guard or
sentinel seen, steps round known traps, goes on while a far or kiting shooter is in view, and
stops before a danger with the reason (roguelike/engine/travel.py).

The situations are drawn by hand on a real game's map: its tiles walled over, then one open
hall carved (and, where a test needs one, a small room with a door, or a chasm), so each test
knows where everything stands.
"""

from __future__ import annotations

import numpy as np
import pytest

import roguelike.engine.travel as travel
from roguelike import tiles
from roguelike.engine import Attacked, Explore, GameState, Message, Travel, step
from roguelike.engine.allies import freed
from roguelike.engine.monsters import SPOTTED, spot_guards
from roguelike.engine.pathing import FAR, downhill
from roguelike.engine.travel import dangers, guard_reach, pressing

from .support import add, arena, fresh, off, put_player, seat

#: The hall: x in HALL_X, y in HALL_Y (inclusive).
HALL_X = (2, 61)
HALL_Y = (2, 21)
#: The guarded room: its inner 5×5 square round POST, its door on the west wall.
POST = (52, 11)
DOOR = (49, 11)


def hall(player: tuple[int, int] = (5, 11)) -> GameState:
    """A monster-free game whose map is one open hall, nothing lying, no trap, nothing seen
    but what the player sees from ``player``."""
    state = fresh(1)
    state.tiles[:] = tiles.WALL
    (x0, x1), (y0, y1) = HALL_X, HALL_Y
    state.tiles[y0 : y1 + 1, x0 : x1 + 1] = tiles.FLOOR
    for lying in (state.items_lying, state.keys_lying, state.traps, state.puzzles):
        lying.clear()
    state.choices.clear()
    state.monsters, state.allies = [], []
    state.explored[:] = False
    state.regen_clock = -10_000
    put_player(state, player)
    return state


def guarded_room(state: GameState) -> None:
    """Wall a 5×5 room round :data:`POST` with a closed door at :data:`DOOR`."""
    px, py = POST
    state.tiles[py - 3 : py + 4, px - 3 : px + 4] = tiles.WALL
    state.tiles[py - 2 : py + 3, px - 2 : px + 3] = tiles.FLOOR
    state.tiles[DOOR[1], DOOR[0]] = tiles.DOOR


def press_explore(state: GameState, presses: int = 40) -> tuple[list[tuple[int, int]], list]:
    """Press ``e`` until it spends no turn (or ``presses`` times): every cell the player stood
    on after each turn, and every event."""
    cells: list[tuple[int, int]] = []
    events: list = []
    real = travel.one_turn

    def recorded(s: GameState, action):  # type: ignore[no-untyped-def]
        got = real(s, action)
        cells.append(s.player)
        return got

    travel.one_turn = recorded  # type: ignore[assignment]
    try:
        for _ in range(presses):
            turn = state.turn
            events += step(state, Explore())
            if state.turn == turn or state.dead:
                break
    finally:
        travel.one_turn = real  # type: ignore[assignment]
    return cells, events


def said(events: list) -> list[str]:
    return [e.text for e in events if isinstance(e, Message)]


# -- the bug of the issue: e walked into a sentinel's reach ---------------------------------


def test_explore_never_walks_into_a_known_sentinels_reach_and_says_why_it_stops():
    """Before: explore took the unexplored cells behind the sentinel's door for the nearest
    place to go, walked into its reach, took its blows, then said "Not with a gnoll sentinel
    in view". Now it explores the whole hall, never sets foot within the sentinel's reach, and
    stops at the end saying that the sentinel guards the room."""
    state = hall()
    guarded_room(state)
    sentinel = add(state, "gnoll sentinel", POST, awake=True)
    sentinel.extra[SPOTTED] = 1  # seen before (it keeps to its post)
    reach = guard_reach(state, sentinel)
    assert reach[DOOR[1], DOOR[0]], "the door lies within a blow of the sentinel's ground"
    hp = state.hp
    cells, events = press_explore(state)
    assert cells, "explore went elsewhere first"
    assert not any(reach[y, x] for x, y in cells), "explore walked into the sentinel's reach"
    assert state.hp == hp and not any(isinstance(e, Attacked) for e in events)
    last = said(events)[-1]
    assert last.startswith("You stop: the gnoll sentinel") and " guards " in last
    # the rest of the hall was explored: only the guarded room is left
    (x0, x1), (y0, y1) = HALL_X, HALL_Y
    assert state.explored[y0 : y1 + 1, x0 : x1 + 1][:, : DOOR[0] - x0 - 1].all()
    # pressed again: the same reason, no turn spent
    turn = state.turn
    again = step(state, Explore())
    assert state.turn == turn and said(again)[-1].startswith("You stop: the gnoll sentinel")


def test_a_guard_once_seen_is_remembered_out_of_sight():
    state = hall(player=(45, 11))
    guarded_room(state)
    state.tiles[DOOR[1], DOOR[0]] = tiles.DOOR_OPEN  # the player sees in
    state.update_view()
    sentinel = add(state, "gnoll sentinel", POST, awake=False)
    assert state.visible[POST[1], POST[0]]
    # asking changes nothing (a bot's or a screen's question is no move): the turns mark it
    assert [d.monster for d in dangers(state)] == [sentinel] and SPOTTED not in sentinel.extra
    spot_guards(state)
    assert sentinel.extra.get(SPOTTED) == 1
    put_player(state, (5, 11))  # far off: out of sight
    assert not state.visible[POST[1], POST[0]]
    assert [d.monster for d in dangers(state)] == [sentinel]
    # out of sight, the reason points at it: the player sees no sentinel on the screen
    (why,) = [d.why for d in dangers(state)]
    assert why == "the gnoll sentinel you saw to the east guards the way on"


@pytest.mark.parametrize(
    "to, words",
    [
        ((0, -3), "to the north"),
        ((3, -3), "to the north-east"),
        ((4, 1), "to the east"),
        ((2, 2), "to the south-east"),
        ((0, 5), "to the south"),
        ((-3, 3), "to the south-west"),
        ((-5, 0), "to the west"),
        ((-2, -2), "to the north-west"),
    ],
)
def test_bearing_names_the_compass_point(to, words):
    assert travel.bearing(10, 10, 10 + to[0], 10 + to[1]) == words


def test_a_guard_never_seen_is_no_known_danger():
    state = hall()
    guarded_room(state)
    add(state, "gnoll sentinel", POST, awake=True)
    assert dangers(state) == []  # behind its door, never seen: the player cannot know it


def test_standing_in_a_sleeping_guards_reach_explore_leads_out_first():
    state = hall(player=(46, 11))
    guarded_room(state)
    guard = add(state, "goblin", POST, awake=False, guard=True)
    guard.extra[SPOTTED] = 1
    reach = guard_reach(state, guard)
    assert reach[11, 46], "the goblin keeps a wider ground than a sentinel"
    danger = reach
    dist = travel.explore_distances(state, danger=danger)
    assert dist[11, 46] < FAR, "a way out of the reach"
    x, y = 46, 11
    for _ in range(int(dist[y, x])):
        dx, dy = downhill(dist, dist < FAR, x, y)[0]
        x, y = x + dx, y + dy
    assert not danger[y, x]


# -- traps ------------------------------------------------------------------------------------


def test_explore_steps_round_known_traps():
    state, c = arena(3)
    state.explored[:] = True
    state.items_lying.clear()
    state.keys_lying.clear()
    state.puzzles.clear()
    item = off(c, 3, 0)
    state.items_lying[item] = "healing potion"
    for dy in (-1, 0, 1):
        trap = off(c, 1, dy)
        state.traps[trap] = "dart"
        state.traps_known.add(trap)
    cells, events = press_explore(state, presses=1)
    assert item in cells, "explore went for the item"
    assert not set(cells) & state.traps_known, "explore stepped on a known trap"


# -- monsters in view that cannot reach the player soon ---------------------------------------


def chasm(state: GameState, *, gap: bool) -> None:
    """A chasm across the hall at x 20..22; ``gap``: a way round it at the bottom rows."""
    (_, _), (y0, y1) = HALL_X, HALL_Y
    bottom = y1 - 2 if gap else y1
    state.tiles[y0 : bottom + 1, 20:23] = tiles.CHASM
    state.update_view()


def test_an_archer_across_a_chasm_the_long_way_round_lets_explore_go_on():
    """Before: any awake monster with a way to the player, however long, refused explore
    ("Not with a goblin archer in view"). Now one that could not come near soon, and does not
    have the player in range, lets it explore."""
    state = hall(player=(18, 6))
    chasm(state, gap=True)
    archer = add(state, "goblin archer", (26, 6), awake=True)
    assert state.visible[archer.y, archer.x]
    assert pressing(state) == []
    turn = state.turn
    events = step(state, Explore())
    assert state.turn > turn, said(events)
    assert not any(t.startswith("Not with") for t in said(events))


def test_a_kiting_shooter_out_of_range_lets_explore_go_on_a_near_one_does_not():
    state = hall(player=(10, 11))
    slinger = add(state, "kobold slinger", (18, 11), awake=True)
    assert state.visible[slinger.y, slinger.x]
    assert pressing(state) == [], "it keeps its distance, and the player is out of its range"
    goblin_state = hall(player=(10, 11))
    add(goblin_state, "goblin", (18, 11), awake=True)
    assert [m.kind for m in pressing(goblin_state)] == ["goblin"], "8 steps: it comes soon"
    near = hall(player=(10, 11))
    add(near, "kobold slinger", (14, 11), awake=True)
    assert [m.kind for m in pressing(near)] == ["kobold slinger"], "in its range"
    turn = near.turn
    refused = step(near, Explore())
    assert near.turn == turn and said(refused) == [
        "Not with a kobold slinger in view: fight it or step away."
    ]


def test_a_monster_with_no_way_to_the_player_does_not_stop_explore():
    state = hall(player=(15, 11))
    chasm(state, gap=False)
    add(state, "goblin", (25, 11), awake=True)
    assert pressing(state) == []
    turn = state.turn
    step(state, Explore())
    assert state.turn > turn


@pytest.mark.parametrize("start", [(5, 11)])
def test_the_walk_stops_when_a_monster_comes_within_reach_before_its_blow(start):
    state = hall(player=start)
    goblin = add(state, "goblin", (start[0] + 10, start[1]), awake=True)
    assert state.visible[goblin.y, goblin.x] and pressing(state) == []
    events = step(state, Explore())
    assert state.turn > 0
    assert said(events)[-1] == "You stop: the goblin comes for you."
    assert not any(isinstance(e, Attacked) for e in events)


def test_a_guard_that_never_moves_reaches_only_the_cells_next_to_it():
    """A shrieker set to guard a key room never leaves its cell: its reach is the ring round
    it, not its post's radius (explore stopped for ever before a room it guarded, found
    playing floor 1); a guard that walks still covers its whole post."""
    state, c = arena()
    shrieker = add(state, "shrieker", off(c, 2, 0), guard=True)

    def farthest(m) -> int:
        ys, xs = guard_reach(state, m).nonzero()
        return int(max(np.maximum(np.abs(xs - m.x), np.abs(ys - m.y))))

    assert farthest(shrieker) == 1
    goblin = add(state, "goblin", off(c, -2, 0), guard=True)
    assert farthest(goblin) > 1
    # the stop says what to do about a guard that never moves (a shrieker beside a key left
    # the player pressing e at "guards this room", found at 80x24); a walking guard is left
    # to the player's judgement
    state.update_view()
    words = {d.monster.kind: d.why for d in dangers(state)}
    assert words["shrieker"].endswith("(it never moves: strike it to go on)")
    assert "strike" not in words["goblin"]


def test_every_walk_steps_round_a_monster_in_view_that_never_moves():
    """A walk planned through a shrieker's cell bumped it for ever ("Something is in the way",
    found playing floor 1): a monster that never moves is stepped round like a known trap."""
    state, c = arena()
    shrieker = add(state, "shrieker", off(c, 2, 0), awake=False)
    goblin = add(state, "goblin", off(c, -2, 0), awake=False)
    state.update_view()
    around = travel.known_traps(state)
    assert around[shrieker.y, shrieker.x] and not around[goblin.y, goblin.x]


def test_the_bot_strikes_a_sleeping_shrieker_that_stands_in_the_only_way_on():
    """A sleeping shrieker in the one gap out of a room stopped exploring (every walk steps
    round it) while no sneaking went for it: the bot headed for the stairs, lost sight of it,
    came back, and ran out its turns (bench world 55, stuck on floor 1). It goes for it."""
    from roguelike.autoplay import decide
    from roguelike.engine import Move

    r = 3
    state, c = arena(r)
    state.monsters.clear()
    ring = [
        (x, y)
        for x in range(c[0] - r - 1, c[0] + r + 2)
        for y in range(c[1] - r - 1, c[1] + r + 2)
        if max(abs(x - c[0]), abs(y - c[1])) == r + 1
    ]
    gap = off(c, r + 1, 0)
    for x, y in ring:
        state.tiles[y, x] = tiles.FLOOR if (x, y) == gap else tiles.WALL
    state.explored[:] = False
    state.explored[c[1] - r - 1 : c[1] + r + 2, c[0] - r - 1 : c[0] + r + 2] = True
    shrieker = add(state, "shrieker", gap, awake=False)
    put_player(state, c)
    assert state.visible[shrieker.y, shrieker.x]
    d = decide(state)
    assert isinstance(d.action, Move) and "in the way" in d.why, d.why
    step_to = off(c, d.action.dx, d.action.dy)
    assert max(abs(step_to[0] - gap[0]), abs(step_to[1] - gap[1])) < r + 1  # nearer to it


def test_a_walk_stopped_by_a_sleeper_in_view_names_it():
    """A sleeping rust mite in the only way on stopped ``e`` with "Something is in the way."
    four presses running (found playing floor 2 at 80x24): the player could see what was in
    the way, so the stop names it."""
    state = hall()
    state.tiles[HALL_Y[0] : HALL_Y[1] + 1, 30] = tiles.WALL
    state.tiles[11, 30] = tiles.FLOOR  # the one gap to the east half
    add(state, "rust mite", (30, 11), awake=False)
    state.stealth = 99  # it never notices the player: the walk meets it where it stands
    state.update_view()
    _, events = press_explore(state)
    said = [e.text for e in events if isinstance(e, Message)]
    assert "You stop: the rust mite (asleep) is in the way: strike it, or go round." in said
    assert "Something is in the way." not in said


def test_a_walk_stopped_by_a_creature_unseen_says_something():
    """What the player cannot see (a lurker not yet shown) stays "Something"."""
    state = hall()
    lurker = add(state, "lurker", (12, 11), awake=False)
    state.update_view()
    assert not state.shows(lurker)
    assert travel.in_the_way(state, lurker) == "Something is in the way."
    assert travel.in_the_way(state, None) == "Something is in the way."


def test_the_end_of_explore_offers_the_stairs_only_when_a_known_way_leads_there():
    """A puzzle that draws the floor's walls shows the stairs behind a locked door: the end of
    explore said "Press > to walk to the stairs" and > answered "You know no way there"."""
    state = hall(player=(40, 11))
    fx, _ = state.floor.finish
    assert fx < 20 < 40  # the stairs and the player on either side of column 20
    state.explored[:] = True
    assert "Press > to walk to the stairs" in travel.explored_all(state)
    state.tiles[:, 20] = tiles.WALL
    text = travel.explored_all(state)
    assert text.startswith("Explored all you can reach.") and "Press >" not in text


def test_a_walk_goes_round_a_captive_in_its_shackles_where_the_room_allows():
    """A shackled goblin beside the door of a round room stopped explore fourteen presses in a
    row ("the shackled goblin is in the way") while the room went on round it (played at
    80x24): a captive stands still, so a walk steps round it like a shrieker; once freed it
    follows, and a walk swaps places with it."""
    state = hall()
    captive = seat(state, "goblin", (6, 11))
    free = seat(state, "goblin", (5, 12), shackled=False)
    state.update_view()
    around = travel.known_traps(state)
    assert around[11, 6] and not around[12, 5]
    events = step(state, Travel(9, 11))
    assert state.player == (9, 11), said(events)
    assert not any("in the way" in line for line in said(events))
    assert captive.pos == (6, 11) and not freed(captive) and free in state.allies
