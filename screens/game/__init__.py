"""The game screen (:mod:`.screen`), its modes (:mod:`.modes`), the bot's wheel in watch mode
(:mod:`.watch`) and the session it plays through (:mod:`.session`)."""

from screens.game.screen import GameScreen
from screens.game.watch import DEFAULT_SPEED, SPEEDS

__all__ = ["DEFAULT_SPEED", "SPEEDS", "GameScreen"]
