"""The final screen of a run: its score term by term, and ``m`` for the run's whole text (the
morgue: gear, pack, last messages, the map round the player), as the hall keeps it."""

from __future__ import annotations

from roguelike import seeds
from screens.app import RoguelikeApp
from screens.game import GameScreen
from screens.morgue import MorgueScreen
from screens.summary import SummaryScreen
from tests.screens.support import screen_text

CODE = seeds.encode(0x1234_5678_9ABC)


async def test_the_final_screen_gives_the_score_and_the_runs_text():
    app = RoguelikeApp(seed=seeds.parse(CODE), preset="small")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        state = game.state
        state.inventory = {"healing potion": 2}
        state.identified.add("healing potion")  # known: the run text names it
        state.say("The cave rat bites you (3). You die...")
        state.dead, state.hp = True, 0
        state.stats.cause = "killed by a cave rat"
        game.dismiss(state)
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "You died" in text
        assert "Score" in text and "200 (depth 200)" in text  # floor 1, nothing else earned
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MorgueScreen)
        morgue = app.screen.text
        for section in ("Score        200", "Equipment and perks:", "Pack:", "Last messages:"):
            assert section in morgue
        assert "  2 × a healing potion" in morgue
        assert "  The cave rat bites you (3). You die..." in morgue
        assert "Floor 1, round the player at the end (@):" in morgue
        assert app.hall.runs()[0].final is not None  # the text is the kept record's
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
