"""What a browser tab asks to start, read from its URL, and the game process that starts it.

A tab's URL may carry one start: ``?seed=CODE`` (a world of that seed code, or of any short
text, read by the game's own seed parsing: :func:`roguelike.seeds.parse`), ``?daily`` (today's
world), ``?replay=RUN`` (a run of the hall, by its id or a unique start of it) or
``?import=KEY`` (a file uploaded to this server, opened in the challenge import). textual-serve's
own ``fontsize`` and ``delay`` may come along. Anything else (an unknown key, two starts, a key
given twice, a value too long, text a seed code refuses, a run id with other characters than
letters, digits and dashes) is refused with one line, before any process starts.

:func:`child_argv` turns a start into the argument list of the game process: the command line
itself (``python -m roguelike.cli``), always run without a shell, with ``--served`` so the app
knows it is in a browser; a seed is passed as its canonical code, never as the text typed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from roguelike import seeds

#: The longest value of a URL parameter, and the most parameters, read at all.
MAX_VALUE = 80
MAX_PARAMS = 4
#: textual-serve's own parameters, passed over.
THEIRS = frozenset({"fontsize", "delay"})
STARTS = ("seed", "daily", "replay", "import")
#: A run's id in the hall (as :data:`saves.world.RUN_ID`, the run files' own rule).
RUN_ID = re.compile(r"[0-9A-Za-z-]{1,40}", re.ASCII)
#: An upload's key: the hex token the upload route made.
UPLOAD_KEY = re.compile(r"[0-9a-f]{16}", re.ASCII)

Kind = Literal["title", "seed", "daily", "replay", "import", "watch"]


class StartRefused(ValueError):
    """A tab's URL that starts nothing: the message is one line for the page."""


@dataclass(frozen=True)
class Start:
    """One tab's start: ``kind`` and its value (a canonical seed code, a run id, an upload
    key, a watched game's id; "" for the title and the daily). ``watch`` is never read from a
    URL: the server makes it for ``/watch/ID``."""

    kind: Kind = "title"
    value: str = ""


def _printable(text: str) -> str:
    """``text`` cut short with its control and non-ASCII characters escaped, to quote it in a
    refusal."""
    shown = text[:40].encode("ascii", "backslashreplace").decode("ascii")
    shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in shown)
    return shown + ("…" if len(text) > 40 else "")


def read_start(query: Sequence[tuple[str, str]]) -> Start:
    """The start a tab's query asks for (its ``(key, value)`` pairs, in order; StartRefused,
    one line, if it cannot be started)."""
    if len(query) > MAX_PARAMS:
        raise StartRefused(f"too many parameters ({len(query)}; at most {MAX_PARAMS})")
    seen: dict[str, str] = {}
    for key, value in query:
        if key in seen:
            raise StartRefused(f"{_printable(key)} is given twice")
        if key not in THEIRS and key not in STARTS:
            raise StartRefused(
                f"unknown parameter {_printable(key)!r}: use seed, daily, replay or import"
            )
        if len(value) > MAX_VALUE:
            raise StartRefused(f"{key}: longer than {MAX_VALUE} characters")
        seen[key] = value
    asked = [k for k in STARTS if k in seen]
    if len(asked) > 1:
        raise StartRefused(f"one start at a time: not {' and '.join(asked)}")
    if not asked:
        return Start()
    kind = asked[0]
    value = seen[kind]
    if kind == "daily":
        if value not in ("", "1"):
            raise StartRefused("daily takes no value: ?daily")
        return Start("daily")
    if kind == "seed":
        if not value.strip():
            raise StartRefused(f"seed: give a seed code or a text, ?seed={seeds.EXAMPLE_CODE}")
        try:
            return Start("seed", seeds.encode(seeds.parse(value)))
        except seeds.SeedCodeError as err:
            raise StartRefused(f"seed: {err}") from None
    if kind == "replay":
        if not RUN_ID.fullmatch(value):
            raise StartRefused("replay: a run's id is letters, digits and dashes")
        return Start("replay", value)
    if not UPLOAD_KEY.fullmatch(value):
        raise StartRefused("import: not an upload of this server")
    return Start("import", value)


def child_argv(
    start: Start,
    save_dir: str | None,
    upload: Path | None = None,
    python: str = sys.executable,
    *,
    stream: Path | None = None,
) -> list[str]:
    """The game process of ``start`` as an argument list (for an exec, never a shell):
    saving in ``save_dir`` (None: the default folder); ``upload``: the uploaded file an
    ``import`` start opens; ``stream``: the input stream its games write (the one a
    ``watch`` start follows, read-only)."""
    argv = [python, "-m", "roguelike.cli", "--served"]
    if save_dir is not None:
        argv += ["--save-dir", save_dir]
    if start.kind == "watch":
        assert stream is not None, "a watcher follows a stream"
        return [*argv, "--follow", str(stream)]
    if stream is not None:
        argv += ["--live-stream", str(stream)]
    if start.kind == "seed":
        argv += ["--seed", start.value]
    elif start.kind == "daily":
        argv += ["--daily"]
    elif start.kind == "import":
        assert upload is not None, "an import starts with its uploaded file"
        argv += ["--import-file", str(upload)]
    elif start.kind == "replay":
        argv += ["replay", start.value]
    return argv


def query_pairs(query: Mapping[str, str] | Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """A query's pairs, in order (from aiohttp's MultiDict or any mapping)."""
    items = query.items() if isinstance(query, Mapping) else query
    return [(str(k), str(v)) for k, v in items]
