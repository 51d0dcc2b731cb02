"""Helpers shared by the floor cache's tests: whether a worker process has ended."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


def ends_within(process: Any, seconds: float) -> bool:
    """True once the worker (a ``multiprocessing`` process) has ended. Not
    ``process.is_alive()``: the pool's own manager thread reaps the ended worker too, and
    whichever thread loses that race sees "no such child" and takes it for alive. The process
    table is asked instead: gone, or a zombie."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.exitcode is not None:
            return True
        if pid_gone(process.pid):
            return True
        time.sleep(0.05)
    return False


def pid_gone(pid: int) -> bool:
    """The process ``pid`` has ended: not in the process table, or a zombie (ended, not yet
    reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        # Reaped between the two looks (the file vanished, or its read found no process): gone,
        # if this system has a /proc at all; without one nothing can be told.
        return Path("/proc/self").exists()
    return stat.rsplit(")", 1)[-1].split()[:1] in (["Z"], ["X"])
