"""Seed codes and named random streams.

A *seed* is a 55-bit integer. Players see it as a *seed code*: eleven Crockford base32 symbols
and one check symbol, in three groups of four (``K7QX-M2PA-9RTD``). Codes parse
case-insensitively, ignore hyphens and spaces, and forgive the usual confusions (``O`` → ``0``,
``I``/``L`` → ``1``). The check symbol is Luhn mod 32, which catches every single mistyped
symbol and every swap of two neighbouring symbols but one pair.

Any other text is accepted as a seed too and hashed with BLAKE2b (never Python's ``hash()``,
which changes from process to process). The world then shows the code of that hash, so the
code is what players share.

Every random decision draws from a *stream* named by (seed, floor, stage):
``stream(seed, 3, "layout")``. Streams are independent of one another, so what one stage or the
player does never shifts another stage's numbers.
"""

from __future__ import annotations

import hashlib
import secrets

import numpy as np

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
SEED_BITS = 55
DATA_SYMBOLS = 11  # 11 × 5 bits = 55 bits
CODE_SYMBOLS = DATA_SYMBOLS + 1
_SEPARATORS = "- "


class SeedCodeError(ValueError):
    """A text that is shaped like a seed code but is not a valid one."""


def _luhn_mod32(values: list[int]) -> int:
    """The Luhn mod N check value (N = 32) for a list of symbol values."""
    total = 0
    factor = 2
    for v in reversed(values):
        addend = factor * v
        factor = 1 if factor == 2 else 2
        total += addend // 32 + addend % 32
    return (32 - total % 32) % 32


def encode(seed: int) -> str:
    """The seed code of a seed: ``XXXX-XXXX-XXXX``."""
    if not 0 <= seed < 1 << SEED_BITS:
        raise ValueError(f"seed {seed} is outside 0..2^{SEED_BITS}-1")
    values = [(seed >> (5 * i)) & 31 for i in reversed(range(DATA_SYMBOLS))]
    values.append(_luhn_mod32(values))
    s = "".join(ALPHABET[v] for v in values)
    return f"{s[0:4]}-{s[4:8]}-{s[8:12]}"


def _code_symbols(text: str) -> list[int] | None:
    """The symbol values of ``text`` if it is shaped like a seed code, else None."""
    stripped = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
    if len(stripped) != CODE_SYMBOLS or any(c not in _VALUE for c in stripped):
        return None
    return [_VALUE[c] for c in stripped]


def looks_like_code(text: str) -> bool:
    """True when ``text`` has the shape of a seed code (right length and alphabet)."""
    return _code_symbols(text) is not None


def decode(text: str) -> int:
    """The seed of a seed code; raises SeedCodeError naming what is wrong."""
    values = _code_symbols(text)
    if values is None:
        raise SeedCodeError(
            f"{text.strip()!r} is not a seed code: a code is 12 symbols like K7QX-M2PA-9RTD"
        )
    data, check = values[:DATA_SYMBOLS], values[DATA_SYMBOLS]
    if _luhn_mod32(data) != check:
        raise SeedCodeError(
            f"seed code {text.strip()!r} has a wrong check symbol, so it was mistyped "
            "(to use these letters as a text seed, add a word to them)"
        )
    seed = 0
    for v in data:
        seed = seed << 5 | v
    return seed


def text_seed(text: str) -> int:
    """The seed of an arbitrary text: BLAKE2b of its UTF-8, cut to SEED_BITS."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8, person=b"rl-seed").digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def parse(text: str) -> int:
    """The seed a player means by ``text``: a seed code, or any other text hashed.

    Raises SeedCodeError for an empty text and for a code whose check symbol is wrong.
    """
    if not text.strip():
        raise SeedCodeError("the seed is empty: type a seed code or any text")
    if looks_like_code(text):
        return decode(text)
    return text_seed(text)


def random_seed() -> int:
    """A fresh seed from the operating system (for 'blank means random')."""
    return secrets.randbits(SEED_BITS)


def normalise(text: str) -> str:
    """The canonical seed code for what a player typed (code or text)."""
    return encode(parse(text))


def stream_key(seed: int, floor: int, stage: str) -> int:
    """A 128-bit number naming the stream (seed, floor, stage), from BLAKE2b."""
    material = f"{seed}|{floor}|{stage}".encode()
    digest = hashlib.blake2b(material, digest_size=16, person=b"rl-stream").digest()
    return int.from_bytes(digest, "big")


def stream(seed: int, floor: int, stage: str) -> np.random.Generator:
    """The named random stream for one stage of one floor of a world."""
    return np.random.Generator(np.random.PCG64(stream_key(seed, floor, stage)))


def solver_seed(seed: int, floor: int, stage: str, attempt: int = 0) -> int:
    """A 31-bit seed for clingo's ``--seed`` drawn from the stream's name and the attempt."""
    return stream_key(seed, floor, f"{stage}#{attempt}") & 0x7FFF_FFFF
