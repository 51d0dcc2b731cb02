"""Shared puzzles of the puzzle and puzzle-screen tests."""

from typing import Any

from roguelike import puzzles


def stuck_jugs() -> Any:
    """Jugs of 6 and 4 litres, 6 in the first, 1 litre wanted: never reachable."""
    return puzzles.from_json(
        {
            "format": 1,
            "type": "jugs",
            "difficulty": "easy",
            "par": 1,
            "config": {"capacities": [6, 4], "target": {"kind": "any", "amount": 1}},
            "state": [6, 0],
        }
    )


def doc(type_name: str, config: dict[str, Any], state: Any = None, par: int = 0) -> dict:
    """A hand-written puzzle document of ``type_name`` (easy, ``par`` as given, unchecked)."""
    d: dict[str, Any] = {
        "format": 1,
        "type": type_name,
        "difficulty": "easy",
        "par": par,
        "config": config,
    }
    if state is not None:
        d["state"] = state
    return d


#: A custom 3×4 ball board: the ball in the top left, a small block on the target (the top right),
#: a blocked cell under the ball; the block goes down twice, then the ball right twice (par 4).
CUSTOM_BALL = doc(
    "ball",
    {"rows": 3, "cols": 4, "target": [0, 2], "blocked": [[2, 0]]},
    {"ball": [[0, 0]], "1x1": [[0, 2]]},
    par=4,
)
