"""Recordings at the core (:mod:`roguelike.recording`): a replay that goes out of sync is caught
at the first input whose check differs, with that turn; every action survives its recorded
form; a file's recording is read with one-line refusals only; the check and the digest survive
a save and a load; the digest sees every field that play changes."""

from __future__ import annotations

import copy
import functools
import json
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.autoplay import choose, play
from roguelike.engine import (
    Action,
    Close,
    Descend,
    Drop,
    Explore,
    GameState,
    Move,
    Open,
    PickUp,
    Rest,
    SolvePuzzle,
    Throw,
    Travel,
    Use,
    Wait,
    new_game,
    step,
)
from roguelike.engine.creatures import ITEMS
from roguelike.recording import (
    MAX_COORD,
    MAX_HINTS,
    STEP_LETTERS,
    Divergence,
    Recording,
    RecordingError,
    Start,
    check,
    decode_action,
    digest,
    encode_action,
    frames,
    replay,
)
from roguelike.version import GENERATOR_VERSION
from saves import codec
from tests.saves.support import world_of

#: A one-floor small world with monsters (no puzzles: the golden recordings play those).
RUN_SEED = seeds.text_seed("gold-2")
#: Inputs an edit may put in place of a recorded one.
EDITS = [".", "R", "g", ">", "x", *STEP_LETTERS.values(), "oh", "cl"]


@functools.cache
def _run() -> tuple[Recording, GameState, tuple[int, ...]]:
    state = new_game(RUN_SEED, preset="small", total_floors=1, puzzles=False)
    rec = Recording.begin(state)
    play(state, recording=rec)
    return rec, state, tuple(f.state.turn for f in frames(rec))


def recorded_run() -> tuple[Recording, GameState]:
    """The bot's recorded run of RUN_SEED and its final state (copies)."""
    rec, state, _turns = _run()
    return copy.deepcopy(rec), copy.deepcopy(state)


def turn_after(index: int) -> int:
    """The turn after input ``index`` of the recorded run, as it was played."""
    return _run()[2][index]


def first_difference(rec: Recording, actions: list) -> tuple[int, int] | None:
    """Played independently of :func:`frames`: the (input, turn) after which ``actions`` first
    lead to a state whose check is not ``rec``'s, or where an input comes after the end."""
    state = rec.start.game()
    for i, (code, expected) in enumerate(zip(actions, rec.checks, strict=True)):
        if state.over:
            return i, state.turn
        step(state, decode_action(code))
        if check(state) != expected:
            return i, state.turn
    return None


def test_the_recorded_run_replays_to_the_same_state():
    rec, final = recorded_run()
    assert final.over and len(rec) > 20  # won or died: any whole run will do
    indices = [f.index for f in frames(rec)]
    assert indices == list(range(len(rec)))
    state, outcome = replay(rec)
    assert (
        outcome.digest == digest(final) and outcome.won == final.won and outcome.actions == len(rec)
    )


@settings(max_examples=4)
@given(st.data())
def test_an_input_edited_is_caught_at_the_first_turn_its_check_differs(data):
    rec, final = recorded_run()
    i = data.draw(st.integers(0, len(rec) - 1), label="input edited")
    code = data.draw(st.sampled_from([c for c in EDITS if c != rec.actions[i]]), label="to")
    edited = copy.deepcopy(rec)
    edited.actions[i] = code
    expected = first_difference(rec, edited.actions)
    if expected is None:  # the edit changed nothing a check sees, to the end: same game
        assert replay(edited)[1].digest == digest(final)
        return
    with pytest.raises(Divergence) as caught:
        for _ in frames(edited):
            pass
    assert (caught.value.index, caught.value.turn) == expected
    assert caught.value.index >= i  # the inputs before the edit replay as recorded
    assert f"out of sync at turn {expected[1]} (input {expected[0] + 1})" in str(caught.value)


def test_a_first_input_edited_is_caught_at_once():
    rec, _ = recorded_run()
    assert rec.actions[0] == "x"  # the bot explores first: a wait instead is a turn, not a walk
    rec.actions[0] = "."
    with pytest.raises(Divergence) as caught:
        replay(rec)
    assert (caught.value.index, caught.value.turn) == (0, 1)


def test_a_check_edited_is_caught_at_its_input():
    rec, _ = recorded_run()
    i = len(rec) // 2
    rec.checks[i] ^= 1
    with pytest.raises(Divergence) as caught:
        replay(rec)
    assert caught.value.index == i and caught.value.turn == turn_after(i)


def test_inputs_after_the_end_are_out_of_sync():
    rec, final = recorded_run()
    rec.actions.append(".")
    rec.checks.append(rec.checks[-1])
    with pytest.raises(Divergence, match="the run is over but inputs follow") as caught:
        replay(rec)
    assert caught.value.index == len(rec) - 1 and caught.value.turn == final.turn


def test_another_generators_recording_is_refused_naming_both_versions():
    rec, _ = recorded_run()
    rec.generator = "0.0-old"
    with pytest.raises(RecordingError) as caught:
        replay(rec)
    assert "0.0-old" in str(caught.value) and GENERATOR_VERSION in str(caught.value)
    assert "\n" not in str(caught.value)


# --- the recorded form of actions ------------------------------------------------------------

DIRECTIONS = st.sampled_from(list(STEP_LETTERS))
JSON_LEAF = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8)
PUZZLE_MOVE = JSON_LEAF | st.lists(st.integers(-50, 50), max_size=4)
COUNT = st.integers(0, MAX_HINTS)
ACTIONS: st.SearchStrategy[Action] = st.one_of(
    DIRECTIONS.map(lambda d: Move(*d)),
    DIRECTIONS.map(lambda d: Open(*d)),
    DIRECTIONS.map(lambda d: Close(*d)),
    st.builds(Travel, st.integers(0, MAX_COORD - 1), st.integers(0, MAX_COORD - 1)),
    st.sampled_from(sorted(ITEMS)).map(Use),
    st.sampled_from(sorted(ITEMS)).map(Drop),
    st.builds(
        Throw,
        st.sampled_from(sorted(ITEMS)),
        st.integers(0, MAX_COORD - 1),
        st.integers(0, MAX_COORD - 1),
    ),
    st.sampled_from([Wait(), Rest(), PickUp(), Descend(), Explore()]),
    st.builds(
        SolvePuzzle,
        st.lists(PUZZLE_MOVE, max_size=6).map(tuple),
        hints_used=COUNT,
        coins_spent=COUNT,
        resets=COUNT,
    ),
)


@given(ACTIONS)
def test_every_action_survives_its_recorded_form(action):
    code = encode_action(action)
    assert decode_action(json.loads(json.dumps(code))) == action
    assert encode_action(decode_action(code)) == code  # one form per action


JSON = st.recursive(
    JSON_LEAF | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
NEAR_ACTIONS = st.sampled_from(
    ["t", "t1", "t1,", "t,1", "t-1,2", "t1,2,3", "t99999,1", "t１,２", "t²,1", "U", "Unothing"]
    + ["o", "oz", "cq", "hh", "x ", "", "\x1b[31m", "U" + "a" * 50]
    + ["T", "T1,2", "T1,2,", "T1,,fire bomb", "T1,2,fire bomb,", "D", "Dnothing"]
) | st.fixed_dictionaries(
    {"solve": JSON},
    optional={"hints": JSON, "coins": JSON, "resets": JSON, "other": JSON},
)


@given(JSON | NEAR_ACTIONS | st.text(max_size=14))
def test_any_recorded_value_is_an_action_or_a_one_line_refusal(value):
    try:
        action = decode_action(value, "input 7")
    except RecordingError as err:
        assert str(err).startswith("input 7") and "\n" not in str(err)
        assert "\x1b" not in str(err)  # a file's text is shown escaped
        return
    assert isinstance(action, Action.__args__)  # type: ignore[attr-defined]


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "version": st.just(1) | JSON,
            "generator": st.just(GENERATOR_VERSION) | JSON,
            "start": st.just(Start(RUN_SEED, "small", 1).to_json()) | JSON,
            "actions": st.lists(st.sampled_from(EDITS) | JSON, max_size=5),
            "checks": st.lists(st.integers(0, 2**32) | JSON, max_size=5),
        },
    )
    | JSON
)
def test_a_files_recording_is_read_or_refused_in_one_line(value):
    try:
        rec = Recording.from_json(value)
    except RecordingError as err:
        assert "\n" not in str(err)
        return
    assert Recording.from_json(rec.to_json()) == rec


def test_a_recording_round_trips_through_json():
    rec, _ = recorded_run()
    text = json.dumps(rec.to_json(), separators=(",", ":"))
    assert Recording.from_json(json.loads(text)) == rec


# --- checks and the digest -------------------------------------------------------------------


def test_checks_and_the_digest_survive_a_save_and_a_load():
    """A game saved and loaded continues with the checks it would have had unsaved: what a
    run continued across sessions relies on."""
    state = new_game(RUN_SEED, preset="small", total_floors=1, world_name="Round Trip")
    rec = Recording.begin(state)
    for _ in range(25):
        action = choose(state)
        step(state, action)
        rec.add(action, state)
    loaded = codec.decode(codec.encode(world_of(state), state, recording=rec))
    assert loaded.recording == rec and loaded.recording_problem is None
    assert check(loaded.state) == check(state) and digest(loaded.state) == digest(state)
    for _ in range(25):  # both go on alike
        if state.over:
            break
        action = choose(state)
        step(state, action)
        step(loaded.state, action)
        assert check(loaded.state) == check(state)
    assert digest(loaded.state) == digest(state)


@functools.cache
def _played_a_little() -> GameState:
    state = new_game(RUN_SEED, preset="small", total_floors=1)
    for _ in range(15):
        step(state, choose(state))
    assert state.monsters
    return state


def _fresh() -> GameState:
    """A game of RUN_SEED 15 actions in (a copy)."""
    return copy.deepcopy(_played_a_little())


def _some_monster(s: GameState) -> None:
    s.monsters[0].hp -= 1


def _monster_moves(s: GameState) -> None:
    s.monsters[0].x += 1


def _monster_wakes(s: GameState) -> None:
    s.monsters[0].awake = not s.monsters[0].awake


#: (what changes, how, whether the per-input check sees it too)
CHANGES = [
    ("turn", lambda s: setattr(s, "turn", s.turn + 1), True),
    ("hp", lambda s: setattr(s, "hp", s.hp - 1), True),
    ("place", lambda s: setattr(s, "player", (s.player[0] + 1, s.player[1])), True),
    ("xp", lambda s: setattr(s, "xp", s.xp + 1), True),
    ("pack", lambda s: s.inventory.__setitem__("heal", s.inventory.get("heal", 0) + 1), True),
    ("monster hp", _some_monster, True),
    ("monster place", _monster_moves, True),
    ("random stream", lambda s: s.rng.random(), True),
    ("monster awake", _monster_wakes, False),
    ("coins", lambda s: setattr(s, "hint_coins", s.hint_coins + 1), False),
    ("a tile", lambda s: s.tiles.__setitem__((0, 0), s.tiles[0, 0] ^ 1), False),
    ("explored", lambda s: s.explored.__setitem__((0, 0), not s.explored[0, 0]), False),
    ("keys held", lambda s: s.keys_held.add(99), False),
    ("kills", lambda s: setattr(s.stats, "kills", s.stats.kills + 1), False),
    ("hints", lambda s: setattr(s.stats, "hints_used", s.stats.hints_used + 1), False),
    ("defence", lambda s: setattr(s, "defence", s.defence + 1), False),
    ("the end", lambda s: setattr(s, "dead", True), False),
]


@pytest.mark.parametrize(("what", "change", "checked"), CHANGES, ids=[c[0] for c in CHANGES])
def test_the_digest_changes_with_every_field_play_changes(what, change, checked):
    state = _fresh()
    before_digest, before_check = digest(state), check(state)
    assert 0 <= before_check < 2**32
    change(state)
    assert digest(state) != before_digest, what
    if checked:
        assert check(state) != before_check, what


def test_the_digest_leaves_out_the_name_and_the_logs_wording():
    state = _fresh()
    before = digest(state)
    state.world_name = "Another Name"
    state.log.append("a message")
    assert digest(state) == before


def test_the_check_is_the_crc_of_its_fields_and_the_monsters():
    """The check's definition, written out again the plain way: recordings made with it must
    keep replaying, so a faster check has to give the very same numbers."""
    state = _fresh()
    state.monsters[0].hp = -3  # a monster's health may be read below zero between blows
    state.hint_coins, state.stats.hints_used, state.stats.puzzles_solved = 4, 2, 1
    state.keys_held = {1, 3}
    x, y = state.player
    rng = state.rng.bit_generator.state["state"]["state"] & 0x7FFF_FFFF_FFFF_FFFF
    progress = sum(len(p.moves) + p.resets for p in state.puzzles.values())

    def head(monsters: int) -> bytes:
        fields = (state.turn, state.number, x, y, state.hp, state.xp)
        return struct.pack(
            "<14q", *fields, sum(state.inventory.values()), monsters, rng, 4, 2, 2, 1, progress
        )

    places = [v for m in state.monsters for v in (m.x, m.y, m.hp)]
    body = struct.pack(f"<{len(places)}q", *places)
    assert check(state) == zlib.crc32(body, zlib.crc32(head(len(state.monsters))))
    state.monsters.clear()
    assert check(state) == zlib.crc32(head(0))
