"""Instrumented apps for ``roguelike bench --only ui`` (the bench itself lives with the other
benchmarks in ``roguelike.cli.bench.ui``; what needs Textual's internals lives here).

* :class:`StartUpProbe` runs headless at 80×24, notes the wall-clock time when the title's
  first frame has been rendered, and leaves: ``roguelike.cli.main([], make_app=StartUpProbe)``
  in a fresh process is the start-up measurement.
* :class:`KeyTimedApp` notes when each key event arrives and when the next frame is ready,
  encoding it into escape sequences as the real driver would (headless, Textual skips that).
  It serves both the key-press line (a walk) and the stairs line (``>`` on the stairs of the
  floor above the deepest, the next floor made ahead by the session or not).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from textual import events
from textual._compositor import CompositorUpdate
from textual.screen import Screen

from screens.app import RoguelikeApp
from screens.title import TitleScreen

if TYPE_CHECKING:
    from roguelike.engine.pregen import WorkerKind
    from saves.session import MakeGame


class StartUpProbe(RoguelikeApp):
    """The app as ``roguelike`` starts it, leaving once the title is drawn; ``shown`` holds
    the wall-clock time of that frame."""

    shown: list[float] = []

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return super().run(headless=True, size=(80, 24))

    def on_ready(self) -> None:
        self._probe()

    def _probe(self) -> None:
        if isinstance(self.screen, TitleScreen) and self.screen.is_mounted:
            self.screen.call_after_refresh(self._done)
        else:
            self.set_timer(0.001, self._probe)

    def _done(self) -> None:
        StartUpProbe.shown.append(time.time())
        self.exit()


class KeyTimedApp(RoguelikeApp):
    """The app, noting when each key arrives and when the next frame is ready: ``samples``
    holds the milliseconds between them while ``recording`` is on."""

    def __init__(
        self,
        seed: int,
        *,
        make_game: MakeGame | None = None,
        pregenerate: WorkerKind | None = None,
        save_dir: str | None = None,
    ) -> None:
        """A large world of ``seed``, started at once (``make_game``: how; ``pregenerate``:
        the session makes the next floor ahead in a worker of that kind), saved in
        ``save_dir`` (None: the default folder)."""
        super().__init__(
            seed=seed,
            preset="large",
            make_game=make_game,
            pregenerate=pregenerate,
            save_dir=save_dir,
        )
        self.key_at: float | None = None
        self.samples: list[float] = []
        self.recording = False

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.key_at = time.perf_counter()
        await super().on_event(event)

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        # headless, Textual skips writing the frame; encode it as the real driver would
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(self.console)
        super()._display(screen, renderable)
        if renderable is not None and self.key_at is not None:
            if self.recording:
                self.samples.append((time.perf_counter() - self.key_at) * 1000)
            self.key_at = None
