"""Text from a file, made safe to print: the one rule every screen and command applies to what
a save, run file or challenge holds before it reaches the terminal. Imports nothing heavy, so
the title and the world list can use it without loading the engine."""

from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1, and the line and paragraph
    separators) written as a visible escape, so that it prints as it reads."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x20 or 0x7F <= code < 0xA0 or code in (0x2028, 0x2029):
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)
