"""Reading a decoded JSON document field by field, each check raising :class:`SaveError`
with the field's path (``state.monsters[3].hp: …``) in one line.

Arrays travel as ``{"dtype": "<i2", "shape": [h, w], "data": base64}``: the dtype string is
numpy's, always with an explicit byte order (``<`` little-endian, ``|`` for single bytes), and
``data`` is the base64 of the raw C-order bytes.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import numpy as np

from roguelike.presets import DEFAULT_DIFFICULTY, DIFFICULTY_NAMES
from saves.errors import SaveError

#: The dtypes saves use, by numpy's name → the string written (explicit byte order).
UINT8 = "|u1"
INT16 = "<i2"
BOOL = "|b1"
_NATIVE: dict[str, np.dtype[Any]] = {
    UINT8: np.dtype(np.uint8),
    INT16: np.dtype(np.int16),
    BOOL: np.dtype(np.bool_),
}
#: Largest map side and cell count a save may hold (generated floors are a few hundred wide).
MAX_SIDE = 4096
MAX_CELLS = 4_000_000


def show(value: Any) -> str:
    """A short picture of a value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SaveError(f"{where}: expected an object, got {show(value)}")
    return value


def get(parent: dict[str, Any], key: str, where: str) -> Any:
    if key not in parent:
        raise SaveError(f"{where}.{key} is missing")
    return parent[key]


def difficulty(parent: dict[str, Any], where: str) -> str:
    """A record's difficulty, one of the game's levels; a record written before difficulties
    existed has none and is read as the default (``normal``)."""
    value = parent.get("difficulty", DEFAULT_DIFFICULTY)
    return text(value, f"{where}.difficulty", 20, choices=DIFFICULTY_NAMES)


def integer(value: Any, where: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SaveError(f"{where}: expected a whole number, got {show(value)}")
    if not lo <= value <= hi:
        raise SaveError(f"{where}: {value} is outside {lo}..{hi}")
    return value


def optional_int(value: Any, where: str, lo: int, hi: int) -> int | None:
    return None if value is None else integer(value, where, lo, hi)


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SaveError(f"{where}: expected true or false, got {show(value)}")
    return value


def text(value: Any, where: str, max_len: int = 200, *, choices: Any = None) -> str:
    if not isinstance(value, str):
        raise SaveError(f"{where}: expected text, got {show(value)}")
    if len(value) > max_len:
        raise SaveError(f"{where}: text longer than {max_len} characters")
    if choices is not None and value not in choices:
        raise SaveError(f"{where}: {show(value)} is not one of {', '.join(sorted(choices))}")
    return value


def optional_text(value: Any, where: str, max_len: int = 200) -> str | None:
    return None if value is None else text(value, where, max_len)


def array_list(value: Any, where: str, max_len: int) -> list[Any]:
    if not isinstance(value, list):
        raise SaveError(f"{where}: expected a list, got {show(value)}")
    if len(value) > max_len:
        raise SaveError(f"{where}: more than {max_len} entries")
    return value


def pair(value: Any, where: str, lo: int, hi: int) -> tuple[int, int]:
    items = array_list(value, where, 2)
    if len(items) != 2:
        raise SaveError(f"{where}: expected two numbers, got {show(value)}")
    return integer(items[0], f"{where}[0]", lo, hi), integer(items[1], f"{where}[1]", lo, hi)


def cell(value: Any, where: str, width: int, height: int) -> tuple[int, int]:
    """An ``[x, y]`` inside a map of ``width`` × ``height``."""
    items = array_list(value, where, 2)
    if len(items) != 2:
        raise SaveError(f"{where}: expected [x, y], got {show(value)}")
    x = integer(items[0], f"{where}.x", 0, width - 1)
    y = integer(items[1], f"{where}.y", 0, height - 1)
    return x, y


def encode_array(arr: np.ndarray, dtype: str) -> dict[str, Any]:
    """``arr`` as a JSON object: dtype (explicit byte order), shape, base64 of its bytes."""
    data = np.ascontiguousarray(arr, dtype=np.dtype(dtype))
    return {
        "dtype": dtype,
        "shape": list(data.shape),
        "data": base64.b64encode(data.tobytes()).decode("ascii"),
    }


def decode_array(
    value: Any, where: str, dtype: str, shape: tuple[int, int] | None = None
) -> np.ndarray:
    """A 2-D array of ``dtype`` (and ``shape``, when given) from :func:`encode_array`'s
    object; a fresh, writable array in native byte order."""
    o = obj(value, where)
    got = text(get(o, "dtype", where), f"{where}.dtype", 8)
    if got != dtype:
        raise SaveError(f"{where}: dtype {show(got)}, expected {dtype!r}")
    dims = array_list(get(o, "shape", where), f"{where}.shape", 2)
    if len(dims) != 2:
        raise SaveError(f"{where}: expected a 2-D shape, got {show(dims)}")
    h = integer(dims[0], f"{where}.shape[0]", 1, MAX_SIDE)
    w = integer(dims[1], f"{where}.shape[1]", 1, MAX_SIDE)
    if h * w > MAX_CELLS:
        raise SaveError(f"{where}: {h}x{w} cells is more than {MAX_CELLS}")
    if shape is not None and (h, w) != shape:
        raise SaveError(f"{where}: shape {h}x{w}, expected {shape[0]}x{shape[1]}")
    data = text(get(o, "data", where), f"{where}.data", 4 * (MAX_CELLS * 2 // 3 + 3))
    try:
        raw = base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise SaveError(f"{where}.data is not base64") from None
    kind = np.dtype(dtype)
    if len(raw) != h * w * kind.itemsize:
        raise SaveError(
            f"{where}: {len(raw)} bytes of data for {h}x{w} cells of {dtype} "
            f"({h * w * kind.itemsize} expected)"
        )
    if dtype == BOOL and raw and int(np.frombuffer(raw, dtype=np.uint8).max()) > 1:
        raise SaveError(f"{where}: a true/false array holds a byte other than 0 and 1")
    arr = np.frombuffer(bytearray(raw), dtype=kind).reshape(h, w)
    return arr.astype(_NATIVE[dtype], copy=False)
