"""Field of view: Albert Ford's *symmetric shadowcasting*.

The map is cut into four quadrants (north, east, south, west) and each is scanned row by row
outwards from the viewer, narrowing the visible slope range wherever a wall starts or ends a
shadow. A floor cell is revealed only when its *centre* lies inside the range (the
"symmetric" test), which makes sight symmetric: if a transparent cell A sees a transparent
cell B, then B sees A. Walls (opaque cells) are revealed as soon as any part of them lies
inside the range, so room outlines look whole.

All arithmetic is on integers: a slope is the fraction ``num / den`` with ``den > 0`` and
every comparison is made by cross-multiplying, so no float can tip differently on another CPU:
one seed shows every player the same view.

Cells outside the array count as opaque and are never revealed. With a ``radius``, only
cells within that Euclidean distance (``dx² + dy² <= radius²``, again in integers) are
revealed, which keeps the result symmetric.
"""

from __future__ import annotations

import numpy as np

# (row, col) in a quadrant → (dx, dy) on the map, for north, south, east, west
_QUADRANTS: tuple[tuple[int, int, int, int], ...] = (
    # dx = a*col + b*row, dy = c*col + d*row
    (1, 0, 0, -1),  # north: x + col, y - row
    (1, 0, 0, 1),  # south: x + col, y + row
    (0, 1, 1, 0),  # east: x + row, y + col
    (0, -1, 1, 0),  # west: x - row, y + col
)


def compute_fov(
    transparent: np.ndarray, origin: tuple[int, int], radius: int | None = None
) -> np.ndarray:
    """The cells seen from ``origin`` (``(x, y)``) over the boolean mask ``transparent``
    (shape ``(height, width)``, True where sight passes). Returns a boolean array of the same
    shape; the origin itself is always visible."""
    h, w = transparent.shape
    visible = np.zeros((h, w), dtype=bool)
    ox, oy = origin
    if not (0 <= ox < w and 0 <= oy < h):
        raise ValueError(f"origin {origin} is outside the {w}×{h} map")
    visible[oy, ox] = True
    max_depth = max(h, w) if radius is None else min(radius, max(h, w))
    r2 = None if radius is None else radius * radius
    # plain Python lists index much faster than numpy scalars in this inner loop
    clear = transparent.tolist()

    for a, b, c, d in _QUADRANTS:
        # rows to scan: (depth, start num, start den, end num, end den)
        stack: list[tuple[int, int, int, int, int]] = [(1, -1, 1, 1, 1)]
        while stack:
            depth, sn, sd, en, ed = stack.pop()
            if depth > max_depth:
                continue
            # round_ties_up(depth * start) and round_ties_down(depth * end)
            min_col = (2 * depth * sn + sd) // (2 * sd)
            max_col = -((-(2 * depth * en - ed)) // (2 * ed))
            prev_opaque: bool | None = None  # None: no previous cell in this row
            for col in range(min_col, max_col + 1):
                x = ox + a * col + b * depth
                y = oy + c * col + d * depth
                inside = 0 <= x < w and 0 <= y < h
                opaque = not inside or not clear[y][x]
                symmetric = col * sd >= depth * sn and col * ed <= depth * en
                if (
                    inside
                    and (opaque or symmetric)
                    and (r2 is None or col * col + depth * depth <= r2)
                ):
                    visible[y, x] = True
                if prev_opaque is True and not opaque:
                    # a shadow ends: this row's range starts at this cell's left edge
                    sn, sd = 2 * col - 1, 2 * depth
                if prev_opaque is False and opaque:
                    # a shadow starts: the next row ends at this cell's left edge
                    stack.append((depth + 1, sn, sd, 2 * col - 1, 2 * depth))
                prev_opaque = opaque
            if prev_opaque is False:
                stack.append((depth + 1, sn, sd, en, ed))
    return visible
