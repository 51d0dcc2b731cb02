"""The sizes a world comes in: each preset's name and its number of floors (the last floor has
the exit), and the one a world gets when none is named; the names of the difficulties.

Nothing is imported here, so the command line can offer the presets at start-up without
loading numpy or the generator.
"""

PRESETS: dict[str, int] = {"small": 3, "normal": 5, "large": 8}
DEFAULT_PRESET = "normal"

#: The difficulties a world comes in, easiest first, and the one a world gets when none is
#: named (the daily world's, and every world's made before difficulties existed). Their
#: numbers are ``DIFFICULTIES`` in ``roguelike/engine/balance.py``; only the names live here,
#: for the same reason as the presets'.
DIFFICULTY_NAMES: tuple[str, ...] = ("easy", "normal", "hard", "brutal")
DEFAULT_DIFFICULTY = "normal"
