"""The bench's serve part: ``roguelike serve`` under load, on loopback only.

A server is started (``roguelike serve`` on a free port of 127.0.0.1, a temporary save folder,
its test-mode log on: :data:`screens.served.LOG_VARIABLE`) and driven by plain websocket
clients that speak textual-serve's protocol as its page does (``["stdin", KEYS]`` out, the
terminal's bytes back), which costs the machine far less than a browser per game. Games are
added one at a time up to each level of :data:`LEVELS` (within ``--games``); at each level every
game presses ``s`` (wait a turn) ``keys`` times, pausing :data:`THINK` seconds after each
answer (a brisk player), all at once. It prints:

- **link to map**: from the page's request (``/?seed=…``) to the game's map drawn, as the
  game's test-mode log stamps it (a browser adds loading its page and script, and drawing);
- **key to screen** at each level: from a key sent to the first bytes of the screen's answer
  (p50, p95 and p99 over every key of every game), against the 100 ms budget;
- **memory** per game: the proportional set size (PSS: shared pages divided among their
  sharers) and resident size of each game's process and its children, at the largest level;
- the most games at which the p95 stayed within 100 ms.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import numpy as np

from roguelike.cli import Fail
from roguelike.cli.bench import Budget, Result
from screens.served import LOG_VARIABLE

#: The numbers of games at once tried, in order (those within ``--games``).
LEVELS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 80, 96, 128)
#: The answer a key must have within, in ms.
BUDGET_MS = 100.0
#: The pause after an answer before the next key, in seconds; and how long a screen's bytes
#: may keep coming after the first (an answer's drawing) before it counts as settled.
THINK, SETTLE = 0.3, 0.05
#: Most keys each game presses per level; how long anything is waited for, in seconds.
MOST_KEYS, PATIENCE = 50, 120.0
#: The terminal each client asks for, in cells.
WIDTH, HEIGHT = 100, 30

WEBSOCKET = re.compile(r'data-session-websocket-url="([^"]+)"')


@dataclass
class Client:
    """One game's websocket, read all along (so that the server's heartbeat is answered even
    while other games are opened), and the times its screen's bytes arrived."""

    number: int
    session: aiohttp.ClientSession
    socket: aiohttp.ClientWebSocketResponse | None = None
    link_ms: float = float("nan")
    arrivals: asyncio.Queue[float] | None = None
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        assert self.socket is not None and self.arrivals is not None
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.arrivals.put_nowait(time.perf_counter())
        self.arrivals.put_nowait(float("nan"))  # closed

    async def next_arrival(self, patience: float) -> float:
        assert self.arrivals is not None
        arrival = await asyncio.wait_for(self.arrivals.get(), patience)
        if arrival != arrival:  # nan: the websocket closed
            raise Fail(f"bench serve: game {self.number}'s websocket closed")
        return arrival

    async def settle(self, quiet: float, patience: float = PATIENCE) -> None:
        """Wait until the screen's bytes stop for ``quiet`` seconds (Fail if they have not
        within ``patience`` seconds: a screen that keeps drawing)."""
        deadline = time.monotonic() + patience
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Fail(
                    f"bench serve: game {self.number}'s screen kept drawing for {patience:.0f} s"
                )
            try:
                await self.next_arrival(min(quiet, left))
            except TimeoutError:
                if left >= quiet:  # quiet for the whole wait, not cut short by the deadline
                    return


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def shown_count(log: Path) -> list[float]:
    """The times of the log's "shown" lines (a game's map drawn)."""
    try:
        lines = log.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    return [float(x.split(" ", 1)[0]) for x in lines if " shown " in x]


async def until(what: str, check: object, patience: float = PATIENCE) -> None:
    deadline = time.monotonic() + patience
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise Fail(f"bench serve: waited {patience:.0f} s for {what}")
        await asyncio.sleep(0.02)


async def open_game(client: Client, url: str, log: Path) -> None:
    """Open a game of the seed text ``bench N`` as a page would, timed to its map drawn."""
    before = len(shown_count(log))
    start = time.time()
    async with client.session.get(f"{url}/?seed=bench{client.number}") as response:
        page = await response.text()
    found = WEBSOCKET.search(page)
    if response.status != 200 or found is None:
        raise Fail(f"bench serve: game {client.number} not started ({response.status})")
    address = html.unescape(found.group(1))
    client.socket = await client.session.ws_connect(f"{address}?width={WIDTH}&height={HEIGHT}")
    client.arrivals = asyncio.Queue()
    client.reader = asyncio.create_task(client.read())
    await client.socket.send_json(["focus"])
    await until(f"game {client.number}'s map", lambda: len(shown_count(log)) > before)
    client.link_ms = (shown_count(log)[before] - start) * 1000
    await client.settle(0.5)


async def press(client: Client, keys: int, times: list[float]) -> None:
    """``keys`` waits, each timed from sent to the first bytes of its answer."""
    assert client.socket is not None
    assert client.arrivals is not None
    for _ in range(keys):
        while not client.arrivals.empty():  # bytes that came while the player thought
            client.arrivals.get_nowait()
        sent = time.perf_counter()
        await client.socket.send_json(["stdin", "s"])
        times.append((await client.next_arrival(PATIENCE) - sent) * 1000)
        await client.settle(SETTLE)
        await asyncio.sleep(THINK)


def descendants(pid: int) -> list[int]:
    """``pid``'s children, grandchildren…, from /proc."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                todo.append(child)
    return found


def memory_kib(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of ``pid`` and its descendants, in KiB (0, 0 if it is gone)."""
    pss = rss = 0
    for each in [pid, *descendants(pid)]:
        try:
            text = Path(f"/proc/{each}/smaps_rollup").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Pss:"):
                pss += int(line.split()[1])
            elif line.startswith("Rss:"):
                rss += int(line.split()[1])
    return pss, rss


def say(line: str) -> None:
    """A line of the part, printed as soon as it is measured (a level takes a while)."""
    print(line, flush=True)


async def drive(url: str, log: Path, server: int, keys: int, most: int) -> None:
    clients: list[Client] = []
    crossed: int | None = None
    held = 0
    async with aiohttp.ClientSession() as session:
        try:
            for level in [n for n in LEVELS if n <= most]:
                while len(clients) < level:
                    client = Client(len(clients) + 1, session)
                    await open_game(client, url, log)
                    clients.append(client)
                times: list[float] = []
                ended = await asyncio.gather(
                    *(press(c, keys, times) for c in clients), return_exceptions=True
                )
                for error in ended:
                    if isinstance(error, BaseException):
                        raise error
                name = f"serve key→screen, {level} games"
                say(Result(name, times, 0, Budget(p95_ms=BUDGET_MS)).line())
                if np.percentile(times, 95) > BUDGET_MS:
                    crossed = level
                    break
                held = level
            sizes = [memory_kib(p) for p in sorted(direct_children(server))]
            if sizes:
                pss = np.array([s[0] for s in sizes]) / 1024
                rss = np.array([s[1] for s in sizes]) / 1024
                say(
                    f"serve memory per game ({len(sizes)} games): PSS median "
                    f"{np.median(pss):.0f} MiB (max {pss.max():.0f}), RSS median "
                    f"{np.median(rss):.0f} MiB (max {rss.max():.0f})"
                )
        finally:
            for client in clients:
                if client.socket is not None:
                    await client.socket.close()
                if client.reader is not None:
                    client.reader.cancel()
    links = [c.link_ms for c in clients]
    say(Result("serve link→map (server side)", links, 0, Budget()).line())
    if crossed is None:
        say(f"serve: p95 within {BUDGET_MS:g} ms up to {held} games (the most tried)")
    else:
        say(f"serve: p95 within {BUDGET_MS:g} ms up to {held} games; over at {crossed}")


def direct_children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(map(int, (task / "children").read_text().split()))
        except OSError:
            continue
    return found


#: The browser a browser's figures are measured in (Debian's package), if it is here.
CHROMIUM = "/usr/bin/chromium"

#: In the page: the time of each key pressed and of each paint after the screen's bytes came
#: (the first animation frame after a websocket message: when xterm.js draws it).
PAGE_CLOCK = """
window.__keys = []; window.__paints = [];
window.addEventListener("keydown", () => window.__keys.push(performance.now()), true);
const Original = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new Original(...args);
  socket.addEventListener("message", (event) => {
    if (typeof event.data !== "string")
      requestAnimationFrame(() => window.__paints.push(performance.now()));
  });
  return socket;
};
window.WebSocket.prototype = Original.prototype;
"""


def browser_lines(url: str, log: Path, keys: int) -> Iterator[str]:
    """One game in Chromium, alone on the server: link to map, and key to paint."""
    try:  # here, not at the top: Playwright is a tool of the tests, not of the game
        from playwright.sync_api import sync_playwright
    except ImportError:
        yield "serve in a browser: not measured (no Playwright)"
        return
    if not Path(CHROMIUM).exists():
        yield f"serve in a browser: not measured (no {CHROMIUM})"
        return
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script(PAGE_CLOCK)
            before = len(shown_count(log))
            start = time.time()
            page.goto(f"{url}/?seed=browser")
            deadline = time.monotonic() + PATIENCE
            while len(shown_count(log)) <= before:
                if time.monotonic() > deadline:
                    raise Fail("bench serve: the browser's game was never drawn")
                page.wait_for_timeout(20)
            link = (shown_count(log)[before] - start) * 1000
            yield Result("serve link→map (Chromium)", [link], 0, Budget()).line()
            page.wait_for_timeout(1000)
            page.mouse.click(600, 400)
            page.wait_for_timeout(500)
            times: list[float] = []
            for _ in range(keys):
                page.evaluate("window.__paints = []")
                page.keyboard.press("s")
                page.wait_for_timeout(THINK * 1000)
                key = page.evaluate("window.__keys[window.__keys.length - 1]")
                paints = [t for t in page.evaluate("window.__paints") if t >= key]
                if paints:
                    times.append(paints[0] - key)
            name = "serve key→paint (Chromium)"
            yield Result(name, times, keys - len(times), Budget(p95_ms=BUDGET_MS)).line()
        finally:
            browser.close()


def serve_lines(seeds: int, games: int = 32) -> Iterator[str]:
    """The serve part (``seeds``: keys per game per level, at most :data:`MOST_KEYS`; the
    lines after the first are printed as they are measured)."""
    keys = min(seeds, MOST_KEYS)
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="roguelike-bench-serve-"))
    log, output = folder / "shown.log", folder / "server.txt"
    env = {**os.environ, LOG_VARIABLE: str(log)}
    argv = [sys.executable, "-m", "roguelike.cli", "serve", "--host", "127.0.0.1"]
    argv += ["--port", str(port), "--games", str(games), "--save-dir", str(folder / "saves")]
    yield f"serve: {games} games at most, {keys} keys each per level, {THINK:g} s between"
    with output.open("wb") as out:
        server = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise Fail("bench serve: the server did not start") from None
                time.sleep(0.1)
        yield from browser_lines(f"http://127.0.0.1:{port}", log, keys)
        asyncio.run(drive(f"http://127.0.0.1:{port}", log, server.pid, keys, games))
    finally:
        server.send_signal(signal.SIGINT)  # every game saves and ends, then the server
        try:
            server.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


PARTS = {"serve": serve_lines}
