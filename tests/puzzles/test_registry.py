"""The registry of puzzle types: every type declares itself once, in a complete record
(``TYPE`` in its module), and every layer reads that record."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from roguelike import puzzles
from roguelike.puzzles import DIFFICULTIES, REGISTRY, TYPES, Calibration, PuzzleType, jugs
from screens.puzzle.views import VIEWS


def test_types_names_the_registrys_records_in_menu_order():
    assert [puzzles.kind(t).name for t in TYPES] == list(TYPES)
    assert TYPES == ("jugs", "sliding", "stomp", "ball", "hatgram", "keydoor")


@pytest.mark.parametrize("kind", REGISTRY, ids=TYPES)
def test_each_registered_type_has_every_part(kind):
    module = inspect.getmodule(kind.generate)
    assert module is not None and module.TYPE is kind  # declared once, in its own module
    assert set(kind.par) == set(DIFFICULTIES)
    assert all(0 < lo <= hi for lo, hi in kind.par.values())
    assert kind.rules.strip() and kind.hint_budget > 0
    assert kind.calibration.attempts >= 1 and kind.calibration.unbanded <= set(DIFFICULTIES)
    assert puzzles.kind(kind.name) is kind
    assert kind.name in VIEWS  # the screens can play it
    p = kind.generate("easy", 3)
    assert p.type_name == kind.name and kind.par["easy"][0] <= p.par <= kind.par["easy"][1]
    assert puzzles.kind_of(p) is kind
    assert kind.from_json(p.to_json()) == p
    assert isinstance(kind.calibration.greedy(p, p.initial()), float)
    if kind.calibration.successor is not None:  # the measure's shortcut agrees with apply
        s = p.initial()
        for m in p.moves(s):
            assert kind.calibration.successor(p, s, m) == p.apply(s, m)


def test_every_field_of_a_record_is_needed():
    """A record cannot leave out a part: the fields without a default are all required."""
    required = {f.name for f in dataclasses.fields(PuzzleType) if f.default is dataclasses.MISSING}
    assert required == {
        "name",
        "generate",
        "from_json",
        "par",
        "rules",
        "hint_budget",
        "calibration",
    }
    parts = {f.name: getattr(jugs.TYPE, f.name) for f in dataclasses.fields(PuzzleType)}
    del parts["calibration"]
    with pytest.raises(TypeError, match="calibration"):
        PuzzleType(**parts)
    with pytest.raises(TypeError, match="attempts"):
        Calibration(greedy=jugs.greedy)  # type: ignore[call-arg]


def test_a_record_with_a_level_missing_or_no_rules_is_refused():
    partial_par = {d: r for d, r in jugs.PAR.items() if d != "very-hard"}
    with pytest.raises(ValueError, match="one range per level"):
        dataclasses.replace(jugs.TYPE, par=partial_par)
    with pytest.raises(ValueError, match="rules are empty"):
        dataclasses.replace(jugs.TYPE, rules="  ")
    with pytest.raises(ValueError, match="unknown levels"):
        Calibration(greedy=jugs.greedy, attempts=2, unbanded=frozenset({"brutal"}))


def test_an_unknown_type_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown puzzle type 'mazes'"):
        puzzles.kind("mazes")
    with pytest.raises(ValueError, match="unknown puzzle type 'mazes'"):
        puzzles.generate("mazes", "easy", 1)
