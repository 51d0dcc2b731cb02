"""The keys-and-doors view: the corridor and its side branch, with the doors, the keys and the
player; ``1``-``9`` takes an action from the numbered list of legal ones, the arrows walk (``↓``
from the junction enters the side branch), ``t`` takes, ``d`` drops, ``o`` opens."""

from __future__ import annotations

from functools import partial

from rich.text import Text

from roguelike.puzzles.keydoor import KeyDoor, Move, State, keys_of
from screens.puzzle.draw import DIM, FRAME, HINT, LABEL, Canvas, bg, wrap
from screens.puzzle.view import (
    DIRECTION_OF,
    Answer,
    Play,
    Say,
    View,
    arrow_keys,
    number_keys,
    view_key,
)


def corridor_door(k: int, conn: int, is_open: bool) -> tuple[str, str]:
    """The door of key ``k`` on a corridor ``conn`` cells long, and what is drawn under it: a
    locked door is never a bare digit (beside a key's label, ``k2`` then door ``2`` read as
    ``k22``): ``▐2▌`` where three cells fit, ``▐2`` in two, and in one the door ``▐`` with its
    number under it; an open door is ``╌2╌``, ``╌2`` or ``╌``."""
    if conn >= 3:
        return (f"╌{k}╌" if is_open else f"▐{k}▌"), ""
    if conn == 2:
        return (f"╌{k}" if is_open else f"▐{k}"), ""
    return ("╌", "") if is_open else ("▐", str(k))


class KeyDoorView(View[State, Move]):
    p: KeyDoor

    def __init__(self, p: KeyDoor) -> None:
        super().__init__(p)
        self.goal = f"Reach room {p.rooms}, the goal (G)."

    def arrow(self, s: State, dr: int, dc: int) -> Answer:
        p = self.p
        room = s[0]
        if not p.is_side(room):
            action = {(0, -1): "left", (0, 1): "right", (1, 0): "enter"}.get((dr, dc))
            if action == "enter" and p.dest("enter", room) is None:
                return Say("The side branch leaves from another room.")
        else:
            back = "left" if room > p.branch_of(room)[1] else "leave"
            action = {(1, 0): "right", (-1, 0): back}.get((dr, dc))
        if action is None:
            return Say(f"You cannot go {DIRECTION_OF[(dr, dc)]} from here.")
        return Play(action)

    def number(self, s: State, n: int) -> Answer:
        legal = self.p.moves(s)
        if not 1 <= n <= len(legal):
            return Say(f"There is no action {n}.")
        return Play(legal[n - 1])

    def act(self, s: State, name: str) -> Answer:
        return Play(name)

    def keys_for(self, s: State, m: Move) -> str:
        legal = self.p.moves(s)
        return str(legal.index(m) + 1) if m in legal else ""

    def status(self, s: State, width: int, marks: list[Move]) -> list[Text]:
        held = ", ".join(f"key {k}" for k in keys_of(s[1]))
        out = [
            Text.assemble(
                ("Holding: ", LABEL), (held, "bold #ffd060") if held else ("nothing", DIM)
            ),
            Text(""),
            Text("Actions (press the number):", style=LABEL),
        ]
        first = marks[0] if marks else None
        for n, m in enumerate(self.p.moves(s), 1):
            words = self.p.describe_move(m, s)
            hinted = m == first
            for k, line in enumerate(wrap(words, width - 3, f"bold {HINT}" if hinted else "")):
                prefix = Text(f"{n}  " if k == 0 else "   ", style="bold")
                if hinted and k == 0:
                    prefix = Text(f"{n}◆ ", style=f"bold {HINT}")
                out.append(prefix + line)
        return out

    def board(self, s: State, width: int, height: int, marks: list[Move]) -> list[Text]:
        p = self.p
        room, _held, where, opened = s
        n = p.rooms
        rw, conn = next(
            (
                (rw, cn)
                for rw, cn in ((5, 4), (5, 3), (3, 3), (3, 2), (3, 1))
                if n * rw + (n - 1) * cn <= width
            ),
            (3, 1),
        )
        deepest = max(p.branch, p.branch2)
        tall = height >= 2 * deepest + 13  # room for a blank row between the rooms
        pitch, vstep = rw + conn, 3 if tall else 2
        main_w = n * rw + (n - 1) * conn
        legend_y = 2 + vstep * deepest + 1
        c = Canvas(max(main_w, 38), legend_y + 4)
        mid = rw // 2

        def room_xy(r: int) -> tuple[int, int]:
            if p.is_side(r):
                junction, first, _last = p.branch_of(r)
                return (junction - 1) * pitch, 1 + vstep * (r - first + 1)
            return (r - 1) * pitch, 1

        locked = "bold #ffffff on #a03030"
        for r in range(1, p.total + 1):
            x, y = room_xy(r)
            if r == room:
                rs = bg("#4a6a9a")
            elif r == 1:
                rs = bg("#2a5a3a")
            elif r == n:
                rs = bg("#7a6a20")
            else:
                rs = bg("#2a2a3c")
            c.put(x, y, " " * rw, rs)
            if r == room:
                c.restyle(x + mid - 1, y, "@", "bold #ffffff")
            if r in where:
                c.restyle(x + mid, y, f"k{where.index(r) + 1}", "bold #ffd060")
            k = p.door_at(r)
            is_open = bool(k) and bool(opened >> (k - 1) & 1)
            if not p.is_side(r):
                tag = "S" if r == 1 else "G" if r == n else str(r)
                st = "bold #60c060" if r == 1 else "bold #ffd060" if r == n else DIM
                c.put(x + mid, 0, tag, st)
                if r > 1:
                    cx = x - conn
                    c.put(cx, y, "─" * conn, FRAME)
                    if k:
                        door, below = corridor_door(k, conn, is_open)
                        dx = cx + (conn - len(door)) // 2
                        c.put(dx, y, door, locked if not is_open else "#60c060")
                        if below:  # one cell between the rooms: the number under the door
                            c.put(dx, y + 1, below, locked)
            else:
                for yy in range(y - vstep + 1, y):
                    c.put(x + mid, yy, "│", FRAME)
                if k:
                    door = f"▐{k}▌"
                    c.put(
                        x + mid - 1,
                        y - 1,
                        door if not is_open else f" {k} ",
                        locked if not is_open else "#60c060",
                    )
                c.put(x + rw + 1, y, f"s{r - p.rooms}", DIM)
        c.put(0, legend_y, "@ you   k1 key 1   ", DIM)
        c.put(19, legend_y, "▐1▌", locked)
        c.put(22, legend_y, " door 1 (locked)", DIM)
        c.put(0, legend_y + 1, "S start  G goal  s1 side room 1", DIM)
        hand = "one key" if p.hand == 1 else f"{p.hand} keys, kept"
        eats = "doors keep keys" if p.keeps else "doors eat keys"
        if p.keeps and len(p.keeps) < len(p.doors):
            eats = "doors " + ",".join(map(str, p.keeps)) + " keep keys"
        c.put(0, legend_y + 2, f"hand: {hand} · {eats}", LABEL)
        return c.lines()

    KEYS = (
        *arrow_keys("walk", "walk (the branch runs down)", arrow),
        *number_keys("do", "do the listed action", number),
        view_key("t", "take the key lying here", "take", "t", partial(act, name="take")),
        view_key("d", "drop the key you hold", "drop", "d", partial(act, name="drop")),
        view_key("o", "open the door next to you", "open", "o", partial(act, name="open")),
    )
