"""A run record as readable text, in the spirit of a morgue file: what the hall's detail view
and ``roguelike runs show`` print.

Every text that came from a file (the world's name, the cause of death) passes through
:func:`printable` first: control characters and escape sequences are shown as visible
``\\x1b``-style placeholders, so a record from a stranger cannot drive the terminal. The
result is plain text (never markup): a screen must show it with markup off.
"""

from __future__ import annotations

from roguelike.engine.describe import equipment_words
from saves.runs import RunRecord, score
from saves.text import printable

__all__ = ["morgue", "outcome_words", "printable"]

WIDTH = 72


def outcome_words(record: RunRecord) -> str:
    """``won``, ``died: <cause>`` or ``abandoned``."""
    if record.outcome == "died":
        return f"died: {printable(record.cause or 'unknown')}"
    return record.outcome


def morgue(record: RunRecord, *, streak: int | None = None) -> str:
    """The text dump of ``record`` (``streak``: the daily streak to show for a daily run)."""
    title = f" {printable(record.world)} — {outcome_words(record)} "
    lines = [title.center(WIDTH, "="), ""]
    lines += [
        f"Run          {record.id}",
        f"World        {printable(record.world)} "
        f"(seed {record.seed}, {record.preset}, {record.difficulty})",
        f"Began        {record.started}",
        f"Ended        {record.ended}",
        f"Outcome      {outcome_words(record)}",
        f"Depth        floor {record.floors} of {record.total_floors}",
        f"Turns        {record.turns}",
        f"Kills        {record.kills}",
        f"Keys         {record.keys}",
        f"Hints used   {record.hints_used}",
    ]
    if record.daily:
        counted = "scored" if record.scored else "practice (today's scored run came first)"
        lines.append(f"Daily world  {record.daily}, {counted}")
        if streak is not None:
            lines.append(f"Streak       {streak} day{'s' if streak != 1 else ''}")
    if record.challenge:
        lines.append(f"Challenge    answers run {printable(record.challenge)}")
    lines += ["", "Equipment:"]
    if record.equipment is None:
        lines.append("  not kept (a record of an older run format)")
    else:
        taken = equipment_words(dict(record.equipment))
        lines += [f"  {name}{f' ×{n}' if n > 1 else ''}  ({what})" for name, n, what in taken]
        if not taken:
            lines.append("  the starting blade and clothes: no treasure taken")
    lines += ["", f"Puzzles solved: {record.puzzles_solved}"]
    for p in record.puzzles:
        kind, level = printable(p.type), printable(p.difficulty)  # texts from the file
        lines.append(f"  floor {p.floor:>2}  {kind:<8} {level:<10} {p.score:>3} points")
    won = record.outcome == "won"
    speed = max(0, 1000 - record.turns // 10) if won else 0
    lines += [
        "",
        f"Score        {record.score}",
        f"  depth      100 × {record.floors} = {100 * record.floors}",
        f"  puzzles    {record.puzzle_points}",
        f"  winning    {1000 if won else 0}",
        f"  speed      {speed}" + (" (1000 − turns ÷ 10)" if won else " (won runs only)"),
    ]
    expected = score(won, record.floors, record.turns, [p.score for p in record.puzzles])
    if expected != record.score:
        lines.append(f"  (the formula gives {expected}: this record's score is not its own)")
    rec = record.recording
    lines.append("")
    if rec is None:
        lines.append("Recording    none (the run began before recordings)")
    else:
        lines.append(f"Recording    {len(rec)} inputs, generator {printable(rec.generator)}")
        lines.append(f"Watch it     roguelike replay {record.id}")
    return "\n".join(lines) + "\n"
