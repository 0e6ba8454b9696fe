"""Sandboxed hosts for designer scripts written in Starlark.

* :class:`InProcessHost` -- fast (~6 us per call), for the game's own trusted scripts.
* :class:`WorkerHost` -- same API, scripts run in a child process under ``RLIMIT_AS``
  and a wall clock; use it for anything from a scenario file written by a stranger.

A :class:`ScriptError` from ``call`` means "discard the commands the bridge buffered
during this call": hosts never apply or roll back game state themselves.
"""

from .budget import ScriptBudget
from .calls import Weighed
from .errors import STEPS_PER_TICK, Limits, ScriptError
from .host import InProcessHost
from .hosts import ScriptHosts
from .values import Bridge, PlainValue, is_plain, stable
from .worker import WorkerHost

__all__ = [
    "STEPS_PER_TICK",
    "ScriptBudget",
    "Bridge",
    "InProcessHost",
    "Limits",
    "PlainValue",
    "ScriptError",
    "ScriptHosts",
    "Weighed",
    "WorkerHost",
    "is_plain",
    "stable",
]
