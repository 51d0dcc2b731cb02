"""The player's options: a small JSON file in the user's config folder.

Where
    ``platformdirs.user_config_dir("roguelike") / "options.json"``; the environment variable
    ``ROGUELIKE_CONFIG_DIR`` names another folder (the tests point it at a temporary one, so
    no test ever writes the player's own file).

What
    ::

        {"format": 1, "theme": "mono", "keys": {"game.explore": "E"}}

    ``theme`` names a colour theme and ``keys`` maps a rebindable action's id to its keys
    (Textual key names, comma-separated), for the actions the player rebound only.

This module checks the *shape* of the file, not its meaning: which themes and actions exist is
known to the screens (``screens/themes.py``, ``screens/bindings.py``), which drop a name they do
not know. It lives in ``saves/`` because it is a file on disk read like any other hostile file
(bounded, checked field by field, written atomically with :func:`saves.files.write_atomic`),
and it imports nothing from Textual or the engine, so the app reads it before the title shows.

A file that is too large, not JSON, or has a field of the wrong shape is never a crash: the
options are the defaults and :func:`load` returns a one-line warning saying why (the file is
left as it is until the player saves their options again).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_config_dir

from saves.errors import SaveError
from saves.files import read_file, write_atomic
from saves.locks import shared_lock

ENV_DIR = "ROGUELIKE_CONFIG_DIR"
FILE_NAME = "options.json"
FORMAT = 1
#: The largest options file read: a full one is well under a kilobyte.
MAX_BYTES = 16 * 1024
#: The most rebound actions kept.
MAX_KEYS = 64
#: The most keys one action may have.
MAX_KEYS_PER_ACTION = 4
DEFAULT_THEME = "default"

#: A theme's name, an action's id, a Textual key name: short, and nothing a terminal would read
#: as a control sequence.
_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
_ACTION_ID = re.compile(r"[a-z][a-z0-9_.-]{0,47}")
_KEY = re.compile(r"[A-Za-z0-9_+]{1,32}")


#: Keys a terminal sends as another key (its encoding has one byte for both, and the
#: game hears the other one): bound to an action, they would never fire. Each with the key
#: it arrives as (Textual's key names on the left).
TERMINAL_TWINS: dict[str, str] = {
    "ctrl+i": "Tab",
    "ctrl+m": "Enter",
    "ctrl+j": "Enter (a line feed) in some terminals",
    "ctrl+h": "Backspace in many terminals",
    "ctrl+backspace": "Backspace in many terminals",
    "ctrl+8": "Backspace in many terminals",
    "ctrl+left_square_bracket": "Escape",
    "ctrl+3": "Escape",
    "ctrl+space": "ctrl+@",
    "ctrl+2": "ctrl+@",
    "ctrl+4": "ctrl+backslash",
    "ctrl+5": "ctrl+right_square_bracket",
    "ctrl+6": "ctrl+circumflex_accent",
    "ctrl+7": "ctrl+underscore",
    "ctrl+minus": "ctrl+underscore",
    "ctrl+slash": "ctrl+underscore",
    "ctrl+1": "1",
    "ctrl+9": "9",
    "ctrl+0": "0",
}
_CTRL_SHIFT_LETTER = re.compile(r"ctrl\+shift\+([a-z])")


def terminal_twin(key: str, shown: str | None = None) -> str | None:
    """Why ``key`` (a Textual key name) cannot be bound, one line: a terminal sends it as
    another key (``ctrl+i is the same key as Tab in a terminal``); None if it arrives as
    itself. ``shown``: the key as the message writes it (``key`` itself by default)."""
    twin = TERMINAL_TWINS.get(key)
    letter = _CTRL_SHIFT_LETTER.fullmatch(key)
    if letter is not None:
        twin = f"ctrl+{letter.group(1)}"
    if twin is None:
        return None
    where = "" if "terminals" in twin else " in a terminal"
    return f"{shown or key} is the same key as {twin}{where}"


class OptionsDamaged(ValueError):
    """The options file is not one this game wrote; the message is one line."""


@dataclass(frozen=True)
class Options:
    """The player's choices. ``keys``: action id → its keys (``"E"``, ``"ctrl+e,E"``), for
    the actions rebound only."""

    theme: str = DEFAULT_THEME
    keys: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> bytes:
        doc = {"format": FORMAT, "theme": self.theme, "keys": dict(sorted(self.keys.items()))}
        return (json.dumps(doc, indent=2) + "\n").encode("utf-8")


def config_dir() -> Path:
    """``$ROGUELIKE_CONFIG_DIR``, else the user's config folder for the game."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    return Path(user_config_dir("roguelike", appauthor=False))


def options_path() -> Path:
    return config_dir() / FILE_NAME


def valid_keys(keys: str) -> bool:
    """True if ``keys`` is one to four Textual key names, comma-separated, none twice."""
    parts = keys.split(",")
    return (
        0 < len(parts) <= MAX_KEYS_PER_ACTION
        and all(_KEY.fullmatch(k) for k in parts)
        and len(set(parts)) == len(parts)
    )


def parse(data: bytes) -> Options:
    """The options in ``data``; raises :class:`OptionsDamaged` with a one-line reason."""
    if len(data) > MAX_BYTES:
        raise OptionsDamaged(f"it is larger than {MAX_BYTES} bytes")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise OptionsDamaged("it is not JSON") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise OptionsDamaged(f"it is not an options file of format {FORMAT}")
    unknown = set(doc) - {"format", "theme", "keys"}
    if unknown:
        raise OptionsDamaged("it has fields this game does not know")
    theme = doc.get("theme", DEFAULT_THEME)
    if not isinstance(theme, str) or not _NAME.fullmatch(theme):
        raise OptionsDamaged("its theme is not a theme's name")
    keys = doc.get("keys", {})
    if not isinstance(keys, dict):
        raise OptionsDamaged("its keys are not a table")
    if len(keys) > MAX_KEYS:
        raise OptionsDamaged(f"it rebinds more than {MAX_KEYS} actions")
    for action, value in keys.items():
        if not _ACTION_ID.fullmatch(action):
            raise OptionsDamaged("an action in its keys is not an action's id")
        if not isinstance(value, str) or not valid_keys(value):
            raise OptionsDamaged("a binding in its keys is not a list of keys")
    return Options(theme, dict(keys))


def load(path: Path | None = None) -> tuple[Options, str | None]:
    """The saved options and a one-line warning (None if all is well). No file: the
    defaults, no warning; a file that cannot be read or is damaged: the defaults and why."""
    path = options_path() if path is None else path
    try:
        # a regular file only (a FIFO here would hang the game before its title), bounded
        # before anything is allocated for it
        data = read_file(path, MAX_BYTES)
    except SaveError:  # larger than any options file
        return (
            Options(),
            f"Options file ignored: it is larger than {MAX_BYTES} bytes; using the defaults",
        )
    except FileNotFoundError:
        return Options(), None
    except OSError as err:
        return Options(), f"Options not read ({err.strerror or 'unreadable'}): using the defaults"
    try:
        return parse(data), None
    except OptionsDamaged as err:
        return Options(), f"Options file ignored: {err}; using the defaults"


def merged(options: Options, base: Options, current: Options) -> Options:
    """What to write when this game changed ``base`` into ``options`` while another game
    wrote ``current``: this game's changes (its theme if it changed it, each key it rebound or
    reset) over the other's file, so neither loses the other's choices."""
    theme = options.theme if options.theme != base.theme else current.theme
    keys = dict(current.keys)
    for action in sorted(set(base.keys) | set(options.keys)):
        if options.keys.get(action) == base.keys.get(action):
            continue  # not changed here: the file's word stands
        if action in options.keys:
            keys[action] = options.keys[action]
        else:
            keys.pop(action, None)
    return Options(theme, keys)


def save(options: Options, path: Path | None = None, *, base: Options | None = None) -> Path:
    """Write ``options`` atomically (a crash leaves the old file or the new one), under the
    file's lock (:func:`saves.locks.shared_lock`); returns the file written. With ``base``
    (the options as this game read them), the file is read afresh under the lock and only what
    changed from ``base`` is written over it (:func:`merged`): another game's change since is
    kept. Raises OSError if the folder cannot be made, locked or written."""
    path = options_path() if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    with shared_lock(path):
        if base is not None:
            current, _warning = load(path)  # a damaged or missing file: the defaults
            options = merged(options, base, current)
        write_atomic(path, options.to_json())
    return path
