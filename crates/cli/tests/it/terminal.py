"""Drives a program in a pseudo-terminal, as a person at a terminal would, and reads its screen.

    python3 terminal.py COLSxROWS KEYS PROGRAM ARGS...

KEYS is a comma-separated list: each item is the hex of bytes to type, or `resize:COLSxROWS`.
After the start and after each item, the script waits until the program has been quiet for a
moment, then takes a picture of the screen. It prints JSON: the screens (one per moment, the
alternate screen while it is in use), the final main screen, and the program's exit status
(-9 when it was still running 30 seconds after the last key, and was killed).

The screen is a small terminal emulator: enough of VT100/xterm for what ratatui and crossterm
write (cursor moves, clears, the alternate screen; colours and modes are ignored).
"""

import codecs
import fcntl
import json
import os
import pty
import re
import select
import struct
import sys
import termios
import time

CSI = re.compile(r"\x1b\[([?0-9;]*)([@-~])")
OTHER_ESCAPE = re.compile(r"\x1b[()#][0-9A-Za-z]|\x1b[=>78DEHMc]")


class Screen:
    def __init__(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.main = self.blank()
        self.alt = None
        self.x = self.y = 0
        self.saved = (0, 0)
        self.pending = ""

    def blank(self):
        return [[" "] * self.cols for _ in range(self.rows)]

    def grid(self):
        return self.alt if self.alt is not None else self.main

    def resize(self, cols, rows):
        def fit(grid):
            grid = [(row + [" "] * cols)[:cols] for row in grid[:rows]]
            return grid + [[" "] * cols for _ in range(rows - len(grid))]

        self.cols, self.rows = cols, rows
        self.main = fit(self.main)
        if self.alt is not None:
            self.alt = fit(self.alt)

    def text(self, grid=None):
        return "\n".join("".join(row).rstrip() for row in (grid or self.grid()))

    def feed(self, text):
        text = self.pending + text
        self.pending = ""
        i = 0
        while i < len(text):
            c = text[i]
            if c == "\x1b":
                m = CSI.match(text, i) or OTHER_ESCAPE.match(text, i)
                if not m:
                    if len(text) - i < 16:
                        self.pending = text[i:]  # the rest of it comes with the next read
                        return
                    i += 1
                    continue
                i = m.end()
                if m.re is CSI:
                    self.control(m.group(1), m.group(2))
                continue
            if c == "\r":
                self.x = 0
            elif c == "\n":
                self.line_feed()
            elif c == "\b":
                self.x = max(self.x - 1, 0)
            elif c >= " ":
                if self.x >= self.cols:  # a wrap, deferred until the next character as in xterm
                    self.x = 0
                    self.line_feed()
                if 0 <= self.y < self.rows:
                    self.grid()[self.y][self.x] = c
                self.x += 1
            i += 1

    def line_feed(self):
        if self.y + 1 < self.rows:
            self.y += 1
        else:
            grid = self.grid()
            del grid[0]
            grid.append([" "] * self.cols)

    def control(self, params, command):
        private = params.startswith("?")
        numbers = [int(n) if n else 0 for n in params.lstrip("?").split(";")] if params.lstrip("?") else []
        first = numbers[0] if numbers else 0
        grid = self.grid()
        if command == "H" or command == "f":
            self.y = max(first, 1) - 1
            self.x = max(numbers[1] if len(numbers) > 1 else 1, 1) - 1
        elif command == "J" and first in (2, 3):
            grid[:] = self.blank()
        elif command == "J" and first == 0 and 0 <= self.y < self.rows:
            grid[self.y][self.x:] = [" "] * (self.cols - self.x)
            for row in range(self.y + 1, self.rows):
                grid[row] = [" "] * self.cols
        elif command == "K" and 0 <= self.y < self.rows:
            grid[self.y][self.x:] = [" "] * max(self.cols - self.x, 0)
        elif command == "C":
            self.x += max(first, 1)
        elif command == "D":
            self.x = max(self.x - max(first, 1), 0)
        elif command in "hl" and private and 1049 in numbers:
            if command == "h":
                self.saved = (self.x, self.y)
                self.alt = self.blank()
            else:
                self.alt = None
                self.x, self.y = self.saved


def main():
    cols, rows = (int(n) for n in sys.argv[1].split("x"))
    keys = [key for key in sys.argv[2].split(",") if key]
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execv(sys.argv[3], sys.argv[3:])
    screen = Screen(cols, rows)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    screens = []

    def settle(quiet, longest):
        """Reads until the program has been quiet for `quiet` seconds; False once it has ended."""
        end = time.time() + longest
        last = time.time()
        while time.time() < end and time.time() - last < quiet:
            if select.select([fd], [], [], 0.02)[0]:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                screen.feed(decoder.decode(data))
                last = time.time()
        return True

    running = settle(0.6, 30)
    screens.append(screen.text())
    for key in keys:
        if not running:
            break
        if key.startswith("resize:"):
            cols, rows = (int(n) for n in key[len("resize:"):].split("x"))
            screen.resize(cols, rows)
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        else:
            os.write(fd, bytes.fromhex(key))
        running = settle(0.3, 20)
        screens.append(screen.text())
    # The end: the program should exit by itself after the last key; one that does not within
    # 30 seconds is killed (and its status says so) rather than hanging the test.
    end = time.time() + 30
    while settle(0.5, 1) and time.time() < end:
        pass
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:
        os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    print(json.dumps({"screens": screens, "main": screen.text(screen.main), "status": os.waitstatus_to_exitcode(status)}))


if __name__ == "__main__":
    main()
