"""Draw the app's icon, splash image and web icons, and write the web manifest.

Run: python tools/make_icons.py. Writes under assets/ (committed): icon.png (1024 px, used by
`flet build` for every platform), splash.png (the launch screen), favicon.png, icons/*.png and
manifest.json (served by the web server in place of Flet's own). The drawing is this project's
own: a blood drop cupped by two fangs, gold on the app's dark red.
"""

import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parents[1]
ASSETS = ROOT / "assets"
BG_DARK = (13, 7, 8)
BLOOD_DARK = (92, 10, 23)
BLOOD = (179, 18, 43)
GOLD = (224, 179, 90)
NAME = "Vendetta Companion"
SHORT = "Vendetta"
THEME = "#5c0a17"
BACKGROUND = "#0d0708"
SCALE = 4
"""Drawn at 4× and scaled down: smooth edges."""


def _emblem(size: int) -> Image.Image:
    """The emblem on a transparent background: two fangs and a blood drop."""
    s = size * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)

    def p(x: float, y: float) -> tuple[float, float]:
        return x * s, y * s

    # two fangs: curved gold blades meeting below the drop
    for side in (-1, 1):
        cx = 0.5 + side * 0.22
        blade = [p(cx - side * 0.10, 0.16), p(cx + side * 0.08, 0.20), p(cx + side * 0.06, 0.48),
                 p(0.5 + side * 0.03, 0.86), p(cx - side * 0.04, 0.50)]
        d.polygon(blade, fill=GOLD)
    # the drop: a circle with a point on top
    r = 0.17
    d.ellipse([p(0.5 - r, 0.55 - r), p(0.5 + r, 0.55 + r)], fill=BLOOD)
    d.polygon([p(0.5, 0.22), p(0.5 - r * 0.93, 0.50), p(0.5 + r * 0.93, 0.50)], fill=BLOOD)
    # a highlight on the drop
    d.ellipse([p(0.44, 0.50), p(0.48, 0.60)], fill=(255, 150, 160, 170))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def icon(size: int, padding: float = 0.12, rounded: bool = True) -> Image.Image:
    """The app icon: the emblem on a dark red tile."""
    s = size * SCALE
    tile = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    radius = int(s * 0.22) if rounded else 0
    d.rounded_rectangle([0, 0, s - 1, s - 1], radius=radius, fill=BLOOD_DARK)
    glow = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(glow).ellipse([s * 0.15, s * 0.2, s * 0.85, s * 0.9], fill=(150, 20, 40, 120))
    glow = glow.filter(ImageFilter.GaussianBlur(s * 0.08))
    mask = tile.getchannel("A")
    tile = Image.alpha_composite(tile, Image.composite(glow, Image.new("RGBA", (s, s)), mask))
    tile = tile.resize((size, size), Image.Resampling.LANCZOS)
    inner = int(size * (1 - 2 * padding))
    emblem = _emblem(inner)
    tile.alpha_composite(emblem, (int(size * padding), int(size * padding)))
    return tile


def splash(size: int = 1152) -> Image.Image:
    """The launch image: the emblem alone (the splash colour is the app's background)."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    em = _emblem(int(size * 0.5))
    img.alpha_composite(em, (size // 4, size // 4))
    return img


def main() -> None:
    (ASSETS / "icons").mkdir(parents=True, exist_ok=True)
    icon(1024).save(ASSETS / "icon.png")
    splash().save(ASSETS / "splash.png")
    icon(64, padding=0.08).save(ASSETS / "favicon.png")
    for px in (192, 512):
        icon(px).save(ASSETS / "icons" / f"icon-{px}.png")
        icon(px, padding=0.2, rounded=False).save(ASSETS / "icons" / f"icon-maskable-{px}.png")
    icon(192, rounded=False).save(ASSETS / "icons" / "apple-touch-icon-192.png")
    manifest = {
        "name": NAME, "short_name": SHORT, "start_url": ".", "display": "standalone",
        "background_color": BACKGROUND, "theme_color": THEME,
        "description": "Referee and score-keeper for a table of Vampire: The Masquerade - "
                       "Vendetta",
        "orientation": "any", "prefer_related_applications": False,
        "icons": [
            {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "icons/icon-maskable-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "maskable"},
            {"src": "icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    (ASSETS / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"wrote {ASSETS}")


if __name__ == "__main__":
    main()
