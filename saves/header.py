"""A world's save file: the envelope's header fields, format versions and bounds.

::

    RGLKSAVE{"blake2b": "…", "created": "…", "format": 7, …, "seal": "…"}\\n<zlib JSON payload>

The envelope (magic, sealed header line, checksummed compressed payload) is
:mod:`saves.envelope`'s, shared with run files. A save's header holds:

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
``seal``        the BLAKE2b-256 of ``RGLKSAVE`` and every other field (:mod:`saves.envelope`)
==============  ===========================================================================

Which saves load (the one compatibility rule; also :mod:`saves.codec.migrations`): a save of
another ``GENERATOR_VERSION`` is refused in one line, whatever its format; within the
generator, formats from :data:`OLDEST_FORMAT` (the format current when the generator was
last bumped) to :data:`FORMAT_VERSION` load, the older ones migrated.

Bounds (:data:`LIMITS`), checked before anything is allocated for them: those of the envelope,
then each field's own bounds in :mod:`saves.fields` and the decoders. :func:`pack` enforces
the same limits, so the game never writes a file it would refuse. Listing worlds reads only
headers (and checks the seal and the checksum), never the payload. This module does not
import the engine.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from roguelike import seeds
from roguelike.presets import DEFAULT_DIFFICULTY
from saves import envelope as e
from saves import fields as f
from saves.envelope import (
    MAX_DEPTH,
    MAX_DOCUMENT,
    MAX_ELEMENTS,
    MAX_PAYLOAD,
    check_json,
    checksum,
    is_digest,
)
from saves.errors import SaveError, SaveVersionError
from saves.world import PRESET_NAMES, check_name, parse_date

__all__ = [
    "FORMAT_VERSION",
    "KIND",
    "LIMITS",
    "MAGIC",
    "MAX_DEPTH",
    "MAX_DOCUMENT",
    "MAX_ELEMENTS",
    "MAX_PAYLOAD",
    "OLDEST_FORMAT",
    "Header",
    "Summary",
    "check_json",
    "checksum",
    "document",
    "generator_problem",
    "is_digest",
    "pack",
    "read",
    "seal_of",
]

MAGIC = b"RGLKSAVE"
#: What a version text may hold.
VERSION_TEXT = re.compile(r"[0-9A-Za-z.+-]{1,40}", re.ASCII)
#: The format this game writes (bump it with any change to what the codec writes, and add
#: the step from the previous one to :mod:`saves.codec.migrations`).
FORMAT_VERSION = 10
#: The oldest format this game still reads: the format current when GENERATOR_VERSION was
#: last bumped (a save of an older generator is refused, whatever its format). Raise it to
#: FORMAT_VERSION with every generator bump, and drop the migrations below it.
OLDEST_FORMAT = 10
MAX_TURN = 10**9
MAX_FLOORS = 99

# --- limits ----------------------------------------------------------------------------------
# What the game really writes, measured: a large world (8 floors) played by the autoplayer to
# its last floor (seed 1, 9,574 turns, a full log, 62 monsters, 7 floors visited) is a document
# of 564 KB (38 KB compressed) holding 9,435 JSON elements, nested 6 deep. A recording at its
# own caps (:mod:`roguelike.recording`: 200,000 inputs and checks, 500,000 puzzle moves) adds at
# most about 15 MB of document and 2 million elements; ten pedestals each keeping the most moves
# a save holds (100,000) add 3 million more. The envelope's bounds (:mod:`saves.envelope`) hold
# a real save a hundredfold and the recording's caps with room, and keep the worst a hostile
# file can cost a few hundred megabytes: json.loads builds at most MAX_ELEMENTS objects out of
# at most MAX_DOCUMENT bytes.

#: The longest header line, in bytes.
MAX_HEADER = 8192
#: A save in the envelope.
#: The last format written without a seal on its header (all of older generators).
LAST_UNSEALED = 5
KIND = e.Kind(MAGIC, "save", MAX_HEADER, header_elements=200, last_unsealed=LAST_UNSEALED)

#: Every bound of the file in one table (the per-field bounds live beside their readers:
#: :mod:`saves.fields` for maps, :mod:`saves.codec.common` for counts).
#: Most hidden traps on one floor a save may list.
MAX_TRAPS = 10_000
#: Most sealed vaults on one floor a save may list (each seal answers to a key id of its own,
#: and a floor has at most ten key ids, ``roguelike.tiles.MAX_KEYS``).
MAX_VAULTS = 10
#: The most floor changes (optional pedestals that change the map) one floor carries.
MAX_CHANGES = 10
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
    "floor changes per floor": MAX_CHANGES,
    "allies per floor": MAX_ALLIES,
}


def seal_of(fields: dict[str, Any], magic: bytes = MAGIC) -> str:
    """The seal of a save's header fields (:func:`saves.envelope.seal_of`)."""
    return e.seal_of(fields, magic)


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
    #: whether the header carried a seal (every format this generator reads has one; an
    #: unsealed header is of an older generator, read only to be refused by name)
    sealed: bool = True

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
    payload = e.deflate(document, KIND, "the game is too large to save")
    header = Header(
        format, game, generator, seed, world, created, saved,
        len(payload), checksum(payload), summary,
    )  # fmt: skip
    return e.header_line(header.to_json(), KIND) + payload


def loads(text: str | bytes, what: str) -> Any:
    """JSON without NaN or infinities; SaveError naming ``what`` otherwise."""
    return e.loads(text, what, KIND)


def _version(o: dict[str, Any], key: str) -> str:
    """A version text of the header: letters, digits, ``.+-`` (it is shown in messages)."""
    text = f.text(f.get(o, key, "header"), f"header.{key}", 40)
    if not VERSION_TEXT.fullmatch(text):
        raise SaveError(f"header.{key}: {f.show(text)} is not a version")
    return text


def _header_fields(doc: Any, sealed: bool) -> Header:
    o = f.obj(doc, "header")
    version = f.integer(f.get(o, "format", "header"), "header.format", -(2**31), 2**31)
    if version > FORMAT_VERSION:
        raise SaveVersionError(newer_format_message(version))
    if version < 1:  # every older format is still read far enough to name its generator
        raise SaveError(f"format {version} is older than any this game reads")
    seed = f.text(f.get(o, "seed", "header"), "header.seed", 20)
    try:
        seeds.read_stored(seed)
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
    fields, payload, sealed = e.unwrap(data, KIND)
    header = _header_fields(fields, sealed)
    e.check_payload(payload, header.length, header.checksum, KIND)
    return header, payload


def generator_problem(header: Header, ours: str) -> str | None:
    """Why a save of ``header`` cannot be loaded by a game of generator ``ours``, or None."""
    if header.generator != ours:
        return generator_message(header.generator, ours)
    return None


def document(payload: bytes) -> dict[str, Any]:
    """The decompressed, parsed payload (a JSON object; :func:`saves.envelope.inflate`)."""
    return f.obj(e.inflate(payload, KIND), "payload")
