"""A whole-number input that shows exactly the value the panel uses.

`ipywidgets.IntText` parses typed text in the browser: ``2.5`` may be shown as ``25`` while
the kernel receives ``2``, with no message. `NumberText` is a plain text box instead. Its
`value` is an ``int`` when the text is a whole number (``" +07 "`` becomes ``7`` and is shown
as ``7``), and otherwise the text exactly as typed (``"2.5"``). Whatever reads the value gets
the typed text for a bad entry, so the strict checks downstream (`explorer.scenario.fields`) refuse
it, naming the field and the values it allows; nothing ever silently uses another number.

>>> box = NumberText(3)
>>> box.value += 1; box.value
4
>>> box.set_state({"value": " 05 "}); box.value, box.get_state()["value"]
(5, '5')
>>> box.set_state({"value": "2.5"}); box.value
'2.5'
"""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets
import traitlets

__all__ = ["NumberText", "read_whole"]

_WHOLE = re.compile(r"[+-]?[0-9]+")


def read_whole(value: Any) -> int | str:
    """An int for a whole number (an int, or text of one); anything else as text, unchanged.

    Only ASCII digits with an optional sign count: ``"2.5"``, ``"1e3"``, ``"1_000"`` and
    ``""`` stay text.

    >>> read_whole(" -3 "), read_whole("2.5"), read_whole(True), read_whole(4)
    (-3, '2.5', 1, 4)
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    text = str(value)
    return int(text.strip()) if _WHOLE.fullmatch(text.strip()) else text


def _to_json(value: int | str, _widget: Any) -> str:
    return str(value)


def _from_json(value: Any, _widget: Any) -> int | str:
    return read_whole("" if value is None else value)


class NumberText(widgets.Text):
    """A text box whose `value` is the int typed in, or the bad text as typed.

    The browser shows ``str(value)``. A whole number is applied as it is typed (350 ms after the
    last key) and the arrow keys step it (Shift: by 5; not below 0 unless the box has the class
    ``explorer-number-signed``): the chart widget's script does both for every box with the
    class ``explorer-number`` (``js/src/access.js``). Other text is sent on Enter or when the box
    loses the focus (``continuous_update=False``), where the panel says what is wrong with it.

    >>> NumberText(2)._dom_classes, NumberText(2, _dom_classes=("mine",))._dom_classes
    (('explorer-number',), ('mine', 'explorer-number'))
    """

    value = traitlets.Union([traitlets.Int(), traitlets.Unicode()], default_value=0,
                            help="the whole number typed in, or the text when it is not one").tag(
        sync=True, to_json=_to_json, from_json=_from_json)

    def __init__(self, value: int | str = 0, **kwargs: Any) -> None:
        kwargs.setdefault("continuous_update", False)
        kwargs["_dom_classes"] = (*kwargs.get("_dom_classes", ()), "explorer-number")  # in the first message
        super().__init__(value=value, **kwargs)

    @traitlets.validate("value")
    def _whole(self, proposal: dict[str, Any]) -> int | str:
        return read_whole(proposal["value"])
