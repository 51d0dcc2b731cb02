"""The fault-injection sweep (slow tier): every write path of the game (save, backup, new
world, hall, permadeath end, world delete, best scores, options, world export, run export,
lock) is run once per write step it takes, with that one step failing as a full disk (ENOSPC):
the file being created, the data's fsync, the backup's hard link, the rename, the folder, the
lock's text. Each run must end in one of two ways: the failure is told (raised as one of the
errors the app and the command line report, or a non-zero exit of the command line), or the
write went through in full. And whatever was saved before is never lost.

``python -m pytest -m slow tests/saves/test_fault_sweep.py -s`` prints the counts."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from roguelike.engine import Search
from roguelike.puzzles import codes
from saves import Store
from saves import options as saved_options
from saves.hall import Hall
from saves.record import unpack
from saves.scores import BestScores
from saves.session import SESSION_ERRORS, Games
from saves.world import World
from tests.cli.support import call
from tests.saves.run_support import tiny_world_game

#: The steps of a write that can meet a full disk, by the ``os`` function that takes them.
STEPS = ("open", "fsync", "link", "replace", "mkdir", "write", "ftruncate")
_CREATING = os.O_WRONLY | os.O_RDWR | os.O_CREAT


class Faults:
    """Counts the write steps taken, and fails the ``fail_at``-th (1-based; 0: none)."""

    def __init__(self, fail_at: int = 0) -> None:
        self.fail_at = fail_at
        self.count = 0
        self.failed: str | None = None

    def wrap(self, name: str, real: Callable[..., object]) -> Callable[..., object]:
        def step(*args: object, **kwargs: object) -> object:
            if name == "open":
                flags = args[1] if len(args) > 1 else kwargs.get("flags", 0)
                if not int(flags) & _CREATING:  # type: ignore[call-overload]
                    return real(*args, **kwargs)  # a read is not a write
            self.count += 1
            if self.count == self.fail_at:
                self.failed = name
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(*args, **kwargs)

        return step


@contextmanager
def faults(monkeypatch: pytest.MonkeyPatch, fail_at: int) -> Iterator[Faults]:
    f = Faults(fail_at)
    with monkeypatch.context() as m:
        for name in STEPS:
            m.setattr(os, name, f.wrap(name, getattr(os, name)))
        yield f


def small(name: str, **kw: object) -> World:
    return World.new(name, "fault-sweep", preset="small", **kw)  # type: ignore[arg-type]


@dataclass
class Path_:
    """One write path: ``setup`` makes what is saved before (returns a context), ``act``
    writes (raises if it fails), ``done`` checks the write went through in full, ``kept``
    checks that what was saved before is still there."""

    name: str
    setup: Callable[[Path], object]
    act: Callable[[Path, object], object]
    done: Callable[[Path, object], bool]
    kept: Callable[[Path, object], bool]


def _games(folder: Path) -> Games:
    return Games(Store(folder), make_game=tiny_world_game)


def _played(folder: Path, name: str = "Sweep", **kw: object):
    session = _games(folder).new(small(name, **kw))
    for _ in range(3):
        session.step(Search())
    return session


def _saved_turn(folder: Path, name: str = "Sweep") -> int:
    _world, state, _ = Store(folder).load(name, warn=False)
    return state.turn


# save (with its backup)
def setup_save(folder):
    s = _played(folder)
    s.save()
    for _ in range(2):
        s.step(Search())
    return s


def act_save(folder, s):
    return s.save()


# the end of a run: the hall, then the save
def setup_end(folder, permadeath: bool = False):
    s = _played(folder, permadeath=permadeath)
    s.save()
    s.state.dead = True
    return s


def act_end(folder, s):
    return s.end_run()


def hall_has(folder, world="Sweep") -> bool:
    return any(r.world == world for r in Hall(folder).runs())


# the best scores
CODES = [codes.encode("jugs", "easy", n) for n in range(3)]


def setup_scores(folder):
    best = BestScores(folder)
    best.record(CODES[0], 50)
    return best


# the options
def setup_options(folder):
    path = folder / "config" / "options.json"
    saved_options.save(saved_options.Options("mono"), path)
    return path


def act_options(folder, path):
    base = saved_options.Options("mono")
    return saved_options.save(saved_options.Options("mono", {"game.explore": "E"}), path, base=base)


def options_now(path) -> saved_options.Options:
    return saved_options.load(path)[0]


# world delete from the command line (the run to the hall first)
def setup_delete(folder):
    s = _played(folder)
    s.save_and_quit()
    return None


def act_delete(folder, _):
    status, _out, err = call(["world", "delete", "Sweep", "--yes", "--save-dir", str(folder)])
    if status != 0:
        assert err.count("\n") == 1 and "Traceback" not in err, err
        raise OSError(errno.EIO, f"exit {status}: {err.strip()}")
    return status


# exports
def setup_export(folder):
    # a run ended in the session that played it from its start: kept without a replay (a
    # loaded save whose state was set to dead by hand would be refuted by its recording)
    s = _played(folder)
    s.save()
    s.state.dead = True
    s.end_run()
    return Hall(folder).runs()[0].id


PATHS = [
    Path_(
        "save",
        setup_save,
        act_save,
        lambda f, s: _saved_turn(f) == s.state.turn,
        lambda f, s: _saved_turn(f) >= 3,
    ),
    Path_(
        "new world",
        lambda f: None,
        lambda f, _: _games(f).new(small("Fresh")).quit(),
        lambda f, _: Store(f).exists("Fresh") and _saved_turn(f, "Fresh") == 0,
        lambda f, _: True,
    ),
    Path_(
        "end of a run (hall, save)",
        setup_end,
        act_end,
        lambda f, s: hall_has(f) and Store(f).info("Sweep").dead,
        lambda f, s: Store(f).exists("Sweep") and _saved_turn(f) >= 3,
    ),
    Path_(
        "permadeath end (hall, delete)",
        lambda f: setup_end(f, permadeath=True),
        act_end,
        lambda f, s: hall_has(f) and not Store(f).exists("Sweep"),
        lambda f, s: hall_has(f) or (Store(f).exists("Sweep") and _saved_turn(f) >= 3),
    ),
    Path_(
        "world delete (cli)",
        setup_delete,
        act_delete,
        lambda f, _: hall_has(f) and not Store(f).exists("Sweep"),
        lambda f, _: hall_has(f) or Store(f).exists("Sweep"),
    ),
    Path_(
        "best scores",
        setup_scores,
        lambda f, best: best.record(CODES[1], 70),
        lambda f, best: BestScores(f).read() == {CODES[0]: 50, CODES[1]: 70},
        lambda f, best: BestScores(f).read().get(CODES[0]) == 50,
    ),
    Path_(
        "options",
        setup_options,
        act_options,
        lambda f, p: options_now(p) == saved_options.Options("mono", {"game.explore": "E"}),
        lambda f, p: options_now(p).theme == "mono",
    ),
    Path_(
        "world export",
        lambda f: _played(f).save_and_quit(),
        lambda f, _: Store(f).export("Sweep", f / "out" / "sweep.rgl"),
        lambda f, _: Store(f).import_file(f / "out" / "sweep.rgl", "Copy") is not None,
        lambda f, _: _saved_turn(f) >= 3,
    ),
    Path_(
        "run export",
        setup_export,
        lambda f, rid: Hall(f).export(rid, f / "out" / "run.rgr"),
        lambda f, rid: unpack((f / "out" / "run.rgr").read_bytes()).id == rid,
        lambda f, rid: Hall(f).get(rid)[0].id == rid,
    ),
    Path_(
        "lock",
        lambda f: _played(f).save_and_quit(),
        lambda f, _: Store(f).lock("Sweep").release(),
        lambda f, _: not list(f.glob("*.lock")),
        lambda f, _: _saved_turn(f) >= 3 and not list(f.glob("*.lock")),
    ),
]

#: What the app and the command line report in one line (a session's errors).
TOLD = SESSION_ERRORS


@pytest.mark.slow
def test_every_write_path_failing_at_every_step_is_told_and_loses_nothing(
    tmp_path, monkeypatch, capsys
):
    counts: dict[str, list[int]] = {}
    problems: list[str] = []
    for path in PATHS:
        folder = tmp_path / path.name.replace(" ", "-").replace("(", "").replace(")", "")
        folder.mkdir()
        (folder / "out").mkdir()
        ctx = path.setup(folder)
        with faults(monkeypatch, 0) as counting:
            path.act(folder, ctx)
        steps = counting.count
        told = full = 0
        for n in range(1, steps + 1):
            run = tmp_path / f"{folder.name}-{n}"
            run.mkdir()
            (run / "out").mkdir()
            ctx = path.setup(run)
            raised: BaseException | None = None
            with faults(monkeypatch, n) as f:
                try:
                    path.act(run, ctx)
                except TOLD as err:
                    raised = err
            if hasattr(ctx, "quit"):
                ctx.quit()  # type: ignore[union-attr]
            if raised is not None:
                told += 1
            elif path.done(run, ctx):
                full += 1
            else:
                problems.append(f"{path.name}: step {n} ({f.failed}) failed silently")
            if not path.kept(run, ctx):
                problems.append(f"{path.name}: step {n} ({f.failed}) lost what was saved")
        counts[path.name] = [steps, told, full]
    with capsys.disabled():
        print("\nfault sweep: path, write steps failed, told, went through anyway")
        for name, (steps, told, full) in counts.items():
            print(f"  {name:32} {steps:3} {told:3} {full:3}")
        total = [sum(c[i] for c in counts.values()) for i in range(3)]
        print(f"  {'all':32} {total[0]:3} {total[1]:3} {total[2]:3}; problems: {len(problems)}")
    assert all(c[0] > 0 for c in counts.values()), counts  # every path was tried
    assert problems == [], problems
