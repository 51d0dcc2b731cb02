"""The Textual driver of a game served in a browser tab (``roguelike serve`` names it in
``TEXTUAL_DRIVER``): Textual's web driver, which talks to textual-serve through the process's
standard input and output, made to end the game (saving it, as every way out does) when that
link breaks instead of lingering or dying unsaved.

- The server's pipe to the game closes (the server was killed): the input ends, and the app
  is asked to exit (Textual's web driver would wait for ever, the world locked).
- Writing to the server fails (its end of the pipe is gone): output is dropped from then on,
  and the app is asked to exit (Textual's would raise in the middle of drawing).

Either way the app's own exit path saves the game (``RoguelikeApp.on_unmount``).
"""

from __future__ import annotations

from typing import Any

from textual import messages
from textual.drivers.web_driver import WebDriver


class GameWebDriver(WebDriver):
    """Textual's web driver, ending the app when the server's pipes break (see the module)."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.broken = False
        write = self._write

        def guarded(data: bytes) -> int:
            if self.broken:
                return len(data)
            try:
                return write(data)
            except OSError:  # BrokenPipeError, or the pipe closed under us
                self._lost()
                return len(data)

        self._write = guarded  # type: ignore[assignment]

    def _lost(self) -> None:
        """The server is gone: drop output from now on, and have the app exit (and save)."""
        if not self.broken:
            self.broken = True
            self._app.post_message(messages.ExitApp())

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():  # the input ended, not the app: the server went
            self._lost()


__all__ = ["GameWebDriver"]
