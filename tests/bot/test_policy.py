"""The autoplayer as a measuring instrument: invulnerable (completability apart from
survival), and the ablations that never use a consumable or never enter a treasure room."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roguelike import seeds
from roguelike.autoplay import (
    Autopilot,
    Policy,
    Result,
    play,
    play_many,
    summary,
    treasure_cells,
)
from roguelike.engine import new_game, step
from roguelike.engine.combat import monster_hits
from roguelike.recording import Recording
from tests.cli.support import refused, run
from tests.engine.support import add, arena, off
from tests.gen.golden import WORLDS as GOLDEN


def test_an_invulnerable_player_is_left_at_one_hp_by_a_blow_that_would_kill():
    state, c = arena()
    ogre = add(state, "orc", off(c, 1, 0))
    state.invulnerable = True
    state.defence = -100  # every blow lands
    for _ in range(30):
        state.hp = 1
        monster_hits(state, ogre, ranged=False)
    assert state.hp == 1 and not state.dead and state.spared > 0
    state.invulnerable = False
    state.hp = 1
    monster_hits(state, ogre, ranged=False)
    assert state.dead and state.hp == 0


def test_an_invulnerable_run_cannot_be_recorded(capsys, tmp_path):
    state = new_game(seeds.text_seed("bot-1"), preset="small")
    with pytest.raises(ValueError, match="measurement"):
        play(state, recording=Recording.begin(state), policy=Policy(invulnerable=True))
    dest = str(tmp_path / "x.run")
    refused(capsys, "bot", "--seed", "bot-1", "--invulnerable", "--record", dest, words="--record")


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["small", "normal", "large"])
def test_the_invulnerable_bot_finishes_every_world_of_the_golden_catalog(preset):
    """The completability check apart from survival: it finds every key, solves every
    puzzle and takes every stair, in every world of the catalog (the normal and large ones
    were left to the bench, which plays other worlds: a normal one was "stuck" on floor 4,
    walking the length of a wide floor back to its stairs, 8-YK2R-TYRD-ZG46)."""
    worlds = [seeds.read_stored(code) for code, p in GOLDEN if p == preset]
    assert worlds
    results = play_many(worlds, preset, jobs=2, policy=Policy(invulnerable=True))
    lost = [f"{seeds.encode(r.seed)}: {r.cause}" for r in results if not r.won]
    assert not lost


def test_without_items_it_never_uses_one():
    """The same world, with and without consumables: the ablation uses none (and the full
    autoplayer, on this world, does: the switch is what made the difference)."""
    seed = seeds.text_seed("bot-2")
    used = {}
    for policy in (Policy(), Policy(no_items=True)):
        state = new_game(seed, preset="small")
        rec = Recording.begin(state)
        result = play(state, recording=rec, policy=policy)
        used[policy.no_items] = (
            result.items_used,
            sum(isinstance(a, str) and a.startswith("U") for a in rec.actions),
        )
    assert used[True] == (0, 0)
    assert used[False][0] > 0


def test_skipping_treasure_it_never_stands_in_a_treasure_room():
    state = new_game(seeds.text_seed("bot-1"), preset="small")
    # invulnerable: the point is where it walks, all three floors long, not whether it survives
    # the monsters on the way (a death would end the walk before the treasure it must avoid)
    state.invulnerable = True
    pilot = Autopilot(state, policy=Policy(skip_treasure=True, invulnerable=True))
    floors_with_treasure = 0
    for _ in range(6000):
        if state.over or pilot.stuck(state):
            break
        avoid = treasure_cells(state)
        floors_with_treasure += bool(avoid.any())
        x, y = state.player
        assert not avoid[y, x], f"in a treasure room on floor {state.number}"
        before = (state.turn, state.number)
        step(state, pilot.decide(state).action)
        pilot.acted((state.turn, state.number) != before)
    assert state.won, (state.cause, state.number, state.turn, pilot.stuck(state))
    assert floors_with_treasure  # the world had treasure to keep out of


@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(1, 8), st.integers(0, 9), st.floats(0, 1)),
        min_size=1,
        max_size=30,
    )
)
def test_the_summary_counts_what_the_runs_say(runs):
    results = [
        Result(
            i,
            won,
            floor,
            100,
            "escaped" if won else f"killed by a rat on floor {floor}",
            1.0,
            low,
            died_on=None if won else floor,
            items_used=items,
        )
        for i, (won, floor, items, low) in enumerate(runs)
    ]
    s = summary(results)
    assert s["worlds"] == len(runs) and s["won"] + s["deaths"] == len(runs)
    assert sum(s["deaths_by_floor"].values()) == s["deaths"]
    if s["deaths"]:
        top = max(s["deaths_by_floor"].values())
        assert s["largest_floor_share"] == round(top / s["deaths"], 3)
    assert s["lowest_hp_min"] == round(min(low for *_, low in runs), 3)
    won_items = sorted(items for won, _, items, _ in runs if won)
    assert (s["items_used_won_p50"] is None) == (not won_items)


def test_bot_seeds_json_reports_the_measures(capsys):
    code, out, _ = run(
        capsys, "bot", "--seeds", "2", "--preset", "small", "--no-items", "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["policy"] == "--no-items" and doc["worlds"] == 2
    for key in ("win_rate", "deaths_by_floor", "lowest_hp_p50", "items_used_p50"):
        assert key in doc
    assert all(r["items_used"] == 0 for r in doc["results"])
