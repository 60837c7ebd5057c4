"""Player, table and tournament naming, shaped like what the PokerStars client prints.

Names deliberately include the awkward characters real histories contain (spaces, ``$``, ``+``,
``-``, ``_``, digits, non-ASCII) so every parser path is exercised by generated files.
"""

from __future__ import annotations

import random

__all__ = ["ROMAN", "STARS", "player_pool", "roman", "table_name"]

ROMAN = (
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
    "XXII",
    "XXIII",
    "XXIV",
    "XXV",
    "XXVI",
    "XXVII",
    "XXVIII",
    "XXIX",
    "XXX",
)

STARS = (
    "Lagrangea",
    "Pollux",
    "Gaby",
    "Jiangxi",
    "Demodokus",
    "Rosalind",
    "Laodamia",
    "Binomi",
    "Latona",
    "Innes",
    "Muscida",
    "Marfik",
    "Rastaban",
    "Pogson",
    "Centaurus",
    "Alhena",
    "Achernar",
    "Mirzam",
    "Sadalsuud",
    "Zaniah",
    "Thuban",
    "Vindemiatrix",
    "Kornephoros",
)

_FIRST = (
    "tredex",
    "barlowdog",
    "Lord Minge",
    "APTEM-89",
    "Sooners",
    "Jorge44alc",
    "VORON",
    "StaKuGorPS",
    "DaddyCa$h",
    "besteffect+",
    "Mr NoNo! Srb",
    "immo 1000",
    "KovácsKornél",
    "Frimble",
    "MuKoJla",
    "supermeXXX",
    "tiger",
    "xgz",
    "UnderMeSensi",
    "ros-r-reed",
    "CoinJock",
    "skinner",
    "toxic",
    "jthegreat",
    "Aphily",
    "Mindster",
    "imre",
    "AdyDixon",
    "Jon9ball",
    "manf",
    "Ravenswood",
    "Crazy Elior",
    "joiso",
    "Ilari FIN",
    "LewisFriend",
    "Bluf_To_Much",
    "deweymex",
    "KnG",
    "neivian",
    "Meelek",
    "mq",
    "SGS",
    "NeiLutzn",
    "Raúl",
    "oma_ha8",
    "lowball_Lou",
    "quartered",
    "scoop-dog",
    "nut low",
    "wheelie",
    "Courch3vel",
    "hi/lo hobo",
    "Ærøskøbing",
    "Zoë",
)


def roman(n: int) -> str:
    """Roman numeral for tournament levels and table suffixes (1-based)."""
    return ROMAN[(n - 1) % len(ROMAN)]


def table_name(rng: random.Random) -> str:
    """A cash table name such as ``Lagrangea IV``."""
    return f"{rng.choice(STARS)} {roman(rng.randint(1, 12))}"


def player_pool(rng: random.Random, count: int, hero: str) -> list[str]:
    """``count`` distinct screen names, never equal to ``hero``, decorated with digits."""
    out: list[str] = []
    seen = {hero}
    while len(out) < count:
        base = rng.choice(_FIRST)
        name = base if rng.random() < 0.3 else f"{base}{rng.randint(1, 9999)}"
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out
