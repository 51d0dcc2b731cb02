"""How a generated floor is shown outside the game: JSON, graphviz dot and ASCII.

The JSON is stable: keys sorted, lists in id order, so the same seed code gives byte-identical
output in every process. Its shape is documented in the README.
"""

from __future__ import annotations

import json
from typing import Any

from roguelike import seeds, tiles
from roguelike.topology import Topology
from roguelike.version import GENERATOR_VERSION

RESET = "\x1b[0m"


def ansi(hex_colour: str, text: str, bold: bool = False) -> str:
    """``text`` in a 24-bit terminal colour."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"\x1b[{'1;' if bold else ''}38;2;{r};{g};{b}m{text}{RESET}"


def dumps(doc: dict[str, Any]) -> str:
    """The one JSON style of every command: sorted keys, two-space indent, plain ASCII."""
    return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=True)


def header(seed: int, floor: int) -> dict[str, Any]:
    return {"seed": seeds.encode(seed), "generator_version": GENERATOR_VERSION, "floor": floor}


def topology_json(seed: int, floor: int, topo: Topology) -> dict[str, Any]:
    return header(seed, floor) | {"topology": topo.to_dict()}


def topology_dot(seed: int, floor: int, topo: Topology) -> str:
    """A graphviz drawing: the start and finish doubled, keys and locks in their colours."""
    lines = [
        "graph floor {",
        f'  label="seed {seeds.encode(seed)} · floor {floor}"; labelloc=t;',
        '  node [shape=circle, style=filled, fillcolor="#e8e8e8", fontname="monospace"];',
    ]
    for r in topo.rooms:
        attrs = [f'label="{r.id}\\nd{r.depth}"']
        if r.role == "start":
            attrs += ["shape=doublecircle", 'fillcolor="#a0e0a0"', f'label="start\\n{r.id}"']
        elif r.role == "finish":
            attrs += [
                "shape=doublecircle",
                'fillcolor="#a0a0e0"',
                f'label="finish\\n{r.id}\\nd{r.depth}"',
            ]
        elif r.key is not None:
            name, hexc = tiles.key_colour(r.key)
            attrs += [
                "shape=box",
                f'fillcolor="{hexc}"',
                f'label="{r.id}\\nkey {tiles.key_letter(r.key)}\\nd{r.depth}"',
                f'tooltip="the {name} key"',
            ]
        lines.append(f"  {r.id} [{', '.join(attrs)}];")
    for e in topo.edges:
        style = ""
        if e.lock is not None:
            _, hexc = tiles.key_colour(e.lock)
            style = f'color="{hexc}", penwidth=3, label="{tiles.key_letter(e.lock)}"'
        elif e.loop:
            style = "style=dashed"
        lines.append(f"  {e.a} -- {e.b}" + (f" [{style}]" if style else "") + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _key_label(key: int, colour: bool, door: bool) -> str:
    name, hexc = tiles.key_colour(key)
    text = f"[{tiles.key_letter(key)}]" if door else f"key {tiles.key_letter(key)} ({name})"
    return ansi(hexc, text, bold=True) if colour else text


def topology_ascii(seed: int, floor: int, topo: Topology, colour: bool = False) -> str:
    """An indented tree: locked corridors show their key's letter, loops are listed below."""
    n_loops = sum(e.loop for e in topo.edges)
    out = [
        f"floor {floor} · seed {seeds.encode(seed)} · {len(topo.rooms)} rooms · "
        f"{len(topo.keys)} keys" + (f" · {n_loops} loops" if n_loops else "")
    ]
    children = topo.children()
    lock_into = {e.b: e.lock for e in topo.edges if not e.loop and e.lock is not None}
    by_id = {r.id: r for r in topo.rooms}

    def label(room_id: int) -> str:
        r = by_id[room_id]
        text = f"{r.role} {r.id}" if r.role in ("start", "finish") else f"room {r.id}"
        if r.key is not None:
            text += " · " + _key_label(r.key, colour, door=False)
        return text + f" · depth {r.depth}"

    def walk(room_id: int, prefix: str) -> None:
        kids = children[room_id]
        for i, kid in enumerate(kids):
            last = i == len(kids) - 1
            door = lock_into.get(kid)
            gate = (_key_label(door, colour, door=True) + "─ ") if door else ""
            out.append(f"{prefix}{'└── ' if last else '├── '}{gate}{label(kid)}")
            walk(kid, prefix + ("    " if last else "│   "))

    out.append(label(topo.start))
    walk(topo.start, "")
    for e in topo.edges:
        if e.loop:
            out.append(f"loop: room {e.a} ─ room {e.b}")
    return "\n".join(out) + "\n"
