"""The fuzz corpus (no tests here): real files made small, and their mutants.

Real files: a tiny world saved after a few moves (:func:`real_save`), its payload as a document
(:func:`save_document`), and the run file of the bot winning a tiny world (:func:`real_run`).
Mutants (:data:`SAVE_MUTANTS`, :data:`RUN_MUTANTS`: a builder by name) are what a stranger
could hand a player:

- truncations and bit flips anywhere, header and payload;
- header fields edited and packed again with :func:`saves.header.pack`, so the checksums hold
  and the header's readers are what refuses them (a newer format, a name with an escape
  sequence, a far-future date, a bad seed code);
- the payload's text fields (world name, log, cause, dates, versions) carrying control
  characters, escape sequences and markup, packed again properly (a file the game might load:
  then its texts must be shown, never acted on);
- zlib bombs, deeply nested JSON, and huge counts (a log of a million lines).

Every builder is a pure function of its arguments (the tiny world and run are seeded), so a
failing mutant can be rebuilt by its name. :func:`run_children` runs many commands in one child
process (tests/fuzz/runner.py) under :data:`MEMORY_LIMIT`, for the fuzz tests that need a
process of their own.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import resource
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roguelike import seeds
from roguelike.engine import GameState, step
from roguelike.engine.actions import Move
from roguelike.version import GAME_VERSION, GENERATOR_VERSION
from saves import header as h
from saves import record as run_file
from saves.codec import summary_of, to_document
from saves.world import World
from tests.saves.run_support import TINY_SEED, tiny_game, won_record

ROOT = Path(__file__).resolve().parents[2]
#: The address space a child running the game may use: the limit the issue sets for any input.
MEMORY_LIMIT = 2 << 30
#: The name of the tiny world the real save holds.
TINY_NAME = "Tiny"
SAVED = "2026-01-02T03:04:05.000+00:00"

#: Sequences a shared file could try to send to the player's terminal: OSC 52 (write the
#: clipboard), OSC 0 (the window title), CSI (clear the screen), their 8-bit C1 forms, a bell,
#: NUL, and a right-to-left override.
OSC52 = "\x1b]52;c;SGVsbG8=\x07"
OSC0 = "\x1b]0;pwned\x07"
CSI = "\x1b[2J"
C1_CSI = "\x9b31m"
C1_OSC = "\x9d0;pwned\x9c"
ESCAPES = (OSC52, OSC0, CSI, C1_CSI, C1_OSC, "\x07", "\x00", "\u202e")
#: Markup Rich and Textual would read, were a file's text ever taken as markup.
MARKUP = ("[/]", "[bold red]x", "[@click=app.quit]x[/]")
#: One text carrying all of them.
HOSTILE = "log " + "".join(ESCAPES) + " ".join(MARKUP)

#: Raw bytes that must never reach the terminal from a file's text: ESC and the C1 controls
#: (an escape sequence's start), and every C0 control but tab and newline.
RAW_CONTROL = frozenset([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)])


def raw_controls(text: str) -> list[str]:
    """The characters of ``text`` that a terminal would act on (empty when it is safe)."""
    return [ch for ch in text if ord(ch) in RAW_CONTROL or ch in "\u202a\u202b\u202c\u202d\u202e"]


@functools.cache
def _tiny() -> tuple[World, GameState]:
    state = tiny_game(TINY_SEED, TINY_NAME)
    world = World(TINY_NAME, TINY_SEED, preset="small", created=SAVED)
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        step(state, Move(dx, dy))
    return world, state


def tiny() -> tuple[World, GameState]:
    """The tiny world and its state after a few moves (copies: change them freely)."""
    world, state = _tiny()
    return world, copy.deepcopy(state)


def save_document() -> dict[str, Any]:
    """The payload of :func:`real_save` as a JSON-able document."""
    world, state = tiny()
    return to_document(world, state)


def _tiny_header() -> dict[str, Any]:
    """The header fields of the tiny world's save, as the game writes them (the summary as a
    record: the packer writes it)."""
    world, state = tiny()
    return {
        "format": h.FORMAT_VERSION,
        "game": GAME_VERSION,
        "generator": GENERATOR_VERSION,
        "seed": seeds.stored(world.seed),
        "world": world.name,
        "created": world.created,
        "saved": SAVED,
        "summary": summary_of(world, state),
    }


def pack_save(document: dict[str, Any] | None = None, **header: Any) -> bytes:
    """A save of ``document`` (default: the tiny world's) with its header's fields, any of them
    replaced by ``header``, written by the game's own packer: the checksums hold."""
    fields: dict[str, Any] = {**_tiny_header(), **header}
    return h.pack(save_document() if document is None else document, **fields)


@functools.cache
def real_save() -> bytes:
    """A real save: the tiny world after a few moves."""
    return pack_save()


def hostile_save(text: str = HOSTILE, *, name: str = "[bold]Hostile[/] world") -> bytes:
    """A save the game loads whose log, cause and name carry ``text`` (escape sequences and
    markup), packed properly: what a stranger's world could show the player."""
    doc = save_document()
    doc["world"]["name"] = name
    doc["state"]["world_name"] = name
    doc["state"]["log"] = [*doc["state"]["log"][-3:], text, f"a {text} again"]
    doc["state"]["stats"]["cause"] = text
    return pack_save(doc, world=name)


def raw_save(payload: bytes, **changes: Any) -> bytes:
    """A save of any ``payload`` bytes (a bomb, broken JSON) under a header that states its
    true length and checksum. Built like the packer's header line, not by it (the packer takes
    only documents), sealed as the packer seals it (unless ``changes`` gives a ``seal``), so
    that the payload reaches the decoders' bounds."""
    fields: dict[str, Any] = {
        **_tiny_header(),
        "length": len(payload),
        "blake2b": hashlib.blake2b(payload, digest_size=32).hexdigest(),
    }
    fields["summary"] = fields["summary"].to_json()
    fields.update(changes)
    if "seal" not in changes:  # sealed as the packer seals: the decoders' bounds are reached
        fields["seal"] = h.seal_of(fields)
    line = json.dumps(fields, sort_keys=True)
    return h.MAGIC + line.encode("ascii") + b"\n" + payload


@functools.cache
def bomb(size: int, unit: bytes = b" ") -> bytes:
    """``size`` bytes of ``unit`` compressed: a small file that inflates without end. Built in
    a moment: one megabyte is compressed as a block of its own (a full flush), and that block
    repeated, then the stream closed with the true checksum of the whole."""
    z = zlib.compressobj(9)
    chunk = unit * (1 << 20)
    count = max(2, size >> 20)
    first = z.compress(chunk) + z.flush(zlib.Z_FULL_FLUSH)
    block = z.compress(chunk) + z.flush(zlib.Z_FULL_FLUSH)
    adler = 1
    for _ in range(count):
        adler = zlib.adler32(chunk, adler)
    end = z.flush()[:-4] + adler.to_bytes(4, "big")
    return first + block * (count - 1) + end


def _flip(data: bytes, at: int, bit: int = 0) -> bytes:
    out = bytearray(data)
    out[at % len(out)] ^= 1 << bit
    return bytes(out)


def _cut(at: Callable[[bytes, int], int]) -> Callable[[], bytes]:
    """The real save cut where ``at(data, end of header)`` says."""

    def build() -> bytes:
        data = real_save()
        return data[: at(data, data.index(b"\n"))]

    return build


def _flipped(at: Callable[[bytes, int], int]) -> Callable[[], bytes]:
    """The real save with one bit flipped where ``at(data, end of header)`` says."""

    def build() -> bytes:
        data = real_save()
        where = at(data, data.index(b"\n"))
        return _flip(data, where, where % 8)

    return build


def _header(**fields: Any) -> Callable[[], bytes]:
    return lambda: pack_save(**fields)


def _text(*path: str | int) -> Callable[[], bytes]:
    """The real save with the payload's text at ``path`` set to :data:`HOSTILE`, packed."""

    def build() -> bytes:
        doc = save_document()
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = HOSTILE
        return pack_save(doc)

    return build


def _huge(key: str, value: Any) -> Callable[[], bytes]:
    def build() -> bytes:
        doc = save_document()
        doc["state"][key] = value
        return pack_save(doc)

    return build


#: Every mutant of the real save, by name: a builder of its bytes (names are known without
#: building anything, so tests can be parametrised by them).
SAVE_MUTANTS: dict[str, Callable[[], bytes]] = {
    "real": real_save,
    "hostile-texts": hostile_save,
    **{
        f"truncated-{name}": _cut(at)
        for name, at in {
            "0": lambda d, e: 0,
            "1": lambda d, e: 1,
            "in-magic": lambda d, e: 7,
            "after-magic": lambda d, e: 8,
            "in-header": lambda d, e: e // 2,
            "before-newline": lambda d, e: e,
            "after-newline": lambda d, e: e + 1,
            "in-payload": lambda d, e: (e + len(d)) // 2,
            "last-byte": lambda d, e: len(d) - 1,
        }.items()
    },
    **{
        f"flip-{name}": _flipped(at)
        for name, at in {
            "magic": lambda d, e: 3,
            "header-start": lambda d, e: 12,
            "header-third": lambda d, e: e // 3,
            "header-half": lambda d, e: e // 2,
            "header-end": lambda d, e: e - 5,
            "payload-start": lambda d, e: e + 3,
            "payload-middle": lambda d, e: (e + len(d)) // 2,
            "payload-end": lambda d, e: len(d) - 3,
        }.items()
    },
    "doubled": lambda: real_save() * 2,
    "header-format-newer": _header(format=999),
    "header-format-negative": _header(format=-1),
    "header-game-osc0": _header(game=OSC0),
    "header-generator-osc52": _header(generator=OSC52),
    "header-seed-csi": _header(seed=CSI),
    "header-world-markup": _header(world="[/]"),
    "header-world-osc0": _header(world="x" + OSC0),
    "header-world-bidi": _header(world="\u202eevil"),
    "header-world-long": _header(world="w" * 300),
    "header-created-c1": _header(created=C1_CSI),
    "header-saved-far-future": _header(saved="9999-12-31T23:59:59.999+00:00"),
    "header-saved-not-a-date": _header(saved="yesterday"),
    "text-world.name": _text("world", "name"),
    "text-world.created": _text("world", "created"),
    "text-world.generator": _text("world", "generator"),
    "text-world.seed": _text("world", "seed"),
    "text-world.preset": _text("world", "preset"),
    "text-state.world_name": _text("state", "world_name"),
    "text-state.preset": _text("state", "preset"),
    "text-state.log": _text("state", "log", 0),
    "text-state.cause": _text("state", "stats", "cause"),
    "count-log": _huge("log", ["x"] * 1_000_000),
    "count-monsters": _huge("monsters", [{"kind": "rat"}] * 200_000),
    "bomb-spaces": lambda: raw_save(bomb(512 << 20)),
    "bomb-brackets": lambda: raw_save(bomb(64 << 20, b"[")),
    "deep-json": lambda: raw_save(zlib.compress(b"[" * 200_000 + b"]" * 200_000)),
    "not-zlib": lambda: raw_save(b"\x00" * 100),
    "length-lies": lambda: raw_save(zlib.compress(b"{}"), length=10**12),
    "empty": lambda: b"",
    "garbage": lambda: bytes(range(256)) * 4,
}


@functools.cache
def real_run() -> bytes:
    """A real run file: the bot winning the tiny world."""
    return run_file.pack(won_record())


def pack_run(document: dict[str, Any], **head: Any) -> bytes:
    """A run file of ``document`` with a true length and checksum (the layout of
    :func:`saves.record.pack`, which takes only a record), ``head`` replacing header fields."""
    payload = zlib.compress(json.dumps(document, separators=(",", ":")).encode("ascii"), 6)
    fields: dict[str, Any] = {
        "format": run_file.RUN_FORMAT,
        "game": GAME_VERSION,
        "generator": document.get("generator", GENERATOR_VERSION),
        "length": len(payload),
        "blake2b": hashlib.blake2b(payload, digest_size=32).hexdigest(),
    }
    fields.update(head)
    return run_file.header_line(fields) + payload


def _run_cut(fraction: float) -> Callable[[], bytes]:
    return lambda: real_run()[: int(len(real_run()) * fraction)]


def _run_flip(fraction: float) -> Callable[[], bytes]:
    def build() -> bytes:
        data = real_run()
        at = int((len(data) - 1) * fraction)
        return _flip(data, at, at % 8)

    return build


def _run_text(key: str) -> Callable[[], bytes]:
    def build() -> bytes:
        doc = won_record().to_json()
        doc[key] = HOSTILE
        return pack_run(doc)

    return build


def _run_bomb() -> bytes:
    payload = bomb(256 << 20)
    head = {
        "format": run_file.RUN_FORMAT,
        "game": GAME_VERSION,
        "generator": GENERATOR_VERSION,
        "length": len(payload),
        "blake2b": hashlib.blake2b(payload, digest_size=32).hexdigest(),
    }
    return run_file.MAGIC + json.dumps(head).encode("ascii") + b"\n" + payload


#: Every mutant of the real run file, by name: a builder of its bytes.
RUN_MUTANTS: dict[str, Callable[[], bytes]] = {
    "run-real": real_run,
    **{f"run-truncated-{f}": _run_cut(f) for f in (0.0, 0.01, 0.1, 0.5, 0.99)},
    **{f"run-flip-{f}": _run_flip(f) for f in (0.02, 0.1, 0.3, 0.6, 1.0)},
    **{
        f"run-text-{key}": _run_text(key)
        for key in ("world", "cause", "challenge", "id", "started", "ended", "preset", "outcome")
    },
    "run-header-generator-osc0": lambda: pack_run(won_record().to_json(), generator=OSC0),
    "run-header-format-huge": lambda: pack_run(won_record().to_json(), format=10**30),
    "run-bomb": _run_bomb,
}


def tree_digest(folder: Path) -> str:
    """A digest of every file under ``folder``, names and bytes (what "unchanged" means)."""
    digest = hashlib.blake2b(digest_size=16)
    if folder.exists():
        for path in sorted(folder.rglob("*")):
            digest.update(str(path.relative_to(folder)).encode("utf-8", "replace") + b"\0")
            if path.is_file() and not path.is_symlink():
                digest.update(path.read_bytes())
    return digest.hexdigest()


def random_mutants(count: int, seed: int = 15) -> dict[str, Callable[[], bytes]]:
    """``count`` more mutants of the real save and run file for the long fuzz run: a few
    bits flipped, a stretch cut out or repeated, at places drawn from a seeded stream (the
    same on every machine, so a failing one can be rebuilt by its name)."""
    import random

    rng = random.Random(seed)
    out: dict[str, Callable[[], bytes]] = {}
    for k in range(count):
        source = real_save if k % 2 == 0 else real_run
        kind = rng.choice(("flips", "cut", "repeat"))
        draws = [rng.random() for _ in range(6)]

        def build(source: Callable[[], bytes] = source, kind: str = kind, d: list[float] = draws):
            data = source()
            at = [int(x * (len(data) - 1)) for x in d]
            if kind == "flips":
                for i, where in enumerate(at[:4]):
                    data = _flip(data, where, (i + where) % 8)
                return data
            lo, hi = sorted(at[:2])
            if kind == "cut":
                return data[:lo] + data[hi:]
            return data[:hi] + data[lo:hi] + data[hi:]

        out[f"random-{k}-{kind}-{'save' if k % 2 == 0 else 'run'}"] = build
    return out


def limit_memory() -> None:
    """In the child, before it starts: the address-space limit."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def home_save() -> bytes:
    """A real world named "Home", the save folder's own before any stranger's file comes."""
    doc = save_document()
    doc["world"]["name"] = doc["state"]["world_name"] = "Home"
    return pack_save(doc, world="Home")


def run_children(jobs: list[dict[str, Any]], root: Path) -> list[dict[str, Any]]:
    """The jobs in the runner, one child process, under the memory limit."""
    jobs_file, results_file = root / "jobs.json", root / "results.json"
    jobs_file.write_text(json.dumps(jobs))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "tests.fuzz.runner", str(jobs_file), str(results_file)],
        cwd=ROOT,
        env=env,
        preexec_fn=limit_memory,  # noqa: PLW1509 — the limit must be set in the child before it runs
        capture_output=True,
        text=True,
        timeout=30 * len(jobs) + 120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results: list[dict[str, Any]] = json.loads(results_file.read_text())
    return results
