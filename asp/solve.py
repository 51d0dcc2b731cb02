"""Ground and solve the clingo encodings in this folder; return plain data.

A shown atom comes back as ``(name, arguments)``: a number argument as an ``int``, a constant
(``take``) or a string as a ``str``, and any deeper term as its clingo text (``f(1)``).

Determinism: one thread, a given ``--seed``, random signs and decisions (``--sign-def=rnd``,
``--rand-freq``), constants and facts passed in sorted order, and a search budget counted in
*conflicts* (``--solve-limit``), never in seconds, so that two machines of any speed stop at
the same point and give the same answer. A wall-clock guard exists only to fail loudly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import clingo

HERE = Path(__file__).resolve().parent

#: One argument of a shown atom.
Value = int | str
Atom = tuple[str, tuple[Value, ...]]


@dataclass(frozen=True)
class Outcome:
    """What a solve call found: ``status`` is "sat", "unsat" or "unknown" (every attempt spent
    its budget); ``attempt`` is the index of the solver seed that found it."""

    status: str
    atoms: tuple[Atom, ...] = ()
    attempt: int = 0


class SolverTimeout(RuntimeError):
    """The wall-clock guard fired. Budgets are counted in conflicts so that every machine
    stops at the same point; this guard only turns a pathological case into an error, never
    into a different answer."""


@cache
def encoding(name: str) -> str:
    """The text of ``asp/<name>.lp`` (read once per process)."""
    return (HERE / f"{name}.lp").read_text(encoding="utf-8")


def value(sym: clingo.Symbol) -> Value:
    """A clingo term as plain data: a number, a constant's or a string's text, else its text."""
    if sym.type == clingo.SymbolType.Number:
        return sym.number
    if sym.type == clingo.SymbolType.String:
        return sym.string
    if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.positive:
        return sym.name
    return str(sym)


def atom(sym: clingo.Symbol) -> Atom:
    """A shown atom as ``(name, arguments)``."""
    return sym.name, tuple(value(arg) for arg in sym.arguments)


def numbers(args: tuple[Value, ...]) -> tuple[int, ...]:
    """The arguments of an atom whose arguments are all numbers (TypeError otherwise)."""
    if not all(isinstance(v, int) for v in args):
        raise TypeError(f"expected numbers, got {args!r}")
    return tuple(int(v) for v in args)


def _order(a: Atom) -> tuple[str, tuple[tuple[int, int | str], ...]]:
    """Sort key of atoms: by name, then arguments, numbers before text."""
    return a[0], tuple((0, v) if isinstance(v, int) else (1, v) for v in a[1])


def _ignore(_code: clingo.MessageCode, _message: str) -> None:
    return None


def solve(
    programs: Iterable[str],
    constants: Mapping[str, int],
    seeds: Sequence[int],
    conflict_limit: int,
    facts: Iterable[str] = (),
    rand_freq: float = 0.2,
    wall_seconds: float = 20.0,
) -> Outcome:
    """Ground the named encodings once with the given constants and facts, then solve with
    each solver seed in turn until one finds a model or proves there is none.

    Every attempt may spend ``conflict_limit`` conflicts. ``facts`` are extra ASP facts
    (``"nested(2)."``), added in sorted order.
    """
    deadline = time.monotonic() + wall_seconds  # grounding counts too
    args = [
        "--models=1",
        "--parallel-mode=1",
        f"--seed={seeds[0]}",
        "--sign-def=rnd",
        f"--rand-freq={rand_freq}",
        f"--solve-limit={conflict_limit}",
    ]
    for name in sorted(constants):
        args += ["-c", f"{name}={int(constants[name])}"]
    ctl = clingo.Control(args, logger=_ignore)
    for name in programs:
        ctl.add("base", [], encoding(name))
    extra = sorted(facts)
    if extra:
        ctl.add("base", [], "\n".join(extra))
    ctl.ground([("base", [])])
    found: list[Atom] = []

    def on_model(model: clingo.Model) -> None:
        found.extend(atom(sym) for sym in model.symbols(shown=True))

    for attempt, seed in enumerate(seeds):
        ctl.configuration.solver.seed = str(seed)  # type: ignore[union-attr]
        with ctl.solve(on_model=on_model, async_=True) as handle:
            if not handle.wait(max(0.0, deadline - time.monotonic())):
                handle.cancel()
                raise SolverTimeout(f"clingo gave no answer within {wall_seconds:.0f} s")
            result = handle.get()
        if result.satisfiable:
            return Outcome("sat", tuple(sorted(found, key=_order)), attempt)
        if result.unsatisfiable:
            return Outcome("unsat", (), attempt)
    return Outcome("unknown", (), len(seeds) - 1)


class Grounding:
    """The named encodings grounded once (constants and facts as :func:`solve` takes them),
    to be solved again and again: :meth:`solve_each` solves once per solver seed. A generator
    that draws many instances of one grounding pays for the grounding once. The solves run one
    after another on one solver, which keeps what it learnt, so the same seeds in the same
    order on a new grounding give the same outcomes (a caller keeps a grounding for one
    deterministic task, never across tasks)."""

    def __init__(
        self,
        programs: Iterable[str],
        constants: Mapping[str, int],
        conflict_limit: int,
        facts: Iterable[str] = (),
        rand_freq: float = 0.2,
        wall_seconds: float = 20.0,
    ) -> None:
        self.wall_seconds = wall_seconds
        args = [
            "--models=1",
            "--parallel-mode=1",
            "--sign-def=rnd",
            f"--rand-freq={rand_freq}",
            f"--solve-limit={conflict_limit}",
        ]
        for name in sorted(constants):
            args += ["-c", f"{name}={int(constants[name])}"]
        self.ctl = clingo.Control(args, logger=_ignore)
        for name in programs:
            self.ctl.add("base", [], encoding(name))
        extra = sorted(facts)
        if extra:
            self.ctl.add("base", [], "\n".join(extra))
        self.ctl.ground([("base", [])])

    def solve_each(self, seeds: Sequence[int]) -> list[Outcome]:
        """One outcome per solver seed, in order: "sat" with the model's shown atoms, "unsat",
        or "unknown" (the seed spent its conflict budget)."""
        return list(self.each(seeds))

    def each(self, seeds: Sequence[int]) -> Iterator[Outcome]:
        """The outcomes of :meth:`solve_each`, one seed solved at a time as the caller asks for
        the next: a caller that stops early skips the solves it does not need, and the ones it
        takes are those ``solve_each`` gives (the solver keeps only what it learnt from the
        solves before). The solves run in the caller's thread (a solve in a thread of its own
        cost more than a small model's search); the watchdog interrupts them once
        ``wall_seconds`` have passed since the first, the caller's time between them
        included."""
        late = threading.Event()

        def interrupt() -> None:
            late.set()
            self.ctl.interrupt()

        alarm = _WATCHDOG.arm(self.wall_seconds, interrupt)
        try:
            for attempt, seed in enumerate(seeds):
                found: list[Atom] = []

                def on_model(model: clingo.Model, found: list[Atom] = found) -> None:
                    found.extend(atom(sym) for sym in model.symbols(shown=True))

                self.ctl.configuration.solver.seed = str(seed)  # type: ignore[union-attr]
                result = self.ctl.solve(on_model=on_model)
                if late.is_set() or result.interrupted:
                    raise SolverTimeout(f"clingo gave no answer within {self.wall_seconds:.0f} s")
                if result.satisfiable:
                    yield Outcome("sat", tuple(sorted(found, key=_order)), attempt)
                elif result.unsatisfiable:
                    yield Outcome("unsat", (), attempt)
                else:
                    yield Outcome("unknown", (), attempt)
        finally:
            _WATCHDOG.disarm(alarm)


class _Watchdog:
    """One thread, started once, that calls each armed callback when its time has come (unless
    disarmed before): arming and disarming never wait for a thread to start."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._alarms: dict[int, tuple[float, Callable[[], None]]] = {}
        self._count = 0
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float, callback: Callable[[], None]) -> int:
        with self._cond:
            self._count += 1
            self._alarms[self._count] = (time.monotonic() + seconds, callback)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="clingo-watchdog")
                self._thread.daemon = True
                self._thread.start()
            self._cond.notify()
            return self._count

    def disarm(self, alarm: int) -> None:
        with self._cond:
            self._alarms.pop(alarm, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for alarm, (when, callback) in list(self._alarms.items()):
                    if when <= now:
                        del self._alarms[alarm]
                        callback()
                soonest = min((when for when, _ in self._alarms.values()), default=None)
                self._cond.wait(None if soonest is None else soonest - now)


_WATCHDOG = _Watchdog()
