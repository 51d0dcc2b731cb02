"""The English the messages share: an article (``a goblin``, ``an orc``), a capital that
leaves the rest alone, plurals, ``a, b and c``, and creatures counted by kind (``two jackals
and a rat``). It imports nothing of the game, so every rules module may use it."""

from __future__ import annotations

from collections import Counter

_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def a(name: str) -> str:
    """``a goblin``, ``an orc``."""
    return ("an " if name[0] in "aeiou" else "a ") + name


def upper_first(text: str) -> str:
    """``text`` with its first letter made a capital and the rest left as they are: the key
    letters and the scrolls' titles are capitals (``str.capitalize`` lowered them: look said
    "the blue key (b)" and "a scroll titled elbib yloh" where the pack said B and ELBIB YLOH)."""
    return text[:1].upper() + text[1:]


def plural(name: str) -> str:
    """``rats``, ``goblin archers``: the plural of a monster's name (every kind is regular)."""
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


def and_list(words: list[str]) -> str:
    """``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def counted(kinds: list[str], *, definite: bool = False) -> str:
    """``two rats and a goblin``: each kind named once and counted, the most numerous first
    (``definite``: ``the two jackals and the bat``, for creatures the player has in view)."""
    parts = []
    for kind, n in sorted(Counter(kinds).items(), key=lambda kn: (-kn[1], kn[0])):
        if n == 1:
            parts.append(f"the {kind}" if definite else a(kind))
        else:
            number = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
            parts.append(f"{'the ' if definite else ''}{number} {plural(kind)}")
    return and_list(parts)
