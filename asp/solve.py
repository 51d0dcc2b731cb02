"""Ground and solve the clingo encodings in this folder; return plain data.

Determinism: one thread, a given ``--seed``, random signs and decisions (``--sign-def=rnd``,
``--rand-freq``), constants and facts passed in sorted order, and a search budget counted in
*conflicts* (``--solve-limit``), never in seconds, so that two machines of any speed stop at
the same point and give the same answer. A wall-clock guard exists only to fail loudly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import clingo

HERE = Path(__file__).resolve().parent

Atom = tuple[str, tuple[int, ...]]


@dataclass(frozen=True)
class Outcome:
    """What a solve call found: ``status`` is "sat", "unsat" or "unknown" (budget spent)."""

    status: str
    atoms: tuple[Atom, ...] = ()


class SolverTimeout(RuntimeError):
    """The wall-clock guard fired: the machine is far slower than the budget assumes."""


@cache
def encoding(name: str) -> str:
    """The text of ``asp/<name>.lp`` (read once per process)."""
    return (HERE / f"{name}.lp").read_text(encoding="utf-8")


def _ignore(_code: clingo.MessageCode, _message: str) -> None:
    return None


def solve(
    programs: Iterable[str],
    constants: Mapping[str, int],
    seed: int,
    conflict_limit: int,
    facts: Iterable[str] = (),
    rand_freq: float = 0.2,
    wall_seconds: float = 30.0,
) -> Outcome:
    """Solve the named encodings with the given constants; return the first model's atoms.

    ``facts`` are extra ASP facts (``"room(3)."``), added in sorted order.
    """
    args = [
        "--models=1",
        "--parallel-mode=1",
        f"--seed={seed}",
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
        found.extend(
            (sym.name, tuple(arg.number for arg in sym.arguments))
            for sym in model.symbols(shown=True)
        )

    with ctl.solve(on_model=on_model, async_=True) as handle:
        if not handle.wait(wall_seconds):
            handle.cancel()
            raise SolverTimeout(f"clingo gave no answer within {wall_seconds:.0f} s")
        result = handle.get()
    if result.satisfiable:
        return Outcome("sat", tuple(sorted(found)))
    if result.unsatisfiable:
        return Outcome("unsat")
    return Outcome("unknown")
