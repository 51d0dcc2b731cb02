"""``roguelike serve``'s bounds without a browser (aiohttp's test client on the server's own
app, small bounds given to the server): upload size, games per player, a club name's length
and characters, the idle time; and a served challenge import that cannot be made to read a
file of the server's by a path."""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from aiohttp import FormData, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from roguelike import seeds
from roguelike.engine import Wait, new_game, step
from roguelike.recording import Recording
from saves.hall import Hall
from saves.record import pack, record_of
from screens.challenge import ChallengeScreen
from screens.served import ServedApp
from screens.web.club import COOKIE, MAX_NAME
from screens.web.server import GameServer, GameService


async def client_of(server: GameServer) -> TestClient:
    client = TestClient(TestServer(await server._make_app()))
    await client.start_server()
    return client


def own(client: TestClient) -> dict[str, str]:
    """The headers of a form of the server's own pages (a browser sends its ``Origin``)."""
    return {"Origin": f"http://{client.server.host}:{client.server.port}"}


async def joined(client: TestClient, name: str) -> None:
    """``client`` joins the club as ``name`` (its cookie kept by the client)."""
    response = await client.post(
        "/club/join", data={"name": name, "next": "/"}, headers=own(client), allow_redirects=False
    )
    assert response.status == 303, await response.text()
    assert COOKIE in response.cookies


@pytest.fixture
async def club(tmp_path):
    server = GameServer(str(tmp_path), "127.0.0.1", 0, club=True, games_per_player=2)
    client = await client_of(server)
    yield server, client
    await client.close()


async def test_an_upload_larger_than_the_bound_is_refused_and_not_kept(tmp_path):
    server = GameServer(str(tmp_path), "127.0.0.1", 0, max_upload=100)
    client = await client_of(server)
    try:
        for size, status in ((101, 413), (1000, 413), (0, 400), (100, 303)):
            form = FormData()
            form.add_field("file", b"x" * size, filename="c.run")
            response = await client.post(
                "/upload", data=form, headers=own(client), allow_redirects=False
            )
            assert response.status == status, size
            if status == 413:
                assert "larger than a run file can be (100 bytes)" in await response.text()
        kept = list(server.uploads.glob("*/*.run"))
        assert [p.stat().st_size for p in kept] == [100]
    finally:
        await client.close()


async def test_a_player_runs_at_most_their_games_watching_included(club):
    server, client = club
    await joined(client, "Alice")
    for _ in range(2):
        page = await client.get("/?seed=abc")
        assert page.status == 200 and "/ws/" in await page.text()
    refused = await client.get("/?seed=abc")
    assert refused.status == 429 and "you run 2 games already" in await refused.text()
    # another player is not bound by Alice's games
    other = await client_of(server)
    try:
        await joined(other, "Bob")
        assert (await other.get("/")).status == 200
    finally:
        await other.close()


@pytest.mark.parametrize(
    "name", ["x" * (MAX_NAME + 1), "", "  ", "<script>", "../x", "é", "-dash", "a\nb", "a\x1b[2J"]
)
async def test_a_club_name_too_long_or_of_other_characters_is_refused_in_one_line(club, name):
    _, client = club
    response = await client.post(
        "/club/join", data={"name": name}, headers=own(client), allow_redirects=False
    )
    text = await response.text()
    assert response.status == 400 and COOKIE not in response.cookies
    refusal = re.search(r'<p id="refused">(.*?)</p>', text)
    assert refusal is not None and refusal.group(1).startswith("Not joined:")
    assert "<script>" not in text and "\x1b" not in text


async def test_a_name_of_the_longest_length_joins(club):
    _, client = club
    await joined(client, "A" * MAX_NAME)


class Silent:
    """A tab that sends nothing."""

    async def receive(self, timeout: float | None = None):
        await asyncio.sleep(3600)


async def test_a_game_without_a_key_for_the_idle_time_is_ended(tmp_path):
    server = GameServer(str(tmp_path), "127.0.0.1", 0, club=True, idle=0.2)
    game = SimpleNamespace(pid=1, watcher=False, watch_id="g", first_output=None)
    # _relay returning is what ends (and saves) the tab's game: handle_websocket stops it
    await asyncio.wait_for(server._relay(Silent(), game), 2)


async def test_a_watcher_is_not_ended_while_the_game_it_watches_goes_on(tmp_path):
    server = GameServer(str(tmp_path), "127.0.0.1", 0, club=True, idle=0.1)
    playing = SimpleNamespace(watcher=False, watch_id="g")
    server.games["tab"] = playing  # type: ignore[assignment]
    watcher = SimpleNamespace(pid=2, watcher=True, watch_id="g", first_output=None)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(server._relay(Silent(), watcher), 0.5)
    del server.games["tab"]  # the game is over: the watcher idles out
    await asyncio.wait_for(server._relay(Silent(), watcher), 1)


async def test_a_key_keeps_a_game_from_idling(tmp_path):
    server = GameServer(str(tmp_path), "127.0.0.1", 0, club=True, idle=0.3)
    sent: list[bytes] = []

    class Typing:
        def __init__(self):
            self.keys = 4

        async def receive(self):
            if self.keys:
                self.keys -= 1
                await asyncio.sleep(0.15)  # under the idle time, four times over it in all
                return SimpleNamespace(type=WSMsgType.TEXT, data='["stdin", "s"]')
            return SimpleNamespace(type=WSMsgType.CLOSE, data=None)

    async def send_bytes(data: bytes) -> None:
        sent.append(data)

    game = SimpleNamespace(
        pid=3, watcher=False, watch_id="g", send_bytes=send_bytes, first_output=None
    )
    await asyncio.wait_for(server._relay(Typing(), game), 2)
    assert sent == [b"s"] * 4


async def test_the_watch_list_shows_games_not_watchers_and_a_watch_tab_starts_a_follower(club):
    server, client = club
    await joined(client, "Alice")
    stream = server.save_dir
    playing = SimpleNamespace(
        watcher=False,
        watch_id="abc",
        player="Alice",
        start_asked=SimpleNamespace(kind="seed", value="K7QX"),
        stream=Path(stream) / "x.live",
    )
    watching = SimpleNamespace(
        watcher=True, watch_id="abc", player="Bob", start_asked=None, stream=playing.stream
    )
    importing = SimpleNamespace(
        watcher=False,
        watch_id="def",
        player="Carol",
        start_asked=SimpleNamespace(kind="import", value="0123456789abcdef"),
        stream=Path(stream) / "y.live",
    )
    server.games.update({"t1": playing, "t2": watching, "t3": importing})  # type: ignore[dict-item]
    listed = await (await client.get("/watch")).text()
    assert listed.count('class="game"') == 2
    # the kind of start only: an import's value is the key that opens its player's upload
    assert "Alice: seed</a>" in listed and "Carol: import</a>" in listed
    assert "K7QX" not in listed and "0123456789abcdef" not in listed
    page = await client.get("/watch/abc")
    assert page.status == 200 and "/ws/" in await page.text()
    (pending,) = server.pending.values()
    assert pending.start.kind == "watch" and pending.argv[-2:] == ["--follow", str(playing.stream)]
    assert "--live-stream" not in pending.argv
    assert (await client.get("/watch/nope")).status == 404
    server.games.clear()  # not processes: nothing to stop


def run_file(tmp_path):
    state = new_game(seeds.parse("secret"), preset="small", world_name="Secret")
    recording = Recording.begin(state)
    step(state, Wait())
    recording.add(Wait(), state)
    record = record_of(
        state,
        world="Secret",
        started="2026-01-01T00:00:00.000+00:00",
        recording=recording,
        abandoned=True,
    )
    path = tmp_path / "server-only" / "secret.run"
    path.parent.mkdir()
    path.write_bytes(pack(record))
    return path


async def test_an_uploaded_challenge_cannot_make_the_game_read_a_server_file_by_its_path(
    tmp_path,
):
    """The upload names a file of the server's (a good run file): it is read as the upload's
    own bytes, never as a path; and the import's field, read-only, cannot be made to check
    another file."""
    secret = run_file(tmp_path)
    upload = tmp_path / "uploads" / "0123456789abcdef.run"
    upload.parent.mkdir()
    upload.write_text(f"{secret}\n")
    saves = tmp_path / "saves"
    app = ServedApp(save_dir=saves, import_file=str(upload))
    async with app.run_test(size=(110, 36)) as pilot:
        for _ in range(200):
            screen = app.screen
            checked = isinstance(screen, ChallengeScreen) and not screen.checking
            if checked and "Refused" in str(screen.status.render()):
                break
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        assert "Refused" in str(screen.status.render())
        field = screen.query_one("#challenge-path")
        assert field.disabled
        await pilot.click("#challenge-path")
        await pilot.press("ctrl+u", *str(secret), "enter")
        field.value = str(secret)  # even set from within: only the upload is ever checked
        await field.action_submit()
        await pilot.pause(0.5)
        assert Hall(saves).challenges() == []


async def test_streams_left_by_a_killed_server_are_dropped_on_start(tmp_path):
    stale = [tmp_path / "live" / "a.live", tmp_path / "players" / "0123" / "live" / "b.live"]
    for path in stale:
        path.parent.mkdir(parents=True)
        path.write_text("{}\n")
    keep = tmp_path / "players" / "0123" / "world.save"
    keep.write_text("")
    client = await client_of(GameServer(str(tmp_path), "127.0.0.1", 0, club=True))
    await client.close()
    assert not any(p.exists() for p in stale) and keep.exists()


class NoDownloads:
    async def cancel_app_downloads(self, app_service_id: str) -> None:
        pass


async def test_a_stop_ends_when_a_process_left_behind_holds_the_games_output(tmp_path):
    """The game's leader exits; a process of its group (a worker left behind) still holds
    its output pipe: the stop kills the group and ends, the slot is freed."""
    pid_file = tmp_path / "worker"

    async def nothing(*args) -> None:
        pass

    game = GameService(
        ["sh", "-c", f"sleep 600 & echo $! > {pid_file}; exit 0"],
        write_bytes=nothing,
        write_str=nothing,
        close=nothing,
        download_manager=NoDownloads(),
    )
    await game.start(80, 24)
    await asyncio.wait_for(game.stop(), 30)  # a guard: before the group was killed, forever
    worker = Path(f"/proc/{int(pid_file.read_text())}/stat")
    with contextlib.suppress(FileNotFoundError):  # gone, or dead and not yet reaped
        assert worker.read_text().rsplit(")", 1)[1].split()[0] == "Z"


async def test_a_join_from_another_site_or_from_nowhere_is_refused_and_sets_no_cookie(club):
    server, client = club
    base = f"http://{client.server.host}:{client.server.port}"
    for headers in (
        {},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": f"{base}.evil.example"},
        {"Referer": "http://evil.example/page"},
        {"Origin": "http://evil.example", "Referer": f"{base}/"},
    ):
        response = await client.post(
            "/club/join", data={"name": "Alice"}, headers=headers, allow_redirects=False
        )
        assert response.status == 403, headers
        assert COOKIE not in response.cookies and server.club.players == {}
    # a browser that sends only its Referer (its Origin withheld) joins from the server's page
    response = await client.post(
        "/club/join", data={"name": "Alice"}, headers={"Referer": f"{base}/"}, allow_redirects=False
    )
    assert response.status == 303 and COOKIE in response.cookies


async def test_a_browser_that_has_a_player_keeps_it_a_join_does_not_replace_it(club):
    server, client = club
    await joined(client, "Alice")
    (alice,) = server.club.players.values()
    response = await client.post(
        "/club/join", data={"name": "Mallory"}, headers=own(client), allow_redirects=False
    )
    assert response.status == 409 and "plays here as Alice already" in await response.text()
    assert COOKIE not in response.cookies
    assert list(server.club.players.values()) == [alice]


@pytest.mark.parametrize(
    ("back", "to"),
    [
        ("/?seed=abc", "/?seed=abc"),
        ("/watch/Ab-_x", "/watch/Ab-_x"),
        ("//evil.example/", "/"),
        ("/\t/evil.example", "/"),
        ("/\\evil.example", "/"),
        ("/\n/evil.example", "/"),
        ("/%09/evil.example", "/"),
        ("http://evil.example/", "/"),
        ("evil.example", "/"),
        ("/" + "a" * 300, "/"),
    ],
)
async def test_a_join_goes_next_to_a_path_of_this_server_only(club, back, to):
    _, client = club
    response = await client.post(
        "/club/join",
        data={"name": "Alice", "next": back},
        headers=own(client),
        allow_redirects=False,
    )
    assert response.status == 303 and response.headers["Location"] == to


async def test_a_join_larger_than_a_form_is_refused_before_it_is_read(club):
    server, client = club
    response = await client.post(
        "/club/join",
        data={"name": "Alice", "next": "/", "padding": "x" * 10_000},
        headers=own(client),
        allow_redirects=False,
    )
    assert response.status == 413 and server.club.players == {}


async def test_an_upload_from_another_site_is_refused_and_not_kept(tmp_path):
    server = GameServer(str(tmp_path), "127.0.0.1", 0)
    client = await client_of(server)
    try:
        for headers in ({}, {"Origin": "http://evil.example"}):
            form = FormData()
            form.add_field("file", b"x" * 10, filename="c.run")
            response = await client.post(
                "/upload", data=form, headers=headers, allow_redirects=False
            )
            assert response.status == 403
        assert list(server.uploads.glob("*.run")) == []
    finally:
        await client.close()


async def test_a_replay_link_finds_its_run_by_name_and_reads_nothing_on_the_servers_loop(
    tmp_path, monkeypatch
):
    """The page only needs the run's id: the run file (up to 32 MiB to read, inflate and
    parse) is read by the game process, never by the server, whose loop every game shares."""
    import threading

    import saves.hall

    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "20260102-a0b0c0.run").write_bytes(b"a run file the game process checks")
    (runs / "20260102-a0b0c1.run").write_bytes(b"")

    def never(*args, **kwargs):
        raise AssertionError("the server read a run file")

    monkeypatch.setattr(saves.hall, "unpack", never)
    monkeypatch.setattr(saves.hall, "read_file", never)
    looked: list[bool] = []
    find = saves.hall.Hall.find

    def find_off_the_loop(self, run_id):
        looked.append(threading.current_thread() is threading.main_thread())
        return find(self, run_id)

    monkeypatch.setattr(saves.hall.Hall, "find", find_off_the_loop)
    server = GameServer(str(tmp_path), "127.0.0.1", 0)
    client = await client_of(server)
    try:
        page = await client.get("/?replay=20260102-a0b0c0")
        assert page.status == 200 and "/ws/" in await page.text()
        (pending,) = server.pending.values()
        assert pending.argv[-2:] == ["replay", "20260102-a0b0c0"]
        for asked, why in (("20260102-a0b0c", "names 2 runs"), ("nosuchrun", "no run")):
            refused = await client.get(f"/?replay={asked}")
            assert refused.status == 400 and why in await refused.text()
        assert looked == [False, False, False]
    finally:
        await client.close()


def fake_game(watch_id: str, *, watcher: bool = False) -> SimpleNamespace:
    kind = "watch" if watcher else "seed"
    return SimpleNamespace(
        watcher=watcher,
        watch_id=watch_id,
        player="",
        start_asked=SimpleNamespace(kind=kind, value=""),
        stream=Path("/nonexistent") / f"{watch_id}.live",
    )


async def test_watchers_are_bounded_per_game_and_in_all(tmp_path):
    from screens.web.server import MAX_WATCHERS, MAX_WATCHERS_PER_GAME

    server = GameServer(str(tmp_path), "127.0.0.1", 0, max_games=64)
    client = await client_of(server)
    try:
        server.games.update({"a": fake_game("abc"), "b": fake_game("def")})  # type: ignore[dict-item]
        for _ in range(MAX_WATCHERS_PER_GAME):
            assert (await client.get("/watch/abc")).status == 200
        refused = await client.get("/watch/abc")
        assert refused.status == 429 and "this game has its" in await refused.text()
        server.pending.clear()  # (the pages' websockets never came: their slots go)
        for n in range(MAX_WATCHERS - 1):  # watching other games, running
            server.games[f"w{n}"] = fake_game("zzz", watcher=True)  # type: ignore[assignment]
        assert (await client.get("/watch/def")).status == 200
        refused = await client.get("/watch/def")
        assert refused.status == 503 and "watchers at most" in await refused.text()
    finally:
        server.games.clear()  # not processes: nothing to stop
        await client.close()


async def test_one_address_cannot_take_every_waiting_start(tmp_path):
    from screens.web.server import MAX_PENDING_PER_ADDRESS

    server = GameServer(str(tmp_path), "127.0.0.1", 0)
    client = await client_of(server)
    try:
        for _ in range(MAX_PENDING_PER_ADDRESS):
            assert (await client.get("/")).status == 200
        refused = await client.get("/")
        assert refused.status == 429 and "still opening" in await refused.text()
        token = next(iter(server.pending))
        server.pending[token] = replace(server.pending[token], address="192.0.2.7")
        assert (await client.get("/")).status == 200  # another address's start is not ours
    finally:
        await client.close()


async def test_uploads_are_pruned_per_player_and_a_key_opens_its_own_players_only(club):
    from screens.web.server import MAX_UPLOADS_PER_PLAYER

    server, alice = club
    bob = await client_of(server)
    try:
        await joined(alice, "Alice")
        await joined(bob, "Bob")

        async def upload(client: TestClient) -> str:
            form = FormData()
            form.add_field("file", b"x" * 10, filename="c.run")
            response = await client.post(
                "/upload", data=form, headers=own(client), allow_redirects=False
            )
            assert response.status == 303
            return response.headers["Location"].rsplit("=", 1)[1]

        bobs = await upload(bob)
        for _ in range(MAX_UPLOADS_PER_PLAYER + 3):
            await upload(alice)
        kept = {p.stem for p in server.uploads.glob("*/*.run")}
        assert bobs in kept and len(kept) == MAX_UPLOADS_PER_PLAYER + 1
        refused = await alice.get(f"/?import={bobs}")
        assert refused.status == 400 and "no such upload" in await refused.text()
        assert (await bob.get(f"/?import={bobs}")).status == 200
    finally:
        await bob.close()
