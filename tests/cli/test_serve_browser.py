"""``roguelike serve`` in a real browser: Debian's Chromium driven by Playwright.

Each test starts the server on a free loopback port with its own save folder, in test mode
(``ROGUELIKE_SERVED_LOG``: the game writes a line when its map is drawn and when the screen on
top changes, since the terminal is a canvas), and asserts on what the game writes: the saves,
the hall, the downloads. Every wait is bounded; nothing is timed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from roguelike import seeds
from roguelike.engine import Wait, new_game, step
from roguelike.recording import Recording
from saves import Store
from saves.hall import Hall
from saves.record import RunRecord, pack, record_of, unpack

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
#: How long a bounded wait waits at most, in seconds (a loaded machine is slow, never stuck).
PATIENCE = 90.0

if not Path(CHROMIUM).exists():  # .ci/run installs it
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


def wait_for(what: str, check: Callable[[], Any], patience: float = PATIENCE) -> Any:
    """``check()`` once it is truthy, polled; a failure naming ``what`` after ``patience``."""
    deadline = time.monotonic() + patience
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"waited {patience:.0f} s for {what}")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Served:
    url: str
    saves: Path
    log: Path
    process: subprocess.Popen[bytes]
    output: Path

    def lines(self) -> list[str]:
        try:
            return self.log.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []

    def shown(self, count: int = 1) -> list[str]:
        """Wait until ``count`` game maps have been drawn; their lines."""
        return wait_for(
            f"{count} game(s) drawn",
            lambda: (s := [x for x in self.lines() if " shown " in x])[count - 1 :] and s,
        )

    def played(self, turn: int) -> None:
        """Wait until the game on show is at ``turn`` (its keys arrived)."""

        def last_turn() -> bool:
            turns = [x.split(" turn ", 1)[1] for x in self.lines() if " turn " in x]
            return bool(turns) and turns[-1] == str(turn)

        wait_for(f"turn {turn} played", last_turn)

    def on_top(self, screen: str) -> bool:
        """Whether ``screen`` (a class name) is the screen on top, as last logged."""
        tops = [x.split(" screen ", 1)[1] for x in self.lines() if " screen " in x]
        return bool(tops) and tops[-1] == screen

    def focused(self, widget: str) -> bool:
        """Whether the widget of id ``widget`` has the focus, as last logged."""
        focus = [x.split(" focus ", 1)[1] for x in self.lines() if " focus " in x]
        return bool(focus) and focus[-1] == widget

    def worlds(self) -> dict[str, Any]:
        return {w.name: w for w in Store(self.saves).readable_list()}

    def games(self) -> list[int]:
        """The game processes running now (from the server's log)."""
        text = self.output.read_text(encoding="utf-8", errors="replace")
        started = re.findall(r"game (\d+) started", text)
        ended = set(re.findall(r"game (\d+) ended", text))
        return [int(p) for p in started if p not in ended]


@contextlib.contextmanager
def serving(tmp_path: Path, *options: str) -> Iterator[Served]:
    """``roguelike serve`` with ``options`` on a free loopback port, in test mode."""
    port = free_port()
    saves, log, output = tmp_path / "saves", tmp_path / "shown.log", tmp_path / "server.txt"
    saves.mkdir()
    env = {**os.environ, "ROGUELIKE_SERVED_LOG": str(log), "COLUMNS": "200"}
    argv = [sys.executable, "-m", "roguelike.cli", "serve", "--port", str(port)]
    with output.open("wb") as out:
        process = subprocess.Popen(
            [*argv, "--save-dir", str(saves), *options],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )

    def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
        except OSError:
            assert process.poll() is None, output.read_text()
            return False
        return True

    wait_for("the server", listening)
    yield Served(f"http://127.0.0.1:{port}", saves, log, process, output)
    process.send_signal(signal.SIGINT)  # every game saved, then the server ends
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail("the server did not stop on SIGINT")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path) as server:
        yield server


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Served]:
    """A club (``roguelike serve --club``)."""
    with serving(tmp_path, "--club") as server:
        yield server


@pytest.fixture
def playwright() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture
def browser(playwright: Any) -> Iterator[Any]:
    chromium = playwright.chromium.launch(executable_path=CHROMIUM)
    yield chromium
    chromium.close()


def open_tab(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page.goto(url)
    return page


def focus(page: Any) -> None:
    page.wait_for_selector(".xterm-helper-textarea", state="attached")
    page.mouse.click(600, 400)


def turn_of(served: Served, name: str, turn: int) -> bool:
    info = served.worlds().get(name)
    return info is not None and info.turn == turn


def sent_record() -> RunRecord:
    """A run someone sends: a few turns of a small world of the code ``abc``, abandoned."""
    state = new_game(seeds.parse("abc"), preset="small", world_name="Sent World")
    recording = Recording.begin(state)
    for _ in range(3):
        step(state, Wait())
        recording.add(Wait(), state)
    return record_of(
        state,
        world="Sent World",
        started="2026-01-01T00:00:00.000+00:00",
        recording=recording,
        abandoned=True,
    )


def test_a_seed_played_in_a_tab_closed_mid_floor_is_saved_and_continued(
    served, playwright, browser
):
    page = open_tab(browser, f"{served.url}/?seed=abc")
    name = served.shown(1)[0].split(" shown ", 1)[1]
    focus(page)
    for _ in range(12):
        page.keyboard.press("s")  # wait a turn
    served.played(12)
    browser.close()  # the whole browser, as a player closing the window: no goodbye sent
    wait_for("the 12 turns saved", lambda: turn_of(served, name, 12))
    wait_for("the game process gone", lambda: not served.games())

    # a returning tab of the same link goes on with that world, not a new one
    again = playwright.chromium.launch(executable_path=CHROMIUM)
    tab = open_tab(again, f"{served.url}/?seed=abc")
    assert served.shown(2)[1].endswith(f" shown {name}")
    focus(tab)
    tab.keyboard.press("s")
    served.played(13)
    tab.close()
    wait_for("the 13th turn saved", lambda: turn_of(served, name, 13))
    assert list(served.worlds()) == [name]
    again.close()


def test_a_killed_game_loses_nothing_saved_and_sigterm_saves(served, browser):
    page = open_tab(browser, f"{served.url}/?seed=abc")
    name = served.shown(1)[0].split(" shown ", 1)[1]
    focus(page)
    for _ in range(3):
        page.keyboard.press("s")
    served.played(3)
    (pid,) = wait_for("the game's process", served.games)
    os.kill(pid, signal.SIGTERM)  # a way out from outside: the game saves first
    wait_for("the 3 turns saved on SIGTERM", lambda: turn_of(served, name, 3))
    page.close()

    page = open_tab(browser, f"{served.url}/?seed=abc")
    served.shown(2)
    focus(page)
    for _ in range(4):
        page.keyboard.press("s")
    served.played(7)
    (pid,) = wait_for("the game's process", served.games)
    os.kill(pid, signal.SIGKILL)  # nothing can save here: what was saved must stay whole
    wait_for("the killed game gone", lambda: not served.games())
    assert served.worlds()[name].turn == 3 and served.worlds()[name].problem is None
    page.close()
    # its lock went with it: the same link continues the world
    page = open_tab(browser, f"{served.url}/?seed=abc")
    assert served.shown(3)[2].endswith(f" shown {name}")
    page.close()


def test_the_numpad_waits_and_moves_with_numlock_on_and_off(served, browser):
    page = open_tab(browser, f"{served.url}/?seed=abc")
    name = served.shown(1)[0].split(" shown ", 1)[1]
    start = Store(served.saves).open(name).state.player
    focus(page)
    cdp = page.context.new_cdp_session(page)

    def numpad(key: str, code: str, key_code: int, text: str | None = None) -> None:
        event = {"key": key, "code": code, "windowsVirtualKeyCode": key_code, "location": 3}
        down = {"type": "keyDown", "text": text} if text else {"type": "rawKeyDown"}
        cdp.send("Input.dispatchKeyEvent", {**down, **event})
        cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **event})

    for _ in range(3):
        numpad("5", "Numpad5", 101, "5")  # NumLock on: "5"
    for _ in range(4):
        numpad("Clear", "Numpad5", 12)  # NumLock off: "Clear", which xterm.js drops
    served.played(7)
    page.close()
    wait_for("7 waits saved", lambda: turn_of(served, name, 7))

    page = open_tab(browser, f"{served.url}/?seed=abc")
    served.shown(2)
    focus(page)
    cdp = page.context.new_cdp_session(page)
    numpad("4", "Numpad4", 100, "4")  # NumLock on: west
    numpad("ArrowRight", "Numpad6", 39)  # NumLock off: east, back
    numpad("Home", "Numpad7", 36)  # NumLock off: north-west
    numpad("3", "Numpad3", 99, "3")  # NumLock on: south-east, back
    served.played(11)  # (the cells west and north-west of the start of this world are open)
    page.close()
    wait_for("the moves saved", lambda: turn_of(served, name, 11))
    assert Store(served.saves).open(name).state.player == start


def test_an_export_from_the_hall_is_a_browser_download(served, browser, tmp_path):
    record = Hall(Store(served.saves).path).add(sent_record())
    page = open_tab(browser, served.url)
    wait_for("the title", lambda: served.on_top("TitleScreen"))
    focus(page)
    page.keyboard.press("r")
    # the keys go to the hall's table (an x in the seed filter would export nothing)
    wait_for("the hall's table", lambda: served.focused("hall-table"))
    # the page opens the download's one-use link in a new tab: a popup whose navigation is a
    # download, which Chromium reports on the page that opened it
    with page.expect_download(timeout=PATIENCE * 1000) as got:
        page.keyboard.press("x")
    download = got.value
    path = tmp_path / "got.run"
    download.save_as(path)
    assert download.suggested_filename == f"{record.id}.run"
    assert unpack(path.read_bytes()) == record
    assert not list(Store(served.saves).path.glob("*.run"))  # nothing left on the server


def test_a_challenge_uploaded_is_checked_and_kept(served, browser, tmp_path):
    record = sent_record()
    sent = tmp_path / "challenge.run"
    sent.write_bytes(pack(record))
    page = open_tab(browser, f"{served.url}/upload")
    page.set_input_files("#file", str(sent))
    page.click("#send")
    assert re.search(r"/\?import=[0-9a-f]{16}$", page.url)
    hall = Hall(Store(served.saves).path)
    kept = wait_for("the challenge checked and kept", hall.challenges)
    assert [c.digest for c in kept] == [record.digest] and kept[0].world == "Sent World"


def test_a_bad_link_is_refused_in_one_line_and_starts_nothing(served, browser):
    page = open_tab(browser, f"{served.url}/?seed=K7QX-M2PA-9RTE")
    line = page.inner_text("#refused")
    assert line.startswith("Not started: seed: ") and "\n" not in line
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{served.url}/?replay=nosuchrun", timeout=30)
    assert refused.value.code == 400 and b"Not started: replay: no run" in refused.value.read()
    assert not served.games() and not served.lines()


def test_ctrl_x_saves_and_quits_in_the_browser(served, browser):
    page = open_tab(browser, f"{served.url}/?seed=abc")
    name = served.shown(1)[0].split(" shown ", 1)[1]
    focus(page)
    for _ in range(2):
        page.keyboard.press("s")
    served.played(2)
    page.keyboard.press("Control+x")
    wait_for("the game ended by Ctrl+X", lambda: not served.games())
    assert served.worlds()[name].turn == 2
    page.close()


# -- a club ---------------------------------------------------------------------------------


def join(browser: Any, url: str, name: str) -> Any:
    """A new browser (its own cookies) that joins the club as ``name`` at ``url``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url)
    page.fill("#name", name)
    page.click("#join")
    return page


def folders(club: Served) -> dict[str, Path]:
    """Each player's save folder, by name (from the club's register)."""
    register = json.loads((club.saves / "club-players.json").read_text(encoding="utf-8"))
    return {p["name"]: club.saves / "players" / p["id"] for p in register["players"]}


def turns_in(folder: Path) -> dict[str, int]:
    return {w.name: w.turn for w in Store(folder).readable_list()}


def test_two_players_of_a_club_keep_their_own_worlds_of_the_same_seed(club, browser):
    alice = join(browser, f"{club.url}/?seed=abc", "Alice")
    name = club.shown(1)[0].split(" shown ", 1)[1]
    focus(alice)
    for _ in range(3):
        alice.keyboard.press("s")
    club.played(3)
    alice.close()
    wait_for("Alice's game ended", lambda: not club.games())

    bob = join(browser, f"{club.url}/?seed=abc", "Bob")
    club.shown(2)
    focus(bob)
    for _ in range(5):
        bob.keyboard.press("s")
    club.played(5)  # Bob's world of the seed is his own, from turn 0: not Alice's at turn 3
    bob.close()
    wait_for("Bob's game ended", lambda: not club.games())

    mine = folders(club)
    assert turns_in(mine["Alice"]) == {name: 3} and turns_in(mine["Bob"]) == {name: 5}
    assert turns_in(club.saves) == {}  # nothing in the server's own folder
    # the register keeps no token: the cookie's value is nowhere on the server's disk
    (cookie,) = bob.context.cookies()
    assert cookie["name"] == "roguelike_player" and cookie["httpOnly"]  # no script reads it
    token = cookie["value"]
    assert token not in (club.saves / "club-players.json").read_text()
    assert "Bob" not in token and len(token) >= 43
    # Alice, back in her browser, continues her world, never Bob's
    again = alice.context.new_page()
    again.goto(f"{club.url}/?seed=abc")
    club.shown(3)
    focus(again)
    again.keyboard.press("s")
    club.played(4)
    again.close()
    wait_for("Alice's 4th turn saved", lambda: turns_in(mine["Alice"]) == {name: 4})
    assert turns_in(mine["Bob"]) == {name: 5}


def test_a_name_taken_or_malformed_is_refused_in_one_line(club, browser):
    join(browser, club.url, "Alice")
    for name in ("alice", "../Alice", "Bob!", ""):  # (the form stops a long name itself)
        page = join(browser, club.url, name)
        line = page.inner_text("#refused")
        assert line.startswith("Not joined: ") and "\n" not in line
    assert list(folders(club)) == ["Alice"]
    # a join goes back to a page of this server only, never to another site (each from a
    # browser of its own: one that has a player already is not joined again)
    for back, to in (("/?seed=abc", "/?seed=abc"), ("//evil.example/", "/"), ("/\\evil", "/")):
        answer = browser.new_context().request.post(
            f"{club.url}/club/join",
            form={"name": f"N{len(back)}", "next": back},
            headers={"Origin": club.url},
            max_redirects=0,
        )
        assert answer.status == 303 and answer.headers["location"] == to
    # a form of another site is refused, and a browser's player is never replaced
    answer = page.context.request.post(
        f"{club.url}/club/join",
        form={"name": "Mallory"},
        headers={"Origin": "http://evil.example"},
        max_redirects=0,
    )
    assert answer.status == 403
    alice = join(browser, club.url, "Ann")
    (before,) = alice.context.cookies()
    answer = alice.request.post(
        f"{club.url}/club/join", form={"name": "Mallory"}, headers={"Origin": club.url}
    )
    assert answer.status == 409 and alice.context.cookies() == [before]
    assert "Mallory" not in folders(club)


def test_a_player_watches_another_play_from_the_input_stream_and_cannot_play_it(club, browser):
    alice = join(browser, f"{club.url}/?seed=abc", "Alice")
    club.shown(1)
    focus(alice)
    alice.keyboard.press("s")
    club.played(1)
    # Alice's game writes its inputs to a stream in her own folder
    (stream,) = (club.saves / "players").glob("*/live/*.live")
    assert stream.read_bytes().count(b"\n") == 2  # its head and her one input

    def watched(turn: int) -> Callable[[], bool]:
        def shown() -> bool:
            lines = [x.split(" watched ", 1)[1] for x in club.lines() if " watched " in x]
            return bool(lines) and lines[-1] == str(turn)

        return shown

    bob = join(browser, f"{club.url}/watch", "Bob")
    assert bob.inner_text("a.game").startswith("Alice: seed")
    bob.click("a.game")
    # Bob's tab is a game process of its own, replaying Alice's inputs as she plays them
    wait_for("Alice's first turn replayed for Bob", watched(1))
    assert club.on_top("FollowScreen")
    focus(bob)
    for _ in range(3):
        bob.keyboard.press("s")  # a watcher's keys reach nobody's game
    focus(alice)
    for _ in range(2):
        alice.keyboard.press("s")
    club.played(3)  # Alice's turns, not Bob's
    wait_for("Alice's third turn replayed for Bob", watched(3))
    bob.wait_for_timeout(500)
    turns = [x.split(" turn ", 1)[1] for x in club.lines() if " turn " in x]
    assert turns[-1] == "3" and "4" not in turns
    assert stream.read_bytes().count(b"\n") == 4
    alice.close()  # her game ends: its stream goes, Bob's tab stays where it got
    wait_for("Alice's stream removed", lambda: not stream.exists())
    bob.wait_for_timeout(500)
    assert watched(3)()


def test_a_clubs_idle_game_is_saved_and_ended(tmp_path, browser):
    # long enough for the world to be made on a busy machine (no key is sent meanwhile)
    with serving(tmp_path, "--club", "--idle", "20") as club:
        alice = join(browser, f"{club.url}/?seed=abc", "Alice")
        name = club.shown(1)[0].split(" shown ", 1)[1]
        focus(alice)
        for _ in range(2):
            alice.keyboard.press("s")
        club.played(2)
        # no key for the idle time: the server ends the game, which saves on its way out
        wait_for("the idle game ended", lambda: not club.games())
        assert "idle for 20 s: saved and ended" in club.output.read_text()
        assert turns_in(folders(club)["Alice"]) == {name: 2}
        assert not list((club.saves / "players").glob("*/live/*.live"))  # its stream gone
