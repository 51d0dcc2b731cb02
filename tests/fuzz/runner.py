"""Runs many ``roguelike`` commands in one process, for the fuzz tests (no tests here).

``python -m tests.fuzz.runner JOBS RESULTS``: JOBS is a JSON list of ``{"id", "argv",
"save_dir", "watch"}``; each job runs ``roguelike ARGV`` in-process (the command line's own
``main``) with ``ROGUELIKE_SAVE_DIR`` set to its save folder, its standard output and error
captured, and an alarm (30 s, or the job's ``timeout``). RESULTS gets, per job: the exit
status (or ``"crash"`` with the traceback, ``"timeout"``), what was printed, the digest of
every watched folder before and after, the seconds taken and the process's peak memory so far
(KiB).

Starting ``roguelike`` costs about half a second of imports; running a hundred inputs in one
process costs that once. The parent sets the memory limit (``RLIMIT_AS``) before this starts,
so a decoder that allocates without bound ends here as a MemoryError, caught and reported as
a crash of that job, and the jobs after it still run.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import saves.verify
from roguelike import cli
from tests.fuzz.support import tree_digest

TIMEOUT_S = 30


class TimedOut(BaseException):
    """The job's alarm rang (a BaseException: no ``except Exception`` of the game stops it)."""


def _ring(signum: int, frame: Any) -> None:
    raise TimedOut


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """One command: its status, output, folder digests, time and memory."""
    os.environ["ROGUELIKE_SAVE_DIR"] = job["save_dir"]
    watch = [Path(p) for p in job.get("watch", [])]
    before = [tree_digest(p) for p in watch]
    out, err = io.StringIO(), io.StringIO()
    status: int | str
    crash = ""
    start = time.perf_counter()
    signal.alarm(job.get("timeout", TIMEOUT_S))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(job["argv"])
            except SystemExit as exit_:  # argparse's own errors
                status = int(exit_.code or 0) if not isinstance(exit_.code, str) else 2
    except TimedOut:
        status = "timeout"
    except BaseException:  # noqa: BLE001 — every escape is the finding
        status, crash = "crash", traceback.format_exc()
    finally:
        signal.alarm(0)
    seconds = time.perf_counter() - start
    return {
        "id": job["id"],
        "status": status,
        "crash": crash,
        "stdout": out.getvalue(),
        "stderr": err.getvalue(),
        "before": before,
        "after": [tree_digest(p) for p in watch],
        "seconds": seconds,
        "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def main(jobs_path: str, results_path: str) -> None:
    # as in tests/conftest.py: the corpus's run is played in a tiny world (one floor, no
    # monsters), which a run file may claim only while tests allow such worlds
    saves.verify.CUSTOM_WORLDS = True
    signal.signal(signal.SIGALRM, _ring)
    jobs = json.loads(Path(jobs_path).read_text())
    results = [run_job(job) for job in jobs]
    Path(results_path).write_text(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
