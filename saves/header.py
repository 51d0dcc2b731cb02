"""The envelope of a save file: magic, sealed header line, checksummed compressed payload.

::

    RGLKSAVE{"blake2b": "…", "created": "…", "format": 6, …, "seal": "…"}\\n<zlib JSON payload>

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
``seal``        (format 6 on) the BLAKE2b-256 of ``RGLKSAVE`` and every other field of the
                header, written as canonical JSON (sorted keys, ASCII, ``", "``/``": "``)
==============  ===========================================================================

Integrity of the whole file. The seal covers the header and, through ``length`` and
``blake2b``, the payload, so one changed bit anywhere is caught. The seal is checked *before*
any header field is believed: a damaged format number, name or date reads as damage (and the
store falls back to the backup), never as "made by a newer version", a world under a wrong
name, or another world that blocks the next save. It is computed over the fields as parsed,
not over the line's bytes, so it covers exactly what the reader uses. Formats up to
:data:`LAST_UNSEALED` had no seal and still load; a header without one that claims a later
format is damaged. The checks guard against damage, not forgery: anyone can seal an edited
file, so every field is still checked on its own.

Bounds (:data:`LIMITS`), checked before anything is allocated for them: the header line, the
compressed payload, the decompressed document (streamed with a cap), the JSON's nesting depth
and element count (a linear pre-scan of the raw bytes, so ``json.loads`` never builds more),
then each field's own bounds in :mod:`saves.fields` and the decoders. :func:`pack` enforces the
same limits, so the game never writes a file it would refuse.

Listing worlds reads only headers (and checks the seal and the checksum), never the payload.
This module does not import the engine.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import zlib
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from roguelike import seeds
from roguelike.engine.balance import DEFAULT_DIFFICULTY
from saves import fields as f
from saves.errors import SaveError, SaveVersionError
from saves.world import PRESET_NAMES, check_name, parse_date

MAGIC = b"RGLKSAVE"
#: What a version text may hold.
VERSION_TEXT = re.compile(r"[0-9A-Za-z.+-]{1,40}", re.ASCII)
#: The format this game writes. Older formats load through :mod:`saves.codec.migrations`.
FORMAT_VERSION = 6
#: The oldest format this game still reads.
OLDEST_FORMAT = 1
#: The last format written without a seal on its header.
LAST_UNSEALED = 5
ZLIB_LEVEL = 6
MAX_TURN = 10**9
MAX_FLOORS = 99

# --- limits ----------------------------------------------------------------------------------
# What the game really writes, measured: a large world (8 floors) played by the autoplayer to
# its last floor (seed 1, 9,574 turns, a full log, 62 monsters, 7 floors visited) is a document
# of 564 KB (38 KB compressed) holding 9,435 JSON elements, nested 6 deep. A recording at its
# own caps (:mod:`roguelike.recording`: 200,000 inputs and checks, 500,000 puzzle moves) adds at
# most about 15 MB of document and 2 million elements; ten pedestals each keeping the most moves
# a save holds (100,000) add 3 million more. The bounds below hold a real save a
# hundredfold and the recording's caps with room, and keep the worst a hostile file can cost a
# few hundred megabytes: json.loads builds at most MAX_ELEMENTS objects out of at most
# MAX_DOCUMENT bytes.

#: The longest header line, in bytes.
MAX_HEADER = 8192
#: The largest decompressed document, in bytes.
MAX_DOCUMENT = 32 << 20
#: The largest compressed payload: zlib's worst case for MAX_DOCUMENT (it never grows data more).
MAX_PAYLOAD = MAX_DOCUMENT + (MAX_DOCUMENT >> 10) + 64
#: The deepest nesting of arrays and objects in a document or header.
MAX_DEPTH = 32
#: The most JSON elements a document holds (counted as its ``,`` ``:`` ``[`` ``{`` outside
#: strings: every value and key but the first of each container follows one of them).
MAX_ELEMENTS = 6_000_000

#: Every bound of the file in one table (the per-field bounds live beside their readers:
#: :mod:`saves.fields` for maps, :mod:`saves.codec.common` for counts).
#: Most hidden traps on one floor a save may list.
MAX_TRAPS = 10_000
#: Most sealed vaults on one floor a save may list (each seal answers to a key id of its own,
#: and a floor has at most ten key ids, ``roguelike.tiles.MAX_KEYS``).
MAX_VAULTS = 10
#: Most captives and allies on one floor a save may list (one captive a floor, and the few
#: allies that came down the stairs beside the player).
MAX_ALLIES = 64

LIMITS: dict[str, int] = {
    "header bytes": MAX_HEADER,
    "payload bytes": MAX_PAYLOAD,
    "document bytes": MAX_DOCUMENT,
    "JSON depth": MAX_DEPTH,
    "JSON elements": MAX_ELEMENTS,
    "floors": MAX_FLOORS,
    "turns": MAX_TURN,
    "traps per floor": MAX_TRAPS,
    "vaults per floor": MAX_VAULTS,
    "allies per floor": MAX_ALLIES,
}

#: Bytes of a document pre-scanned at a time (bounds the scan's own memory).
_SCAN_CHUNK = 1 << 20
_QUOTE, _COMMA, _COLON = ord('"'), ord(","), ord(":")
_OPENS, _CLOSES = (ord("["), ord("{")), (ord("]"), ord("}"))


def checksum(payload: bytes) -> str:
    return hashlib.blake2b(payload, digest_size=32).hexdigest()


def seal_of(fields: dict[str, Any], magic: bytes = MAGIC) -> str:
    """The seal of a header: BLAKE2b-256 of the magic and the canonical JSON of ``fields``
    (every field but the seal itself)."""
    canon = json.dumps(fields, sort_keys=True, ensure_ascii=True, allow_nan=False)
    return hashlib.blake2b(magic + canon.encode("ascii"), digest_size=32).hexdigest()


def is_digest(value: Any) -> bool:
    """Whether ``value`` is 64 lowercase hex digits (a BLAKE2b-256 as the game writes it)."""
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def check_json(
    raw: bytes, what: str, *, depth: int | None = None, elements: int | None = None
) -> None:
    """SaveError unless the JSON text ``raw`` nests at most ``depth`` deep and holds at most
    ``elements`` elements (by default :data:`MAX_DEPTH` and :data:`MAX_ELEMENTS`). Run before
    ``json.loads``, so that a small file cannot make it build millions of objects or recurse.

    A linear scan in fixed-size chunks: escaped backslashes and quotes are blanked first (JSON
    reads escapes left to right, as :meth:`bytes.replace` pairs them), so every quote left opens
    or closes a string; a byte is inside a string when an odd number of quotes precede it.
    Outside strings, ``[ { , :`` are counted and the brackets' running depth is followed. Text
    that is not JSON passes only where ``json.loads`` will refuse it."""
    depth = MAX_DEPTH if depth is None else depth
    elements = MAX_ELEMENTS if elements is None else elements
    if b"\\" in raw:  # escapes blanked: only a text with a backslash needs the copy
        raw = raw.replace(b"\\\\", b"__").replace(b'\\"', b"__")
    text = np.frombuffer(raw, dtype=np.uint8)
    count = level = parity = 0
    for start in range(0, len(text), _SCAN_CHUNK):
        chunk = text[start : start + _SCAN_CHUNK]
        quotes = np.flatnonzero(chunk == _QUOTE)
        opening = (chunk == _OPENS[0]) | (chunk == _OPENS[1])
        closing = (chunk == _CLOSES[0]) | (chunk == _CLOSES[1])
        marks = np.flatnonzero(opening | closing | (chunk == _COMMA) | (chunk == _COLON))
        # a mark is outside strings when an even number of quotes precede it
        outside = marks[((np.searchsorted(quotes, marks) + parity) & 1) == 0]
        parity = (parity + len(quotes)) & 1
        codes = chunk[outside]
        ups = (codes == _OPENS[0]) | (codes == _OPENS[1])
        downs = (codes == _CLOSES[0]) | (codes == _CLOSES[1])
        count += len(codes) - int(np.count_nonzero(downs))
        if count > elements:
            raise SaveError(f"the {what} holds more than {elements} JSON elements")
        steps = ups[ups | downs].astype(np.int64) - downs[ups | downs]
        if steps.size:
            running = np.cumsum(steps) + level
            if int(running.max()) > depth:
                raise SaveError(f"the {what} nests deeper than {depth}")
            level = int(running[-1])
    if level != 0:
        raise SaveError(f"the {what} is not JSON: its brackets do not pair")


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
    difficulty: str = DEFAULT_DIFFICULTY

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
            difficulty=f.difficulty(o, where),
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
    #: whether the header carried a seal (format 6 on): every field of it is then covered
    sealed: bool = False

    def to_json(self) -> dict[str, Any]:
        """The header's fields as written, the seal left out (:func:`seal_of` covers these)."""
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
    """The bytes of a save: magic, sealed header line, compressed JSON of ``document``.
    SaveError if the file would break a bound of :data:`LIMITS` (its reader would refuse it)."""
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    raw = text.encode("ascii")
    if len(raw) > MAX_DOCUMENT:
        raise SaveError(f"the game is too large to save: {len(raw)} bytes of {MAX_DOCUMENT}")
    check_json(raw, "game to save")
    payload = zlib.compress(raw, ZLIB_LEVEL)
    if len(payload) > MAX_PAYLOAD:  # pragma: no cover - zlib never grows data this much
        raise SaveError(f"the game is too large to save: {len(payload)} compressed bytes")
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
    fields = header.to_json()
    sealed = {**fields, "seal": seal_of(fields)} if format > LAST_UNSEALED else fields
    line = json.dumps(sealed, sort_keys=True, ensure_ascii=True, allow_nan=False)
    if len(line) > MAX_HEADER:
        raise SaveError(f"the save's header would be longer than {MAX_HEADER} bytes")
    return MAGIC + line.encode("ascii") + b"\n" + payload


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save holds")


def _finite_float(text: str) -> float:
    """A JSON number with a fraction or exponent, refused if too large for a float: ``1e999``
    would read as infinity, which no save holds and the seal's check cannot write back."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is not a number a save holds")
    return value


def loads(text: str | bytes, what: str) -> Any:
    """JSON without NaN or infinities; SaveError naming ``what`` otherwise."""
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as err:  # JSONDecodeError and UnicodeDecodeError too
        raise SaveError(f"the save's {what} is not JSON: {err}") from None


def _version(o: dict[str, Any], key: str) -> str:
    """A version text of the header: letters, digits, ``.+-`` (it is shown in messages)."""
    text = f.text(f.get(o, key, "header"), f"header.{key}", 40)
    if not VERSION_TEXT.fullmatch(text):
        raise SaveError(f"header.{key}: {f.show(text)} is not a version")
    return text


def _check_seal(o: dict[str, Any]) -> bool:
    """Whether the header ``o`` is sealed; SaveError if its seal does not match it, or if it
    has none but claims a format that always has one. Runs before any field is believed."""
    if "seal" not in o:
        version = o.get("format")
        if isinstance(version, int) and not isinstance(version, bool) and version > LAST_UNSEALED:
            raise SaveError(
                f"the save is damaged: its header has no seal "
                f"(every save of format {LAST_UNSEALED + 1} on has one)"
            )
        return False
    seal = o["seal"]
    if not is_digest(seal):
        raise SaveError("the save is damaged: its header's seal is not 64 hex digits")
    if seal_of({k: v for k, v in o.items() if k != "seal"}) != seal:
        raise SaveError("the save is damaged: its header does not match its seal")
    return True


def _header_fields(doc: Any) -> Header:
    o = f.obj(doc, "header")
    sealed = _check_seal(o)
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
    if not is_digest(digest):
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
        sealed=sealed,
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
    check_json(line, "save's header", depth=4, elements=200)
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
    """The decompressed, parsed payload (a JSON object): decompressed with the cap
    :data:`MAX_DOCUMENT`, pre-scanned by :func:`check_json`, then parsed."""
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
    try:  # the game writes ASCII; read as text, so json.loads never guesses UTF-16 or 32,
        # in which the bytes the pre-scan counts are not the characters json.loads reads
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise SaveError("the save's payload is not ASCII JSON") from None
    check_json(raw, "save's payload")
    doc = loads(text, "payload")
    return f.obj(doc, "payload")
