"""The sealed file envelope every file of the game is kept in: a world's save (``RGLKSAVE``,
:mod:`saves.header`) and a run or challenge file (``RGLKRUN1``, :mod:`saves.record`)::

    <8-byte magic>{"blake2b": "…", "format": N, "length": N, …, "seal": "…"}\\n<zlib JSON>

The header is one line of ASCII JSON (sorted keys) right after the magic. It always holds the
payload's ``length`` and its BLAKE2b-256 checksum (``blake2b``, hex), and ``seal``: the
BLAKE2b-256 of the magic and every other field of the header written as canonical JSON
(sorted keys, ASCII, ``", "``/``": "``; :func:`seal_of`). Which other fields a header holds
is the file kind's (:mod:`saves.header` for a save, :mod:`saves.record` for a run file).

Integrity. The seal is checked *before* any header field is believed (a damaged format
number, name or date reads as damage, never as "made by a newer version"); it covers the
header and, through ``length`` and ``blake2b``, the payload, so one changed bit anywhere is
caught. It is computed over the fields as parsed, not the line's bytes, so it covers exactly
what the reader uses. It guards against damage, not forgery: anyone can seal an edited file,
so every field is still checked by its reader.

Bounds, checked before anything is allocated for them: the header line (the kind's
``max_header``), the decompressed document (:data:`MAX_DOCUMENT`, streamed with that cap), the
JSON's nesting depth and element count (:func:`check_json`, a linear pre-scan of the raw
bytes, so ``json.loads`` never builds more). :func:`wrap` enforces the same bounds, so the game
never writes a file it would refuse. Nothing is pickled or evaluated.

Formats written before the seal existed (up to a kind's ``last_unsealed``) are still read far
enough to be refused by name: they are all of older generators.

This module knows no record and does not import the engine.
"""

from __future__ import annotations

import hashlib
import json
import math
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from saves.errors import SaveError

ZLIB_LEVEL = 6
#: The largest decompressed document, in bytes (a save and a run file alike).
MAX_DOCUMENT = 32 << 20
#: The largest compressed payload: zlib's worst case for MAX_DOCUMENT (it never grows data more).
MAX_PAYLOAD = MAX_DOCUMENT + (MAX_DOCUMENT >> 10) + 64
#: The deepest nesting of arrays and objects in a document.
MAX_DEPTH = 32
#: The most JSON elements a document holds (counted as its ``,`` ``:`` ``[`` ``{`` outside
#: strings: every value and key but the first of each container follows one of them).
MAX_ELEMENTS = 6_000_000
#: How deep a header line nests (a save's summary is an object in it).
HEADER_DEPTH = 4

#: Bytes of a document pre-scanned at a time (bounds the scan's own memory).
_SCAN_CHUNK = 1 << 20
_QUOTE, _COMMA, _COLON = ord('"'), ord(","), ord(":")
_OPENS, _CLOSES = (ord("["), ord("{")), (ord("]"), ord("}"))


@dataclass(frozen=True)
class Kind:
    """One kind of file in the envelope: its magic, what a message calls it, its longest
    header line and the most elements that line holds, and the error it is refused with."""

    magic: bytes
    noun: str  # "save", "run file": "the save is damaged: …"
    max_header: int
    header_elements: int
    error: type[SaveError] = SaveError
    #: the last format written without a seal: a header of it or older may lack one (such a
    #: file is of an older generator, refused by its reader, which must still name it)
    last_unsealed: int = 0

    @property
    def max_file(self) -> int:
        """The largest file of this kind."""
        return len(self.magic) + self.max_header + 1 + MAX_PAYLOAD

    def fail(self, message: str) -> SaveError:
        return self.error(message)


def checksum(payload: bytes) -> str:
    """The BLAKE2b-256 of ``payload`` (hex), as a header's ``blake2b``."""
    return hashlib.blake2b(payload, digest_size=32).hexdigest()


def seal_of(fields: dict[str, Any], magic: bytes) -> str:
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


def loads(text: str | bytes, what: str, kind: Kind) -> Any:
    """JSON without NaN or infinities, read as ASCII text (``json.loads`` given bytes guesses
    UTF-16 or 32, in which the bytes the pre-scan counts are not the characters it reads);
    the kind's error naming ``what`` otherwise."""

    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number a {kind.noun} holds")

    def finite(digits: str) -> float:
        # 1e999 would read as infinity, which no file holds and the seal cannot write back
        value = float(digits)
        if not math.isfinite(value):
            raise ValueError(f"{digits[:20]} is not a number a {kind.noun} holds")
        return value

    try:
        if isinstance(text, bytes):
            text = text.decode("ascii")
        return json.loads(text, parse_constant=no_constant, parse_float=finite)
    except (ValueError, RecursionError) as err:  # JSONDecodeError and UnicodeDecodeError too
        raise kind.fail(f"the {kind.noun}'s {what} is not JSON: {err}") from None


# --- writing ---------------------------------------------------------------------------------


def deflate(document: Any, kind: Kind, too_large: str) -> bytes:
    """The compressed JSON of ``document``; the kind's error, starting with ``too_large``
    (``the game is too large to save``), if its reader would refuse it."""
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    raw = text.encode("ascii")
    if len(raw) > MAX_DOCUMENT:
        raise kind.fail(f"{too_large}: {len(raw)} bytes of {MAX_DOCUMENT}")
    try:
        check_json(raw, f"{kind.noun} to write")
    except SaveError as err:
        raise kind.fail(str(err)) from None
    payload = zlib.compress(raw, ZLIB_LEVEL)
    if len(payload) > MAX_PAYLOAD:  # pragma: no cover - zlib never grows data this much
        raise kind.fail(f"{too_large}: {len(payload)} compressed bytes")
    return payload


def header_line(fields: dict[str, Any], kind: Kind) -> bytes:
    """The magic and the sealed header line of ``fields`` (ending with ``\\n``)."""
    sealed = {**fields, "seal": seal_of(fields, kind.magic)}
    line = json.dumps(sealed, sort_keys=True, ensure_ascii=True, allow_nan=False)
    if len(line) > kind.max_header:
        raise kind.fail(f"the {kind.noun}'s header would be longer than {kind.max_header} bytes")
    return kind.magic + line.encode("ascii") + b"\n"


def wrap(fields: dict[str, Any], payload: bytes, kind: Kind) -> bytes:
    """The bytes of a file: the magic, the sealed header line of ``fields`` with the payload's
    ``length`` and ``blake2b`` added, and the payload."""
    head = {**fields, "length": len(payload), "blake2b": checksum(payload)}
    return header_line(head, kind) + payload


# --- reading ---------------------------------------------------------------------------------


def unwrap(data: bytes, kind: Kind) -> tuple[dict[str, Any], bytes, bool]:
    """The header (its seal checked, then left out), the payload of ``data``, and whether the
    header was sealed (only a format up to the kind's ``last_unsealed`` may not be); not
    yet checked against the header's ``length`` and ``blake2b`` (:func:`check_payload`: the
    kind's reader checks its own fields first)."""
    if len(data) > kind.max_file:
        raise kind.fail(f"the file is larger than any {kind.noun} ({kind.max_file} bytes)")
    magic = kind.magic
    if not data.startswith(magic):
        if data and magic.startswith(data):
            raise kind.fail(
                f"the {kind.noun} is truncated: it ends inside its {magic.decode()} mark"
            )
        raise kind.fail(f"not a roguelike {kind.noun} (it does not start with {magic.decode()})")
    end = data.find(b"\n", len(magic), len(magic) + kind.max_header + 1)
    if end < 0:
        if len(data) < len(magic) + kind.max_header:
            raise kind.fail(f"the {kind.noun} is truncated: it ends inside its header")
        raise kind.fail(f"the {kind.noun}'s header is longer than {kind.max_header} bytes")
    line = data[len(magic) : end]
    try:
        check_json(line, f"{kind.noun}'s header", depth=HEADER_DEPTH, elements=kind.header_elements)
    except SaveError as err:
        raise kind.fail(str(err)) from None
    head = loads(line, "header", kind)
    if not isinstance(head, dict):
        raise kind.fail(f"the {kind.noun}'s header is not an object")
    sealed = check_seal(head, kind)
    return {k: v for k, v in head.items() if k != "seal"}, data[end + 1 :], sealed


def check_seal(head: dict[str, Any], kind: Kind) -> bool:
    """Whether ``head`` is sealed; the kind's error if its seal does not match it, or if it
    has none but claims a format that always has one. Runs before any field is believed."""
    if "seal" not in head:
        version = head.get("format")
        if type(version) is int and version <= kind.last_unsealed:
            return False
        raise kind.fail(
            f"the {kind.noun} is damaged: its header has no seal "
            f"(every {kind.noun} of format {kind.last_unsealed + 1} on has one)"
        )
    seal = head["seal"]
    if not is_digest(seal):
        raise kind.fail(f"the {kind.noun} is damaged: its header's seal is not 64 hex digits")
    if seal_of({k: v for k, v in head.items() if k != "seal"}, kind.magic) != seal:
        raise kind.fail(f"the {kind.noun} is damaged: its header does not match its seal")
    return True


def header_format(head: dict[str, Any], kind: Kind) -> int:
    """The format a header names; the kind's error if it names none."""
    version = head.get("format")
    if type(version) is not int:
        raise kind.fail(f"the {kind.noun}'s header has no format")
    return version


def header_generator(head: dict[str, Any], kind: Kind) -> str:
    """The generator version a header names; the kind's error if it names none."""
    generator = head.get("generator")
    if not isinstance(generator, str) or not generator:
        raise kind.fail(f"the {kind.noun}'s header has no generator version")
    return generator


def check_header_payload(head: dict[str, Any], payload: bytes, kind: Kind) -> None:
    """The kind's error unless the header has a ``length`` and a ``blake2b`` that
    ``payload`` matches (:func:`check_payload`)."""
    length, digest = head.get("length"), head.get("blake2b")
    if type(length) is not int or not isinstance(digest, str):
        raise kind.fail(f"the {kind.noun}'s header has no length or checksum")
    check_payload(payload, length, digest, kind)


def check_payload(payload: bytes, length: int, digest: str, kind: Kind) -> None:
    """The kind's error unless ``payload`` is ``length`` bytes whose checksum is ``digest``."""
    if len(payload) < length:
        raise kind.fail(
            f"the {kind.noun} is truncated: its payload has {len(payload)} of {length} bytes"
        )
    if len(payload) > length:
        raise kind.fail(f"the {kind.noun} has {len(payload) - length} stray bytes at its end")
    if checksum(payload) != digest:
        raise kind.fail(f"the {kind.noun} is damaged: its checksum does not match its payload")


def inflate(payload: bytes, kind: Kind) -> Any:
    """The decompressed, parsed payload: decompressed with the cap :data:`MAX_DOCUMENT`,
    pre-scanned by :func:`check_json`, then parsed (any JSON value: the reader checks it)."""
    d = zlib.decompressobj()
    noun = kind.noun
    try:
        raw = d.decompress(payload, MAX_DOCUMENT)
    except zlib.error as err:
        raise kind.fail(f"the {noun} is damaged: its payload does not decompress ({err})") from None
    if d.unconsumed_tail:
        raise kind.fail(f"the {noun}'s payload decompresses to more than {MAX_DOCUMENT} bytes")
    if not d.eof:
        raise kind.fail(f"the {noun} is damaged: its compressed payload ends early")
    if d.unused_data:
        raise kind.fail(f"the {noun} is damaged: bytes follow its compressed payload")
    try:
        check_json(raw, f"{noun}'s payload")
    except SaveError as err:
        raise kind.fail(str(err)) from None
    return loads(raw, "payload", kind)
