"""Tiles and hands as values: the bottom layer, importing nothing of mjtools but `errors`.

    kinds.py     tile kinds (0-8 m, 9-17 p, 18-26 s, 27-33 z, 34-41 f, 42-49 j) and `Tile`
    notation.py  the strict parser and canonical formatter of the hand notation (docs/notation.md)
    hand.py      `Hand`, `Meld`, `Aside`: frozen values whose `str` is the notation
    context.py   `WinContext`: everything about a win that the notation does not say
"""
