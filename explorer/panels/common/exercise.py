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
>>> q.answer_text(), "low by 0.6 points" in q.verdict.value
('30.6%', True)
"""

from __future__ import annotations

import html
import re
from fractions import Fraction
from typing import Any, Literal

import ipywidgets as widgets

from explorer.panels.common.display import show

__all__ = ["Predict", "read_guess"]

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


def _show(value: float | str, kind: Kind) -> str:
    if kind == "chance" and isinstance(value, int | float):
        return f"{100 * float(value):.1f}%"
    if kind == "number" and isinstance(value, int | float):
        return f"{float(value):.2f}".rstrip("0").rstrip(".")
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

    Attributes:
        guess: the text box; button: Reveal; verdict: the answer and how far the guess was;
        widget: the root.
    """

    def __init__(self, question: str, answer: Any, *, kind: Kind = "chance", explain: str = "",
                 then: Any = None) -> None:
        self._answer = float(answer) if isinstance(answer, Fraction | int | float) else str(answer)
        self._kind: Kind = kind
        self._explain = explain
        self._then = then
        hint = {"chance": "your guess, e.g. 40%", "number": "your guess, a number", "text": "your guess"}[kind]
        self.guess = widgets.Text(placeholder=hint, layout=widgets.Layout(width="220px"))
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
            parts.append(f"you said {html.escape(_show(guess, self._kind))}: "
                         + ("spot on" if size < 0.05 else f"{'high' if off > 0 else 'low'} by {size:.1f}{unit}"))
        else:
            same = str(guess).strip().lower() == str(self._answer).strip().lower()
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
