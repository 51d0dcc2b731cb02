"""The game's app in a browser tab (``roguelike serve`` starts it with ``--served``).

:class:`ServedApp` is the terminal's app (:class:`~screens.lasting.LastingApp`: saved on every
way out) with what a browser changes; it knows it is served only because the command line
says so, and nothing here knows about the server but the paths of its pages:

- **Quit**: Ctrl+Q closes Firefox on Linux, so Ctrl+X (which no browser takes from a page)
  saves and quits too, and is the one the footer shows.
- **A seed in the URL** (``?seed=CODE``): the unfinished world of that code is continued if
  there is one (a reloaded tab goes on where it was), else a world of it starts; ``?daily``
  is the title's daily (today's world continued, else started).
- **Exports** reach the player as a download (:meth:`deliver_run`, which the hall's export
  calls when served), not a file on the server's disk.
- **Imports**: the title's challenge import opens the server's upload page (``/upload``); a
  file uploaded there comes back as a new tab whose game opens the import on it
  (``import_file``) and checks it at once.
"""

from __future__ import annotations

import io
import os
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.widgets import Input

from roguelike import seeds
from roguelike.version import GENERATOR_VERSION
from saves.errors import SaveError, WorldLocked
from saves.text import printable
from screens.lasting import LastingApp

if TYPE_CHECKING:
    from saves.session import Session

#: The server's page that takes a challenge or run file.
UPLOAD_PAGE = "/upload"
#: Test mode: the file a line is added to once a game's map is drawn (see :meth:`log_shown`).
LOG_VARIABLE = "ROGUELIKE_SERVED_LOG"
#: Opening a world of the URL's seed waits this long for a tab just closed to let go of it.
LOCK_TRIES, LOCK_WAIT = 20, 0.25


class ServedApp(LastingApp):
    """The game in a browser tab (see the module)."""

    BINDINGS = [
        Binding("ctrl+q", "save_and_quit", "Quit", show=False, priority=True),
        Binding("ctrl+x", "save_and_quit", "Quit", key_display="^x", priority=True),
    ]

    def __init__(
        self,
        *,
        seed: int | None = None,
        daily: bool = False,
        import_file: str | None = None,
        live_stream: str | None = None,
        follow: str | None = None,
        watch: bool = False,
        **kwargs: Any,
    ) -> None:
        # a seed is started here (continued if unfinished), not by the app's own start
        super().__init__(seed=seed if watch else None, watch=watch, **kwargs)
        self.served_seed = None if watch or daily else seed
        self.served_daily = daily
        self.import_file = import_file
        #: where this tab's games write their inputs for watchers (:mod:`saves.live`)
        self.live_stream = live_stream
        #: the input stream this tab watches, read-only (:mod:`screens.follow`)
        self.follow = follow
        # the test mode's screen on top and turn, as last logged
        self._top = ""
        self._focus: str | None = ""
        self._turn: int | None = None

    def on_mount(self) -> None:
        # Textual runs the base classes' on_mount after this one (the title is pushed there):
        # the tab's start comes once they have run
        self.call_later(self.start_served)
        if os.environ.get(LOG_VARIABLE):
            self.set_interval(0.1, self._log_top)

    def start_served(self) -> None:
        """What the tab's URL asked for: a game to watch, an import, the daily, a seed (else
        the title)."""
        if self.follow is not None:
            from screens.follow import FollowScreen  # loads the replay viewer: not for the title

            self.push_screen(FollowScreen(Path(self.follow)))
        elif self.import_file is not None:
            self.import_upload(self.import_file)
        elif self.served_daily:
            self.action_daily()
        elif self.served_seed is not None:
            self.start_seed(self.served_seed)

    def stream(self, session: Session) -> None:
        """Write ``session``'s inputs to this tab's input stream as they are played, from its
        start (its recording so far) on; a daily's watchers are kept behind (see
        :mod:`saves.live`)."""
        from saves.live import LiveWriter
        from saves.record import daily_day

        if self.live_stream is None or session.recording is None:
            return
        world = session.world
        writer = LiveWriter(Path(self.live_stream), told=self.stream_stopped)
        daily = daily_day(world.seed, world.created) is not None
        writer.begin(world.name, daily, session.recording, session.state.turn)
        session.live = writer

    def stream_stopped(self, why: str) -> None:
        """The input stream stopped (a failed write, or its bound): the game goes on, and the
        player is told that watchers no longer follow it."""
        self.notify(
            f"Watchers can no longer follow this game: {why}",
            severity="warning",
            timeout=10,
            markup=False,
        )

    # -- the test mode -----------------------------------------------------------------------

    def play(self, session: Session) -> None:
        if self.live_stream is not None and not session.watching:
            self.stream(session)
        super().play(session)
        if os.environ.get(LOG_VARIABLE):
            self.call_after_refresh(self.log_line, f"shown {session.world.name}")

    def log_line(self, what: str) -> None:
        """Test mode (``ROGUELIKE_SERVED_LOG``, a file): a line with the time, for what a
        browser test cannot read from the canvas (a game's map drawn, the screen on top and
        the widget focused on it, the turn; a watcher's: the watched game's turn shown)."""
        path = os.environ.get(LOG_VARIABLE)
        if path:
            try:
                with open(path, "a", encoding="utf-8") as log:
                    log.write(f"{time.time():.3f} {printable(what)}\n")
            except OSError as err:
                self.notify(
                    f"{LOG_VARIABLE} not written: {err.strerror or err}", timeout=6, markup=False
                )

    def _log_top(self) -> None:
        top = type(self.screen_stack[-1]).__name__ if self.screen_stack else ""
        if top != self._top:
            self._top = top
            self.log_line(f"screen {top}")
        focused = self.screen_stack[-1].focused if self.screen_stack else None
        focus = None if focused is None else focused.id
        if focus != self._focus:
            self._focus = focus
            self.log_line(f"focus {focus}")
        if self.follow is not None:  # a watcher: the turn of the game it shows
            state = getattr(self.screen_stack[-1], "state", None) if self.screen_stack else None
            watched = getattr(state, "turn", None)
            if watched != self._turn:
                self._turn = watched
                self.log_line(f"watched {watched}")
            return
        turn = None if self.session is None else self.session.state.turn
        if turn != self._turn:
            self._turn = turn
            self.log_line(f"turn {turn}")

    # -- a world of the URL's seed ----------------------------------------------------------

    def unfinished_of(self, seed: int) -> str | None:
        """The most recently saved unfinished world of ``seed`` (not a challenge's), if any."""
        code = seeds.stored(seed)  # as the save keeps it, beside its generator
        for info in self.saved_worlds():  # the most recently saved first
            this = info.seed == code and info.generator == GENERATOR_VERSION
            if this and info.problem is None and not (info.won or info.dead):
                return info.name
        return None

    def start_seed(self, seed: int) -> None:
        name = self.unfinished_of(seed)
        if name is None:
            world = self.games.world_for(seed, self.preset, difficulty=self.difficulty)
            self.first_world = world
            self.busy(f"Making {world.name}…", lambda: self.start_game(world))
        else:
            self.busy(f"Opening {name}…", partial(self._open_when_free, name, LOCK_TRIES))

    def _open_when_free(self, name: str, tries: int) -> None:
        """Open ``name`` and play it; while another game holds it (the tab this one reloads,
        still saving), try again a moment later, ``tries`` times."""
        if tries > 0:
            try:
                self.games.store.lock(name).release()  # free now: opened just below
            except WorldLocked:
                self.set_timer(LOCK_WAIT, partial(self._open_when_free, name, tries - 1))
                return
            except OSError:  # said by the opening itself, just below
                pass
        self._open_and_play(name)

    # -- files in and out -------------------------------------------------------------------

    def action_import_challenge(self) -> None:
        """The title's ``o``: the upload page, in a new tab (a file on the server's disk is not
        the player's)."""
        self.open_url(UPLOAD_PAGE, new_tab=True)
        self.notify(
            "Choose the file in the page that opened (else open /upload on this server)",
            timeout=6,
        )

    def import_upload(self, path: str) -> None:
        """Open the challenge import on the uploaded file ``path`` and check it at once."""
        # here, not at the top: the session and the run files it loads are not for the title
        from screens.challenge import ChallengeScreen

        # the field is read-only: a path typed there would read the server's files
        screen = ChallengeScreen(self.hall, path, fixed=True)
        self._push(screen, self._challenge_chosen)

        def submit() -> None:  # to the screen: the field is disabled
            field = screen.query_one("#challenge-path", Input)
            screen.post_message(Input.Submitted(field, path))

        self.call_after_refresh(submit)

    def deliver_run(self, run_id: str) -> None:
        """The hall's run ``run_id`` as a challenge file, downloaded by the browser."""
        # here, not at the top: the run files are not for the title (by now the hall has them)
        from saves.record import RunFileError, pack

        try:
            record, _ = self.hall.get(run_id)
            if record.recording is None:
                raise RunFileError(f"run {record.id} has no recording: there is nothing to send")
            data = pack(record)
        except (RunFileError, SaveError, OSError) as err:
            self.notify(f"Not exported: {err}", severity="error", timeout=6, markup=False)
            return
        name = f"{record.id}.run"
        self.deliver_binary(
            io.BytesIO(data), save_filename=name, mime_type="application/octet-stream"
        )
        self.notify(f"Challenge sent to your browser as {name}", timeout=6)
