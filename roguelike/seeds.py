"""Seed codes and named random streams.

A *seed* is a 55-bit integer. Players see it as a *seed code*: eleven Crockford base32 symbols
and one check symbol, in three groups of four (``K7QX-M2PA-9RTD``). Codes parse
case-insensitively, ignore hyphens and spaces, and forgive the usual confusions (``O`` → ``0``,
``I``/``L`` → ``1``). The check symbol is Luhn mod 32, which catches every single mistyped
symbol and every swap of two neighbouring symbols but one pair.

Any other text is accepted as a seed too and hashed with BLAKE2b (never Python's ``hash()``,
which changes from process to process). The world then shows the code of that hash, so the
code is what players share.

Where a code ends and free text begins matters, because a friend's code typed with one symbol
missing must not quietly become a text seed of another world, while a phrase a player picks
(``the dark tower``) must not be refused as a mistyped code. A text is *shaped like a code*
when, ignoring case, hyphens and spaces:

- every character is a code symbol (``O``, ``I`` and ``L`` included, as above), except that one
  ``U`` (the one Latin letter codes leave out, easily typed for a ``V``) is allowed,
- it has 9 to 15 symbols (within three of a code's twelve), and
- it has exactly twelve symbols (as every code has), or a digit (nearly every code has one), or
  two groups of four symbols (as a code is shown: ``N65Q-QBJ0-23P``, ``ZZZZ ZZZZ ZZZ``).

A text shaped like a code that is a valid code is that code, whatever else it looks like. An
invalid one is still free text when it reads as *words*: it has no digit and no hyphen (the
marks of a code as shown), and either it has a letter a code never shows (``O``, ``I``, ``L``,
``U``: people type them in words, a code copied from the screen has none) or it is several
words separated by spaces, each with one of the vowels codes do show (``A``, ``E``, ``Y``). So
``dark moon cave``, ``my first world``, ``the dark tower``, ``secret garden`` and ``dark wave
sky`` are text. A code typed with spaces instead of hyphens (``K7QX M2PA 9RTD``) is a code, and
a mistake in it is refused as long as a digit is left or a group has none of ``A``, ``E``, ``Y``
(``ZZZZ ZZZZ ZZZ``).

Any other text shaped like a code is read as a code and refused, with a message naming the
mistake: symbols missing or too many (and in which group, when the text is grouped), a ``U``,
or a wrong check symbol. Everything else is free text: ``dragon``, ``my world``, long words
such as ``roguelike`` or ``hello world``, a number of up to 8 digits, any text with a character
codes never use (``!``, ``#``, an accent). A refused text meant as a text seed (``thegreatbear``)
is used as text by adding such a character (``thegreatbear!``), as the message says.

The mistakes this lets through, all of a code without a digit left (about one code in ninety
has no digit, and one in sixteen has a single one): with a symbol missing or extra, typed
without its groups (``ZZZZZZZZZZZ``, which cannot be told from a long word), or typed with
spaces for hyphens when every group has an ``A``, ``E`` or ``Y`` (``ZZAZ ZEZZ YZZ``, which cannot
be told from a phrase); and a swap of a ``0`` and a ``Z`` next to each other, which is the
valid code of another seed (the check symbol cannot catch it).

Every random decision draws from a *stream* named by (seed, floor, stage):
``stream(seed, 3, "layout")``. Streams are independent of one another, so what one stage or the
player does never shifts another stage's numbers.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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


MIN_SHAPED = CODE_SYMBOLS - 3  # fewer symbols than this is free text
MAX_SHAPED = CODE_SYMBOLS + 3  # and so is more
_FOREIGN = "U"  # the one Latin letter codes leave out: a typo, not a sign of free text
#: The advice that ends a refused code: how to use the same letters as a text seed (a puzzle
#: code, which takes no text seed, leaves it out).
TEXT_HINT = "to use it as text, add a '!'"
_EXAMPLE = "K7QX-M2PA-9RTD"
_COUNTS = {1: "one", 2: "two", 3: "three"}
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _groups(text: str) -> list[str]:
    """The groups of symbols as the player separated them (one group when not separated)."""
    return [g for g in re.split(r"[- ]+", text.strip().upper()) if g]


def _shaped(text: str) -> str | None:
    """The symbols of ``text`` (upper case, separators dropped) when it is shaped like a code."""
    stripped = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
    if not MIN_SHAPED <= len(stripped) <= MAX_SHAPED:
        return None
    if any(c not in _VALUE and c != _FOREIGN for c in stripped) or stripped.count(_FOREIGN) > 1:
        return None
    if (
        len(stripped) != CODE_SYMBOLS
        and not any(c.isdigit() for c in stripped)
        and sum(len(g) == 4 for g in _groups(text)) < 2
    ):
        return None  # a long word or two ("roguelike", "hello world"), not a code
    return stripped


def _code_symbols(text: str) -> list[int] | None:
    """The symbol values of ``text`` if it is a code's twelve symbols, else None."""
    stripped = _shaped(text)
    if stripped is None or len(stripped) != CODE_SYMBOLS or _FOREIGN in stripped:
        return None
    return [_VALUE[c] for c in stripped]


_WORD_LETTERS = "OILU"  # letters people type in words and a code as shown never has
_CODE_VOWELS = "AEY"  # the vowels a code does show: most of its groups of four lack them


def _reads_as_words(text: str) -> bool:
    """True when a text shaped like a code reads as a phrase of words: no digit or hyphen (the
    marks of a code as shown), and a letter codes never show or several spaced words that each
    have a vowel (see the module docstring)."""
    upper = text.strip().upper()
    if "-" in upper or any(c.isdigit() for c in upper):
        return False
    if any(c in _WORD_LETTERS for c in upper):
        return True
    words = upper.split()
    return len(words) > 1 and all(any(c in _CODE_VOWELS for c in word) for word in words)


def looks_like_code(text: str) -> bool:
    """True when ``text`` is read as a seed code (see the module docstring), valid or not:
    shaped like a code, and either a valid code or not a phrase of words."""
    symbols = _shaped(text)
    if symbols is None:
        return False
    valid = len(symbols) == CODE_SYMBOLS and _FOREIGN not in symbols and _valid(symbols)
    return valid or not _reads_as_words(text)


def _valid(symbols: str) -> bool:
    """True when twelve code symbols carry the right check symbol."""
    values = [_VALUE[c] for c in symbols]
    return _luhn_mod32(values[:DATA_SYMBOLS]) == values[DATA_SYMBOLS]


def _odd_group(text: str, want: int) -> str:
    """' in the second group' when the text is grouped in fours but for one group of ``want``
    symbols, which is where the mistake is; else ''."""
    groups = _groups(text)
    if len(groups) != 3:
        return ""
    odd = [i for i, g in enumerate(groups) if len(g) != 4]
    if len(odd) != 1 or len(groups[odd[0]]) != want:
        return ""
    return f" in the {_ORDINALS[odd[0] + 1]} group"


def _extra_symbol(symbols: str) -> str:
    """'; without symbol 7 ('Q') the code is valid' when removing exactly one symbol makes a
    valid code, which is then the code meant if one symbol was typed twice or slipped in;
    else ''."""
    fixes: dict[str, int] = {}
    for i in range(len(symbols)):
        rest = symbols[:i] + symbols[i + 1 :]
        if _FOREIGN not in rest and _valid(rest):
            fixes.setdefault(rest, i)
    if len(fixes) != 1:
        return ""
    (i,) = fixes.values()
    return f"; without symbol {i + 1} ('{symbols[i]}') the check symbol matches"


def _mistake(text: str, symbols: str) -> str | None:
    """What is wrong with a text shaped like a code, or None when it is a valid code."""
    shown = " ".join(text.strip().upper().split())
    if _FOREIGN in symbols:
        where = symbols.index(_FOREIGN) + 1
        count = len(symbols) - CODE_SYMBOLS
        also = ""
        if count:
            also = f", and it has {len(symbols)} symbols (codes have {CODE_SYMBOLS})"
        return (
            f"seed code {shown}: symbol {where} ('U') is never in a code (perhaps 'V'){also}; "
            f"{TEXT_HINT}"
        )
    missing = CODE_SYMBOLS - len(symbols)
    if missing > 0:
        verb = "is" if missing == 1 else "are"
        return (
            f"seed code {shown}: {_COUNTS[missing]} symbol{'s' * (missing > 1)} {verb} "
            f"missing{_odd_group(text, 4 - missing)} (codes have {CODE_SYMBOLS}); {TEXT_HINT}"
        )
    if missing < 0:
        extra = -missing
        hint = _extra_symbol(symbols) if extra == 1 else ""
        return (
            f"seed code {shown}: {_COUNTS[extra]} symbol{'s' * (extra > 1)} too many"
            f"{_odd_group(text, 4 + extra)}{hint} (codes have {CODE_SYMBOLS}); {TEXT_HINT}"
        )
    if not _valid(symbols):
        return (
            f"seed code {shown} has a wrong check symbol: a symbol is mistyped or two are "
            f"swapped; {TEXT_HINT}"
        )
    return None


def decode(text: str) -> int:
    """The seed of a seed code; raises SeedCodeError naming what is wrong."""
    symbols = _shaped(text)
    if symbols is None:
        raise SeedCodeError(
            f"{text.strip()!r} is not a seed code: a code is 12 symbols like {_EXAMPLE}"
        )
    problem = _mistake(text, symbols)
    if problem is not None:
        raise SeedCodeError(problem)
    seed = 0
    for c in symbols[:DATA_SYMBOLS]:
        seed = seed << 5 | _VALUE[c]
    return seed


def text_seed(text: str) -> int:
    """The seed of an arbitrary text: BLAKE2b of its UTF-8, cut to SEED_BITS."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8, person=b"rl-seed").digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def parse(text: str) -> int:
    """The seed a player means by ``text``: a seed code, or any other text hashed.

    Raises SeedCodeError for an empty text and for a text read as a code (:func:`looks_like_code`)
    that is not a valid one (see the module docstring for where a code ends and free text begins).
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
    import numpy as np  # here, not at the top: keeps start-up light (`roguelike --version`)

    return np.random.Generator(np.random.PCG64(stream_key(seed, floor, stage)))


def solver_seed(seed: int, floor: int, stage: str, attempt: int = 0) -> int:
    """A 31-bit seed for clingo's ``--seed`` drawn from the stream's name and the attempt."""
    return stream_key(seed, floor, f"{stage}#{attempt}") & 0x7FFF_FFFF
