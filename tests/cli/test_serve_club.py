"""A club's players without a browser: names, tokens, each player's folder and the shared
hall (``roguelike serve --club``)."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.engine import Wait, new_game, step
from roguelike.recording import Recording
from saves import Store
from saves.hall import MAX_LISTED, OWN_RUNS, Hall
from saves.record import record_of
from saves.world import World, daily_seed
from screens.web.club import MAX_NAME, REGISTER, Club, NameRefused, check_name


def ended_run(world: str, seed: int | None = None, started: str = "2026-01-01T00:00:00.000+00:00"):
    """An abandoned run of one wait in ``world`` (its seed the name's unless given)."""
    state = new_game(seeds.parse(world) if seed is None else seed, preset="small", world_name=world)
    recording = Recording.begin(state)
    step(state, Wait())
    recording.add(Wait(), state)
    return record_of(state, world=world, started=started, recording=recording, abandoned=True)


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


def daily_run(world: str, day: dt.date):
    """An abandoned run of ``day``'s daily world, begun that day."""
    return ended_run(world, daily_seed(day), f"{day.isoformat()}T08:00:00.000+00:00")


def test_the_dailys_scored_run_and_the_streak_are_each_players_own(tmp_path):
    club = Club(tmp_path)
    alice = Hall(club.folder(club.join("Alice")[1]))
    bob = Hall(club.folder(club.join("Bob")[1]))
    today = dt.date(2026, 3, 10)
    for days_ago in (2, 1, 0):  # Alice plays three days in a row
        kept = alice.add(daily_run(f"Alice {days_ago}", today - dt.timedelta(days=days_ago)))
        assert kept.daily and kept.scored
    assert alice.daily_used(today) and alice.streak(today) == 3
    # the hall is shared: Bob sees Alice's runs, but her daily and her streak are not his
    assert len(bob.runs()) == 3
    assert not bob.daily_used(today) and bob.streak(today) == 0
    first = bob.add(daily_run("Bob", today))
    assert first.scored and bob.streak(today) == 1  # his first daily run today is scored
    again = bob.add(daily_run("Bob again", today))
    assert not again.scored  # his second is practice, whoever played before
    assert alice.streak(today) == 3 and len(alice.runs()) == 5
    # the server's own folder (no player) counts every run, as one player's hall does
    assert Hall(tmp_path).streak(today) == 3 and Hall(tmp_path).daily_used(today)


def test_a_players_own_runs_list_is_bounded_and_a_damaged_one_counts_nothing(tmp_path):
    club = Club(tmp_path)
    folder = club.folder(club.join("Alice")[1])
    hall = Hall(folder)
    today = dt.date(2026, 3, 10)
    hall.add(daily_run("Mine", today))
    (folder / OWN_RUNS).write_bytes(b"\xff\x1b[2J" * 10)
    assert hall.streak(today) == 0 and not hall.daily_used(today)
    (folder / OWN_RUNS).write_bytes(b"x" * (MAX_LISTED * 41 + 2))
    assert hall.own() == []


def test_a_failed_register_write_leaves_the_name_free_and_no_folder(tmp_path, monkeypatch):
    import screens.web.club as club_module

    club = Club(tmp_path)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(club_module, "write_atomic", full)
    with pytest.raises(OSError):
        club.join("Alice")
    assert club.players == {}
    assert list((tmp_path / "players").iterdir()) == []
    monkeypatch.undo()
    _, alice = club.join("Alice")  # the name was never taken
    assert [p.name for p in Club(tmp_path).players.values()] == ["Alice"]


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"players": 3}',
        '{"players": [{"token": "x"}]}',
        '{"players": [{"token": "%s", "id": "../../etc", "name": "Eve"}]}' % ("a" * 64),
        '{"players": [{"token": "%s", "id": "0123456789abcdef", "name": "../x"}]}' % ("a" * 64),
        '{"players": [["a", "b", "c"]]}',
        "\udcff",
    ],
    ids=["json", "list", "number", "fields", "path-id", "path-name", "entry-list", "utf8"],
)
def test_a_damaged_register_is_refused_in_one_line_when_the_club_starts(
    tmp_path, capsys, monkeypatch, text
):
    from roguelike.cli import main
    from screens.web.server import GameServer

    def serve(self):
        pytest.fail("served with a damaged register")

    monkeypatch.setattr(GameServer, "serve", serve)
    (tmp_path / REGISTER).write_bytes(text.encode("utf-8", "surrogateescape"))
    assert main(["serve", "--club", "--save-dir", str(tmp_path), "--port", "8765"]) != 0
    err = capsys.readouterr().err
    assert "club's register" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
