"""Bad input, fuzzed: any JSON value given as a puzzle document or a state is either a valid
puzzle (or state) or a PuzzleFormatError, never another exception."""

from __future__ import annotations

import contextlib
import copy
import json
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike import puzzles
from roguelike.puzzles import PuzzleFormatError
from tests.puzzles.support import CUSTOM_BALL

#: The types whose documents this helper's part validates; keydoor and sliding go through the
#: generic entry point only.
OWN = ("jugs", "stomp", "ball", "hatgram")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.integers(-3, 12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=25,
)


@cache
def sample_docs() -> tuple[str, ...]:
    """A generated document of every type, and hand-made custom ones (as JSON text)."""
    docs = [puzzles.generate(t, "easy", 7).to_json() for t in puzzles.TYPES]
    docs.append(CUSTOM_BALL)
    docs.append(
        {
            "format": 1,
            "type": "jugs",
            "difficulty": "easy",
            "par": 0,
            "config": {
                "capacities": [8, 5, 3],
                "start": [4, 4, 0],
                "target": {"kind": "any", "amount": 4},
            },
            "state": [4, 4, 0],
        }
    )
    docs.append(
        {
            "format": 1,
            "type": "stomp",
            "difficulty": "easy",
            "par": 1,
            "config": {"rows": 2, "cols": 5, "target": [".....", "....."]},
            "state": ["#....", "##..."],
        }
    )
    return tuple(json.dumps(d) for d in docs)


def paths(v: Any, here: tuple = ()) -> list[tuple]:
    """Every place in a JSON value where another value could go."""
    out = [here]
    if isinstance(v, dict):
        for k, x in v.items():
            out += paths(x, (*here, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += paths(x, (*here, i))
    return out


def replaced(v: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    v = copy.deepcopy(v)
    cur = v
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = new
    return v


def load_or_refuse(d: Any) -> Any:
    """A loaded puzzle, or None when it was refused with PuzzleFormatError (anything else
    fails the test)."""
    try:
        p = puzzles.from_json(d)
    except PuzzleFormatError:
        return None
    # what loads is whole: it writes itself back and reads back equal
    assert puzzles.from_json(p.to_json()) == p
    return p


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_value_is_a_puzzle_or_refused(value):
    load_or_refuse(value)
    for t in puzzles.TYPES:
        load_or_refuse({"format": 1, "type": t, "difficulty": "easy", "par": 1, "config": value})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_document_with_any_part_replaced_is_a_puzzle_or_refused(data):
    d = json.loads(data.draw(st.sampled_from(sample_docs())))
    path = data.draw(st.sampled_from(paths(d)))
    new = data.draw(json_values)
    load_or_refuse(replaced(d, path, new))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_state_is_a_state_or_refused(data):
    d = json.loads(data.draw(st.sampled_from(sample_docs())))
    if d["type"] not in OWN:
        return
    p = puzzles.from_json(d)
    state = d["state"]
    if data.draw(st.booleans()):
        candidate = data.draw(json_values)
    else:
        candidate = replaced(
            state, data.draw(st.sampled_from(paths(state))), data.draw(json_values)
        )
    try:
        s = p.state_from_json(candidate)
    except PuzzleFormatError:
        return
    assert p.state_from_json(p.state_to_json(s)) == s
    p.render_text(s)


moves_like = st.one_of(
    json_values,
    st.lists(
        st.sampled_from(["place", "remove", "up", 0, 1, 2, True, [], None, -1]),
        min_size=2,
        max_size=5,
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OWN), moves_like)
def test_any_move_is_a_move_or_refused(type_name, value):
    p = puzzles.generate(type_name, "easy", 3)
    try:
        m = p.move_from_json(value)
    except PuzzleFormatError:
        return
    assert not any(isinstance(v, bool) for v in m)  # integers are integers
    with contextlib.suppress(puzzles.IllegalMove):
        p.apply(p.initial(), m)
