"""The game's app, saving on every way out: :class:`LastingApp`.

:class:`~screens.app.RoguelikeApp` saves the open game when the player leaves and when the app
unmounts. A process can also be told to end from outside: SIGHUP (the terminal closed, an ssh
link dropped), SIGTERM (a shutdown, ``kill``, the server of a browser tab giving up on it) or
SIGINT (``kill -INT``: in the game, Ctrl+C is a key). Each is caught here and answered as a
quit is: the game is saved at once, in the app's own thread, before anything is drawn or torn
down (the terminal may be gone already), then the app exits (and its unmount releases the
world). A save that fails is kept in :attr:`RoguelikeApp.unsaved`, which the command line
prints.
"""

from __future__ import annotations

import asyncio
import signal

from screens.app import RoguelikeApp

#: The signals answered by saving, then exiting.
ENDING_SIGNALS = (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)


class LastingApp(RoguelikeApp):
    """The game's app, saved when its process is told to end (see the module)."""

    def on_mount(self) -> None:
        # (Textual runs RoguelikeApp.on_mount too, after this one: it is not called here)
        loop = asyncio.get_running_loop()
        for ending in ENDING_SIGNALS:
            loop.add_signal_handler(ending, self.save_and_exit)

    def save_now(self) -> bool:
        """Save the open game, if one is being played; False (and why, in :attr:`unsaved`)
        if that failed."""
        session = self.session
        if session is None or not session.open or session.ended:
            return True
        from saves.session import SESSION_ERRORS, failure_reason  # loaded: a game is open

        try:
            session.save()
        except SESSION_ERRORS as err:
            why = failure_reason(err)
            self.unsaved = f"{session.world.name} was not saved on closing: {why}"
            return False
        return True

    def save_and_exit(self) -> None:
        """A signal to end: the game saved at once, then the app exits."""
        self.save_now()
        self.exit()
