"""A club's players without a browser: names, tokens, each player's folder and the shared
hall (``roguelike serve --club``)."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual_serve.download_manager import DownloadManager

from roguelike import seeds
from roguelike.cli.serve.club import MAX_NAME, REGISTER, Club, NameRefused, check_name
from roguelike.engine import Wait, new_game, step
from roguelike.recording import Recording
from saves import Store
from saves.hall import Hall
from saves.record import record_of
from saves.world import World
from screens.web.server import GameService


def ended_run(world: str):
    state = new_game(seeds.parse(world), preset="small", world_name=world)
    recording = Recording.begin(state)
    step(state, Wait())
    recording.add(Wait(), state)
    return record_of(
        state,
        world=world,
        started="2026-01-01T00:00:00.000+00:00",
        recording=recording,
        abandoned=True,
    )


def test_a_player_is_known_by_their_token_alone_which_is_not_kept(tmp_path):
    club = Club(tmp_path)
    token, alice = club.join("Alice")
    assert club.player(token) == alice and alice.name == "Alice"
    assert club.player(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert club.player(None) is None and club.player("Alice") is None
    kept = (tmp_path / REGISTER).read_text()
    assert token not in kept and "Alice" in kept
    # a server started again knows the player by the same token
    assert Club(tmp_path).player(token) == alice
    # the folder is named by a random id, never by the name
    assert "Alice" not in str(club.folder(alice))


def test_names_are_bounded_and_unique_whatever_their_case(tmp_path):
    club = Club(tmp_path)
    club.join("Alice")
    for bad in ("alice", "ALICE ", "", " ", "../x", "a/b", "x" * (MAX_NAME + 1), "é", "-x"):
        with pytest.raises(NameRefused):
            club.join(bad)
    assert [p.name for p in club.players.values()] == ["Alice"]


@given(st.text(max_size=40))
def test_any_text_is_a_name_of_safe_characters_or_refused(text):
    try:
        name = check_name(text)
    except NameRefused as err:
        assert "\n" not in str(err)
        return
    assert 1 <= len(name) <= MAX_NAME and name.isascii() and "/" not in name


def test_players_worlds_are_apart_and_their_hall_is_one(tmp_path):
    club = Club(tmp_path)
    _, alice = club.join("Alice")
    _, bob = club.join("Bob")
    mine, theirs = club.folder(alice), club.folder(bob)
    Store(mine).create(World("Home", seeds.parse("abc"), preset="small"))
    assert [w.name for w in Store(mine).readable_list()] == ["Home"]
    assert Store(theirs).readable_list() == [] and Store(tmp_path).readable_list() == []
    # a run kept from either folder is in the one hall, under the same lock file
    Hall(Store(mine).path).add(ended_run("Alpha"))
    Hall(Store(theirs).path).add(ended_run("Beta"))
    for folder in (mine, theirs, tmp_path):
        assert sorted(r.world for r in Hall(Store(folder).path).runs()) == ["Alpha", "Beta"]
    for lock in (".runs.lock", ".challenges.lock"):
        assert os.stat(mine / lock).st_ino == os.stat(tmp_path / lock).st_ino


async def test_a_spectator_is_shown_the_games_output_the_watch_delay_later():
    game = GameService(
        ["true"],
        "Alice",
        write_bytes=_nothing,
        write_str=_nothing,
        close=_nothing,
        download_manager=DownloadManager(),
    )
    game.watch_delay = 60.0
    seen: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
    game.spectators.add(seen)
    before = time.monotonic()
    await game.on_data(b"the screen")
    item = seen.get_nowait()
    assert item is not None
    due, payload = item
    assert payload == b"the screen" and due >= before + 60.0


async def _nothing(*args: object) -> None:
    del args
