"""Seed codes and named random streams.

A *seed* is a 55-bit integer. Players see it as a *seed code* that names its generator: the
generator's number as one symbol, eleven Crockford base32 symbols of the seed and one check
symbol, shown as ``8-K7QX-M2PA-9RT3`` (generator 8, then three groups of four). Codes parse
case-insensitively, ignore hyphens and spaces, and forgive the usual confusions (``O`` → ``0``,
``I``/``L`` → ``1``). The check symbol is a weighted sum over GF(32) of the other twelve, with a
different weight for each place, so it catches every single mistyped symbol (the generator's
included) and every swap of two different symbols, neighbours or not.

A code names its generator because the same seed makes another world on another generator: a
valid code of another generator is refused, naming both generators and what to do ("this code
is for generator 4; this game makes generator 8 worlds: play it on a release with generator
4"). Generators up to 5 showed codes of the *old form*, twelve symbols without the generator
(``K7QX-M2PA-9RTD``, a Luhn mod 32 check); such a code cannot say which generator made it, so
a valid one is refused as old, never played. Files keep the old form (:func:`stored`,
:func:`read_stored`) beside their own generator field, so saves and run files of this format
read as before; only what players see and type has the generator in it. A new code always has
a digit (the generator, while it is below 10), and a release that predates versioned codes
refuses one as a code with a symbol too many: it never plays it as another world.

Any other text is accepted as a seed too and hashed with BLAKE2b (never Python's ``hash()``,
which changes from process to process). The world then shows the code of that hash, so the
code is what players share.

Where a code ends and free text begins matters, because a friend's code typed with one symbol
missing must not quietly become a text seed of another world, while a phrase a player picks
(``the dark tower``) must not be refused as a mistyped code. A text is *shaped like a code*
when, ignoring case, hyphens and spaces:

- every character is a code symbol (``O``, ``I`` and ``L`` included, as above), except that one
  ``U`` (the one Latin letter codes leave out, easily typed for a ``V``) is allowed,
- it has 9 to 16 symbols (within three of an old code's twelve or a code's thirteen), and
- it has exactly twelve or thirteen symbols (as every old code and every code has: a code whose
  one digit, its generator, was typed as a letter is still a code), or a digit, or
  two groups of four symbols (as a code is shown: ``5-N65Q-QBJ0-23P``, ``ZZZZ ZZZZ ZZZ``).

A text shaped like a code that is a valid code (of either form) is that code, whatever else it
looks like. An invalid one is still free text when it reads as *words*: it has no digit and no
hyphen (the marks of a code as shown), and either it has a letter a code never shows (``O``,
``I``, ``L``, ``U``: people type them in words, a code copied from the screen has none) or it
is several words separated by spaces, each with one of the vowels codes do show (``A``, ``E``,
``Y``). So ``dark moon cave``, ``my first world``, ``the dark tower``, ``secret garden`` and
``dark wave sky`` are text. A code typed with spaces instead of hyphens (``6 K7QX M2PA 9RTD``)
is a code, and a mistake in it is refused as long as a digit is left.

Any other text shaped like a code is read as a code and refused, with a message naming the
mistake: symbols missing or too many (and in which group, when the text is grouped), a ``U``,
or a wrong check symbol. Which form the mistake is measured against: three groups (as old codes
were shown, ``N65Q-QBJ0-23P``) mean the old form, and so does an ungrouped valid old code;
everything else is measured against the code (four groups, the first the generator). Everything
else is free text: ``dragon``, ``my world``, long words such as ``roguelike`` or ``hello
world``, a number of up to 8 digits, any text with a character codes never use (``!``, ``#``,
an accent). A refused text meant as a text seed (``thegreatbear``) is used as text by adding
such a character (``thegreatbear!``), as the message says.

The mistakes this lets through: a code whose only digit was its generator, with that digit
dropped and typed without groups as a run of letters (``ZZZZZZZZZZZZ``, which cannot be told
from a long word) or with spaces for hyphens when every group has an ``A``, ``E`` or ``Y``; and
the old form's own gap (a digitless old code mistyped), which is refused or text, never played.

Every random decision draws from a *stream* named by (seed, floor, stage):
``stream(seed, 3, "layout")``. Streams are independent of one another, so what one stage or the
player does never shifts another stage's numbers.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from roguelike.version import GENERATOR_VERSION

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
SEED_BITS = 55
DATA_SYMBOLS = 11  # 11 × 5 bits = 55 bits
STORED_SYMBOLS = DATA_SYMBOLS + 1  # the old form, which files keep: the seed and a Luhn check
CODE_SYMBOLS = 1 + DATA_SYMBOLS + 1  # the generator, the seed, the check symbol
#: The last generator whose codes had the old form (no generator in them).
LAST_OLD_FORM = 5
_SEPARATORS = "- "


class SeedCodeError(ValueError):
    """A text that is shaped like a seed code but is not a valid one (or not of this game)."""


class OtherGeneratorError(SeedCodeError):
    """A valid seed code of another generator (``generator``), or of the old form (None)."""

    def __init__(self, message: str, generator: str | None) -> None:
        super().__init__(message)
        self.generator = generator


def _luhn_mod32(values: list[int]) -> int:
    """The Luhn mod N check value (N = 32) for a list of symbol values (the old form's)."""
    total = 0
    factor = 2
    for v in reversed(values):
        addend = factor * v
        factor = 1 if factor == 2 else 2
        total += addend // 32 + addend % 32
    return (32 - total % 32) % 32


def _gf_mul(a: int, b: int) -> int:
    """a × b in GF(32), the field of x^5 + x^2 + 1 (primitive: x has order 31)."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & 32:
            a ^= 0b100101
    return product


def _weights(n: int) -> list[int]:
    """x^1 … x^n in GF(32): distinct, non-zero, and none is 1 (the check symbol's weight)."""
    out, w = [], 1
    for _ in range(n):
        w = _gf_mul(w, 2)
        out.append(w)
    return out


_WEIGHTS = _weights(CODE_SYMBOLS - 1)


def _check(values: list[int]) -> int:
    """The check symbol of a code's first twelve values: Σ wᵢ·vᵢ over GF(32). With the check
    weighted 1, a valid code sums to zero; one symbol changed adds w·d ≠ 0, and two different
    symbols swapped add (wᵢ - wⱼ)(vᵢ - vⱼ) ≠ 0, so neither ever leaves a valid code."""
    total = 0
    for w, v in zip(_WEIGHTS, values, strict=True):
        total ^= _gf_mul(w, v)
    return total


def _generator_symbol(generator: str) -> int:
    try:
        number = int(generator)
    except ValueError:
        raise ValueError(f"generator {generator!r} is not a number") from None
    if not 0 <= number < len(ALPHABET):
        raise ValueError(f"generator {generator} does not fit one code symbol")
    return number


def _seed_values(seed: int) -> list[int]:
    if not 0 <= seed < 1 << SEED_BITS:
        raise ValueError(f"seed {seed} is outside 0..2^{SEED_BITS}-1")
    return [(seed >> (5 * i)) & 31 for i in reversed(range(DATA_SYMBOLS))]


def encode(seed: int, generator: str | None = None) -> str:
    """The seed code players see and type: ``8-XXXX-XXXX-XXX3`` (the generator first: this
    game's unless told)."""
    values = [_generator_symbol(generator or GENERATOR_VERSION), *_seed_values(seed)]
    values.append(_check(values))
    s = "".join(ALPHABET[v] for v in values)
    return f"{s[0]}-{s[1:5]}-{s[5:9]}-{s[9:13]}"


#: The code shown wherever a code is asked for as an example (the new-world dialog, a served
#: game's ``?seed=``): one of this game's generator, which :func:`parse` takes. The examples
#: were ``K7QX-M2PA-9RTD``, of the old form, refused as mistyped.
EXAMPLE_CODE = encode(21664695599834906)


def stored(seed: int) -> str:
    """The old form, ``XXXX-XXXX-XXXX``, which files keep beside their generator field."""
    values = _seed_values(seed)
    values.append(_luhn_mod32(values))
    s = "".join(ALPHABET[v] for v in values)
    return f"{s[0:4]}-{s[4:8]}-{s[8:12]}"


def read_stored(text: str) -> int:
    """The seed of a code as files keep it (:func:`stored`); SeedCodeError otherwise."""
    if not isinstance(text, str):
        raise SeedCodeError("a stored seed code is a text")
    symbols = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
    if len(symbols) != STORED_SYMBOLS or any(c not in _VALUE for c in symbols):
        raise SeedCodeError(f"{text.strip()[:40]!r} is not a stored seed code")
    if not _valid_old(symbols):
        raise SeedCodeError(f"{text.strip()[:40]!r} has a wrong check symbol")
    return _seed_of(symbols[:DATA_SYMBOLS])


def _seed_of(data: str) -> int:
    seed = 0
    for c in data:
        seed = seed << 5 | _VALUE[c]
    return seed


MIN_SHAPED = STORED_SYMBOLS - 3  # fewer symbols than this is free text
MAX_SHAPED = CODE_SYMBOLS + 3  # and so is more
_FOREIGN = "U"  # the one Latin letter codes leave out: a typo, not a sign of free text
#: The advice that ends a refused code: how to use the same letters as a text seed (a puzzle
#: code, which takes no text seed, leaves it out).
TEXT_HINT = "to use it as text, add a '!'"
_EXAMPLE = encode(0x3A7B_55D2_8C19F)
_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four"}
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _groups(text: str) -> list[str]:
    """The groups of symbols as the player separated them (one group when not separated); a
    leading hyphen stands for an empty first group (a code whose generator was dropped)."""
    groups = [g for g in re.split(r"[- ]+", text.strip().upper()) if g]
    if text.strip().startswith("-"):
        groups.insert(0, "")
    return groups


def _shaped(text: str) -> str | None:
    """The symbols of ``text`` (upper case, separators dropped) when it is shaped like a code."""
    stripped = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
    if not MIN_SHAPED <= len(stripped) <= MAX_SHAPED:
        return None
    if any(c not in _VALUE and c != _FOREIGN for c in stripped) or stripped.count(_FOREIGN) > 1:
        return None
    if (
        len(stripped) not in (STORED_SYMBOLS, CODE_SYMBOLS)  # a code's length, either form:
        # a code whose one digit (its generator) was typed as a letter is still a code
        and not any(c.isdigit() for c in stripped)
        and sum(len(g) == 4 for g in _groups(text)) < 2
    ):
        return None  # a long word or two ("roguelike", "hello world"), not a code
    return stripped


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


def _valid_new(symbols: str) -> bool:
    """True when thirteen code symbols carry the right check symbol."""
    if len(symbols) != CODE_SYMBOLS or _FOREIGN in symbols:
        return False
    values = [_VALUE[c] for c in symbols]
    return _check(values[:-1]) == values[-1]


def _valid_old(symbols: str) -> bool:
    """True when twelve symbols are a code of the old form (Luhn mod 32 check)."""
    if len(symbols) != STORED_SYMBOLS or _FOREIGN in symbols:
        return False
    values = [_VALUE[c] for c in symbols]
    return _luhn_mod32(values[:DATA_SYMBOLS]) == values[DATA_SYMBOLS]


@dataclass(frozen=True)
class _Form:
    """A form of code a typed text is measured against, for the words of its mistake."""

    size: int
    groups: tuple[int, ...]
    valid: Callable[[str], bool]
    have: str  # "(codes have 13)"


_NEW = _Form(CODE_SYMBOLS, (1, 4, 4, 4), _valid_new, f"codes have {CODE_SYMBOLS}")
_OLD = _Form(STORED_SYMBOLS, (4, 4, 4), _valid_old, f"codes of the old form have {STORED_SYMBOLS}")


def _form(text: str, symbols: str) -> _Form:
    """The form a text shaped like a code is measured against. A valid code, or a valid old
    code, is what it is. Else a text grouped in three (as old codes were shown; a first group of
    five is a code with its first hyphen left out) or typed in one run may be an old code
    mistyped: with twelve symbols it is, unless inserting one symbol gives a code of this game
    (its generator dropped, ``K7QX M2PA 9RTD``); with another count, three groups are measured
    against the old form and a run against the code. Everything else is the code's."""
    if _valid_new(symbols):
        return _NEW
    if _valid_old(symbols):
        return _OLD
    groups = _groups(text)
    three = len(groups) == 3 and len(groups[0]) != 5
    if not three and len(groups) != 1:
        return _NEW
    if len(symbols) != STORED_SYMBOLS:
        return _OLD if three else _NEW
    return _NEW if _restorable(symbols) else _OLD


def _restorable(symbols: str) -> bool:
    """True when inserting one symbol into ``symbols`` gives a valid code of this generator."""
    own = ALPHABET[_generator_symbol(GENERATOR_VERSION)]
    return any(
        _valid_new(symbols[:i] + c + symbols[i:])
        for i in range(len(symbols) + 1)
        for c in ALPHABET
        if (symbols[:i] + c)[0] == own
    )


def looks_like_code(text: str) -> bool:
    """True when ``text`` is read as a seed code (see the module docstring), valid or not:
    shaped like a code, and either a valid code (of either form) or not a phrase of words."""
    symbols = _shaped(text)
    if symbols is None:
        return False
    return _form(text, symbols).valid(symbols) or not _reads_as_words(text)


def _odd_group(text: str, form: _Form, delta: int) -> str:
    """' in the second group' when the text is grouped as the form is but for one group of
    ``delta`` symbols more or fewer, which is where the mistake is; else ''."""
    groups = _groups(text)
    if len(groups) != len(form.groups):
        return ""
    odd = [i for i, (g, n) in enumerate(zip(groups, form.groups, strict=True)) if len(g) != n]
    if len(odd) != 1 or len(groups[odd[0]]) != form.groups[odd[0]] + delta:
        return ""
    return f" in the {_ORDINALS[odd[0] + 1]} group"


def _extra_symbol(symbols: str, form: _Form) -> str:
    """'; without symbol 7 ('Q') the check symbol matches' when removing exactly one symbol
    makes a valid code, which is then the code meant if one symbol was typed twice or slipped
    in; else ''."""
    fixes: dict[str, int] = {}
    for i in range(len(symbols)):
        rest = symbols[:i] + symbols[i + 1 :]
        if form.valid(rest):
            fixes.setdefault(rest, i)
    if len(fixes) != 1:
        return ""
    (i,) = fixes.values()
    return f"; without symbol {i + 1} ('{symbols[i]}') the check symbol matches"


def _mistake(text: str, symbols: str, form: _Form) -> str | None:
    """What is wrong with a text shaped like a code, or None when it is a valid code."""
    shown = " ".join(text.strip().upper().split())
    if _FOREIGN in symbols:
        where = symbols.index(_FOREIGN) + 1
        count = len(symbols) - form.size
        also = ""
        if count:
            also = f", and it has {len(symbols)} symbols ({form.have})"
        return (
            f"seed code {shown}: symbol {where} ('U') is never in a code (perhaps 'V'){also}; "
            f"{TEXT_HINT}"
        )
    missing = form.size - len(symbols)
    if missing > 0:
        verb = "is" if missing == 1 else "are"
        return (
            f"seed code {shown}: {_COUNTS[missing]} symbol{'s' * (missing > 1)} {verb} "
            f"missing{_odd_group(text, form, -missing)} ({form.have}); {TEXT_HINT}"
        )
    if missing < 0:
        extra = -missing
        hint = _extra_symbol(symbols, form) if extra == 1 else ""
        return (
            f"seed code {shown}: {_COUNTS[extra]} symbol{'s' * (extra > 1)} too many"
            f"{_odd_group(text, form, extra)}{hint} ({form.have}); {TEXT_HINT}"
        )
    if not form.valid(symbols):
        return (
            f"seed code {shown} has a wrong check symbol: a symbol is mistyped or two are "
            f"swapped; {TEXT_HINT}"
        )
    return None


def generator_of(text: str) -> str | None:
    """The generator a valid code names (``"4"`` for ``4-…``), None for a valid old-form code;
    SeedCodeError naming the mistake when ``text`` is not a valid code of either form."""
    symbols = _shaped(text)
    if symbols is None:
        raise SeedCodeError(
            f"{text.strip()!r} is not a seed code: a code is 13 symbols like {_EXAMPLE}"
        )
    form = _form(text, symbols)
    problem = _mistake(text, symbols, form)
    if problem is not None:
        raise SeedCodeError(problem)
    return str(_VALUE[symbols[0]]) if form is _NEW else None


def other_generator(shown: str, generator: str | None, makes: str = "worlds") -> str:
    """The one line that refuses a valid code of another generator (None: the old form)."""
    if generator is None:
        return (
            f"{shown} is of the old form, made by generator {LAST_OLD_FORM} or older; this game "
            f"makes generator {GENERATOR_VERSION} {makes}: play it on a release with its generator"
        )
    return (
        f"{shown} is for generator {generator}; this game makes generator {GENERATOR_VERSION} "
        f"{makes}: play it on a release with generator {generator}"
    )


def read(text: str) -> tuple[str | None, int]:
    """(the generator named, the seed) of a valid code of ANY generator, the generator None for
    the old form: for looking up what was made before (the hall's runs), never for making a
    world (:func:`decode` is that); SeedCodeError as :func:`decode` for a mistake."""
    generator = generator_of(text)
    symbols = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
    if generator is None:
        return None, _seed_of(symbols[:DATA_SYMBOLS])
    return generator, _seed_of(symbols[1 : 1 + DATA_SYMBOLS])


def shown(code: str, generator: str) -> str:
    """A code as files keep it (:func:`stored`) as players see it, with the file's generator:
    the text itself when it is not a stored code (a damaged file's, shown as it is)."""
    try:
        return encode(read_stored(code), generator)
    except ValueError:  # SeedCodeError is one; so is a generator that is not a number
        return code


def decode(text: str) -> int:
    """The seed of a seed code of this game's generator; raises SeedCodeError naming what is
    wrong (OtherGeneratorError for a valid code of another generator or of the old form)."""
    generator = generator_of(text)
    if generator != GENERATOR_VERSION:
        shown = "seed code " + " ".join(text.strip().upper().split())
        message = other_generator(shown, generator)
        symbols = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
        if generator is None and _restorable(symbols):
            message += (
                f"; if it is a code of this game, one symbol is missing"
                f"{_odd_group(text, _NEW, -1)} (codes have {CODE_SYMBOLS}); {TEXT_HINT}"
            )
        raise OtherGeneratorError(message, generator)
    symbols = "".join(c for c in text.strip().upper() if c not in _SEPARATORS)
    return _seed_of(symbols[1 : 1 + DATA_SYMBOLS])


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
