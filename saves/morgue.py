"""A run record as readable text, in the spirit of a morgue file: what the hall's detail view,
the final screen and ``roguelike runs show`` print: the run's numbers, its score term by term,
the gear and the pack it ended with, its last messages and the map round the player at its end
(those last four from the record's ``final``, which records older than run format 3 lack).

Every text that came from a file (the world's name, the cause of death) passes through
:func:`printable` first: control characters and escape sequences are shown as visible
``\\x1b``-style placeholders, so a record from a stranger cannot drive the terminal. The
result is plain text (never markup): a screen must show it with markup off.
"""

from __future__ import annotations

from roguelike import seeds
from saves.record import RunRecord
from saves.runs import score, score_parts
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
        f"(seed {seeds.shown(record.seed, record.generator)}, {record.preset}, "
        f"{record.difficulty})",
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
    won = record.outcome == "won"
    puzzle_scores = [p.score for p in record.puzzles]
    lines += ["", f"Score        {record.score}"]
    for part in score_parts(won, record.floors, record.turns, puzzle_scores, kills=record.kills):
        lines.append(f"  {part.name:<10} {part.points:>5}  ({part.how})")
    expected = score(won, record.floors, record.turns, puzzle_scores, kills=record.kills)
    if expected != record.score:
        lines.append(f"  (the formula gives {expected}: this record's score is not its own)")
    final = record.final
    lines += ["", "Equipment and perks:"]
    if final is not None:
        lines += [f"  {printable(line)}" for line in final.gear]
    else:
        lines.append("  not kept (a record of an older run format)")
    if final is not None:
        lines += ["", "Pack:"] + [f"  {printable(line)}" for line in final.pack]
    lines += ["", f"Puzzles solved: {record.puzzles_solved}"]
    for p in record.puzzles:
        kind, level = printable(p.type), printable(p.difficulty)  # texts from the file
        lines.append(f"  floor {p.floor:>2}  {kind:<8} {level:<10} {p.score:>3} points")
    if final is not None:
        lines += ["", "Last messages:"] + [f"  {printable(line)}" for line in final.messages]
        lines += ["", f"Floor {final.floor}, round the player at the end (@):"]
        rows = [printable(line) for line in final.map]
        width = max((len(r) for r in rows), default=0)
        lines.append("  +" + "-" * width + "+")
        lines += [f"  |{row.ljust(width)}|" for row in rows]
        lines.append("  +" + "-" * width + "+")
    rec = record.recording
    lines.append("")
    if rec is None:
        lines.append("Recording    none (the run began before recordings)")
    else:
        lines.append(f"Recording    {len(rec)} inputs, generator {printable(rec.generator)}")
        lines.append(f"Watch it     roguelike replay {record.id}")
    return "\n".join(lines) + "\n"
