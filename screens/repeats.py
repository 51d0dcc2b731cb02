"""Repeated messages said once: the same message written again in a row shows once with a
count ("Not with a dart imp in view: fight it or step away. ×4"), in the game's log and in the
message history, as DCSS and Brogue do. Only the screens collapse them: the engine's log (and so
saves and recordings) keeps every line."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Run:
    """One message and how many times in a row it was said; ``last`` is the index of its last
    line in the log."""

    text: str
    count: int
    last: int

    @property
    def shown(self) -> str:
        """The message as the screen shows it: with ``×count`` when said more than once."""
        return f"{self.text} ×{self.count}" if self.count > 1 else self.text


def runs_from_end(lines: Sequence[str]) -> Iterator[Run]:
    """The runs of equal lines in ``lines``, newest first (read lazily: a caller that needs the
    last few runs reads only those)."""
    i = len(lines) - 1
    while i >= 0:
        text, last = lines[i], i
        while i > 0 and lines[i - 1] == text:
            i -= 1
        yield Run(text, last - i + 1, last)
        i -= 1


def collapsed(lines: Sequence[str]) -> list[str]:
    """``lines`` in order, each run of equal lines said once with its count."""
    return [run.shown for run in reversed(list(runs_from_end(lines)))]
