"""Predict, then reveal: a question whose answer the explorer computes and keeps back until asked.

A workshop notebook asks a question, each person types a guess, then presses Reveal. The answer
is computed when the cell runs (by the one resolver, never typed into the notebook) but stays in
the kernel: it is not in any widget's state, so it cannot be read from the page, nor from a
notebook saved with its outputs, before Reveal is pressed. After Reveal the guess is compared
with the answer and an explanation (and, optionally, a table or chart) is shown.

>>> q = Predict("Chance of at least one six in two dice?", 11 / 36, kind="chance", explain="1 - (5/6)^2")
>>> "30.6" in q.verdict.value
False
>>> q.guess.value = "30"
>>> q.reveal()
>>> q.answer_text(), "right: within 1 point" in q.verdict.value, "low by 0.6 points" in q.verdict.value
('30.6%', True, True)

A number counts as right within its tolerance (a chance: 1 point; a number: 5 % of the answer);
a word answer is right when it means the answer: the answer, its other wordings in `MEANINGS`, or
any of `Predict`'s ``accept`` words, compared without case, quotes, punctuation or a leading "the"
(`same_words`).

>>> q = Predict("Who wins?", "no one", kind="text")
>>> q.guess.value = "Nobody"
>>> q.reveal()
>>> "right" in q.verdict.value and "not quite" not in q.verdict.value
True
"""

from __future__ import annotations

import html
import re
from fractions import Fraction
from typing import Any, Literal

import ipywidgets as widgets

from explorer.panels.common.display import show
from explorer.panels.common.table import decimal_text

__all__ = ["MEANINGS", "Predict", "read_guess", "same_words", "words_of"]

Kind = Literal["chance", "number", "text"]


def read_guess(text: str, kind: Kind) -> float | str | None:
    """A typed guess: a chance as a fraction of 1 (``40``, ``40%``, ``0.4`` and ``2/5`` are all 0.4).

    >>> read_guess("40%", "chance"), read_guess("0.4", "chance"), read_guess("2/5", "chance")
    (0.4, 0.4, 0.4)
    >>> read_guess("3.5", "number"), read_guess("", "number"), read_guess("x", "chance")
    (3.5, None, None)
    """
    text = text.strip().replace(",", ".")
    if not text:
        return None
    if kind == "text":
        return text
    percent = text.endswith("%")
    body = text.rstrip("%").strip()
    try:
        number = float(Fraction(body)) if re.fullmatch(r"-?\d+\s*/\s*\d+", body) else float(body)
    except (ValueError, ZeroDivisionError):
        return None
    if kind == "chance" and (percent or number > 1):
        number /= 100
    return number


MEANINGS: dict[str, tuple[str, ...]] = {
    "no one": ("nobody", "none", "neither", "no-one", "noone", "nobody wins", "tie", "a tie"),
    "one more die": ("die", "a die", "more dice", "an extra die", "another die", "one die more", "the die",
                     "extra die", "dice"),
    "one more reroll": ("reroll", "a reroll", "another reroll", "an extra reroll", "extra reroll", "rerolls",
                        "one reroll more", "the reroll"),
    "attacker": ("the attacker", "attacking player", "the attacking player", "attacking side", "attack"),
    "defender": ("the defender", "defending player", "the defending player", "defending side", "defence"),
    "first": ("first player", "the first player", "1st", "player 1", "1"),
    "second": ("second player", "the second player", "2nd", "player 2", "2"),
}
"""Words that mean the same answer in the workshops' questions (answer -> other ways to say it)."""


def words_of(text: str) -> str:
    """A word answer as compared: lower case, no quotes or punctuation, no leading article.

    >>> words_of("  'One more DIE!' "), words_of("the Magic first")
    ('one more die', 'magic first')
    """
    words = re.sub(r"[^\w\s]", " ", text.casefold()).split()
    if words and words[0] in ("the", "a", "an"):
        words = words[1:]
    return " ".join(words)


def same_words(guess: str, accepted: tuple[str, ...]) -> bool:
    """Whether `guess` says one of the `accepted` answers (`words_of` each).

    >>> same_words("one more die", ("'one more die'", "a die more")), same_words("reroll", ("one more die",))
    (True, False)
    """
    wanted = words_of(guess)
    return bool(wanted) and any(wanted == words_of(a) for a in accepted)


def _show(value: float | str, kind: Kind) -> str:
    if kind == "chance" and isinstance(value, int | float):
        return f"{100 * float(value):.1f}%"
    if kind == "number" and isinstance(value, int | float):
        return decimal_text(float(value), 2).rstrip("0").rstrip(".")
    return str(value)


class Predict:
    """One "predict, then reveal" exercise.

    Args:
        question: the question (plain text).
        answer: the answer, computed by the explorer when the cell runs (a number, or text).
        kind: ``"chance"`` (shown as a percentage; a guess may be ``40``, ``40%`` or ``0.4``),
            ``"number"`` or ``"text"``.
        explain: why the answer is what it is (HTML allowed), shown after Reveal.
        then: something to display after Reveal (a table or a chart), or None.
        accept: other words that mean the answer (``kind="text"``), e.g. ``("a die more",)``.
        tolerance: how far a number may be and still be right: points for a chance (default 1),
            else the same unit as the answer (default 5 % of it, at least 0.05).

    Attributes:
        guess: the text box; button: Reveal; verdict: the answer and how far the guess was;
        widget: the root.
    """

    def __init__(self, question: str, answer: Any, *, kind: Kind = "chance", explain: str = "",
                 then: Any = None, accept: tuple[str, ...] = (), tolerance: float | None = None) -> None:
        self._answer = float(answer) if isinstance(answer, Fraction | int | float) else str(answer)
        self._accept = (str(answer), *MEANINGS.get(words_of(str(answer)), ()), *accept)
        if tolerance is None:
            tolerance = 1.0 if kind == "chance" else max(0.05, abs(self._answer) * 0.05) \
                if isinstance(self._answer, float) else 0.0
        self._tolerance = tolerance
        self._kind: Kind = kind
        self._explain = explain
        self._then = then
        hint = {"chance": "your guess, e.g. 40%", "number": "your guess, a number", "text": "your guess"}[kind]
        self.guess = widgets.Text(placeholder=hint, layout=widgets.Layout(width="220px"),
                                  description="Your guess", style={"description_width": "initial"})
        self.button = widgets.Button(description="Reveal", icon="eye", button_style="warning")
        self.verdict = widgets.HTML()
        self.more = widgets.Output()
        self.button.on_click(lambda _b: self.reveal())
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>Predict:</b> {html.escape(question)}"),
            widgets.HBox([self.guess, self.button]), self.verdict, self.more])
        self.widget.add_class("explorer-exercise")
        self.revealed = False

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def answer_text(self) -> str:
        """The answer as it is shown after Reveal."""
        return _show(self._answer, self._kind)

    def reveal(self) -> None:
        """Show the answer, how far the guess was, the explanation and anything to display."""
        guess = read_guess(self.guess.value, self._kind)
        parts = [f"<b>Answer: {html.escape(self.answer_text())}</b>"]
        if guess is None:
            parts.append("(no guess typed)" if not self.guess.value.strip() else
                         f"(could not read your guess {html.escape(self.guess.value)!s})")
        elif isinstance(guess, float) and isinstance(self._answer, float):
            off = guess - self._answer
            unit = " points" if self._kind == "chance" else ""
            size = abs(off) * (100 if self._kind == "chance" else 1)
            within = f"within {self._tolerance:g}{' point' if self._tolerance == 1 else unit}"
            close = size <= self._tolerance + 1e-9
            verdict = "spot on" if size < 0.05 else (f"right: {within}, " if close else "") + \
                f"{'high' if off > 0 else 'low'} by {size:.1f}{unit}"
            parts.append(f"you said {html.escape(_show(guess, self._kind))}: {verdict}")
        else:
            same = same_words(str(guess), self._accept)
            parts.append(f"you said {html.escape(str(guess))}: {'right' if same else 'not quite'}")
        text = " · ".join(parts)
        if self._explain:
            text += f"<div style='color:#34495e;margin-top:4px'>{self._explain}</div>"
        self.verdict.value = f"<div style='background:#eef6fb;padding:4px 10px'>{text}</div>"
        if self._then is not None and not self.revealed:
            with self.more:
                show(self._then)
        self.revealed = True
        self.button.disabled = True
