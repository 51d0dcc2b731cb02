"""A floor worker process's first steps (:mod:`roguelike.engine.pregen`): tied to the game that
started it, so that it never outlives it, quiet on the game's terminal, and humble.

This module imports nothing but the standard library, and it is the only one a worker loads
before it runs :func:`quiet_and_humble` (its pool's initializer, sent by name): the worker is
tied to the game before it spends a second importing the generator, so a worker stopped (or
slowed) in that second is ended with the game too.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["quiet_and_humble"]

#: ``prctl``'s option that names the signal a process gets when its parent ends (Linux).
PR_SET_PDEATHSIG = 1
#: How often a worker looks whether the game that started it is still there, in seconds.
PARENT_CHECK = 1.0


def quiet_and_humble(parent: int) -> None:
    """Set up a worker process: it ends with the game (``parent``, see :func:`_die_with`),
    writes nothing to the terminal the game is drawn on (a failure comes back with its
    future, and the floor is then made in the game's process, where it is reported) and it
    yields the processor to the game (a lower priority, where the system has them)."""
    _die_with(parent)
    null = open(os.devnull, "w")  # noqa: SIM115 - the worker's streams for its whole life
    for fd in (1, 2):  # what a library writes below Python too
        with contextlib.suppress(OSError):
            os.dup2(null.fileno(), fd)
    sys.stdout = sys.stderr = null
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(10)


def _die_with(parent: int) -> None:
    """End this worker when the game process ``parent`` ends, however it ends. On Linux the
    kernel sends SIGKILL, which reaches even a stopped process, once the game's thread that
    started the worker is gone (the game starts it from its main thread); elsewhere, and as
    well, a thread of the worker looks every :data:`PARENT_CHECK` seconds (a stopped worker
    runs no thread: there it ends once continued)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the game ended before the kernel was told
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="parent").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)  # the game is gone: nobody wants the floor
