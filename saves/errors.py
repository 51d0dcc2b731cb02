"""The errors of the saves package, each with a one-line message a player can read.

Kept in a module of their own with no imports, so that the command line can name them in its
list of user errors without loading the game.
"""


class SaveError(ValueError):
    """Bytes that are not a saved game this game can load: not our file, truncated, damaged,
    ill-formed, or made by a newer format or another generator. The message is one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(" ".join(str(reason).split()))


class SaveVersionError(SaveError):
    """A save made by a newer format or another generator: intact, but not for this game."""


class StoreError(Exception):
    """A request the save directory refuses (a name taken, a world not found, a world open
    in another game). The message is one line."""


class WorldNotFound(StoreError):
    """No world of that name in the save directory."""


class WorldExists(StoreError):
    """A world of that name (or one whose file name would be the same) exists already."""


class WorldLocked(StoreError):
    """Another running game holds the world's lock."""


class NotSaved(StoreError):
    """A new game could not be written (a full disk, a folder that cannot be written)."""


class BadWorldName(StoreError, ValueError):
    """A world name that cannot be used (empty, too long, control characters)."""


class HallNotWritten(StoreError):
    """A run could not be kept in the hall of runs (a full disk, a file where its folder
    should be): its world must not be deleted, or the run is lost."""


def failure_reason(err: BaseException) -> str:
    """The one line of a failed read or write (an OSError's reason and file, else its text):
    what the player is told, never Python's ``[Errno 28]`` form."""
    if isinstance(err, OSError) and err.strerror:
        where = f" ({err.filename})" if err.filename else ""
        return f"{err.strerror}{where}"
    return str(err)
