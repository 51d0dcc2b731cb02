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
from dataclasses import dataclass
from pathlib import Path

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
#: A token's shape as a cookie brings it (what token_urlsafe(32) makes).
TOKEN = re.compile(r"[A-Za-z0-9_-]{43}", re.ASCII)


class NameRefused(ValueError):
    """A name that cannot be a player's: the message is one line for the page."""


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
        if self.file.exists():
            data = json.loads(read_file(self.file).decode("utf-8"))
            for entry in data["players"]:
                self.players[str(entry["token"])] = Player(str(entry["id"]), str(entry["name"]))

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
        self.folder(player)
        self.players[digest(token)] = player
        entries = [{"token": k, "id": p.id, "name": p.name} for k, p in self.players.items()]
        write_atomic(self.file, json.dumps({"players": entries}, indent=1).encode("utf-8"))
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
