"""Drawing a printed form in millimetres: a greyscale Pillow canvas at 600 dpi with rules, boxes
and text in DejaVu Sans (``fonts-dejavu-core``), made into a PNG for WeasyPrint to embed.

The score sheets' layout (:mod:`tournament.printing.score_sheet_layout`) draws with it."""

from __future__ import annotations

import io
import subprocess
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

DPI = 600


MM_PER_PT = 25.4 / 72


INK = 0x15


MUTED = 0x5B


RULE = 0x8D


WASH = 0xEC


PAPER = 0xFF


THIN = 0.2


THICK = 0.5


#: Where DejaVu lives when fontconfig's fc-match is not there to say.
FONT_FOLDERS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu-sans-fonts",
                "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu")


class FontMissing(RuntimeError):
    """DejaVu Sans is not installed (Debian: apt install fonts-dejavu-core)."""


@cache
def font_file(*, bold: bool = False) -> str:
    """The file of DejaVu Sans (bold): the font of every printed page."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        found = subprocess.run(
            ["fc-match", "--format=%{file}", "DejaVu Sans:bold" if bold else "DejaVu Sans:book"],
            check=False, capture_output=True, text=True, timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        found = ""
    if found.endswith(name):
        return found
    for folder in FONT_FOLDERS:
        if (Path(folder) / name).is_file():
            return str(Path(folder) / name)
    raise FontMissing(f"{name} not found: install DejaVu Sans (Debian: fonts-dejavu-core)")


@cache
def _font(pixels: int, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_file(bold=bold), pixels)


class Drawing:
    """A greyscale picture measured in millimetres, drawn by Pillow at :data:`DPI`."""

    def __init__(self, width: float, height: float):
        self.scale = DPI / 25.4
        self.image = Image.new("L", (self.px(width), self.px(height)), PAPER)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, mm: float) -> int:
        return round(mm * self.scale)

    def font(self, size: float, bold: bool) -> ImageFont.FreeTypeFont:
        return _font(self.px(size), bold)

    def rect(self, x: float, y: float, width: float, height: float, *, fill: int | None = None,
             outline: int | None = None, line: float = THIN, radius: float = 0) -> None:
        box = (self.px(x), self.px(y), self.px(x + width) - 1, self.px(y + height) - 1)
        stroke = max(1, self.px(line)) if outline is not None else 0
        if radius:
            self.draw.rounded_rectangle(box, self.px(radius), fill=fill, outline=outline,
                                        width=stroke)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=stroke)

    def hline(self, y: float, x1: float, x2: float, *, line: float = THIN, colour: int = RULE):
        half = self.px(line) / 2
        top = round(self.px(y) - half)
        self.draw.rectangle((round(self.px(x1) - half), top, round(self.px(x2) + half),
                             top + max(1, self.px(line)) - 1), fill=colour)

    def vline(self, x: float, y1: float, y2: float, *, line: float = THIN, colour: int = RULE):
        half = self.px(line) / 2
        left = round(self.px(x) - half)
        self.draw.rectangle((left, round(self.px(y1) - half), left + max(1, self.px(line)) - 1,
                             round(self.px(y2) + half)), fill=colour)

    def text(self, x: float, y: float, text: str, *, size: float, anchor: str = "mm",
             colour: int = MUTED, bold: bool = False) -> None:
        """``text`` at (x, y), ``size`` in mm; ``anchor`` as Pillow's ("mm": centred)."""
        self.draw.text((self.px(x), self.px(y)), text, font=self.font(size, bold), fill=colour,
                       anchor=anchor)

    def paragraph(self, x: float, y: float, width: float, runs: list[tuple[str, bool]], *,
                  size: float, line_height: float, colour: int = MUTED,
                  bold_colour: int = INK) -> None:
        """Runs of (text, bold) wrapped to ``width``, the first baseline at ``y``."""
        for line, words in enumerate(wrap(runs, width=width, size=size)):
            for left, word, bold in words:
                self.text(x + left, y + line * line_height, word, size=size, anchor="ls",
                          colour=bold_colour if bold else colour, bold=bold)

    def png(self) -> bytes:
        buffer = io.BytesIO()
        self.image.save(buffer, "PNG", dpi=(DPI, DPI), compress_level=6)
        return buffer.getvalue()


def wrap(runs: list[tuple[str, bool]], *, width: float, size: float
         ) -> list[list[tuple[float, str, bool]]]:
    """Runs of (text, bold) cut into lines of at most ``width`` mm: (x, word, bold) each."""
    scale = DPI / 25.4
    space = _font(round(size * scale), False).getlength(" ") / scale
    lines: list[list[tuple[float, str, bool]]] = [[]]
    cursor = 0.0
    for text, bold in runs:
        for word in text.split():
            length = _font(round(size * scale), bold).getlength(word) / scale
            if cursor > 0 and cursor + length > width:
                lines.append([])
                cursor = 0.0
            lines[-1].append((cursor, word, bold))
            cursor += length + space
    return lines
