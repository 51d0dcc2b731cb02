"""A stranger's world played in a real pseudo-terminal: every byte the game writes is read,
and none of the escape sequences its texts carry reaches the terminal, while their visible
placeholders do.

The world is imported from a file whose message log and cause carry OSC 52 (write the
clipboard), OSC 0 (set the window title), CSI and 8-bit C1 sequences, and whose name is markup.
``roguelike --save-dir DIR`` runs on the pty's slave side (100x30, TERM=xterm-256color); the
test presses Continue, moves, saves and quits (``S``), then quits the game (Ctrl+Q), and
reads the master side throughout. The waits are bounds against a hang, never assertions of
speed."""

from __future__ import annotations

import os
import re
import select
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from saves import Store
from tests.fuzz.support import hostile_save

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX"),
    pytest.mark.slow,  # a real game in a pseudo-terminal, waited on in real time
]

ROOT = Path(__file__).resolve().parents[2]
NAME = "[bold]Hostile[/] world"
#: What must never reach the terminal: the sequences themselves, in 7-bit and 8-bit forms
#: (a C1 character reaches a UTF-8 terminal as 0xC2 and the control byte).
FORBIDDEN = (b"\x1b]52;", b"\x1b]0;pwned", b"]0;pwned\x07", b"\xc2\x9b31m", b"\xc2\x9d0;pwned")
#: A style or cursor move (CSI … letter): what lies between the letters of a drawn line.
CSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
#: The same sequences as the player sees them: visible escapes.
PLACEHOLDER = b"\\x1b]52;c;SGVsbG8=\\x07"


class Terminal:
    """The master side of a pty running ``roguelike``: everything it wrote, and keys to send."""

    def __init__(self, save_dir: Path) -> None:
        import fcntl
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLUMNS": "100",
            "LINES": "30",
            "PYTHONPATH": str(ROOT),
            "ROGUELIKE_SAVE_DIR": str(save_dir),
        }
        env.pop("TEXTUAL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "roguelike.cli", "--save-dir", str(save_dir)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.output = bytearray()

    def read(self, seconds: float) -> None:
        """Read what the game writes for up to ``seconds``."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the slave side closed: the game ended
                    return
                if not chunk:
                    return
                self.output += chunk

    def wait_for(self, text: bytes, since: int = 0, bound: float = 90.0) -> bool:
        """Read until ``text`` shows in what was written from byte ``since`` on, styles and
        cursor moves aside (True), or ``bound`` seconds passed (False)."""
        start = since
        end = time.monotonic() + bound
        while time.monotonic() < end and self.proc.poll() is None:
            self.read(0.5)
            if text in CSI.sub(b"", bytes(self.output[start:])):
                return True
        return text in CSI.sub(b"", bytes(self.output[start:]))

    def press(self, keys: bytes, settle: float = 0.5) -> None:
        for key in keys:
            os.write(self.master, bytes([key]))
            self.read(settle)

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        os.close(self.master)


def test_a_hostile_world_played_in_a_terminal_writes_no_escape_sequence_of_its_own(tmp_path):
    source = tmp_path / "hostile.rgl"
    source.write_bytes(hostile_save(name=NAME))
    saves = tmp_path / "saves"
    Store(saves).import_file(source)
    term = Terminal(saves)
    try:
        assert term.wait_for(b"Continue: [bold]Hostile"), bytes(term.output[-2000:])
        term.read(1.0)
        term.press(b"c")  # Continue: the hostile world
        assert term.wait_for(b"SGVsbG8="), bytes(term.output[-3000:])
        term.press(b"lljh")
        term.press(b"m")  # the message history: the whole log again
        term.read(1.0)
        term.press(b"\x1b", settle=1.5)  # back to the game (a lone ESC is read after a pause)
        mark = len(term.output)
        term.press(b"S")  # save and quit, to the title
        assert term.wait_for(b"Continue: [bold]Hostile", mark), bytes(term.output[-2000:])
        term.press(b"\x11")  # Ctrl+Q
        term.read(3.0)
    finally:
        term.close()
    written = bytes(term.output)
    for sequence in FORBIDDEN:
        assert sequence not in written, (sequence, written[written.find(sequence) - 200 :][:400])
    assert PLACEHOLDER in CSI.sub(b"", written)
    assert b"[bold]Hostile[/] world" in CSI.sub(b"", written)  # the name, as it is
