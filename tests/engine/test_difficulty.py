"""Difficulty levels: each level's numbers move the way its name says (monsters' HP and
blows, how full a floor is, how many potions, the player's start), and none of them ever
changes a floor's map."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.autoplay import choose
from roguelike.cli import main
from roguelike.engine import GameState, new_game, step
from roguelike.engine.balance import DEFAULT_DIFFICULTY, DIFFICULTIES, MONSTERS
from roguelike.engine.combat import monster_hits
from roguelike.engine.creatures import fill_share, inhabit, monster_attack, monster_hp
from roguelike.gen.pipeline import generate_floor
from roguelike.presets import DIFFICULTY_NAMES
from roguelike.recording import Divergence, Recording, digest, replay
from saves import World, codec
from saves.errors import SaveError
from saves.morgue import morgue
from saves.record import RunFileError, RunRecord, record_of
from saves.verify import verify
from tests.engine.support import add, arena
from tests.saves.support import assert_same_game, pack_as

LEVELS = list(DIFFICULTIES)


def test_the_table_has_a_row_for_each_name_easiest_first():
    assert tuple(DIFFICULTIES) == DIFFICULTY_NAMES
    assert DEFAULT_DIFFICULTY in DIFFICULTIES
    assert len(LEVELS) >= 4
    assert all(d.name == name for name, d in DIFFICULTIES.items())


@pytest.mark.parametrize(("easier", "harder"), list(zip(LEVELS, LEVELS[1:], strict=False)))
def test_each_level_is_harder_than_the_one_before_in_every_number(easier, harder):
    e, h = DIFFICULTIES[easier], DIFFICULTIES[harder]
    assert e.monster_hp <= h.monster_hp and e.monster_damage <= h.monster_damage
    assert e.fill <= h.fill and e.potions >= h.potions and e.player_hp >= h.player_hp
    assert (e.monster_hp, e.monster_damage, e.fill, e.potions, e.player_hp) != (
        h.monster_hp,
        h.monster_damage,
        h.fill,
        h.potions,
        h.player_hp,
    )


@pytest.mark.parametrize("kind", list(MONSTERS))
def test_monsters_are_tougher_and_hit_harder_at_each_harder_level(kind):
    info = MONSTERS[kind]
    hps = [monster_hp(info, d) for d in LEVELS]
    hits = [monster_attack(info, d) for d in LEVELS]
    assert hps == sorted(hps) and hps[0] < hps[-1]
    assert all(lo <= hi for lo, hi in hits)
    assert [sum(h) for h in hits] == sorted(sum(h) for h in hits)
    assert sum(hits[0]) < sum(hits[-1])


def test_fill_share_grows_with_the_level_and_never_passes_every_slot():
    for floor in range(1, 9):
        shares = [fill_share(floor, d) for d in LEVELS]
        assert shares == sorted(shares) and all(0 < s <= 1 for s in shares)
    assert fill_share(1, LEVELS[0]) < fill_share(1, LEVELS[-1])


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**20), floor=st.integers(1, 2))
def test_the_map_is_the_same_at_every_level(seed, floor):
    games = [new_game(seed, total_floors=2, floor=floor, difficulty=d) for d in LEVELS]
    first = games[0]
    for g in games[1:]:
        assert np.array_equal(g.tiles, first.tiles)
        assert g.player == first.player and g.keys_lying == first.keys_lying
        assert set(g.puzzles) == set(first.puzzles)


def test_harder_levels_place_more_monsters_with_more_hp_and_fewer_potions():
    # A few floors hold too few item slots to tell the levels' potions apart by chance (a
    # healing potion is one draw in a few); each map is inhabited again from many seeds (the
    # inhabit stream is all the seed feeds), so the counts show the levels and not luck.
    maps = [generate_floor(s, 2, last=False) for s in (3, 4, 5)]
    floors = [dataclasses.replace(fl, seed=fl.seed + 7919 * k) for fl in maps for k in range(20)]
    assert sum(slot.kind == "item" for fl in maps for slot in fl.slots) > 0

    def totals(level: str) -> tuple[int, int, int]:
        count = hp = potions = 0
        for fl in floors:
            monsters, items = inhabit(fl, level)
            count += len(monsters)
            hp += sum(m.max_hp for m in monsters)
            potions += sum(i == "healing potion" for i in items.values())
            assert all(m.hp == m.max_hp for m in monsters)
        return count, hp, potions

    easy, brutal = totals(LEVELS[0]), totals(LEVELS[-1])
    assert easy[0] < brutal[0] and easy[1] < brutal[1] and easy[2] > brutal[2]


def test_inhabitants_are_a_pure_function_of_the_floor_and_the_level():
    fl = generate_floor(7, 1, last=False)
    for level in LEVELS:
        a, b = inhabit(fl, level), inhabit(fl, level)
        assert [(m.kind, m.pos, m.max_hp) for m in a[0]] == [
            (m.kind, m.pos, m.max_hp) for m in b[0]
        ]
        assert a[1] == b[1]


def test_the_player_starts_with_the_level_s_hp():
    for level in LEVELS:
        state = new_game(11, total_floors=1, difficulty=level)
        assert state.hp == state.max_hp == DIFFICULTIES[level].player_hp
        assert state.difficulty == level


def test_an_unknown_level_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown difficulty 'nightmare'"):
        new_game(1, total_floors=1, difficulty="nightmare")


def test_a_monster_s_blow_is_scaled_by_the_level():
    """The same goblin blow on the same stream: each harder level's damage is no lower, and
    the hardest's is higher over a few blows."""
    dealt = {}
    for level in (LEVELS[0], LEVELS[-1]):
        state, c = arena(2)
        state.difficulty = level
        state.hp = state.max_hp = 10_000
        goblin = add(state, "goblin", (c[0] + 1, c[1]))
        for _ in range(40):
            monster_hits(state, goblin, ranged=False)
        dealt[level] = 10_000 - state.hp
    assert dealt[LEVELS[0]] < dealt[LEVELS[-1]]


def test_a_hurt_monster_flees_by_its_own_maximum():
    state, c = arena(2)
    rat = add(state, "rat", (c[0] + 2, c[1]))
    rat.max_hp = 10
    rat.hp = 6  # over half its own maximum, though over the kind's whole HP too
    assert not rat.fleeing
    rat.hp = 4
    assert rat.fleeing


# --- a world's difficulty in its save, its recording, its run record and on the command line


def _played_at(level: str, actions: int = 40) -> tuple[GameState, Recording]:
    state = new_game(seeds.parse("save-b"), preset="small", world_name="Hard Run", difficulty=level)
    recording = Recording.begin(state)
    for _ in range(actions):
        if state.over:
            break
        action = choose(state)
        step(state, action)
        recording.add(action, state)
    return state, recording


def test_a_hard_game_round_trips_through_its_save():
    state, _ = _played_at("hard")
    world = World("Hard Run", state.seed, "small", difficulty="hard")
    loaded = codec.decode(codec.encode(world, state, []))
    assert loaded.world.difficulty == "hard" and loaded.state.difficulty == "hard"
    assert_same_game(state, loaded.state)
    assert [m.max_hp for m in loaded.state.monsters] == [m.max_hp for m in state.monsters]


def test_a_save_that_names_no_difficulty_is_normal_and_a_monster_without_max_hp_is_refused():
    state, _ = _played_at(DEFAULT_DIFFICULTY, 10)
    world = World("Hard Run", state.seed, "small")
    doc = codec.to_document(world, state)
    del doc["world"]["difficulty"]  # the writer leaves the default level out
    del doc["state"]["difficulty"]
    loaded = codec.decode(pack_as(world, state, doc))
    assert loaded.world.difficulty == loaded.state.difficulty == DEFAULT_DIFFICULTY
    assert doc["state"]["monsters"], "the played game has monsters to strip"
    for m in doc["state"]["monsters"]:
        del m["max_hp"]
    with pytest.raises(SaveError, match="max_hp"):  # every field of the format is required
        codec.decode(pack_as(world, state, doc))


@pytest.mark.parametrize("bad", ["nightmare", 3, None, ["hard"]])
def test_a_save_naming_no_known_difficulty_is_refused_by_field(bad):
    state, _ = _played_at("hard", 0)
    world = World("Hard Run", state.seed, "small", difficulty="hard")
    doc = codec.to_document(world, state)
    doc["state"]["difficulty"] = bad
    with pytest.raises(SaveError, match=r"state\.difficulty"):
        codec.decode(pack_as(world, state, doc))


def test_a_monster_s_maximum_hp_is_bounded_by_the_hardest_level():
    state, _ = _played_at("brutal", 0)
    world = World("Hard Run", state.seed, "small", difficulty="brutal")
    doc = codec.to_document(world, state)
    doc["state"]["monsters"][0]["max_hp"] = 10**9
    with pytest.raises(SaveError, match=r"max_hp"):
        codec.decode(pack_as(world, state, doc))


def test_a_hard_recording_replays_and_a_wrong_difficulty_is_caught():
    state, recording = _played_at("hard")
    again = Recording.from_json(json.loads(json.dumps(recording.to_json())))
    assert again.start.difficulty == "hard"
    replayed, _ = replay(again)
    assert digest(replayed) == digest(state)
    doc = recording.to_json()
    del doc["start"]["difficulty"]  # read as normal: the replay must not pass silently
    wrong = Recording.from_json(doc)
    assert wrong.start.difficulty == DEFAULT_DIFFICULTY
    with pytest.raises(Divergence):
        replay(wrong)


def test_a_hard_run_record_says_so_and_verifies():
    state, recording = _played_at("hard")
    record = record_of(
        state,
        world="Hard Run",
        started="2026-01-01T00:00:00.000+00:00",
        recording=recording,
        abandoned=not state.over,
    )
    back = RunRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert back.difficulty == "hard"
    verify(back)
    assert "hard" in morgue(back)
    forged = dataclasses.replace(back, difficulty=DEFAULT_DIFFICULTY)
    with pytest.raises(RunFileError, match="difficulty"):
        verify(forged)


@pytest.mark.parametrize(
    "args",
    [["--seed", "x", "--difficulty", "nightmare"], ["world", "create", "W", "--difficulty", "x"]],
)
def test_a_bad_difficulty_on_the_command_line_is_one_line_and_exit_2(args):
    result = subprocess.run(
        [sys.executable, "-m", "roguelike.cli", *args], capture_output=True, text=True
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "difficulty" in lines[0] and "Traceback" not in result.stderr


def test_daily_refuses_a_difficulty(capsys):
    assert main(["--daily", "--difficulty", "hard"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--daily" in err[0]


def test_world_create_keeps_the_difficulty_and_the_list_shows_it(capsys):
    assert main(["world", "create", "Tough One", "--seed", "x", "--difficulty", "brutal"]) == 0
    assert "brutal" in capsys.readouterr().out
    assert main(["world", "list", "--format", "json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)["worlds"]
    assert listed["difficulty"] == "brutal"
    assert main(["world", "list"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert "DIFFICULTY" in table[0] and "brutal" in table[1]
