"""Hostile save files, and what refusing one costs: ``roguelike bench --only saves`` reports the
largest memory and time, and the bounds tests check each is refused in one line under a 2 GiB
address-space limit.

Each file is small on disk and aims at one bound of :data:`saves.header.LIMITS`: a zlib bomb, a
document nested deep, a document of millions of tiny elements, maps claiming huge sides. Their
headers are sealed and their checksums right, so every one reaches the decoder.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from saves import header as h

#: The address-space limit a hostile import runs under, and how long it may take.
MEMORY_LIMIT = 2 << 30
TIME_LIMIT_S = 30


def _compressed(chunks: Iterator[bytes]) -> bytes:
    """zlib of the concatenated ``chunks``, built without holding them all."""
    z = zlib.compressobj(6)
    out = [z.compress(c) for c in chunks]
    out.append(z.flush())
    return b"".join(out)


def forge(payload: bytes, template: bytes) -> bytes:
    """A save whose payload is ``payload`` (compressed) under ``template``'s header, with the
    length, checksum and seal made right for it."""
    end = template.index(b"\n")
    head = json.loads(template[len(h.MAGIC) : end])
    head.pop("seal", None)
    head.update(length=len(payload), blake2b=h.checksum(payload))
    head["seal"] = h.seal_of(head)
    return h.MAGIC + json.dumps(head, sort_keys=True).encode("ascii") + b"\n" + payload


def _bomb(mib: int) -> bytes:
    """About ``mib`` KiB that inflate to ``mib`` MiB of ``[0,0,…``."""
    chunk = b"0," * (1 << 19)
    return _compressed(iter([b"[", *([chunk] * mib)]))


def _deep() -> bytes:
    return _compressed(iter([b"[" * 1_000_000, b"]" * 1_000_000]))


def _many_elements() -> bytes:
    """One element more than a document may hold, each two bytes (refused by the pre-scan)."""
    n = h.MAX_ELEMENTS + 1
    return _compressed(iter([b"[0", b",0" * (n - 1), b"]"]))


def _many_objects() -> bytes:
    """As many empty objects as the pre-scan lets through: the most a document can make
    ``json.loads`` build (then refused, as it is not a save)."""
    n = h.MAX_ELEMENTS // 2
    return _compressed(iter([b"[{}", b",{}" * (n - 1), b"]"]))


def _huge_map(document: dict) -> bytes:
    """``document`` with its current map claiming 4096 × 4096 cells (data to match)."""
    state = document["state"]
    side = 4096
    state["tiles"] = {
        "dtype": "|u1",
        "shape": [side, side],
        "data": base64.b64encode(bytes(side * side)).decode("ascii"),
    }
    return zlib.compress(json.dumps(document).encode("ascii"), 9)


def _long_text(document: dict) -> bytes:
    """``document`` with one log message of 30 million characters."""
    document["state"]["log"] = ["x" * 30_000_000]
    return zlib.compress(json.dumps(document).encode("ascii"), 9)


def hostile_saves(template: bytes, document: dict, bomb_mib: int = 200) -> dict[str, bytes]:
    """Each hostile file by name, built on a real save (``template``) and its ``document``; the
    zlib bomb inflates to ``bomb_mib`` MiB."""
    makers: dict[str, Callable[[], bytes]] = {
        "zlib bomb": lambda: _bomb(bomb_mib),
        "deep nesting": _deep,
        "many elements": _many_elements,
        "many objects": _many_objects,
        "huge map": lambda: _huge_map(json.loads(json.dumps(document))),
        "long text": lambda: _long_text(json.loads(json.dumps(document))),
    }
    return {name: forge(make(), template) for name, make in makers.items()}


@dataclass(frozen=True)
class Refusal:
    """What running a command on one hostile file did."""

    status: int
    stdout: str
    stderr: str
    peak_kib: int  # the child's peak resident memory
    seconds: float


def refuse_all(folder: Path) -> Iterator[dict[str, Any]]:
    """Import, list, load and export each ``*.rgl`` in ``folder`` (the load and export from a
    save folder of its own holding it as its world's main file): what each said, and the
    process's peak memory and the time after each file. Anything but a SaveError is reported
    by its type (a MemoryError, a RecursionError …): it would be a bug."""
    from saves.errors import SaveError
    from saves.store import Store

    def outcome(call: Callable[..., object], *args: Any, **kw: Any) -> str:
        try:
            call(*args, **kw)
        except SaveError as err:
            return f"SaveError: {err}"
        except BaseException as err:  # noqa: BLE001 - reported, never swallowed quietly
            return f"{type(err).__name__}: {err}"[:300]
        return "accepted"

    for i, path in enumerate(sorted(folder.glob("*.rgl"))):
        start = time.perf_counter()
        fresh = Store(folder / f"imported-{i}")
        result: dict[str, Any] = {"file": path.stem, "import": outcome(fresh.import_file, path)}
        home = Store(folder / f"home-{i}")
        home.path.mkdir()
        data = path.read_bytes()
        end = data.index(b"\n")
        name = json.loads(data[len(h.MAGIC) : end])["world"]
        home.file(name).write_bytes(data)
        result["list"] = outcome(home.list)
        result["load"] = outcome(home.load, name, warn=False)
        result["export"] = outcome(home.export, name, folder / f"out-{i}.rgl")
        result["imported files"] = len(list(fresh.path.glob("*"))) if fresh.path.exists() else 0
        result["seconds"] = time.perf_counter() - start
        result["peak_kib"] = _peak_of_self()
        yield result


def _peak_of_self() -> int:
    import resource  # POSIX only

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def main(argv: list[str]) -> int:
    """``python -m roguelike.cli.bench.hostile FOLDER``: :func:`refuse_all` under the limits,
    one JSON line a file."""
    _limit()
    for result in refuse_all(Path(argv[0])):
        print(json.dumps(result), flush=True)
    return 0


def _limit() -> None:  # pragma: no cover - runs in the child
    import resource  # POSIX only: this module runs where the bench and tests do

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_limited(args: list[str]) -> Refusal:
    """``roguelike ARGS`` in a child process under :data:`MEMORY_LIMIT`, killed after
    :data:`TIME_LIMIT_S`: its status, output, peak memory (its own, from ``wait4``) and time."""
    code = "import sys; from roguelike.cli import main; sys.exit(main(sys.argv[1:]))"
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", code, *args], stdout=out, stderr=err, preexec_fn=_limit
        )
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > TIME_LIMIT_S:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.005)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return Refusal(
            child.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            int(usage.ru_maxrss),
            seconds,
        )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
