"""The final scoreboard as a picture (PNG) to share, drawn with Pillow."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from companion.rules.clock import length_text
from companion.rules.game import Game
from companion.story.share import GAME_NAME, SOURCE_NAME

WIDTH = 1080
BG = (13, 7, 8)
PANEL = (28, 17, 19)
WINNER_PANEL = (58, 16, 24)
BLOOD = (179, 18, 43)
GOLD = (224, 179, 90)
TEXT = (243, 233, 230)
MUTED = (191, 170, 166)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size)


def _fit(draw: ImageDraw.ImageDraw, value: str, size: int, width: int) -> tuple[str, object]:
    """The text at the largest size up to `size` that fits `width` (cut with … if need be)."""
    for s in range(size, 17, -2):
        font = _font(s)
        if draw.textlength(value, font=font) <= width:
            return value, font
    font = _font(18)
    while value and draw.textlength(value + "…", font=font) > width:
        value = value[:-1]
    return value + "…", font


def scorecard_png(game: Game) -> bytes:
    """A picture of the final scoreboard: winner, ranks, Influence, Blood, clans, length.

    Raises:
        ValueError: the game is not over.
    """
    board = game.scoreboard
    if board is None:
        raise ValueError("the game is not over: there is no final score yet")
    rows = board.rows
    teams = board.teams or []
    row_h, pad = 118, 48
    height = 330 + len(teams) * 56 + len(rows) * (row_h + 14) + 110
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, WIDTH, 14], fill=BLOOD)
    d.text((pad, 44), GAME_NAME.replace("–", "-"), font=_font(38), fill=MUTED)  # font: no en dash
    d.text((pad, 92), f"Final score · {game.header.created[:10]}", font=_font(30), fill=MUTED)
    winner, font = _fit(d, f"{board.headline()} wins!", 76, WIDTH - 2 * pad)
    d.text((pad, 150), winner, font=font, fill=GOLD)
    y = 270
    for t in teams:
        line = f"{t.rank}. {t.team}: {t.influence} Influence, {t.blood} Blood"
        d.text((pad, y), line, font=_font(34), fill=GOLD if t.rank == 1 else TEXT)
        y += 56
    y += 10
    for r in rows:
        d.rounded_rectangle([pad - 16, y, WIDTH - pad + 16, y + row_h], radius=22,
                            fill=WINNER_PANEL if r.rank == 1 else PANEL)
        d.text((pad + 8, y + 20), f"{r.rank}.", font=_font(52), fill=GOLD if r.rank == 1
               else TEXT)
        score = str(r.influence.total)
        score_w = d.textlength(score, font=_font(64))
        name, font = _fit(d, r.name, 48, int(WIDTH - 2 * pad - 120 - score_w - 30))
        d.text((pad + 96, y + 14), name, font=font, fill=TEXT)
        team = game.state.players[r.player].team
        detail = " · ".join([r.clan or "no clan", *([team] if team else []), f"{r.blood} Blood",
                             *(["out"] if r.eliminated else [])])
        d.text((pad + 96, y + 72), detail, font=_font(30), fill=MUTED)
        d.text((WIDTH - pad - score_w, y + 22), score, font=_font(64), fill=GOLD)
        y += row_h + 14
    time = game.time()
    foot = f"Influence · scored with {SOURCE_NAME}"
    if time is not None and time.seconds:
        foot = f"Game length {length_text(time.seconds)} · " + foot
    d.text((pad, y + 24), foot, font=_font(28), fill=MUTED)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
