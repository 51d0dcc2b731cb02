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

from dataclasses import dataclass

from roguelike import seeds
from roguelike.engine.actions import SolvePuzzle
from roguelike.presets import DEFAULT_DIFFICULTY
from roguelike.recording import Progress, RecordingError, frames
from saves.record import RunRecord
from saves.runs import score, score_parts
from saves.text import printable

__all__ = ["FloorStats", "PuzzleStats", "morgue", "outcome_words", "printable", "run_floors"]


@dataclass(frozen=True)
class PuzzleStats:
    """A pedestal solved: its type, level, score and the hints taken on it."""

    type: str
    level: str
    score: int
    hints: int


@dataclass(frozen=True)
class FloorStats:
    """One floor of a run: the turns spent there, the kills, the keys and the puzzles solved."""

    floor: int
    turns: int
    kills: int
    keys: int
    puzzles: tuple[PuzzleStats, ...]


def run_floors(record: RunRecord, progress: Progress | None = None) -> tuple[FloorStats, ...]:
    """The run's floors, found by replaying its recording (bounded as every replay is; a
    few seconds for a long run, so a screen runs it in a worker): () without a recording,
    or if it does not replay (its file says nothing the replay does not prove).
    ``progress``: told how far the replay is (it may raise to stop it)."""
    rec = record.recording
    if rec is None or rec.generator_problem() or rec.cost_problem():
        return ()
    out: list[FloorStats] = []
    state = rec.start.game()
    floor, turn0, kills0, keys0 = state.number, 0, 0, 0
    hints: dict[tuple[int, tuple[int, int]], int] = {}  # by floor and pedestal
    solved: list[PuzzleStats] = []

    def close() -> None:
        s = state.stats
        turns = state.turn - turn0
        out.append(FloorStats(floor, turns, s.kills - kills0, s.keys - keys0, tuple(solved)))

    total = len(rec)
    try:
        for frame in frames(rec, state=state):
            if progress is not None and frame.index % 500 == 0:
                progress(frame.index, total)
            if state.number != floor:  # the stairs: the turn of arrival starts the next floor
                close()
                floor, turn0 = state.number, state.turn
                kills0, keys0, solved = state.stats.kills, state.stats.keys, []
            action = frame.action
            if isinstance(action, SolvePuzzle):
                where = (state.number, state.player)
                hints[where] = hints.get(where, 0) + action.hints_used
                scores = state.stats.puzzle_scores
                if len(scores) > sum(len(f.puzzles) for f in out) + len(solved):
                    _, kind, level, points = scores[-1]
                    solved.append(PuzzleStats(kind, level, points, hints[where]))
    except RecordingError:
        return ()
    close()
    return tuple(out)


WIDTH = 72


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def outcome_words(record: RunRecord) -> str:
    """``won``, ``died: <cause>`` or ``abandoned``."""
    if record.outcome == "died":
        return f"died: {printable(record.cause or 'unknown')}"
    return record.outcome


def morgue(
    record: RunRecord,
    *,
    streak: int | None = None,
    floors: tuple[FloorStats, ...] | None = None,
) -> str:
    """The text dump of ``record`` (``streak``: the daily streak to show for a daily run;
    ``floors``: the run's floors, :func:`run_floors`, if found: None says they are being
    found, () that they cannot be)."""
    title = f" {printable(record.world)} — {outcome_words(record)} "
    lines = [title.center(WIDTH, "="), ""]
    lines += [
        f"Run          {record.id}",
        f"World        {printable(record.world)} "
        f"(seed {seeds.shown(record.seed, record.generator)}, {record.preset}, "
        f"{record.difficulty})",
        f"Seed code    {seeds.shown(record.seed, record.generator)}",
        f"Play it      roguelike --seed {seeds.shown(record.seed, record.generator)} "
        f"--preset {record.preset}"
        + ("" if record.difficulty == DEFAULT_DIFFICULTY else f" --difficulty {record.difficulty}"),
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
    if record.practice_from is not None:
        lines.append(
            f"Practice     from input {record.practice_from} of another run: "
            "unscored, never the daily, never ranked"
        )
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
    hinted = [q.hints for f in floors or () for q in f.puzzles]
    for n, p in enumerate(record.puzzles):
        kind, level = printable(p.type), printable(p.difficulty)  # texts from the file
        hints = f", {_plural(hinted[n], 'hint')}" if len(hinted) == len(record.puzzles) else ""
        lines.append(f"  floor {p.floor:>2}  {kind:<8} {level:<10} {p.score:>3} points{hints}")
    lines += ["", "Floors:"]
    if floors is None:
        lines.append("  being found by replaying the run…")
    elif not floors:
        lines.append("  not known (no recording that replays)")
    for f in floors or ():
        lines.append(
            f"  floor {f.floor:>2}  {_plural(f.turns, 'turn'):>11}  {_plural(f.kills, 'kill'):>8}"
            f"  {_plural(f.keys, 'key'):>7}  {_plural(len(f.puzzles), 'puzzle')} solved"
        )
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
