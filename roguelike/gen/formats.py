"""How a generated floor is shown outside the game: JSON, graphviz dot and ASCII.

The JSON is stable: keys sorted, lists in id order, so the same seed code gives byte-identical
output in every process. Its shape is documented in the README.
"""

from __future__ import annotations

import json
from typing import Any

from roguelike import seeds, tiles
from roguelike.gen.floor import Cast, Decorated, Floor, Laid, Planned, Populated, Slot, Stamped
from roguelike.gen.topology import Topology
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
    return {
        # the seed as files keep it, beside its own generator field (seeds.stored)
        "seed": seeds.stored(seed),
        "generator_version": GENERATOR_VERSION,
        "floor": floor,
    }


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


# --- whole floors -----------------------------------------------------------------------------


#: Glyphs drawn over the tiles in a printed floor (not tiles: they live on top of them).
OVERLAY = {"spawn": "@", "monster": "M", "item": "!", "treasure": "$", "captive": "&"}


def _slots(fl: Planned) -> list[Slot]:
    """The floor's slots, none before the population stage."""
    return fl.slots if isinstance(fl, Populated) else []


def floor_rows(fl: Stamped, overlay: bool = True) -> list[list[str]]:
    """The floor's glyphs, row by row, with the spawn, keys and slots drawn on top."""
    rows = [list(tiles.GLYPHS[row]) for row in fl.tiles]
    if overlay:
        for s in _slots(fl):
            rows[s.y][s.x] = OVERLAY[s.kind]
        for k in fl.keys:
            rows[k.y][k.x] = tiles.key_letter(k.id).lower()
        rows[fl.spawn[1]][fl.spawn[0]] = OVERLAY["spawn"]
    return rows


def _theme(fl: Planned) -> str:
    """The floor's theme, "" before the terrain stage."""
    return fl.theme if isinstance(fl, Decorated) else ""


def _legend_lines(fl: Stamped) -> list[str]:
    present = sorted(set(int(t) for t in fl.tiles.ravel()))
    parts = [f"{tiles.TILES[t].glyph!r} {tiles.TILES[t].name}" for t in present if t != tiles.VOID]
    parts += [
        "'@' you",
        "'a'… key (its door shows the capital)",
        "'M' monster",
        "'!' item",
        "'$' treasure",
    ]
    return ["legend: " + ", ".join(parts)]


def floor_ascii(fl: Stamped, colour: bool = False) -> str:
    """The floor as a person would look at it: a header, the map, a legend."""
    theme = _theme(fl)
    header_line = (
        f"floor {fl.number} · seed {seeds.encode(fl.seed)} · {len(fl.topology.rooms)} rooms · "
        f"{len(fl.keys)} keys · {fl.width}×{fl.height}" + (f" · {theme}" if theme else "")
    )
    rows = floor_rows(fl)
    if colour:
        key_pos = {(k.x, k.y): k.id for k in fl.keys}
        slot_kind = {(s.x, s.y): s.kind for s in _slots(fl)}
        out_rows = []
        for y, row in enumerate(rows):
            line = []
            for x, glyph in enumerate(row):
                t = tiles.TILES[int(fl.tiles[y, x])]
                if (x, y) == fl.spawn:
                    line.append(ansi(tiles.ROLE_COLOURS["player"], glyph, bold=True))
                elif (x, y) in key_pos:
                    line.append(ansi(tiles.key_colour(key_pos[(x, y)])[1], glyph, bold=True))
                elif (x, y) in slot_kind:
                    line.append(ansi(tiles.ROLE_COLOURS[slot_kind[(x, y)]], glyph, bold=True))
                elif t.colour.startswith("key"):
                    line.append(ansi(tiles.key_colour(int(t.colour[3:]))[1], glyph, bold=True))
                elif glyph == " ":
                    line.append(" ")
                else:
                    line.append(ansi(tiles.ROLE_COLOURS[t.colour], glyph))
            out_rows.append("".join(line).rstrip())
        body = out_rows
    else:
        body = ["".join(r).rstrip() for r in rows]
    return "\n".join([header_line, *body, *_legend_lines(fl)]) + "\n"


def floor_json(fl: Planned) -> dict[str, Any]:
    """The topology JSON plus what the later stages add, as far as ``fl`` has come (see the
    README for every field)."""
    doc = topology_json(fl.seed, fl.number, fl.topology)
    if not isinstance(fl, Cast):
        return doc
    doc["roles"] = {str(r): role for r, role in sorted(fl.roles.items())}
    if not isinstance(fl, Laid):
        return doc
    doc["width"], doc["height"] = fl.width, fl.height
    doc["rooms"] = [
        {"id": p.room, "template": p.template.name, "x": p.x, "y": p.y, "w": p.w, "h": p.h}
        for p in fl.layout.placements
    ]
    if not isinstance(fl, Stamped):
        return doc
    doc["tiles"] = ["".join(tiles.GLYPHS[row]) for row in fl.tiles]
    present = sorted(set(int(t) for t in fl.tiles.ravel()))
    doc["legend"] = {tiles.TILES[t].glyph: tiles.TILES[t].name for t in present}
    doc["doors"] = [
        {"x": d.x, "y": d.y, "lock": d.lock, "edge": [d.edge[0], d.edge[1]]} for d in fl.doors
    ]
    doc["keys"] = [{"id": k.id, "x": k.x, "y": k.y, "room": k.room} for k in fl.keys]
    doc["vaults"] = [
        {"key": v.key, "pedestal": [v.x, v.y], "room": v.room, "vault": v.vault} for v in fl.vaults
    ]
    doc["spawn"] = list(fl.spawn)
    doc["finish"] = list(fl.finish)
    doc["theme"] = _theme(fl) or None
    doc["slots"] = [
        {"kind": s.kind, "x": s.x, "y": s.y, "room": s.room, "level": s.level} for s in _slots(fl)
    ]
    doc["changes"] = [
        {
            "kind": ch.kind,
            "key": ch.key,
            "pedestal": [ch.x, ch.y],
            "room": ch.room,
            "cells": [[x, y, tiles.TILES[t].glyph] for x, y, t in ch.cells],
        }
        for ch in (fl.changes if isinstance(fl, Populated) else [])
    ]
    doc["proven"] = isinstance(fl, Floor) and fl.proven
    return doc


def stage_json(fl: Planned) -> dict[str, Any]:
    """The JSON of ``roguelike generate --stage``: the topology's alone after stage 1."""
    if not isinstance(fl, Cast):
        return topology_json(fl.seed, fl.number, fl.topology)
    return floor_json(fl)


def stage_ascii(fl: Planned, colour: bool = False) -> str:
    """The ASCII of ``roguelike generate --stage``: the topology's tree until there is a map."""
    if isinstance(fl, Stamped):
        return floor_ascii(fl, colour)
    return topology_ascii(fl.seed, fl.number, fl.topology, colour)
