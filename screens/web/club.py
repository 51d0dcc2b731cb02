"""The players of a club (``roguelike serve --club``): who a browser is, and their folder.

A browser picks a player name on its first visit; the server answers with a random token
(:func:`secrets.token_urlsafe`, 32 bytes) in an HttpOnly cookie, which that browser sends from
then on. The token is never derived from the name, and only its SHA-256 is kept (in
``club-players.json`` in the server's save folder), so the file does not let anyone act as a
player. Names are 1 to :data:`MAX_NAME` ASCII letters, digits, spaces, dashes and underscores,
unique whatever their case; at most :data:`MAX_PLAYERS` are registered.

Each player's worlds are in a folder of their own, ``players/ID`` under the server's save folder
(``ID``: random hex given on registration, never the name): their game processes are started
with that folder, so no game of one player can list, load, overwrite or delete another's
worlds. The hall is shared: each player folder's ``runs`` and ``challenges`` are symbolic links
to the server folder's, and the hall's lock files (``.runs.lock``, ``.challenges.lock``, which
the saves open without following links) are hard links to the server folder's, so two players'
games ending at once still take the same lock. Each player folder also has its own
``own-runs`` (:data:`saves.hall.OWN_RUNS`): the runs its games kept, so that the daily's
scored run and the streak are each player's, not the club's.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from saves.errors import SaveError
from saves.files import read_file, write_atomic
from saves.hall import CHALLENGES_DIR, OWN_RUNS, RUNS_DIR

#: The cookie that carries a browser's token.
COOKIE = "roguelike_player"
#: A name's rule, and the most players a club registers.
MAX_NAME = 20
NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9 _-]{{0,{MAX_NAME - 1}}}", re.ASCII)
MAX_PLAYERS = 500
#: The register's file in the server's save folder, and the players' folders.
REGISTER = "club-players.json"
PLAYERS_DIR = "players"
#: A token's shape as a cookie brings it (what token_urlsafe(32) makes); its digest's and a
#: player id's as the register keeps them; the register's largest size, in bytes.
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}", re.ASCII)
DIGEST = re.compile(r"[0-9a-f]{64}", re.ASCII)
PLAYER_ID = re.compile(r"[0-9a-f]{16}", re.ASCII)
MAX_REGISTER = MAX_PLAYERS * 256 + 64


class NameRefused(ValueError):
    """A name that cannot be a player's: the message is one line for the page."""


class RegisterDamaged(ValueError):
    """A club's register that cannot be read: the message is one line for the command."""


@dataclass(frozen=True)
class Player:
    """A registered player: ``id`` names their folder, ``name`` is shown."""

    id: str
    name: str


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def check_name(name: str) -> str:
    """``name`` stripped, if it can be a player's (NameRefused, one line, if not)."""
    name = name.strip()
    if not NAME.fullmatch(name):
        raise NameRefused(
            f"a name is 1 to {MAX_NAME} letters, digits, spaces, dashes or underscores, "
            "starting with a letter or digit"
        )
    return name


class Club:
    """The register of a club's players, kept in ``root`` (the server's save folder)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.file = root / REGISTER
        #: the players, by the digest of their token
        self.players: dict[str, Player] = {}
        if self.file.exists() or self.file.is_symlink():
            self.players = self._read()

    def _read(self) -> dict[str, Player]:
        """The register's players (RegisterDamaged, one line, if it is not one the club
        wrote: every digest, id and name is checked, since an id names a folder)."""
        try:
            data = json.loads(read_file(self.file, MAX_REGISTER).decode("utf-8"))
            entries = data["players"] if isinstance(data, dict) else None
            if not isinstance(entries, list) or len(entries) > MAX_PLAYERS:
                raise ValueError("no list of players")
            players: dict[str, Player] = {}
            for entry in entries:
                key, id_, name = entry["token"], entry["id"], entry["name"]
                if not (
                    isinstance(key, str)
                    and DIGEST.fullmatch(key)
                    and isinstance(id_, str)
                    and PLAYER_ID.fullmatch(id_)
                    and isinstance(name, str)
                    and check_name(name) == name
                ):
                    raise ValueError("a player is not one the club registers")
                players[key] = Player(id_, name)
        except (SaveError, OSError) as err:
            why = getattr(err, "strerror", None) or err
            raise RegisterDamaged(f"the club's register {self.file}: {why}") from None
        except (ValueError, KeyError, TypeError) as err:  # JSON, UTF-8, a field, a name
            raise RegisterDamaged(
                f"the club's register {self.file} is damaged ({type(err).__name__}): "
                "restore it or move it away"
            ) from None
        return players

    def player(self, token: str | None) -> Player | None:
        """The player whose browser sent ``token`` (None: no such player)."""
        if token is None or not TOKEN.fullmatch(token):
            return None
        return self.players.get(digest(token))

    def join(self, name: str) -> tuple[str, Player]:
        """A new player called ``name``: their token (for the cookie) and themselves; their
        folder is made. NameRefused if the name is taken, malformed, or the club is full."""
        name = check_name(name)
        if any(p.name.casefold() == name.casefold() for p in self.players.values()):
            raise NameRefused(f"{name} is taken: choose another name")
        if len(self.players) >= MAX_PLAYERS:
            raise NameRefused(f"this club has its {MAX_PLAYERS} players")
        token = secrets.token_urlsafe(32)
        player = Player(secrets.token_hex(8), name)
        folder = self.folder(player)
        players = {**self.players, digest(token): player}
        entries = [{"token": k, "id": p.id, "name": p.name} for k, p in players.items()]
        try:  # written first: a failed write leaves the name free, as the file does
            write_atomic(self.file, json.dumps({"players": entries}, indent=1).encode("utf-8"))
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)  # nobody's: it only has the links
            raise
        self.players = players
        return token, player

    def folder(self, player: Player) -> Path:
        """``player``'s save folder, made with the shared hall's links if it is not there."""
        folder = self.root / PLAYERS_DIR / player.id
        folder.mkdir(parents=True, exist_ok=True)
        for shared in (RUNS_DIR, CHALLENGES_DIR):
            (self.root / shared).mkdir(exist_ok=True)
            link = folder / shared
            if not link.is_symlink():
                link.symlink_to(Path("..", "..", shared))
            lock = self.root / f".{shared}.lock"
            lock.touch(exist_ok=True)
            mine = folder / lock.name
            if not mine.exists():
                os.link(lock, mine)
        (folder / OWN_RUNS).touch(exist_ok=True)  # the hall is shared: its own runs apart
        return folder
