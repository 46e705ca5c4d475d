"""The blank score sheet as a printed form: everything that is the same on every table's page.

A score sheet is a form: rules, boxes, column labels, the end-of-round box, the signature boxes
and the legend are the same on every page of a session; only the table, the players' names and
the QR code change. So the form is drawn once (Pillow, greyscale PNG at 600 dpi) and every
page shows the same image, which WeasyPrint embeds once; the few words that change are laid
over it as HTML. Laid out as HTML tables (or drawn as SVG), the same page cost WeasyPrint a
tenth of a second or more, every cell and every label again on every page: a 64-table session
took over a minute as tables and about 20 s as SVG (``python manage.py bench_printing``).

Everything is measured in millimetres from the top left corner of the page's content box (the
A4 page inside its margins). The places of the words laid over the form come from here too
(:meth:`ScoreSheetLayout.overlay_css`), so the picture and the words cannot drift apart.

The grid holds one row per tour of the table: a narrow column of turn numbers, then one group
of five columns per player in seat order, the order of play: tile, draws (a box per tile
drawn, and one for the penalty of a turn ending without a placement), bonus (bridge, two
sides, hexagons), the turn's points and the running total.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from functools import cache

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from tournament.matches.sheet_codes import bonus_codes_text, box_marks
from tournament.printing.drawing import (
    INK,
    MM_PER_PT,
    MUTED,
    PAPER,
    RULE,
    THICK,
    THIN,
    WASH,
    Drawing,
    wrap,
)

#: The content box of an A4 page inside print.css's margins (10 mm, 10 mm, 13 mm, 10 mm).
PORTRAIT_SIZE = (190.0, 274.0)
LANDSCAPE_SIZE = (277.0, 187.0)

HEADER = 22.0
HEADER_RULE = 23.0
NAMES_TOP = 25.5
NAMES_ROW = 9.5
TURN_COLUMN = 6.0
#: Shares of a player's group: tile, draws, bonus, points, running total.
PLAYER_COLUMNS = (0.18, 0.25, 0.22, 0.17, 0.18)
LABEL_ROW = 7.0
CARRIED_ROW = 6.0
ROW = 6.8
BOX = 2.1
#: The hexagon box takes a number (1 to 3), not a tick.
HEXAGON_BOX = 4.0
BOX_GAP = 0.45
#: The extra space before the last draw box (the penalty for a turn without a placement).
PENALTY_BOX_GAP = 0.45
GAP = 3.0
SETTLEMENT_LABEL_COLUMN = 46.0
SETTLEMENT_HEADER = 6.0
#: Landscape pages (tables of 5 and 6) are short: their end-of-round box and signature boxes
#: are lower, to leave room for turns.
SETTLEMENT_ROW = {False: 6.4, True: 5.6}
SETTLEMENT_TOTAL_ROW = 7.6
SIGNATURES = {False: 15.0, True: 12.0}
LEGEND_SIZE = 6.4 * MM_PER_PT
LEGEND_LINE = 3.0

QR = 20.0
ID_BOX_HEIGHT = 18.5
ID_BOX_LABEL = 4.0
SMALL_ID_BOX = 16.0
TABLE_ID_BOX = 25.0


def boxes_in(left: float, right: float, widths: tuple[float, ...]) -> list[float]:
    """The x of boxes of ``widths`` side by side, centred between ``left`` and ``right``."""
    span = sum(widths) + (len(widths) - 1) * BOX_GAP
    x = (left + right - span) / 2
    xs = []
    for width in widths:
        xs.append(x)
        x += width + BOX_GAP
    return xs


def box_xs(left: float, right: float, count: int, *, extra_gap: float = 0.0) -> list[float]:
    """The x of ``count`` tick boxes centred between ``left`` and ``right``; ``extra_gap``
    sets the last one apart."""
    span = count * BOX + (count - 1) * BOX_GAP + extra_gap
    start = (left + right - span) / 2
    xs = [start + i * (BOX + BOX_GAP) for i in range(count)]
    if extra_gap:
        xs[-1] += extra_gap
    return xs


@dataclass(frozen=True)
class SheetRules:
    """The rule numbers a blank sheet prints (from the tournament's engine RuleSet)."""

    max_draws: int
    draw_penalty: int
    failed_draws_penalty: int
    bridge_bonus: int
    two_sides_bonus: int | None
    hexagon_bonuses: tuple[int, int, int]
    going_out_bonus: int
    opening_bonus: int
    zero_triple_opening_bonus: int

    @classmethod
    def of(cls, rules) -> SheetRules:
        return cls(**{name: getattr(rules, name) for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class ScoreSheetLayout:
    """The form of a blank score sheet for a table of ``players`` (portrait up to 4)."""

    players: int
    rules: SheetRules

    PORTRAIT_MAX_PLAYERS = 4

    @property
    def landscape(self) -> bool:
        return self.players > self.PORTRAIT_MAX_PLAYERS

    @property
    def key(self) -> str:
        """Names the form in CSS classes."""
        return f"players-{self.players}"

    @property
    def size(self) -> tuple[float, float]:
        return LANDSCAPE_SIZE if self.landscape else PORTRAIT_SIZE

    @property
    def width(self) -> float:
        return self.size[0]

    @property
    def height(self) -> float:
        return self.size[1]

    # Layout, top to bottom.

    @property
    def grid_top(self) -> float:
        return NAMES_TOP + NAMES_ROW

    def legend_runs(self) -> list[tuple[str, bool]]:
        """The legend, in the active language: runs of (text, bold)."""
        rules = self.rules
        runs = [
            (pgettext("score sheet legend", "Draws:"), True),
            (_("tick a box per tile drawn (−%(penalty)s each), and the last box when the turn "
               "ends without a placement after %(draws)s draws (−%(failed)s more).")
             % {"penalty": rules.draw_penalty, "draws": rules.max_draws,
                "failed": rules.failed_draws_penalty}, False),
            (pgettext("score sheet legend", "Bonus:"), True),
        ]
        numbers = {"bridge": rules.bridge_bonus, "two_sides": rules.two_sides_bonus,
                   "one": rules.hexagon_bonuses[0], "two": rules.hexagon_bonuses[1],
                   "three": rules.hexagon_bonuses[2]}
        if rules.two_sides_bonus is None:  # the Travel Tour sheet: no two-sides bonus
            runs.append(
                (_("tick B for a bridge (+%(bridge)s); two sides earn nothing; for hexagons "
                   "write in H how many the tile closed: 1 (+%(one)s), 2 (+%(two)s), "
                   "3 (+%(three)s).") % numbers, False))
        else:
            runs.append(
                (_("tick B for a bridge (+%(bridge)s), T for two sides (+%(two_sides)s); for "
                   "hexagons write in H how many the tile closed: 1 (+%(one)s), 2 (+%(two)s), "
                   "3 (+%(three)s).") % numbers, False))
        if rules.opening_bonus:
            runs += [
                (pgettext("score sheet legend", "Opening:"), True),
                (_("the highest triple, its value +%(bonus)s (0-0-0: %(zero)s).")
                 % {"bonus": rules.opening_bonus, "zero": rules.zero_triple_opening_bonus},
                 False),
            ]
        runs += [
            (pgettext("score sheet legend", "Sheet mode:"), True),
            (_("type the bonus as %(codes)s.") % {"codes": bonus_codes_text()}, False),
            (pgettext("score sheet legend", "B/f:"), True),
            (_("the match total of the previous rounds. Pts: the turn's points, draws taken "
               "off; Total: the running total, which the settlement closes."), False),
        ]
        return runs

    @property
    def legend_height(self) -> float:
        """As many lines as the legend takes in the active language."""
        lines = wrap(self.legend_runs(), width=self.width, size=LEGEND_SIZE)
        return len(lines) * LEGEND_LINE

    @property
    def rows(self) -> int:
        """Turn rows: as many as the page holds (22 portrait, 10 or 11 landscape)."""
        fixed = (self.grid_top + LABEL_ROW + CARRIED_ROW + GAP + self.settlement_height + GAP
                 + self.signatures_height + GAP + self.legend_height)
        return int((self.height - fixed) // ROW)

    @property
    def body_top(self) -> float:
        return self.grid_top + LABEL_ROW + CARRIED_ROW

    @property
    def grid_bottom(self) -> float:
        return self.body_top + self.rows * ROW

    @property
    def settlement_top(self) -> float:
        return self.grid_bottom + GAP

    @property
    def settlement_height(self) -> float:
        return SETTLEMENT_HEADER + 4 * self.settlement_row + SETTLEMENT_TOTAL_ROW

    @property
    def settlement_row(self) -> float:
        return SETTLEMENT_ROW[self.landscape]

    @property
    def signatures_height(self) -> float:
        return SIGNATURES[self.landscape]

    @property
    def signatures_top(self) -> float:
        return self.settlement_top + self.settlement_height + GAP

    @property
    def legend_top(self) -> float:
        return self.signatures_top + self.signatures_height + GAP

    # Columns.

    @property
    def group_width(self) -> float:
        return (self.width - TURN_COLUMN) / self.players

    def group_left(self, player: int) -> float:
        return TURN_COLUMN + player * self.group_width

    def column_edges(self, player: int) -> list[float]:
        """The x of each edge of a player's five columns (six edges)."""
        x = self.group_left(player)
        edges = [x]
        for share in PLAYER_COLUMNS:
            x += share * self.group_width
            edges.append(x)
        return edges

    def bonus_boxes(self, player: int) -> list[tuple[float, float]]:
        """(left, width) of a player's bonus boxes: bridge, two sides (ticks), hexagons (a
        number, so wider)."""
        edges = self.column_edges(player)
        widths = (BOX, BOX, HEXAGON_BOX)
        return list(zip(boxes_in(edges[2], edges[3], widths), widths))

    def signature_box(self, index: int) -> tuple[float, float]:
        """(left, width) of the signature box ``index`` (the players', then the referee's)."""
        count = self.players + 1
        width = (self.width - (count - 1) * 2.0) / count
        return index * (width + 2.0), width

    def id_boxes(self) -> dict[str, tuple[float, float]]:
        """(left, width) of the session, table and round boxes of the header."""
        round_left = self.width - QR - 3.0 - SMALL_ID_BOX
        table_left = round_left - 2.5 - TABLE_ID_BOX
        session_left = table_left - 2.5 - SMALL_ID_BOX
        return {
            "session": (session_left, SMALL_ID_BOX),
            "table": (table_left, TABLE_ID_BOX),
            "round": (round_left, SMALL_ID_BOX),
        }

    # The words laid over the form.

    def overlay_css(self) -> str:
        """CSS placing the page's words over this form (``.sheet-form--<key> ...``)."""
        scope = f".sheet-form--{self.key}"
        boxes = self.id_boxes()
        title_width = boxes["session"][0] - 4.0
        rules = [
            f"{scope} {{ width: {self.width:.2f}mm; height: {self.height:.2f}mm; }}",
            f"{scope} .sheet-title, {scope} .sheet-facts {{ width: {title_width:.2f}mm; }}",
        ]
        for name, (left, width) in boxes.items():
            rules.append(
                f"{scope} .sheet-id--{name} {{ left: {left:.2f}mm; width: {width:.2f}mm; "
                f"top: {ID_BOX_LABEL:.2f}mm; height: {ID_BOX_HEIGHT - ID_BOX_LABEL:.2f}mm; }}"
            )
        rules.append(f"{scope} .sheet-qr {{ left: {self.width - QR:.2f}mm; }}")
        for player in range(self.players):
            left = self.group_left(player)
            rules.append(
                f"{scope} .sheet-player--{player} {{ left: {left + 6.6:.2f}mm; "
                f"top: {NAMES_TOP + 1.0:.2f}mm; width: {self.group_width - 7.6:.2f}mm; }}"
            )
            sign_left, sign_width = self.signature_box(player)
            rules.append(
                f"{scope} .sheet-signer--{player} {{ left: {sign_left + 6.2:.2f}mm; "
                f"top: {self.signatures_top + 1.0:.2f}mm; width: {sign_width - 7.2:.2f}mm; }}"
            )
        return "\n".join(rules)

    # The picture.

    def png(self) -> bytes:
        """The form as a PNG, its words in the active language."""
        return _layout_png(self, get_language() or "")

    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png()).decode("ascii")

    def draw(self) -> Drawing:
        picture = Drawing(self.width, self.height)
        self._draw_header(picture)
        self._draw_names(picture)
        self._draw_grid(picture)
        self._draw_settlement(picture)
        self._draw_signatures(picture)
        self._draw_legend(picture)
        return picture

    def _draw_header(self, picture: Drawing) -> None:
        picture.text(0, 2.0, _("Score sheet").upper(), size=2.6, anchor="lm", colour=INK,
                     bold=True)
        labels = {
            "session": _("Session"),
            "table": pgettext("game table", "Table"),
            "round": _("Round"),
        }
        for name, (left, width) in self.id_boxes().items():
            line = 0.6 if name == "table" else 0.4
            picture.rect(left, 0, width, ID_BOX_HEIGHT, fill=PAPER, outline=INK, line=line,
                         radius=1.2)
            picture.rect(left, 0, width, ID_BOX_LABEL, fill=INK, radius=1.2)
            picture.rect(left, ID_BOX_LABEL - 1.2, width, 1.2, fill=INK)
            picture.text(left + width / 2, ID_BOX_LABEL / 2 + 0.1, labels[name].upper(),
                         size=2.1, colour=PAPER, bold=True)
        picture.text(self.width - QR / 2, QR + 1.1, _("the match online"), size=1.8)
        picture.hline(HEADER_RULE, 0, self.width, line=0.6, colour=INK)

    def _draw_names(self, picture: Drawing) -> None:
        top, bottom = NAMES_TOP, NAMES_TOP + NAMES_ROW
        picture.hline(top, TURN_COLUMN, self.width, line=THICK, colour=INK)
        for player in range(self.players):
            left = self.group_left(player)
            picture.vline(left, top, bottom, line=THICK, colour=INK)
            picture.rect(left + 1.2, top + 1.1, 4.4, 4.4, fill=INK, radius=0.6)
            picture.text(left + 3.4, top + 3.3, chr(ord("A") + player), size=3.0, colour=PAPER,
                         bold=True)
        picture.vline(self.width, top, bottom, line=THICK, colour=INK)

    def _draw_grid(self, picture: Drawing) -> None:
        rules = self.rules
        width = self.width
        top, body_top, bottom = self.grid_top, self.body_top, self.grid_bottom
        label_middle = top + LABEL_ROW / 2
        labels = [
            pgettext("score sheet column", "Tile"),
            pgettext("score sheet column", "Draws"),
            pgettext("score sheet column", "Bonus"),
            pgettext("score sheet column", "Pts"),
            pgettext("score sheet column", "Total"),
        ]
        picture.text(TURN_COLUMN / 2, label_middle + 0.6, pgettext("score sheet column", "Turn"),
                     size=1.7)
        picture.text(TURN_COLUMN / 2, top + LABEL_ROW + CARRIED_ROW / 2,
                     pgettext("score sheet row", "B/f"), size=1.75, bold=True, colour=INK)
        marks_y = top + LABEL_ROW - 1.7
        for player in range(self.players):
            edges = self.column_edges(player)
            picture.rect(edges[4], top + LABEL_ROW, edges[5] - edges[4], bottom - top - LABEL_ROW,
                         fill=WASH)
            for index, label in enumerate(labels):
                centre = (edges[index] + edges[index + 1]) / 2
                with_marks = index in (1, 2)
                picture.text(centre, top + 2.1 if with_marks else label_middle, label.upper(),
                             size=1.75, bold=index == 4, colour=INK if index == 4 else MUTED)
            draw_xs = box_xs(edges[1], edges[2], rules.max_draws + 1, extra_gap=PENALTY_BOX_GAP)
            marks = [f"−{rules.draw_penalty}"] * rules.max_draws + [f"−{rules.failed_draws_penalty}"]
            for x, mark in zip(draw_xs, marks):
                picture.text(x + BOX / 2, marks_y, mark, size=1.45)
            bonus_boxes = self.bonus_boxes(player)
            bonus_marks = box_marks()
            for (x, box), mark in zip(bonus_boxes, bonus_marks):
                picture.text(x + box / 2, marks_y, mark, size=1.6, bold=True, colour=INK)
            boxes = [(x, BOX) for x in draw_xs] + bonus_boxes
            for row in range(self.rows):
                y = body_top + row * ROW + (ROW - BOX) / 2
                for x, box in boxes:
                    picture.rect(x, y, box, BOX, fill=PAPER, outline=MUTED, line=0.15)
        for row in range(self.rows):
            picture.text(TURN_COLUMN / 2, body_top + (row + 0.5) * ROW, str(row + 1), size=2.1)
        for row in range(1, self.rows):
            picture.hline(body_top + row * ROW, 0, width)
        for player in range(self.players):
            for edge in self.column_edges(player)[1:5]:
                picture.vline(edge, top, bottom)
        for y in (top, top + LABEL_ROW, body_top, bottom):
            picture.hline(y, 0, width, line=THICK, colour=INK)
        for x in [0.0, width] + [self.group_left(player) for player in range(self.players)]:
            picture.vline(x, top, bottom, line=THICK, colour=INK)

    def _draw_settlement(self, picture: Drawing) -> None:
        width = self.width
        top = self.settlement_top
        bottom = top + self.settlement_height
        total_top = bottom - SETTLEMENT_TOTAL_ROW
        column = (width - SETTLEMENT_LABEL_COLUMN) / self.players
        picture.rect(0, total_top, width, SETTLEMENT_TOTAL_ROW, fill=WASH)
        picture.text(1.5, top + SETTLEMENT_HEADER / 2, _("End of the round").upper(), size=2.4,
                     anchor="lm", colour=INK, bold=True)
        rows = [
            _("Went out (+%(bonus)s) — or blocked:") % {"bonus": self.rules.going_out_bonus},
            _("Tiles left in hand (value)"),
            _("Settlement"),
            _("Round score"),
        ]
        for index, label in enumerate(rows):
            row_top = top + SETTLEMENT_HEADER + index * self.settlement_row
            picture.text(1.5, row_top + self.settlement_row / 2, label, size=2.3, anchor="lm",
                         colour=INK)
            if index:
                picture.hline(row_top, 0, width)
        picture.text(1.5, total_top + SETTLEMENT_TOTAL_ROW / 2, _("Match total (carry forward)"),
                     size=2.45, anchor="lm", colour=INK, bold=True)
        first_row_middle = top + SETTLEMENT_HEADER + self.settlement_row / 2
        picture.rect(SETTLEMENT_LABEL_COLUMN - 4.6, first_row_middle - 1.5, 3, 3, fill=PAPER,
                     outline=INK, line=0.25)
        for player in range(self.players):
            left = SETTLEMENT_LABEL_COLUMN + player * column
            centre = left + column / 2
            picture.vline(left, top, bottom, line=THICK if player == 0 else THIN,
                          colour=INK if player == 0 else RULE)
            picture.rect(centre - 2.2, top + 0.9, 4.4, SETTLEMENT_HEADER - 1.8, fill=INK,
                         radius=0.6)
            picture.text(centre, top + SETTLEMENT_HEADER / 2, chr(ord("A") + player), size=2.8,
                         colour=PAPER, bold=True)
            picture.rect(centre - 1.5, first_row_middle - 1.5, 3, 3, fill=PAPER, outline=INK,
                         line=0.25)
        for y in (top, top + SETTLEMENT_HEADER, total_top, bottom):
            picture.hline(y, 0, width, line=THICK, colour=INK)
        for x in (0, width):
            picture.vline(x, top, bottom, line=THICK, colour=INK)

    def _draw_signatures(self, picture: Drawing) -> None:
        top = self.signatures_top
        for index in range(self.players + 1):
            left, width = self.signature_box(index)
            referee = index == self.players
            picture.rect(left, top, width, self.signatures_height, outline=INK if referee else RULE,
                         line=0.4 if referee else THIN, radius=1.0)
            if referee:
                picture.text(left + 1.5, top + 2.6, _("Referee: name and signature"), size=2.3,
                             anchor="lm", colour=INK)
            else:
                picture.rect(left + 1.2, top + 1.1, 3.6, 3.6, fill=INK, radius=0.5)
                picture.text(left + 3.0, top + 2.9, chr(ord("A") + index), size=2.5,
                             colour=PAPER, bold=True)

    def _draw_legend(self, picture: Drawing) -> None:
        picture.paragraph(0, self.legend_top + LEGEND_LINE * 0.75, self.width,
                          self.legend_runs(), size=LEGEND_SIZE, line_height=LEGEND_LINE)


# Drawn once per form and language in a process (a few hundred kilobytes each).
@cache
def _layout_png(layout: ScoreSheetLayout, language: str) -> bytes:
    return layout.draw().png()
