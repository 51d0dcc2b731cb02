"""The save directory: where it is, atomic writes and backups, locks, import and export."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from roguelike import seeds
from saves import (
    BackupWarning,
    SaveError,
    SaveVersionError,
    Store,
    World,
    WorldExists,
    WorldLocked,
    WorldNotFound,
    codec,
    default_dir,
)
from saves import header as h
from tests.saves.support import (
    OTHER_SEED,
    SEED,
    assert_same,
    assert_same_game,
    fresh_game,
    pack_as,
    played_game,
    world_of,
)

ROOT = Path(__file__).resolve().parents[2]


def snapshot(path: Path) -> dict[str, bytes]:
    """Every file under ``path`` with its bytes (to show that nothing changed)."""
    if not path.exists():
        return {}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))}


def test_the_directory_comes_from_the_argument_then_the_environment_then_platformdirs(
    tmp_path, monkeypatch
):
    monkeypatch.delenv("ROGUELIKE_SAVE_DIR", raising=False)
    from platformdirs import user_data_dir

    assert default_dir() == Path(user_data_dir("roguelike", appauthor=False)) / "worlds"
    monkeypatch.setenv("ROGUELIKE_SAVE_DIR", str(tmp_path / "env"))
    assert Store().path == tmp_path / "env"
    assert Store(tmp_path / "arg").path == tmp_path / "arg"


def test_create_save_list_load_latest_delete(tmp_path):
    clock = iter(f"2025-01-01T00:00:{s:02d}.000+00:00" for s in range(60))
    store = Store(tmp_path, clock=lambda: next(clock))
    assert store.list() == [] and store.latest() is None
    world = World.new("First Light", "dragon", preset="small")
    state = store.create(world)
    assert state.world_name == "First Light" and state.turn == 0
    other = World.new("Second", OTHER_SEED, preset="small", permadeath=True)
    store.create(other)
    assert [i.name for i in store.list()] == ["Second", "First Light"]
    assert store.latest().name == "Second"
    info = store.list()[1]
    assert (info.seed, info.preset, info.floor, info.floors, info.turn) == (
        seeds.stored(world.seed),  # as the header keeps it
        "small",
        1,
        3,
        0,
    )
    assert store.list()[0].permadeath is True and not info.dead and not info.won
    state.turn = 7
    assert store.save(state, world).turn == 7
    assert store.latest().name == "First Light"
    w2, s2, visited = store.load("First Light")
    assert w2 == world and s2.turn == 7 and visited == []
    assert store.load("first light")[0].name == "First Light"  # the file name decides
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "first-light.rgl",
        "first-light.rgl.bak",
        "second.rgl",
    ]
    store.delete("First Light")
    assert [i.name for i in store.list()] == ["Second"]
    with pytest.raises(WorldNotFound):
        store.load("First Light")
    with pytest.raises(WorldNotFound):
        store.delete("First Light")


def test_a_saved_game_with_history_loads_whole(tmp_path):
    world, state, visited = played_game()
    store = Store(tmp_path)
    store.save(state, world, visited)
    w, s, v = store.load(world.name)
    assert w == world
    assert_same_game(state, s)
    assert_same(visited, v, "visited")


def test_names_and_file_names_must_not_clash(tmp_path):
    store = Store(tmp_path)
    store.create(World.new("My World", SEED, preset="small"))
    with pytest.raises(WorldExists, match="already exists"):
        store.create(World.new("My World", OTHER_SEED, preset="small"))
    with pytest.raises(WorldExists, match="my-world.rgl"):
        store.create(World.new("my-world", SEED, preset="small"))
    # a different world under the same name is never written over
    stranger = World("My World", OTHER_SEED, "small")
    state = fresh_game(OTHER_SEED)
    with pytest.raises(WorldExists):
        store.save(state, stranger)
    assert store.load("My World")[0].seed == SEED


def test_the_previous_save_is_the_backup_and_saves_a_damaged_main_file(tmp_path):
    store = Store(tmp_path)
    state = fresh_game(SEED)
    world = world_of(state)
    for turn in (1, 2):
        state.turn = turn
        store.save(state, world)
    main = store.file(world.name)
    backup = main.with_name(main.name + ".bak")
    assert codec.decode(backup.read_bytes()).state.turn == 1
    main.write_bytes(main.read_bytes()[:-100])  # a damaged disk
    with pytest.warns(BackupWarning):
        _, loaded, _ = store.load(world.name)
    assert loaded.turn == 1 and "damaged" in store.last_warning
    assert store.list()[0].from_backup and store.latest() is not None
    # the next save does not push the good backup out with the damaged file
    state.turn = 3
    store.save(state, world)
    assert codec.decode(backup.read_bytes()).state.turn == 1
    assert store.load(world.name)[1].turn == 3 and store.last_warning is None
    main.write_bytes(b"garbage")
    backup.write_bytes(b"garbage")
    with pytest.raises(SaveError, match="backup"):
        store.load(world.name)
    assert store.list()[0].problem is not None and store.latest() is None


def test_a_newer_save_is_not_replaced_by_its_older_backup(tmp_path):
    store = Store(tmp_path)
    state = fresh_game(SEED)
    world = world_of(state)
    store.save(state, world)
    store.save(state, world)
    main = store.file(world.name)
    doc = codec.to_document(world, state)
    main.write_bytes(
        pack_as(world, state, doc, format=h.FORMAT_VERSION + 1, game="9.9", generator="1")
    )
    with pytest.raises(SaveVersionError, match="newer version"):
        store.load(world.name)
    assert "newer version" in store.list()[0].problem


def test_export_and_import(tmp_path):
    home, away = Store(tmp_path / "home"), Store(tmp_path / "away")
    world, state, visited = played_game()
    home.save(state, world, visited)
    exported = home.export(world.name, tmp_path / "shared.rgl")
    info = away.import_file(exported)
    assert info.name == world.name and info.floor == state.number
    _, s, v = away.load(world.name)
    assert_same_game(state, s)
    assert_same(visited, v, "visited")
    with pytest.raises(WorldExists, match="--name"):
        away.import_file(exported)
    renamed = away.import_file(exported, name="Copy")
    assert renamed.name == "Copy" and renamed.seed == seeds.stored(world.seed)
    w, s, _ = away.load("Copy")
    assert w.name == s.world_name == "Copy"
    assert sorted(i.name for i in away.list()) == ["Copy", world.name]


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "empty"),
        (b"hello", "not a roguelike save"),
        (b"RGLKSAVE{", "truncated"),
    ],
)
def test_a_bad_import_changes_nothing(tmp_path, content, words):
    store = Store(tmp_path / "worlds")
    store.create(World.new("Kept", SEED, preset="small"))
    before = snapshot(store.path)
    bad = tmp_path / "bad.rgl"
    bad.write_bytes(content)
    with pytest.raises(SaveError, match=words):
        store.import_file(bad)
    assert snapshot(store.path) == before
    fresh = Store(tmp_path / "never-made")
    with pytest.raises(SaveError):
        fresh.import_file(bad)
    assert not fresh.path.exists()


def test_an_import_from_another_generator_changes_nothing(tmp_path):
    store = Store(tmp_path / "worlds")
    state = fresh_game(SEED)
    world = world_of(state)
    foreign = tmp_path / "foreign.rgl"
    foreign.write_bytes(pack_as(world, state, game="0.1.0", generator="0"))
    with pytest.raises(SaveVersionError, match="made by generator 0, this game has"):
        store.import_file(foreign)
    assert snapshot(store.path) == {}


# --- locks ------------------------------------------------------------------------------------


def child(code: str, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ) | {"PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def test_a_second_writer_is_refused_while_the_first_holds_the_lock(tmp_path):
    store = Store(tmp_path)
    state = fresh_game(SEED)
    world = world_of(state)
    store.save(state, world)
    with store.lock(world.name):
        store.save(state, world)  # the holder saves freely
        with pytest.raises(WorldLocked, match="already open"):
            Store(tmp_path).save(state, world)  # another Store of this process
    holder = child(
        """
        import sys, time
        from saves import Store
        lock = Store(sys.argv[1]).lock(sys.argv[2])
        print("locked", flush=True)
        time.sleep(60)
        """,
        str(tmp_path),
        world.name,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(WorldLocked, match=f"process {holder.pid}"):
            store.save(state, world)
        with pytest.raises(WorldLocked):
            store.delete(world.name)
    finally:
        holder.kill()
        holder.wait()
    # its process is gone: the stale lock is taken over
    state.turn = 5
    store.save(state, world)
    assert store.load(world.name)[1].turn == 5
    assert not (tmp_path / "round-trip.lock").exists()


WRITER = """
import sys
import numpy as np
from saves import Store, VisitedFloor, codec
store = Store(sys.argv[1])
world, state, _ = store.load(sys.argv[2])
rng = np.random.default_rng(int(sys.argv[3]))
# big, hardly compressible earlier floors, so that most of the time goes to writing files
visited = [
    VisitedFloor(n, rng.integers(0, 15, (500, 500), dtype=np.uint8), rng.random((500, 500)) < 0.5)
    for n in (1, 2)
]
saves = []
for turn in (1001, 1002, 1003):
    state.turn = turn
    saves.append((turn, codec.encode(world, state, visited)))
print("ready", flush=True)
with store.lock(world.name):
    i = 0
    while True:  # the store's own write path: check the old save, write, back up, replace
        turn, data = saves[i % 3]
        store._write(world, data)
        print(turn, flush=True)
        i += 1
"""
NEXT = {1001: 1002, 1002: 1003, 1003: 1001}


def test_a_writer_killed_mid_save_leaves_the_last_good_save(tmp_path):
    store = Store(tmp_path)
    state = fresh_game(SEED)
    world = world_of(state)
    store.save(state, world)
    rnd = random.Random(20250101)
    for attempt in range(5):
        writer = child(WRITER, str(tmp_path), world.name, str(attempt))
        assert writer.stdout is not None
        ready = writer.stdout.readline()
        assert ready.strip() == "ready", writer.stderr.read() if writer.stderr else ""
        first = writer.stdout.readline()  # at least one save done
        time.sleep(rnd.uniform(0.0, 0.3))
        writer.send_signal(signal.SIGKILL)
        out, _ = writer.communicate()
        done = int([line for line in [first, *out.split()] if line.strip()][-1])
        reader = Store(tmp_path)
        _, loaded, visited = reader.load(world.name)
        assert reader.last_warning is None  # the main file itself is always whole
        assert loaded.turn in (done, NEXT[done])  # the last finished save, or the one killed
        assert len(visited) == 2
    with store.lock(world.name):  # taking the lock sweeps what killed writers left
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("crash_at", range(5))
def test_a_save_interrupted_at_any_step_leaves_the_old_or_the_new(tmp_path, monkeypatch, crash_at):
    """The steps of a save (temporary file, link to the backup, rename over the backup,
    rename over the main file), each interrupted in turn."""
    import saves.files as files_module

    store = Store(tmp_path)
    state = fresh_game(SEED)
    world = world_of(state)
    for turn in (1, 2):
        state.turn = turn
        store.save(state, world)
    calls = {"n": 0}
    real = {"replace": os.replace, "link": os.link, "fsync": os.fsync}

    def counting(name: str):
        def call(*args: object) -> object:
            calls["n"] += 1
            if calls["n"] - 1 == crash_at:
                raise KeyboardInterrupt("power cut")
            return real[name](*args)

        return call

    for name in ("replace", "link", "fsync"):
        monkeypatch.setattr(files_module.os, name, counting(name))
    state.turn = 3
    with pytest.raises(KeyboardInterrupt):
        store.save(state, world)
    monkeypatch.undo()
    _, loaded, _ = Store(tmp_path).load(world.name)
    assert loaded.turn in (2, 3)
    backup = store.file(world.name).with_name("round-trip.rgl.bak")
    assert codec.decode(backup.read_bytes()).state.turn in (1, 2)
