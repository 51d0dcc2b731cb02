"""Leaving a game and ending a run: the part of the app's flow between the game screen and the
hall.

:class:`Ending` is a base of :class:`~screens.app.RoguelikeApp` and uses the app's session,
game screen and helpers (declared below for the type checker; the app defines them). Leaving
(``S``, Ctrl+Q: :meth:`Ending.leave_game`) saves the game and releases it; a save that fails
never closes the game: the player is told why and chooses to try again, leave without saving
or play on (:mod:`screens.leave`). A session loaded from a save has its finished run replayed
against its recording before the hall keeps it (a doctored save's claims never reach the
hall): in a worker thread, a box saying how far it is (:class:`~screens.busy.CheckScreen`, see
:meth:`Ending.when_checked`), so the screen never freezes for it; with no verdict (stopped, or
failed) the world is kept as it ended, its run not yet in the hall. A world deleted or started
again over an unfinished run has that run kept as abandoned first (:meth:`Ending.abandon`,
checked the same way); nothing is deleted until the verdict is in.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from textual.app import App
from textual.screen import Screen

from screens.busy import CheckResult, CheckScreen, Progress

if TYPE_CHECKING:
    from saves.session import Games, Session
    from screens.game import GameScreen
    from screens.leave import LeaveChoice

R = TypeVar("R")

#: What the box says while a loaded run's recording is replayed before the hall keeps it.
CHECKING_RUN = "Checking the run against its recording…"


class Ending(App[None]):
    """The app's leaving and end-of-run flow (see the module)."""

    if TYPE_CHECKING:  # what the flow uses of the app (:class:`~screens.app.RoguelikeApp`)
        #: the game being played or watched, and its screen (None between games)
        session: Session | None
        _game: GameScreen | None
        #: Ctrl+Q came during a check: quit once it stops
        _quitting: bool
        #: why the game open when the app closed could not be saved (None: it was, or none was)
        unsaved: str | None

        @property
        def games(self) -> Games: ...

        def _push(
            self, screen: Screen[R], callback: Callable[[R | None], None] | None = None
        ) -> None: ...

        def _try(self, action: Callable[[], R], failure: str = "{}") -> R | None: ...

        def _close(self) -> None: ...

    def _leave(self, session: Session) -> bool:
        """Save ``session`` and release it; False (and a notification) if saving failed."""
        try:
            return self._try(session.save_and_quit, self._failure(session)) is not None
        finally:
            self._close()

    def leave_game(self, session: Session, then: Callable[[], None]) -> None:
        """The player leaves ``session`` (``S``, Ctrl+Q): save it and release it, then
        ``then()``. If saving fails, the game stays open and held, and the player is asked
        (:class:`~screens.leave.SaveFailedScreen`, saying why in one line): try again, leave
        without saving, or go back to the game. A game is never closed unsaved silently."""
        from saves.session import SESSION_ERRORS, failure_reason  # loads the engine

        if not session.open:  # watched, or already released
            then()
            return
        if session.ended and session.check_due():  # its end keeps the run: checked first
            self.when_checked(session, partial(self.leave_game, session, then))
            return
        try:
            gone = session.save_and_quit()
        except SESSION_ERRORS as err:
            from screens.leave import SaveFailedScreen  # only when a save fails

            self._push(
                SaveFailedScreen(session.world.name, failure_reason(err)),
                partial(self._save_failed, session, then),
            )
            return
        if not gone and not session.ended:
            self.notify(f"Saved {session.world.name}", timeout=3, markup=False)
        then()

    def _save_failed(
        self, session: Session, then: Callable[[], None], choice: LeaveChoice | None
    ) -> None:
        if choice == "retry":
            self.leave_game(session, then)
        elif choice == "leave":
            session.quit()
            self.notify(
                f"Left {session.world.name} without saving: it stays as last saved",
                severity="warning",
                timeout=6,
                markup=False,
            )
            then()
        # None: back to the game, still open

    def when_checked(self, session: Session, then: Callable[[], None]) -> None:
        """``then()`` once the finished run of ``session`` is checked against its recording, if
        keeping it in the hall would replay it (a loaded save's run: seconds for a long run),
        in a worker thread while a box says how far it is (:class:`~screens.busy.CheckScreen`);
        at once otherwise. The verdict is kept by the session, so ``then`` (ending the run)
        does not replay again. Ctrl+Q meanwhile stops the replay: the world is saved as it
        ended and kept, not deleted, and the app quits (its run reaches the hall when the
        world is next opened or deleted)."""
        if not session.check_due():
            then()
            return

        def work(progress: Progress) -> object:
            return session.check_run(progress=progress)

        self._push(CheckScreen(CHECKING_RUN, work), partial(self._run_checked, session, then))

    def _run_checked(
        self, session: Session, then: Callable[[], None], result: CheckResult | None
    ) -> None:
        if result is not None and not (result.stopped or result.error is not None):
            then()
            return
        # no verdict: nothing is decided about the run, and the world stays as it ended
        if result is None or result.stopped:
            why = "was stopped"
        else:
            why = f"failed ({type(result.error).__name__})"
        self._keep_unchecked(session, f"The check of the run {why}")
        if self._quitting:
            self.exit()

    def _keep_unchecked(self, session: Session, why: str) -> None:
        """Save ``session``'s finished run as it is (kept, never deleted, its run not yet in
        the hall) and release it; the player is told ``why``."""
        from saves.session import SESSION_ERRORS, failure_reason  # loaded: a game is open

        name = session.world.name
        try:
            session.save()
        except SESSION_ERRORS as err:
            self.unsaved = f"{name} was not saved on closing: {failure_reason(err)}"
            self.notify(f"{why}; {self.unsaved}", severity="error", timeout=8, markup=False)
        else:
            self.notify(
                f"{why}: {name} is kept as it ended, its run not yet in the hall",
                severity="warning",
                timeout=8,
                markup=False,
            )
        session.quit()
        game = self._game
        if game is not None and self.screen is game:
            game.dismiss(None)  # the game left (by Ctrl+Q): released already
        else:
            self._close()

    @staticmethod
    def _failure(session: Session) -> str:
        """What a failed end of ``session`` says: its world could not be deleted, or saved."""
        return "The world could not be deleted: {}" if session.perishes else "Not saved: {}"

    def _end_run(self, session: Session) -> bool:
        """Keep the finished run in the hall and save it, or delete its world if it perishes
        (only once its run is in the hall); release it. True: the world is gone."""
        try:
            gone = self._try(session.end_run, self._failure(session)) is True
            if session.refused is not None:  # its own recording refutes the save
                why = session.refused
                self.notify(why[:1].upper() + why[1:], severity="warning", timeout=6, markup=False)
            return gone
        finally:
            self._close()

    def abandon(self, name: str, then: Callable[[bool], None]) -> None:
        """The world ``name`` is about to be deleted or started again: an unfinished run of it
        goes to the hall as abandoned if its own recording proves it (a refutation is said, and
        does not stop the player), then ``then(True)``. That replay runs in a worker thread,
        with a box saying how far it is; Esc (or Ctrl+Q, which then quits) stops it. Then
        ``then(False)`` (and a notification, unless stopped) if it was stopped, or the hall
        could not be written (or the world locked to read its run): the world must then be
        kept, or its run is lost."""
        games = self.games  # made here: the worker thread only uses it

        def work(progress: Progress) -> object:
            return games.give_up(name, progress=progress)

        self._push(
            CheckScreen(CHECKING_RUN, work, stoppable=True),
            partial(self._given_up, name, then),
        )

    def _given_up(
        self, name: str, then: Callable[[bool], None], result: CheckResult | None
    ) -> None:
        from saves.session import SESSION_ERRORS, failure_reason  # loaded: give_up ran

        if result is None or result.stopped:
            if self._quitting:
                self.exit()
                return
            self.notify(f"Stopped: {name} is kept", timeout=4, markup=False)
            then(False)
            return
        err = result.error
        if err is not None:
            failure = failure_reason(err)
            if not isinstance(err, SESSION_ERRORS):  # a bug: the world is kept all the same
                failure = f"the run of {name!r} could not be checked ({type(err).__name__})"
            self.notify(f"{failure}: the world is kept", severity="error", timeout=8, markup=False)
            then(False)
            return
        assert isinstance(result.value, tuple)
        _, why = result.value
        if why is not None:  # refuted by its own recording
            self.notify(why[:1].upper() + why[1:], severity="warning", timeout=6, markup=False)
        then(True)
