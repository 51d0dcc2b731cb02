"""The water jugs' view: a row and a water gauge per jug; ``1``-``9`` (or the cursor ``↑ ↓``
and Enter or Space) picks the jug to pour from, then the jug to pour into."""

from __future__ import annotations

from rich.text import Text

from roguelike.puzzles.base import ordinal_letter
from roguelike.puzzles.jugs import Jugs, Move, State
from screens.puzzle.draw import BRIGHT, DIM, FRAME, GOOD, HINT, LABEL, SELECT_BG, bg
from screens.puzzle.view import Answer, Play, Say, View, arrow_keys, number_keys, view_key


class JugsView(View[State, Move]):
    p: Jugs

    def __init__(self, p: Jugs) -> None:
        super().__init__(p)
        self.cursor = 0
        self.source: int | None = None
        self.goal = p.goal_text()[0].upper() + p.goal_text()[1:] + "."

    def reset_ui(self, s: State) -> None:
        self.source = None

    def moved(self, s: State, m: Move, t: State) -> None:
        self.source = None

    def arrow(self, s: State, dr: int, dc: int) -> Answer:
        n = len(self.p.capacities)
        self.cursor = (self.cursor + (dr or dc)) % n
        return None

    def number(self, s: State, n: int) -> Answer:
        if not 1 <= n <= len(self.p.capacities):
            return Say(f"There is no jug {n}.")
        return self._pick(s, n - 1)

    def confirm(self, s: State) -> Answer:
        return self._pick(s, self.cursor)

    def _pick(self, s: State, i: int) -> Answer:
        self.cursor = i
        name = ordinal_letter(i)
        if self.source is None:
            if s[i] == 0:
                return Say(f"Jug {name} is empty: pick a jug with water in it to pour from.")
            self.source = i
            return None
        if self.source == i:
            self.source = None
            return Say("Pour cancelled.")
        a, self.source = self.source, None
        if s[i] == self.p.capacities[i]:
            return Say(f"Jug {name} is already full.")
        return Play((a, i))

    def keys_for(self, s: State, m: Move) -> str:
        a, b = m[0] + 1, m[1] + 1
        if self.source is None:
            return f"{a} then {b}"
        if self.source == m[0]:
            return str(b)
        return f"{self.source + 1} (to cancel), {a} then {b}"

    def status(self, s: State, width: int, marks: list[Move]) -> list[Text]:
        if self.source is None:
            return [Text("Pick a jug to pour from.", style=DIM)]
        return [
            Text.assemble(
                ("Pouring from ", LABEL),
                (f"jug {ordinal_letter(self.source)}", "bold"),
                ("; now pick the jug to pour into.", LABEL),
            )
        ]

    def board(self, s: State, width: int, height: int, marks: list[Move]) -> list[Text]:
        caps = self.p.capacities
        kind, vals = self.p.target
        room = max(8, width - 8)
        unit = max(1, min(3, room // max(caps)))

        def cells(litres: int) -> int:  # bar length; scaled down when the jugs are large
            return litres * unit if max(caps) * unit <= room else litres * room // max(caps)

        first = marks[0] if marks else None
        out: list[Text] = []
        for i, (cap, now) in enumerate(zip(caps, s, strict=True)):
            name = ordinal_letter(i)
            head = Text(no_wrap=True)
            head.append("▶ " if i == self.cursor else "  ", style="bold #ffd060")
            head.append(f"{i + 1} ", style="bold")
            sel = i == self.source
            head.append(f" jug {name} ", style=bg(SELECT_BG, "#000000") if sel else "bold")
            head.append(f"  {now:>2} / {cap} L", style=BRIGHT if now else DIM)
            if sel:
                head.append("  ◀ from", style="bold #ffd060")
            if first is not None and i == first[0]:
                head.append("  ◆ pour from", style=f"bold {HINT}")
            if first is not None and i == first[1]:
                head.append("  ◆ pour into", style=f"bold {HINT}")
            out.append(head)
            bar = Text("    ▕", style=FRAME, no_wrap=True)
            bar.append("█" * cells(now), style="#3a8fd8")
            bar.append("░" * (cells(cap) - cells(now)), style="#34344a")
            bar.append("▏", style=FRAME)
            out.append(bar)
            mark = Text(no_wrap=True)
            want = vals[i] if kind == "vector" else vals[0] if vals[0] <= cap else None
            if want is not None:
                met = now == want
                style = GOOD if met else "#d0a040"
                at = 5 + max(0, cells(want) - 1)
                if kind == "any":
                    label = f"{want} L would do" if not met else f"{want} L: measured!"
                else:
                    label = f"goal {want} L" + (" ✓" if met else "")
                mark.append(" " * at)
                mark.append("▲ " + label, style=style)
            out.append(mark)
        return out

    KEYS = (
        *arrow_keys("jug", "move the cursor", arrow),
        *number_keys("jug", "pick a jug: from, then into", number),
        view_key("enter,space", "pick the jug at the cursor", "pick", "⏎", confirm),
    )
