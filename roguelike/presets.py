"""The sizes a world comes in: each preset's name and its number of floors (the last floor has
the exit), and the one a world gets when none is named.

Nothing is imported here, so the command line can offer the presets at start-up without
loading numpy or the generator.
"""

PRESETS: dict[str, int] = {"small": 3, "normal": 5, "large": 8}
DEFAULT_PRESET = "normal"
