"""The envelope of a save file: magic, header line, checksummed compressed payload.

::

    RGLKSAVE{"blake2b": "…", "created": "…", "format": 3, …}\\n<zlib-compressed JSON payload>

The header is one line of JSON (ASCII, sorted keys) right after the 8-byte magic ``RGLKSAVE``:

==============  ===========================================================================
``format``      the save format version (:data:`FORMAT_VERSION`)
``game``        the game version that wrote it
``generator``   ``GENERATOR_VERSION`` of the game that wrote it: the floors depend on it
``seed``        the world's seed code
``world``       the world's name
``created``     when the world was created (ISO 8601, UTC)
``saved``       when this save was written (ISO 8601, UTC)
``length``      the payload's length in bytes
``blake2b``     the BLAKE2b-256 checksum of the payload (hex)
``summary``     what the world list shows: ``preset``, ``floor``, ``floors``, ``turn``,
                ``permadeath``, ``dead``, ``won`` (checked against the payload on load)
==============  ===========================================================================

Listing worlds reads only headers (and checks the checksum), never the payload. This module
does not import the engine.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import asdict, dataclass
from typing import Any

from roguelike import seeds
from saves import fields as f
from saves.errors import SaveError, SaveVersionError
from saves.world import PRESET_NAMES, check_name, parse_date

MAGIC = b"RGLKSAVE"
#: What a version text may hold.
VERSION_TEXT = re.compile(r"[0-9A-Za-z.+-]{1,40}", re.ASCII)
#: The format this game writes. Older formats load through :mod:`saves.codec.migrations`.
FORMAT_VERSION = 5
#: The oldest format this game still reads.
OLDEST_FORMAT = 1
MAX_HEADER = 8192
#: Largest payload, compressed and decompressed (a 5-floor game is well under 1 MiB).
MAX_PAYLOAD = 64 << 20
MAX_DOCUMENT = 256 << 20
ZLIB_LEVEL = 6
MAX_TURN = 10**9
MAX_FLOORS = 99


def checksum(payload: bytes) -> str:
    return hashlib.blake2b(payload, digest_size=32).hexdigest()


@dataclass(frozen=True)
class Summary:
    """What the world list shows about a save, without reading its payload."""

    preset: str
    floor: int
    floors: int
    turn: int
    permadeath: bool
    dead: bool
    won: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: Any, where: str = "header.summary") -> Summary:
        o = f.obj(value, where)
        floors = f.integer(f.get(o, "floors", where), f"{where}.floors", 1, MAX_FLOORS)
        return cls(
            preset=f.text(f.get(o, "preset", where), f"{where}.preset", 20, choices=PRESET_NAMES),
            floor=f.integer(f.get(o, "floor", where), f"{where}.floor", 1, floors),
            floors=floors,
            turn=f.integer(f.get(o, "turn", where), f"{where}.turn", 0, MAX_TURN),
            permadeath=f.boolean(f.get(o, "permadeath", where), f"{where}.permadeath"),
            dead=f.boolean(f.get(o, "dead", where), f"{where}.dead"),
            won=f.boolean(f.get(o, "won", where), f"{where}.won"),
        )


@dataclass(frozen=True)
class Header:
    format: int
    game: str
    generator: str
    seed: str  # the seed code
    world: str  # the world's name
    created: str
    saved: str
    length: int
    checksum: str
    summary: Summary

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "game": self.game,
            "generator": self.generator,
            "seed": self.seed,
            "world": self.world,
            "created": self.created,
            "saved": self.saved,
            "length": self.length,
            "blake2b": self.checksum,
            "summary": self.summary.to_json(),
        }


def newer_format_message(version: int) -> str:
    return f"made by a newer version: format {version}, this game reads up to {FORMAT_VERSION}"


def generator_message(theirs: str, ours: str) -> str:
    return f"made by generator {theirs}, this game has {ours}: its floors would differ"


def pack(
    document: dict[str, Any],
    *,
    format: int,
    game: str,
    generator: str,
    seed: str,
    world: str,
    created: str,
    saved: str,
    summary: Summary,
) -> bytes:
    """The bytes of a save: magic, header line, compressed JSON of ``document``."""
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    payload = zlib.compress(text.encode("ascii"), ZLIB_LEVEL)
    header = Header(
        format,
        game,
        generator,
        seed,
        world,
        created,
        saved,
        len(payload),
        checksum(payload),
        summary,
    )
    line = json.dumps(header.to_json(), sort_keys=True, ensure_ascii=True, allow_nan=False)
    return MAGIC + line.encode("ascii") + b"\n" + payload


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save holds")


def loads(text: str | bytes, what: str) -> Any:
    """JSON without NaN or infinities; SaveError naming ``what`` otherwise."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as err:  # JSONDecodeError and UnicodeDecodeError too
        raise SaveError(f"the save's {what} is not JSON: {err}") from None


def _version(o: dict[str, Any], key: str) -> str:
    """A version text of the header: letters, digits, ``.+-`` (it is shown in messages)."""
    text = f.text(f.get(o, key, "header"), f"header.{key}", 40)
    if not VERSION_TEXT.fullmatch(text):
        raise SaveError(f"header.{key}: {f.show(text)} is not a version")
    return text


def _header_fields(doc: Any) -> Header:
    o = f.obj(doc, "header")
    version = f.integer(f.get(o, "format", "header"), "header.format", -(2**31), 2**31)
    if version > FORMAT_VERSION:
        raise SaveVersionError(newer_format_message(version))
    if version < OLDEST_FORMAT:
        raise SaveError(
            f"format {version} is older than any this game reads "
            f"({OLDEST_FORMAT} to {FORMAT_VERSION})"
        )
    seed = f.text(f.get(o, "seed", "header"), "header.seed", 20)
    try:
        seeds.decode(seed)
    except seeds.SeedCodeError:
        raise SaveError(f"header.seed: {f.show(seed)} is not a seed code") from None
    try:
        world = check_name(f.text(f.get(o, "world", "header"), "header.world", 200))
    except ValueError as err:
        raise SaveError(f"header.world: {err}") from None
    dates = {}
    for key in ("created", "saved"):
        value = f.text(f.get(o, key, "header"), f"header.{key}", 40)
        try:
            parse_date(value)
        except ValueError:
            raise SaveError(f"header.{key}: {f.show(value)} is not an ISO 8601 date") from None
        dates[key] = value
    digest = f.text(f.get(o, "blake2b", "header"), "header.blake2b", 64)
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise SaveError("header.blake2b: expected 64 lowercase hex digits")
    return Header(
        format=version,
        game=_version(o, "game"),
        generator=_version(o, "generator"),
        seed=seed,
        world=world,
        created=dates["created"],
        saved=dates["saved"],
        length=f.integer(f.get(o, "length", "header"), "header.length", 0, MAX_PAYLOAD),
        checksum=digest,
        summary=Summary.from_json(f.get(o, "summary", "header")),
    )


def read(data: bytes) -> tuple[Header, bytes]:
    """The header and the payload of ``data``, checked up to the checksum (the payload is
    neither decompressed nor parsed). A newer format is refused here; another generator is
    not (see :func:`generator_problem`), so that the world list can still show the world."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise SaveError("a save is bytes")
    data = bytes(data)
    if not data:
        raise SaveError("the file is empty")
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            raise SaveError("the save is truncated: it ends inside its RGLKSAVE mark")
        raise SaveError("not a roguelike save (it does not start with RGLKSAVE)")
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER + 1)
    if end < 0:
        if len(data) < len(MAGIC) + MAX_HEADER:
            raise SaveError("the save is truncated: it ends inside its header")
        raise SaveError(f"the save's header is longer than {MAX_HEADER} bytes")
    line = data[len(MAGIC) : end]
    try:
        header_text = line.decode("ascii")
    except UnicodeDecodeError:
        raise SaveError("the save's header is not ASCII JSON") from None
    header = _header_fields(loads(header_text, "header"))
    payload = data[end + 1 :]
    if len(payload) < header.length:
        raise SaveError(
            f"the save is truncated: its payload has {len(payload)} of {header.length} bytes"
        )
    if len(payload) > header.length:
        raise SaveError(f"the save has {len(payload) - header.length} stray bytes at its end")
    if checksum(payload) != header.checksum:
        raise SaveError("the save is damaged: its checksum does not match its payload")
    return header, payload


def generator_problem(header: Header, ours: str) -> str | None:
    """Why a save of ``header`` cannot be loaded by a game of generator ``ours``, or None."""
    if header.generator != ours:
        return generator_message(header.generator, ours)
    return None


def document(payload: bytes) -> dict[str, Any]:
    """The decompressed, parsed payload (a JSON object)."""
    d = zlib.decompressobj()
    try:
        raw = d.decompress(payload, MAX_DOCUMENT)
    except zlib.error as err:
        raise SaveError(f"the save is damaged: its payload does not decompress ({err})") from None
    if d.unconsumed_tail:
        raise SaveError(f"the save's payload decompresses to more than {MAX_DOCUMENT} bytes")
    if not d.eof:
        raise SaveError("the save is damaged: its compressed payload ends early")
    if d.unused_data:
        raise SaveError("the save is damaged: bytes follow its compressed payload")
    doc = loads(raw, "payload")
    return f.obj(doc, "payload")
