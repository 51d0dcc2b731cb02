"""The web server of ``roguelike serve``: textual-serve's, extended around its seams.

textual-serve (an aiohttp application) answers a page with xterm.js and, for each websocket
the page opens, runs one app process and carries the terminal's bytes both ways. Where it falls
short for this game, a subclass takes over one method at a time:

- **the process** (:class:`GameService`, over its ``AppService``): started from an argument
  list (:func:`~screens.web.start.child_argv`), never through a shell, in a session of
  its own (so its floor worker goes with it); its driver is :mod:`screens.web_driver`, which
  ends the game (saving it) when the server's pipe closes. **When the tab goes** (closed,
  reloaded, its connection lost: the websocket ends, or its heartbeat stops), textual-serve asks
  the app to quit and stops reading it: the app then blocked on a full pipe, or died on a
  broken one, before its save. Here the process's output is read (and dropped) until it has
  exited, so the game's save-on-quit runs; one that has not exited after ``QUIT_WAIT`` seconds
  is sent SIGTERM (which it also answers by saving), then after ``TERM_WAIT`` SIGKILL (its last
  save stays whole: saves are written atomically).
- **the page** (:meth:`GameServer.handle_index`): the tab's start is read from its URL
  (:func:`~screens.web.start.read_start`) and refused in one line on the page if it
  cannot be started, before any process runs; a start is kept under a one-use token that the
  page's websocket URL carries (``/ws/TOKEN``: xterm.js appends its own ``?width=…``). The
  page is textual-serve's with two changes (``templates/app_index.html``): no font from another
  site, and numpad 5 with NumLock off (``Clear``, which xterm.js drops) typed as ``5``.
- **its own pages** (:mod:`.pages`): a refusal in one line, the upload and join forms, and
  the checks of a form's request.
- **uploads** (``/upload``): a challenge or run file comes in by a form (bounded to a run
  file's largest size), is kept in a temporary folder of the server, and the browser is sent
  to ``/?import=KEY``: a tab whose game opens the challenge import on that file.
- **downloads** are textual-serve's own: the app's ``deliver_binary`` (the hall's export when
  served) becomes a one-use ``/download/KEY`` the page opens (in a new tab: a popup whose
  navigation is a download, which the browser saves).
- **a club** (``--club``, :mod:`.club`): a browser without a player is shown a form to pick
  a name (``/club/join`` answers with the token's cookie; only to a form of this server's own
  pages, never over a player the browser has, and back to a path of this server only: see
  :func:`same_origin`, :func:`local_path`); :meth:`GameServer.save_dir_for`
  gives each request its player's own folder, so each game process sees only its player's
  worlds; a player runs at most ``MAX_GAMES_PER_PLAYER`` games, and a game without a key for
  ``IDLE`` seconds is saved and ended.
- **watching** (``/watch``, ``/watch/ID``): each game writes its inputs, as they are
  played, to an input stream in its player's folder (``live/ID.live``, :mod:`saves.live`;
  removed when the game ends). A watcher's tab is a game process of its own, started on that
  stream with ``--follow`` (:mod:`screens.follow`): the replay viewer, following the inputs
  (a daily's stay ``saves.live.BEHIND_TURNS`` turns behind). Nothing of the watcher's reaches
  the watched game: it only reads the stream. A watcher counts among its player's games and
  the server's; it is not ended for being idle while the game it watches goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import secrets
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import BodyPartReader, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from saves.errors import SaveError
from saves.hall import SUFFIX as RUN_SUFFIX
from saves.hall import Hall
from saves.live import BEHIND_TURNS
from saves.record import MAX_FILE, RunFileError
from saves.store import Store
from screens.web.club import COOKIE, PLAYERS_DIR, Club, NameRefused, Player
from screens.web.pages import (
    JOIN_FORM,
    MAX_JOIN,
    UPLOAD_FORM,
    local_path,
    page,
    refusal,
    refused,
    same_origin,
)
from screens.web.start import (
    RUN_ID,
    Start,
    StartRefused,
    child_argv,
    query_pairs,
    read_start,
)

log = logging.getLogger("roguelike-serve")

TEMPLATES = Path(__file__).with_name("templates")
#: How long a quitting game has to save and exit, then how long after SIGTERM, in seconds.
QUIT_WAIT = 15.0
TERM_WAIT = 5.0
#: The most games running at once (``--games``), and starts waiting for their websocket.
MAX_GAMES = 16
MAX_PENDING = 64
#: The most starts waiting for their websocket from one address (one client cannot take every
#: slot of :data:`MAX_PENDING` and lock the others out).
MAX_PENDING_PER_ADDRESS = 8
#: The most tabs watching one game, and watching in all (each is a game process: watchers
#: never take every game slot of the server).
MAX_WATCHERS_PER_GAME = 4
MAX_WATCHERS = 8
#: How long a page's start waits for its websocket, in seconds.
PENDING_LIFE = 120.0
#: An upload: at most a run file's largest size; the most kept at once (oldest go first).
MAX_UPLOAD = MAX_FILE
MAX_UPLOADS = 32
#: The most uploads one player keeps (their oldest go first, never another player's).
MAX_UPLOADS_PER_PLAYER = 4
#: The terminal's size a page may ask for, in cells.
MIN_CELLS, MAX_CELLS = 10, 1000
#: The largest message a page may send on its websocket (keys, a paste, a resize).
MAX_MESSAGE = 1 << 20
#: A club: the most games (watching included) one player runs at once; how long a game may
#: go without a key before it is saved and ended, in seconds.
MAX_GAMES_PER_PLAYER = 3
IDLE = 30 * 60.0
#: The folder of the input streams, in each player's save folder (see :mod:`saves.live`).
LIVE_DIR = "live"
#: A cookie's life, in seconds (a year: a browser keeps its player).
COOKIE_LIFE = 365 * 24 * 3600
#: The driver the game processes run under (Textual imports it by this path).
DRIVER = "screens.web_driver:GameWebDriver"


def cells(value: str | None, default: int) -> int:
    """A terminal size from a page's query, within bounds."""
    try:
        n = int(value or default)
    except ValueError:
        return default
    return max(MIN_CELLS, min(MAX_CELLS, n))


class GameService(AppService):
    """One tab's game process (see the module): exec'd from ``argv``, read to its end."""

    def __init__(
        self,
        argv: list[str],
        player: str = "",
        start: Start | None = None,
        *,
        watch_id: str = "",
        stream: Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = argv
        #: the tab is gone: output is read and dropped until the process exits
        self.gone = False
        #: who plays it (a club's player name; "" alone) and what its tab's link started
        self.player = player
        self.start_asked = start or Start()
        #: its id on the watch list (not the tab's token: watching never reaches the game)
        self.watch_id = watch_id or secrets.token_urlsafe(12)
        #: the input stream its games write (a watcher's: the one it follows)
        self.stream = stream
        self.size = (80, 24)
        #: when the game first wrote to its screen (None: not yet; its idle time starts there)
        self.first_output: float | None = None

    @property
    def watcher(self) -> bool:
        """This tab watches a game (it plays none)."""
        return self.start_asked.kind == "watch"

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width, height)
        env["TEXTUAL_DRIVER"] = DRIVER
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,  # its floor worker is in its group: killed with it
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def on_data(self, payload: bytes) -> None:
        if self.first_output is None:
            self.first_output = time.monotonic()
        if self.gone:
            return
        try:
            await self.remote_write_bytes(payload)
        except (ConnectionError, RuntimeError):  # the tab went: keep reading to the end
            self.gone = True

    async def on_meta(self, data: bytes) -> None:
        if self.gone:
            return
        try:
            await super().on_meta(data)
        except (ConnectionError, RuntimeError):
            self.gone = True

    async def run(self) -> None:
        await super().run()
        if not self.gone:  # the game ended by itself (or was killed): the tab is told
            self.gone = True
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.remote_close()

    async def stop(self) -> None:
        """Ask the game to quit (it saves), read it to its end; SIGTERM, then SIGKILL, if it
        does not end in time. Whatever is left of its process group once it has ended (a
        worker left behind, holding the game's output pipe open) is killed, and the output
        is read for ``TERM_WAIT`` seconds at most after that: a stop always ends."""
        self.gone = True
        task, process = self._task, self._process
        if task is None or process is None:
            return
        self._task = None
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        for wait, then in ((QUIT_WAIT, signal.SIGTERM), (TERM_WAIT, signal.SIGKILL)):
            try:
                await asyncio.wait_for(process.wait(), wait)
                break
            except TimeoutError:
                log.warning("game %s did not end: %s", process.pid, then.name)
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, then)
        else:
            await process.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # the game is over: its group goes too
        try:
            await asyncio.wait_for(task, TERM_WAIT)
        except TimeoutError:  # the pipe is held by a process outside the group
            log.warning("game %s: its output did not end: no longer read", process.pid)


@dataclass
class Keys:
    """When a tab's last key came (``time.monotonic()``)."""

    last: float


@dataclass(frozen=True)
class Pending:
    """A page's start, waiting for the page's websocket."""

    start: Start
    argv: list[str]
    made: float
    player: str = ""
    #: the game's id on the watch list (a watcher's: the watched game's), and its stream
    watch_id: str = ""
    stream: Path | None = None
    #: the address the page was asked from
    address: str = ""


def run_named(folder: Path, run_id: str) -> str:
    """The id of the hall's run ``run_id`` (a unique start will do), by its file's name alone:
    nothing is read (StartRefused, one line, if there is none or several)."""
    try:
        path, _ = Hall(folder).find(run_id)
    except (RunFileError, SaveError) as err:
        raise StartRefused(f"replay: {err}") from None
    except OSError as err:
        raise StartRefused(f"replay: {err.strerror or err}") from None
    found = path.name[: -len(RUN_SUFFIX)]
    if not RUN_ID.fullmatch(found):
        raise StartRefused("replay: that run's file is not named as the hall names runs")
    return found


class GameServer(Server):
    """``roguelike serve`` (see the module)."""

    def __init__(
        self,
        save_dir: str | None,
        host: str,
        port: int,
        max_games: int = MAX_GAMES,
        *,
        club: bool = False,
        idle: float = IDLE,
        games_per_player: int = MAX_GAMES_PER_PLAYER,
        max_upload: int = MAX_UPLOAD,
    ) -> None:
        super().__init__(
            "roguelike", host=host, port=port, title="Roguelike", templates_path=TEMPLATES
        )
        self.save_dir = save_dir
        self.max_games = max_games
        #: a club's register of players (None: one player, the server's folder)
        self.club = Club(Store(save_dir).path) if club else None
        #: the club's bounds: a game's idle time (s), games per player; an upload's size
        self.idle = idle
        self.games_per_player = games_per_player
        self.max_upload = max_upload
        #: the running games, by their page's token
        self.games: dict[str, GameService] = {}
        self.pending: dict[str, Pending] = {}
        self.uploads = Path(tempfile.mkdtemp(prefix="roguelike-uploads-"))

    def player_of(self, request: web.Request) -> Player | None:
        """The club's player whose browser sent ``request`` (None: none, or no club)."""
        if self.club is None:
            return None
        return self.club.player(request.cookies.get(COOKIE))

    def save_dir_for(self, request: web.Request) -> str | None:
        """The save folder of the player behind ``request``: alone, the server's; in a club,
        the player's own (see :mod:`.club`; a request without a player has none)."""
        if self.club is None:
            return self.save_dir
        player = self.player_of(request)
        if player is None:
            raise StartRefused("choose a player name first")
        return str(self.club.folder(player))

    async def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_UPLOAD + (64 << 10))
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.get("/upload", self.handle_upload_form, name="upload"),
                web.post("/club/join", self.handle_join),
                web.get("/watch", self.handle_watch_list),
                web.get("/watch/{game}", self.handle_watch),
                web.post("/upload", self.handle_upload),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        app.on_cleanup.append(self.on_cleanup)
        return app

    async def on_startup(self, app: web.Application) -> None:
        self._drop_streams()
        where = f"http://{self.host}:{self.port}/"
        self.console.print(f"Serving the game on {where}", highlight=False)
        if self.host not in ("127.0.0.1", "localhost", "::1"):
            self.console.print(
                f"[bold yellow]Bound to {self.host}: anyone who can reach this machine on "
                f"port {self.port} can play here, with your save folder.",
                highlight=False,
            )
        self.console.print("Press Ctrl+C to stop (every game is saved first).", highlight=False)

    async def on_shutdown(self, app: web.Application) -> None:
        """Every game saves and ends before the server does."""
        await asyncio.gather(*(game.stop() for game in list(self.games.values())))

    def _drop_streams(self) -> None:
        """The input streams a server killed before left behind (no game writes them)."""
        root = Store(self.save_dir).path
        for stale in [
            *root.glob(f"{LIVE_DIR}/*.live"),
            *root.glob(f"{PLAYERS_DIR}/*/{LIVE_DIR}/*.live"),
        ]:
            with contextlib.suppress(OSError):
                stale.unlink()

    async def on_cleanup(self, app: web.Application) -> None:
        shutil.rmtree(self.uploads, ignore_errors=True)

    # -- the page ------------------------------------------------------------------------

    def _expire(self) -> None:
        now = time.monotonic()
        for token, pending in list(self.pending.items()):
            if now - pending.made > PENDING_LIFE:
                del self.pending[token]

    async def _argv(
        self, start: Start, request: web.Request, stream: Path | None = None
    ) -> list[str]:
        """The game process of ``start`` (StartRefused if its run or upload is not here),
        writing its inputs to ``stream``. A run is found by its file's name, in a thread:
        the game process reads and checks it, never the server's loop (a run file is up to
        32 MiB, and reading one stalled every game)."""
        save_dir = self.save_dir_for(request)
        upload = None
        if start.kind == "replay":
            run_id = await asyncio.to_thread(run_named, Store(save_dir).path, start.value)
            return child_argv(Start("replay", run_id), save_dir)
        elif start.kind == "import":
            upload = self._uploads_of(request) / f"{start.value}.run"
            if not upload.is_file():
                raise StartRefused("import: no such upload (it is kept while the server runs)")
        return child_argv(start, save_dir, upload, stream=stream)

    def _stream_of(self, request: web.Request, watch_id: str) -> Path:
        """The input stream of a game of the player behind ``request``, in their folder."""
        return Store(self.save_dir_for(request)).path / LIVE_DIR / f"{watch_id}.live"

    async def handle_index(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        player = self.player_of(request)
        if self.club is not None and player is None:
            return self._join_page(request)
        if (too_many := self._too_many(player, request.remote)) is not None:
            return too_many
        watch_id = secrets.token_urlsafe(12)
        try:
            start = read_start(query_pairs(request.query))
            argv = await self._argv(start, request, self._stream_of(request, watch_id))
        except StartRefused as err:
            return refusal(str(err))
        stream = self._stream_of(request, watch_id) if start.kind != "replay" else None
        return self._game_page(request, Pending(start, argv, 0, "", watch_id, stream), self.title)

    def _too_many(self, player: Player | None, address: str | None) -> web.Response | None:
        """The refusal of one more game for ``player`` (or for the server), if it is one too
        many."""
        self._expire()
        if player is not None and self._games_of(player.name) >= self.games_per_player:
            return refusal(f"you run {self.games_per_player} games already: close a tab", 429)
        if len(self.games) >= self.max_games or len(self.pending) >= MAX_PENDING:
            return refusal(f"this server runs {self.max_games} games at most: try again later", 503)
        waiting = sum(1 for p in self.pending.values() if p.address == (address or ""))
        if waiting >= MAX_PENDING_PER_ADDRESS:
            return refusal(
                f"{MAX_PENDING_PER_ADDRESS} pages of yours are still opening: try again later", 429
            )
        return None

    def _game_page(self, request: web.Request, pending: Pending, title: str) -> web.Response:
        """The page of a game process to start (``pending``), once its websocket opens."""
        token = secrets.token_urlsafe(16)
        player = self.player_of(request)
        name = "" if player is None else player.name
        self.pending[token] = replace(
            pending, made=time.monotonic(), player=name, address=request.remote or ""
        )
        scheme = "wss" if request.secure else "ws"
        context = {
            "font_size": cells(request.query.get("fontsize"), 16),
            "app_websocket_url": f"{scheme}://{request.host}/ws/{token}",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    # -- the game ------------------------------------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:  # type: ignore[override]
        pending = self.pending.pop(request.match_info["token"], None)
        if pending is None or len(self.games) >= self.max_games:
            raise web.HTTPNotFound(text="no such game: reload the page")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        width = cells(request.query.get("width"), 80)
        height = cells(request.query.get("height"), 24)
        token = secrets.token_urlsafe(16)
        game: GameService | None = None
        try:
            await websocket.prepare(request)
            game = GameService(
                pending.argv,
                pending.player,
                pending.start,
                watch_id=pending.watch_id,
                stream=pending.stream,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            game.size = (width, height)
            self.games[token] = game
            await game.start(width, height)
            log.info("game %s started: %s %s", game.pid, pending.start.kind, pending.start.value)
            await self._relay(websocket, game)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - a broken page never stops the server
            log.warning("a tab's connection failed: %s", error)
        finally:
            if game is not None:
                await game.stop()
                log.info("game %s ended", game.pid)
                if game.stream is not None and not game.watcher:  # its watchers see it end
                    with contextlib.suppress(OSError):
                        game.stream.unlink(missing_ok=True)
            self.games.pop(token, None)
        return websocket

    async def _relay(self, websocket: web.WebSocketResponse, game: GameService) -> None:
        """The page's messages to the game (keys, sizes, focus), until the page goes or sends
        anything malformed; in a club, also until the game has had no key for ``idle``
        seconds (counted from its first output at the earliest: a game still starting is
        not idle), a watcher once the game it watches is over too. Its caller then ends the
        game (saved). The idle time is kept here, not by the websocket's receive timeout
        (aiohttp closes the websocket when that runs out)."""
        keys = Keys(time.monotonic())
        reading = asyncio.create_task(self._read(websocket, game, keys))
        try:
            while not reading.done():
                if self.club is None:
                    await reading
                    break
                since = max(keys.last, game.first_output or keys.last)
                wait = since + self.idle - time.monotonic()
                if wait > 0:
                    await asyncio.wait({reading}, timeout=wait)
                elif game.watcher and self._running(game.watch_id):
                    keys.last = time.monotonic()
                else:
                    log.info("game %s idle for %.0f s: saved and ended", game.pid, self.idle)
                    break
        finally:
            if not reading.done():
                reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading

    async def _read(self, websocket: web.WebSocketResponse, game: GameService, keys: Keys) -> None:
        """The page's messages to the game, each key's time in ``keys`` (see :meth:`_relay`)."""
        while True:
            message = await websocket.receive()
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if message.type == WSMsgType.ERROR:
                return
            if message.type != WSMsgType.TEXT:
                continue
            envelope = json.loads(message.data)
            if not isinstance(envelope, list) or not envelope:
                return
            kind = envelope[0]
            data = envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                keys.last = time.monotonic()
                await game.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                game.size = (cells(str(data.get("width")), 80), cells(str(data.get("height")), 24))
                await game.set_terminal_size(*game.size)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await game.blur()
            elif kind == "focus":
                await game.focus()

    # -- a club -------------------------------------------------------------------------

    def _running(self, watch_id: str) -> GameService | None:
        """The game (not a watcher) of ``watch_id``, if it is running."""
        for game in list(self.games.values()):
            if not game.watcher and secrets.compare_digest(game.watch_id, watch_id):
                return game
        return None

    def _watchers(self, watch_id: str | None = None) -> int:
        """The tabs watching (or opening to watch) ``watch_id``'s game (None: any game)."""
        running = [g.watch_id for g in self.games.values() if g.watcher]
        opening = [p.watch_id for p in self.pending.values() if p.start.kind == "watch"]
        return sum(1 for w in running + opening if watch_id is None or w == watch_id)

    def _games_of(self, player: str) -> int:
        return sum(1 for g in self.games.values() if g.player == player) + sum(
            1 for p in self.pending.values() if p.player == player
        )

    async def handle_join(self, request: web.Request) -> web.StreamResponse:
        """A browser's first visit to a club: its player's name, kept in a cookie. Only from
        this server's own form (its origin), in a body of at most ``MAX_JOIN`` bytes, and
        never over a player the browser already has (that player's worlds would be lost)."""
        if self.club is None:
            return refused("This server is not a club.", 404)
        if not same_origin(request):
            return refused("Not joined: the form did not come from this server.", 403)
        if (player := self.player_of(request)) is not None:
            return refused(f"Not joined: this browser plays here as {player.name} already.", 409)
        if request.content_length is None or request.content_length > MAX_JOIN:
            return refused(f"Not joined: a join is a form of at most {MAX_JOIN} bytes.", 413)
        form = await request.post()
        name, back = form.get("name"), form.get("next")
        if not isinstance(name, str):
            return refused("Not joined: give a name.")
        try:
            token, _ = self.club.join(name)
        except NameRefused as err:
            return refused(f"Not joined: {err}.")
        except OSError as err:
            return refused(f"Not joined: the club's register: {err.strerror or err}.", 500)
        response = web.HTTPSeeOther(local_path(back))
        response.set_cookie(
            COOKIE,
            token,
            max_age=COOKIE_LIFE,
            httponly=True,
            samesite="Lax",  # sent when a link from elsewhere is followed, not by forms
            secure=request.secure,
        )
        raise response

    def _watcher(self, request: web.Request) -> web.Response | None:
        """The join form if ``request`` may not watch yet (a club's watchers are its
        players)."""
        if self.club is not None and self.player_of(request) is None:
            return self._join_page(request)
        return None

    def _join_page(self, request: web.Request) -> web.Response:
        """The form a browser without a player is shown, leading back to ``request``."""
        return page("Roguelike: join the club", JOIN_FORM.format(next=html.escape(request.path_qs)))

    async def handle_watch_list(self, request: web.Request) -> web.Response:
        """The games in progress (not the watchers), each a link to watch it."""
        if (refusal_ := self._watcher(request)) is not None:
            return refusal_
        rows = [
            f'<li><a class="game" href="/watch/{game.watch_id}">'
            f"{html.escape(game.player or 'a game')}: {html.escape(game.start_asked.kind)}"
            "</a></li>"  # the kind only: an import's value is its upload's key
            for game in list(self.games.values())
            if not game.watcher and game.stream is not None
        ]
        body = "<h1>Games in progress</h1>"
        body += f"<ul>{''.join(rows)}</ul>" if rows else "<p>No game is being played.</p>"
        body += (
            "<p>A watched game is replayed from its inputs as they are played; "
            f"a daily is shown {BEHIND_TURNS} turns behind.</p>"
        )
        return page("Roguelike: watch", body)

    async def handle_watch(self, request: web.Request) -> web.StreamResponse:
        """A tab watching a game in progress, read-only: a game process of its own following
        the game's input stream (see the module)."""
        if (refusal_ := self._watcher(request)) is not None:
            return refusal_
        game = self._running(request.match_info["game"])
        if game is None or game.stream is None:
            return refused("Not watched: no such game in progress (see /watch).", 404)
        if (too_many := self._too_many(self.player_of(request), request.remote)) is not None:
            return too_many
        if self._watchers(game.watch_id) >= MAX_WATCHERS_PER_GAME:
            return refusal(f"this game has its {MAX_WATCHERS_PER_GAME} watchers", 429)
        if self._watchers() >= MAX_WATCHERS:
            return refusal(f"this server shows {MAX_WATCHERS} watchers at most", 503)
        start = Start("watch", game.watch_id)
        try:
            argv = child_argv(start, self.save_dir_for(request), stream=game.stream)
        except StartRefused as err:
            return refusal(str(err))
        pending = Pending(start, argv, 0, "", game.watch_id, game.stream)
        return self._game_page(request, pending, f"Watching {game.player or 'a game'}")

    # -- uploads -------------------------------------------------------------------------

    async def handle_upload_form(self, request: web.Request) -> web.Response:
        return page("Roguelike: import a file", UPLOAD_FORM.format(most=MAX_UPLOAD >> 20))

    async def handle_upload(self, request: web.Request) -> web.StreamResponse:
        """A file from the form, kept (bounded) under a new key; then a tab that imports it."""
        if not same_origin(request):
            return refused("Not uploaded: the form did not come from this server.", 403)
        if self.club is not None and self.player_of(request) is None:
            return refused("Not uploaded: join the club first (open / on this server).", 403)
        try:
            reader = await request.multipart()
        except (ValueError, AssertionError):
            return refusal("the upload is not a form", 400)
        field = await reader.next()
        while field is not None and getattr(field, "name", None) != "file":
            field = await reader.next()
        if not isinstance(field, BodyPartReader):
            return refusal("the upload has no file", 400)
        key = secrets.token_hex(8)
        folder = self._uploads_of(request)
        path = folder / f"{key}.run"
        size = 0
        try:
            folder.mkdir(exist_ok=True)
            with path.open("wb") as out:
                while chunk := await field.read_chunk(1 << 16):
                    size += len(chunk)
                    if size > self.max_upload:
                        raise StartRefused(
                            f"the file is larger than a run file can be ({self.max_upload:,} bytes)"
                        )
                    out.write(chunk)
        except StartRefused as err:
            path.unlink(missing_ok=True)
            return refusal(str(err), 413)
        except OSError as err:
            path.unlink(missing_ok=True)
            return refusal(f"the upload could not be kept: {err.strerror or err}", 500)
        if size == 0:
            path.unlink(missing_ok=True)
            return refusal("the file is empty", 400)
        self._prune_uploads(folder)
        raise web.HTTPSeeOther(f"/?import={key}")

    def _uploads_of(self, request: web.Request) -> Path:
        """The folder of the uploads of the player behind ``request`` (alone: one for all):
        a key opens only its own player's upload."""
        player = self.player_of(request)
        return self.uploads / ("server" if player is None else player.id)

    def _prune_uploads(self, folder: Path) -> None:
        """The player's oldest uploads past ``MAX_UPLOADS_PER_PLAYER``; then, past
        ``MAX_UPLOADS`` in all (the disk's bound), the oldest of all."""

        def by_age(paths: list[Path]) -> list[Path]:
            aged = []
            for path in paths:
                with contextlib.suppress(OSError):
                    aged.append((path.stat().st_mtime, path))
            return [p for _, p in sorted(aged)]

        for old in by_age(list(folder.glob("*.run")))[:-MAX_UPLOADS_PER_PLAYER]:
            old.unlink(missing_ok=True)
        for old in by_age(list(self.uploads.glob("*/*.run")))[:-MAX_UPLOADS]:
            old.unlink(missing_ok=True)
