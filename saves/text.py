"""Text from a file, made safe to print: the one rule every screen and command applies to what
a save, run file or challenge holds before it reaches the terminal. Imports nothing heavy, so
the title and the world list can use it without loading the engine.

A terminal reads some characters as commands, not as letters: ESC and the C1 controls start
escape sequences (an OSC 52 sequence writes the clipboard, OSC 0 the window title), the other
C0 controls move the cursor or ring the bell, and the bidirectional overrides (U+202A–202E,
U+2066–2069) reorder what follows so a line reads other than it is. :func:`printable` writes
every such character as a visible escape (``\\x1b``, ``\\u202e``), so a stranger's text prints
as it reads and can neither drive the terminal nor disguise itself. It does not stop markup:
screens show file text as plain text (rich ``Text``, ``markup=False``), never as markup.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories that are never drawn as themselves: controls (C0, DEL, C1), format
#: characters (the bidi overrides and isolates, zero-width joiners, the BOM), lone surrogates
#: (which no terminal encoding can write), and the line and paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def hidden(ch: str) -> bool:
    """Whether the character ``ch`` would act on the terminal or the layout instead of
    showing as a glyph (see :data:`HIDDEN_CATEGORIES`)."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES


def printable(text: str) -> str:
    """``text`` with every hidden character (see :func:`hidden`) written as a visible escape
    (``\\xNN`` below U+0100, ``\\uNNNN`` below U+10000, ``\\UNNNNNNNN`` above), so that it
    prints as it reads. Printable text comes back unchanged, so twice is the same as once."""
    if text.isprintable():  # the common case, at C speed: no hidden character is printable
        return text
    out = []
    for ch in text:
        if hidden(ch):
            code = ord(ch)
            if code < 0x100:
                out.append(f"\\x{code:02x}")
            else:
                out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)
