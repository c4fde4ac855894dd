"""Assault of the Giants dice and faces in words, as traces and advice print them.

>>> show_faces([], [(1, 0, 0), (0, 0, 1)], False, [1])
'[1 arcane]'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from explorer.games.assault_of_the_giants.rules.model import CombatDie, Symbols

__all__ = ["face_name", "show_faces"]


def face_name(face: Symbols) -> str:
    """A die face in words.

    >>> [face_name(f) for f in [(0, 0, 0), (2, 0, 0), (1, 1, 0), (0, 0, 1)]]
    ['blank', '2 hits', '1 hit + 1 block', '1 arcane']
    """
    parts = [f"{n} {word if n == 1 else plural}"
             for n, word, plural in zip(face, ("hit", "block", "arcane"), ("hits", "blocks", "arcane")) if n]
    return " + ".join(parts) or "blank"


def show_faces(dice: Sequence[CombatDie], faces: Sequence[Symbols], named: bool, picks: Iterable[int]) -> str:
    """The faces at `picks`, each in brackets, with its die's name when `named`."""
    return " ".join(f"[{dice[i].name}: {face_name(faces[i])}]" if named else f"[{face_name(faces[i])}]"
                    for i in picks)
