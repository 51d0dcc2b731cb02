"""The save format: round trips that keep every field and the future, a decoder that refuses
anything else in one line, versions and migrations."""

from __future__ import annotations

import base64
import copy
import dataclasses
import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.autoplay import choose
from roguelike.engine import (
    Close,
    Descend,
    Explore,
    GameState,
    Move,
    Open,
    PickUp,
    Rest,
    RunStats,
    SolvePuzzle,
    Travel,
    Use,
    Wait,
    step,
)
from roguelike.engine.creatures import Monster
from roguelike.engine.puzzle_rooms import PuzzleRoom
from roguelike.gen import pipeline
from roguelike.gen.floor import Floor
from roguelike.version import GENERATOR_VERSION
from saves import SaveError, SaveVersionError, VisitedFloor, World, codec
from saves import header as h
from saves.session import step_remembering
from tests.saves.support import (
    OTHER_SEED,
    SEED,
    assert_same,
    assert_same_game,
    autoplay,
    fresh_game,
    pack_as,
    played_game,
    world_of,
)

DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
AUTO = "autoplay"  # the autoplayer's choice for the state at hand
SOLVE_SOME = "solve-some"  # on a pedestal: report part of an optimal solution


def _act(state: GameState, action: Any, visited: list[VisitedFloor]) -> list[Any]:
    if action == AUTO:
        action = choose(state)
    elif action == SOLVE_SOME:
        room = state.puzzles.get(state.player)
        if room is None:
            action = Wait()
        else:
            p = room.puzzle()
            plan = p.solve(p.initial()) or []
            action = SolvePuzzle(tuple(p.move_to_json(m) for m in plan[: len(plan) // 2]))
    return step_remembering(state, action, visited)


ACTIONS = st.one_of(
    st.sampled_from([Move(dx, dy) for dx, dy in DIRS]),
    st.sampled_from([Open(dx, dy) for dx, dy in DIRS] + [Close(dx, dy) for dx, dy in DIRS]),
    st.sampled_from([Wait(), Rest(), Explore(), PickUp(), Descend(), AUTO, AUTO, SOLVE_SOME]),
    st.sampled_from(
        [Use(i) for i in ("healing potion", "blink scroll", "mapping scroll", "fire bomb")]
    ),
    st.builds(Travel, st.integers(0, 160), st.integers(0, 100)),
)


def test_saved_fields_are_every_field_of_the_game():
    """A field added to the game must be added to the save (and to a migration): this test
    names the classes the codec writes field by field."""
    names = {
        GameState: {
            "seed", "total_floors", "floor", "tiles", "player", "hp", "max_hp", "rng",
            "world_name", "preset", "difficulty", "keys_held", "keys_lying", "monsters",
            "items_lying", "puzzles", "inventory", "hint_coins", "attack", "defence", "level", "xp",
            "visible", "explored", "turn", "regen_clock", "fov_radius", "with_monsters",
            "with_puzzles", "won", "dead", "log", "stats", "traps", "traps_known", "netted",
            "sprung", "choices", "accuracy", "speed", "berserk", "weary", "allies",
            "equipment", "fire", "gas", "perks", "perk_offer", "stealth",
            "identified", "hasted", "detecting", "darkness", "hallucinating",
            "confused",
        },
        Floor: {
            "seed", "number", "last", "params", "topology", "roles", "layout", "tiles",
            "room_map", "protected", "zone", "theme", "doors", "keys", "spawn", "finish",
            "slots", "traps", "spots", "proven", "vaults", "changes",
        },
        Monster: {
            "id", "kind", "x", "y", "hp", "home", "guard", "awake", "energy", "unseen", "extra",
            "loot",
            "max_hp",
        },
        RunStats: {
            "floors_reached", "kills", "keys", "puzzles_solved", "hints_used", "cause",
            "puzzle_scores",
        },
        PuzzleRoom: {
            "key", "x", "y", "type", "difficulty", "seed", "instance", "moves", "solved",
            "hints_used", "resets", "visited",
        },
    }  # fmt: skip
    # what a game holds but never saves: the floors made ahead (derived from the seed) and the
    # autoplayer's measuring switch (a run that uses it is never saved nor recorded)
    never_saved = {GameState: {"floors", "invulnerable", "spared"}}
    for cls, expected in names.items():
        got = {f.name for f in dataclasses.fields(cls)} - never_saved.get(cls, set())
        assert got == expected, (
            f"{cls.__name__} changed ({sorted(got ^ expected)}): save it in saves/codec/, "
            "bump FORMAT_VERSION and add a migration"
        )


@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    seed=st.sampled_from([SEED, OTHER_SEED]),
    auto=st.integers(0, 40),
    past=st.lists(ACTIONS, max_size=15),
    future=st.lists(ACTIONS, min_size=50, max_size=50),
)
def test_round_trip_keeps_every_field_and_the_future(seed, auto, past, future):
    state = fresh_game(seed)
    visited: list[VisitedFloor] = []
    autoplay(state, auto, visited)
    for a in past:
        _act(state, a, visited)
    world = world_of(state)
    data = codec.encode(world, state, visited, saved="2025-01-02T00:00:00.000+00:00")
    loaded = codec.decode(data)
    assert loaded.world == world
    assert_same_game(state, loaded.state)
    assert_same(visited, loaded.visited, "visited")
    other, other_visited = loaded.state, loaded.visited
    for a in future:  # the same actions on both: the same events, the same states
        assert _act(state, a, visited) == _act(other, a, other_visited)
    assert_same_game(state, other)
    assert_same(visited, other_visited, "visited")
    again = codec.encode(world, other, other_visited, saved="2025-01-02T00:00:00.000+00:00")
    assert again == codec.encode(world, state, visited, saved="2025-01-02T00:00:00.000+00:00")


def test_a_game_with_history_round_trips():
    world, state, visited = played_game()
    assert state.number == 2 and visited[0].number == 1
    assert any(p.instance is not None for p in state.puzzles.values())
    loaded = codec.decode(codec.encode(world, state, visited))
    assert_same_game(state, loaded.state)
    assert_same(visited, loaded.visited, "visited")
    before = len(state.log)
    for _ in range(30):
        a = choose(state)
        assert step(state, a) == step(loaded.state, a)
    assert_same_game(state, loaded.state, logged=len(state.log) - before)


def test_a_forged_puzzle_in_a_shared_file_is_replaced_by_the_seeds_own():
    """A file's stored puzzle is never trusted: one with absurd jugs (which would make the
    solver run for ever) loads as the puzzle its seed makes, and moves that do not fit it are
    dropped when it is made."""
    world, state, visited = played_game()
    pos, room = next((pos, r) for pos, r in state.puzzles.items() if r.instance is not None)
    doc = codec.to_document(world, state, visited)
    forged = {
        "format": 1,
        "type": "jugs",
        "difficulty": "easy",
        "par": 5,
        "config": {"capacities": [10**9, 10**9 - 1, 5], "target": {"kind": "any", "amount": 3}},
        "state": [10**9, 0, 0],
    }
    for p in doc["state"]["puzzles"]:
        if [p["x"], p["y"]] == list(pos):
            p["instance"] = forged
            p["moves"] = [[0, 1]] * 3
    loaded = codec.decode(_pack(doc, world, state)).state.puzzles[pos]
    assert loaded.instance is None
    assert loaded.puzzle().to_json() == room.instance  # the seed's own puzzle
    expected = room.moves if room.type == "jugs" and room.moves == [[0, 1]] * 3 else []
    assert loaded.moves == expected


def test_loading_never_runs_the_generator(monkeypatch):
    world, state, visited = played_game()
    data = codec.encode(world, state, visited)

    def forbidden(*args: object, **kw: object) -> None:
        raise AssertionError("loading ran the generator")

    import roguelike.engine.creatures
    import roguelike.engine.puzzle_rooms
    import roguelike.engine.state
    import roguelike.gen.layout
    import roguelike.gen.populate
    import roguelike.gen.prove
    import roguelike.gen.roles
    import roguelike.gen.stamp
    import roguelike.gen.terrain
    import roguelike.gen.topology
    import roguelike.puzzles

    for module, name in [
        (pipeline, "generate_floor"),
        (pipeline, "assign_roles"),
        (pipeline, "stamp"),
        (pipeline, "dress"),
        (pipeline, "populate"),
        (pipeline, "certify"),
        (roguelike.gen.roles, "room_roles"),
        (roguelike.gen.stamp, "stamp"),
        (roguelike.gen.populate, "populate"),
        (roguelike.gen.prove, "prove"),
        (roguelike.engine.state, "generate_floor"),
        (roguelike.engine.state, "populate"),
        (roguelike.engine.state, "place_puzzles"),
        (roguelike.engine.creatures, "inhabit"),
        (roguelike.engine.creatures, "populate"),
        (roguelike.engine.puzzle_rooms, "place_puzzles"),
        (roguelike.gen.topology, "generate_topology"),
        (pipeline, "generate_topology"),
        (pipeline, "lay_out"),
        (roguelike.gen.layout, "embed"),
        (roguelike.gen.terrain, "decorate"),
        (roguelike.puzzles, "generate"),
    ]:
        monkeypatch.setattr(module, name, forbidden)
    loaded = codec.decode(data)
    monkeypatch.undo()  # comparing makes the pedestals' puzzles again, which is generation
    assert_same_game(state, loaded.state)


def test_the_visible_mask_is_what_the_view_gives():
    """The save keeps ``visible``; it is also what update_view recomputes (so an older save
    without it could be migrated by recomputing)."""
    world, state, visited = played_game()
    loaded = codec.decode(codec.encode(world, state, visited)).state
    before = loaded.visible.copy()
    loaded.update_view()
    assert np.array_equal(before, loaded.visible)


# --- the envelope and its messages -----------------------------------------------------------


@pytest.fixture(scope="module")
def small_save() -> tuple[World, GameState, bytes]:
    state = fresh_game(SEED)
    autoplay(state, 10, [])
    world = world_of(state)
    return world, state, codec.encode(world, state, [])


def _pack(doc: dict[str, Any], world: World, state: GameState, **over: Any) -> bytes:
    return pack_as(world, state, doc, **over)


def _fails(data: bytes, *words: str) -> str:
    with pytest.raises(SaveError) as info:
        codec.decode(data)
    message = str(info.value)
    assert "\n" not in message
    for w in words:
        assert w in message, message
    return message


def test_the_file_starts_with_the_magic_and_a_json_header(small_save):
    world, state, data = small_save
    assert data.startswith(b"RGLKSAVE{")
    line, payload = data[8:].split(b"\n", 1)
    head = json.loads(line)
    assert head["format"] == h.FORMAT_VERSION and head["generator"] == GENERATOR_VERSION
    assert head["seed"] == seeds.stored(world.seed) and head["world"] == world.name
    assert head["length"] == len(payload)
    import hashlib

    assert head["blake2b"] == hashlib.blake2b(payload, digest_size=32).hexdigest()
    doc = json.loads(zlib.decompress(payload))
    tiles = doc["state"]["floor"]["room_map"]
    assert tiles["dtype"] == "<i2" and tiles["shape"] == list(state.floor.room_map.shape)
    raw = base64.b64decode(tiles["data"])
    assert np.array_equal(np.frombuffer(raw, "<i2").reshape(tiles["shape"]), state.floor.room_map)


def test_plain_refusals_name_the_problem(small_save):
    world, state, data = small_save
    _fails(b"", "empty")
    _fails(b"PK\x03\x04 a zip file", "not a roguelike save")
    _fails(data[:5], "truncated")
    _fails(data[:40], "truncated")
    _fails(data[:-10], "truncated")
    _fails(data + b"xx", "2 stray bytes")
    flipped = bytearray(data)
    flipped[-20] ^= 0x01
    _fails(bytes(flipped), "checksum")
    line_end = data.index(b"\n")
    _fails(data[:8] + b"{not json" + data[line_end:], "header is not JSON")


def test_a_newer_format_and_another_generator_name_both_versions(small_save):
    world, state, _ = small_save
    doc = codec.to_document(world, state)
    newer = _pack(doc, world, state, format=h.FORMAT_VERSION + 1)
    msg = _fails(newer, "newer version", f"format {h.FORMAT_VERSION + 1}")
    assert msg == (
        f"made by a newer version: format {h.FORMAT_VERSION + 1}, "
        f"this game reads up to {h.FORMAT_VERSION}"
    )
    other = _pack(doc, world, state, generator="999")
    msg = _fails(other, "generator 999", f"this game has {GENERATOR_VERSION}")
    assert msg == (
        f"made by generator 999, this game has {GENERATOR_VERSION}: its floors would differ"
    )
    with pytest.raises(SaveVersionError):
        codec.decode(other)
    _fails(_pack(doc, world, state, format=0), "format 0 is older")


def test_ill_formed_payloads_are_refused_by_field(small_save):
    world, state, _ = small_save

    def mutated(change: Any) -> bytes:
        doc = codec.to_document(world, state)
        change(doc)
        return _pack(doc, world, state)

    def off_map(d: dict[str, Any]) -> None:
        d["state"]["player"] = [10_000, 3]

    _fails(mutated(off_map), "state.player")

    def in_wall(d: dict[str, Any]) -> None:
        d["state"]["player"] = [0, 0]

    _fails(mutated(in_wall), "state.player", "void")

    def wrong_dtype(d: dict[str, Any]) -> None:
        d["state"]["tiles"]["dtype"] = "<i2"

    _fails(mutated(wrong_dtype), "state.tiles", "dtype")

    def wrong_size(d: dict[str, Any]) -> None:
        d["state"]["explored"]["shape"] = [3, 3]

    _fails(mutated(wrong_size), "state.explored", "shape")

    def missing(d: dict[str, Any]) -> None:
        del d["state"]["monsters"]

    _fails(mutated(missing), "state.monsters is missing")

    def bad_type(d: dict[str, Any]) -> None:
        d["state"]["hp"] = "lots"

    _fails(mutated(bad_type), "state.hp", "whole number")

    def too_hurt(d: dict[str, Any]) -> None:
        d["state"]["hp"] = d["state"]["max_hp"] + 1

    _fails(mutated(too_hurt), "state.hp", "outside")

    def alien(d: dict[str, Any]) -> None:
        d["state"]["monsters"][0]["kind"] = "dragon"

    _fails(mutated(alien), "state.monsters[0].kind")

    def bad_tile(d: dict[str, Any]) -> None:
        t = d["state"]["tiles"]
        raw = bytearray(base64.b64decode(t["data"]))
        raw[0] = 250
        t["data"] = base64.b64encode(bytes(raw)).decode()

    _fails(mutated(bad_tile), "state.tiles", "tile id 250")

    def bad_rng(d: dict[str, Any]) -> None:
        d["state"]["rng"]["bit_generator"] = "MT19937"

    _fails(mutated(bad_rng), "state.rng")

    def summary_lies(d: dict[str, Any]) -> None:
        d["state"]["turn"] += 1

    _fails(mutated(summary_lies), "summary")


# --- migrations -------------------------------------------------------------------------------


def test_every_format_of_this_generator_has_a_migration():
    assert set(codec.MIGRATIONS) == set(range(h.OLDEST_FORMAT, h.FORMAT_VERSION))


def test_a_format_older_than_the_generators_is_refused_in_one_line():
    world, state, visited = played_game()
    doc = codec.to_document(world, state, visited)
    _fails(_pack(doc, world, state, format=h.OLDEST_FORMAT - 1), "older than any this game")


OLD_FILE = Path(__file__).with_name("data") / "format2-old-keep.rgl"


def test_a_file_written_by_generator_1_is_refused_naming_both_generators():
    """Generator 2 draws other puzzles from the same seed code: an older world is refused in one
    line (its file is left as it is), never continued with floors that would differ."""
    with pytest.raises(SaveVersionError) as err:
        codec.decode(OLD_FILE.read_bytes())
    assert str(err.value).endswith(
        f"made by generator 1, this game has {GENERATOR_VERSION}: its floors would differ"
    )


def test_the_topology_is_stored_once_in_the_generators_shape(small_save):
    world, state, _ = small_save
    topo = state.floor.topology
    stored = codec.to_document(world, state)["state"]["floor"]["topology"]
    assert stored == topo.to_dict() | {"attempts": topo.attempts}


def test_a_migration_does_not_touch_a_current_document():
    world, state, visited = played_game()
    doc = codec.to_document(world, state, visited)
    assert codec.migrate(copy.deepcopy(doc), h.FORMAT_VERSION) == doc


# --- fuzzing the decoder ----------------------------------------------------------------------


def _decodes_or_refuses(data: bytes) -> None:
    try:
        codec.decode(data)
    except SaveError as err:
        assert "\n" not in str(err)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_are_refused(data):
    with pytest.raises(SaveError):
        codec.decode(data)
    with pytest.raises(SaveError):
        codec.decode(h.MAGIC + data)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_truncations_and_bit_flips_never_crash(small_save, data):
    _, _, save = small_save
    cut = data.draw(st.integers(0, len(save) - 1))
    with pytest.raises(SaveError):
        codec.decode(save[:cut])
    flipped = bytearray(save)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(save) - 1))
        flipped[i] ^= 1 << data.draw(st.integers(0, 7))
    _decodes_or_refuses(bytes(flipped))


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=10,
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_mutated_payloads_never_crash(small_save, data):
    """A payload with a valid checksum but a field replaced, removed or added anywhere."""
    world, state, _ = small_save
    doc = codec.to_document(world, state)
    node: Any = doc
    for _ in range(data.draw(st.integers(0, 6))):  # walk down to a random container
        children = list(node) if isinstance(node, dict) else list(range(len(node)))
        children = [c for c in children if isinstance(node[c], dict | list) and node[c]]
        if not children:
            break
        node = node[data.draw(st.sampled_from(children))]
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    what = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if what == "add" or not keys:
        if isinstance(node, dict):
            node[data.draw(st.text(max_size=8))] = data.draw(JSON)
        else:
            node.append(data.draw(JSON))
    else:
        key = data.draw(st.sampled_from(keys))
        if what == "delete":
            del node[key]
        else:
            node[key] = data.draw(JSON)
    try:
        packed = _pack(doc, world, state)
    except ValueError:  # a NaN drawn into the document: JSON cannot carry it
        return
    _decodes_or_refuses(packed)


def test_numpy_state_is_json_and_restores_the_same_rolls():
    state = fresh_game(SEED)
    world = world_of(state)
    for _ in range(5):
        state.rng.integers(100)
    loaded = codec.decode(codec.encode(world, state)).state
    assert state.rng.integers(0, 1 << 62, size=20).tolist() == (
        loaded.rng.integers(0, 1 << 62, size=20).tolist()
    )


def test_descending_keeps_the_floor_left_as_visited():
    state = fresh_game(SEED)
    visited: list[VisitedFloor] = []
    autoplay(state, 5, visited)
    fin = state.floor.finish
    assert fin is not None
    state.player = fin  # as if walked there
    step_remembering(state, Wait(), visited)
    assert visited == []  # only a descent records a floor
    left_tiles, left_explored = state.tiles.copy(), state.explored.copy()
    step_remembering(state, Descend(), visited)
    assert state.number == 2 and [v.number for v in visited] == [1]
    assert np.array_equal(visited[0].tiles, left_tiles)
    assert np.array_equal(visited[0].explored, left_explored)
    loaded = codec.decode(codec.encode(world_of(state), state, visited))
    assert_same(visited, loaded.visited, "visited")


def test_a_pedestals_resets_are_saved():
    """Each pedestal keeps its resets (the reset penalty outlives a visit)."""
    world, state, visited = played_game()
    assert state.puzzles
    pos, room = next(iter(state.puzzles.items()))
    room.resets = 3
    again = codec.decode(codec.encode(world, state, visited))
    assert again.state.puzzles[pos].resets == 3
    doc = codec.to_document(world, state, visited)
    doc["state"]["puzzles"][0]["resets"] = -1
    _fails(_pack(doc, world, state), "resets")


def test_a_reset_penalty_outlives_leaving_the_puzzle_and_a_save():
    """A visit's reset goes to the engine with the outcome, stays with the pedestal through a
    save, and the next visit starts with its penalty."""
    from roguelike.engine import SolvePuzzle
    from roguelike.puzzles.visit import RESET_PENALTY, Visit
    from tests.engine.support import room_of, stand_on, world

    state = world()
    room = room_of(state)
    stand_on(state, room.pos)
    p = room.puzzle()
    visit = Visit(p, moves=room.moves, hints_used=room.hints_used, resets=room.resets)
    visit.play(p.moves(p.initial())[0])
    visit.reset()
    out = visit.outcome()
    step(state, SolvePuzzle(tuple(out.moves), resets=out.resets - room.resets))
    loaded = codec.decode(codec.encode(world_of(state), state)).state.puzzles[room.pos]
    again = Visit(p, moves=loaded.moves, hints_used=loaded.hints_used, resets=loaded.resets)
    assert loaded.resets == 1 and again.score == 100 - RESET_PENALTY


def test_a_header_version_that_is_not_a_version_text_is_refused():
    """The header's versions are shown in messages (another generator's save is named so):
    nothing but a version's letters may pass, never an escape sequence."""
    state = fresh_game(SEED)
    data = codec.encode(world_of(state), state)
    end = data.index(b"\n")
    head = json.loads(data[len(h.MAGIC) : end])
    for key in ("generator", "game"):
        forged = {k: v for k, v in head.items() if k != "seal"} | {key: "\x1b]2;PWNED\x07"}
        forged["seal"] = h.seal_of(forged)  # a forger reseals: the field's own check still holds
        line = json.dumps(forged, sort_keys=True).encode("ascii")
        with pytest.raises(SaveError, match=f"header.{key}: .* is not a version"):
            codec.decode(h.MAGIC + line + data[end:])


def test_a_document_shares_nothing_with_the_state_it_was_made_of(small_save):
    """Whatever is done to a save's document leaves the game as it was: a puzzle room's
    instance was put in by reference, so a mutated document (the fuzzer's) changed the next
    document of the same state, and hypothesis saw its data drawn differently run to run."""
    world, state, _ = small_save
    first = codec.to_document(world, state)
    before = json.dumps(first, sort_keys=True)

    def spoil(node: Any) -> None:
        for child in list(node.values() if isinstance(node, dict) else node):
            if isinstance(child, dict | list):
                spoil(child)
        if isinstance(node, dict):
            node["spoilt"] = True
        else:
            node.append("spoilt")

    spoil(first)
    assert json.dumps(codec.to_document(world, state), sort_keys=True) == before
