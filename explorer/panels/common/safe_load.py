"""Load a scenario into a panel all or nothing: the Load box, an opened file and a shared link alike.

A load first checks the whole scenario, as the command line would (the game's
`ScenarioAdapter.check`: the hardened loader's limits, then the one resolver), before a single
input changes. Only then does the panel's ``apply`` set its inputs. Should anything still go
wrong while it does (a widget refusing a value, a view failing after the resolve), the inputs
the user had are put back by applying the scenario read from the panel just before, so that an
error never leaves the panel holding half of a file, nor a scenario its message says it refused.

>>> class Host:
...     def __init__(self): self.inputs = {"game": "coins", "coins": 2}
...     def scenario(self): return dict(self.inputs)
...     def apply(self, data):
...         self.inputs = dict(data)
...         if data["coins"] > 9: raise RuntimeError("a widget refused it")
>>> class Adapter:
...     def check(self, data): pass
>>> host = Host()
>>> load_checked(host, Adapter(), {"game": "coins", "coins": 12})
Traceback (most recent call last):
explorer.core.errors.ScenarioError: scenario: could not load it (RuntimeError: a widget refused it); every input is as it was
>>> host.inputs
{'game': 'coins', 'coins': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from explorer.core.errors import ScenarioError

__all__ = ["load_checked"]


class _Host(Protocol):
    def scenario(self) -> dict[str, Any]: ...

    def apply(self, scenario: Mapping[str, Any]) -> None: ...


class _Checker(Protocol):
    def check(self, scenario: Mapping[str, Any]) -> None: ...


def _reason(error: BaseException) -> str:
    return str(error) if isinstance(error, ScenarioError) else f"{type(error).__name__}: {error}"


def load_checked(host: _Host, adapter: _Checker, data: Mapping[str, Any]) -> None:
    """Check `data` whole, then set the host's inputs from it; on any failure they stay as they were.

    Args:
        host: a game panel (`explorer.panels.common.host.PanelHost`): ``scenario()`` and ``apply``.
        adapter: the game's check (`ScenarioAdapter.check`).
        data: the scenario read from a box, a file or a link.

    Raises:
        ScenarioError: the check refuses `data` (nothing changed), or applying it failed; then
            the previous inputs have been put back (the message says if even that failed).
    """
    adapter.check(data)
    before = host.scenario()
    try:
        host.apply(data)
    except ScenarioError as error:
        if host.scenario() == before:
            raise
        raise ScenarioError("scenario", _restored(host, before, _reason(error))) from None
    except Exception as error:  # noqa: BLE001 - no traceback reaches the page; the inputs come back
        raise ScenarioError("scenario", _restored(host, before, _reason(error))) from None


def _restored(host: _Host, before: dict[str, Any], reason: str) -> str:
    """Put the scenario `before` back into `host`; the message to show either way."""
    try:
        host.apply(before)
    except Exception as again:  # noqa: BLE001
        return f"could not load it ({reason}); the previous inputs could not be put back ({_reason(again)})"
    if host.scenario() != before:
        return f"could not load it ({reason}); the previous inputs could not all be put back"
    return f"could not load it ({reason}); every input is as it was"
