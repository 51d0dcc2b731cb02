"""Byte-level fuzzing of the three readers of a stranger's file, in-process: whatever the
bytes, :func:`saves.header.read` and :func:`saves.codec.decode` give a result or raise a
:class:`~saves.errors.SaveError`, and :func:`saves.record.unpack` a record or a
:class:`~saves.record.RunFileError`, with a one-line printable message; never another exception.

Inputs are any bytes, and the real files with bytes flipped, cut out or spliced in (the
mutants most likely to get past the first checks). ``ROGUELIKE_FUZZ_EXAMPLES`` sets how many
examples each property draws (the long run: 2000)."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from saves import header as h
from saves import record as run_file
from saves.codec import decode
from saves.errors import SaveError
from tests.fuzz.support import raw_controls, real_run, real_save

EXAMPLES = int(os.environ.get("ROGUELIKE_FUZZ_EXAMPLES", "0") or 0) or 150


@st.composite
def mutated(draw, source):
    """``source()`` with a few bytes flipped, a stretch cut out, or random bytes spliced in."""
    data = bytearray(source())
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "splice"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
    return bytes(data)


def _one_line(err: Exception) -> None:
    message = str(err)
    assert message and "\n" not in message, repr(message)
    assert raw_controls(message) == [], repr(message)


def read_any(data: bytes) -> None:
    try:
        h.read(data)
    except SaveError as err:
        _one_line(err)
    try:
        decode(data)
    except SaveError as err:
        _one_line(err)


def unpack_any(data: bytes) -> None:
    try:
        run_file.unpack(data)
    except run_file.RunFileError as err:
        _one_line(err)


@settings(max_examples=EXAMPLES)
@given(st.binary(max_size=4096))
def test_any_bytes_are_a_save_or_a_one_line_refusal(data):
    read_any(data)
    read_any(h.MAGIC + data)


@settings(max_examples=EXAMPLES)
@given(mutated(real_save))
def test_a_mutated_save_is_a_save_or_a_one_line_refusal(data):
    read_any(data)


@settings(max_examples=EXAMPLES)
@given(st.binary(max_size=4096))
def test_any_bytes_are_a_run_file_or_a_one_line_refusal(data):
    unpack_any(data)
    unpack_any(run_file.MAGIC + data)


@settings(max_examples=EXAMPLES)
@given(mutated(real_run))
def test_a_mutated_run_file_is_a_run_or_a_one_line_refusal(data):
    unpack_any(data)
