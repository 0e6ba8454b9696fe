"""An owner's script hosts: one per trust level and limits, started on first use, closed together.

A host parses and freezes a script once, and a worker host is a whole process, so hosts are worth
sharing between battles: whoever plays many battles (a window, a simulation worker, a test module)
holds one ``ScriptHosts`` and hands it to each battle. A battle built without one makes its own and
closes it with itself. Nothing here is module state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import Limits
from .host import InProcessHost
from .worker import WorkerHost


class ScriptHosts:
    """Hosts keyed by (trusted, limits), all offering the same ctx methods and commands.

    Args:
        methods: every ctx method and its number of arguments.
        commands: the methods that are commands (buffered by the caller, capped per call).
    """

    def __init__(self, methods: Mapping[str, int], commands: Mapping[str, int]) -> None:
        self.methods = dict(methods)
        self.commands = dict(commands)
        self._hosts: dict[tuple[bool, Limits], InProcessHost | WorkerHost] = {}
        self._kept: dict[tuple[bool, Limits], dict[str, Any]] = {}

    def host(self, trusted: bool, limits: Limits = Limits()) -> InProcessHost | WorkerHost:
        """The host for this trust level and these limits (in-process when trusted, else a worker)."""
        key = (trusted, limits)
        found = self._hosts.get(key)
        if found is None:
            kind = InProcessHost if trusted else WorkerHost
            found = self._hosts[key] = kind(self.methods, self.commands, limits)
        return found

    def kept(self, trusted: bool, limits: Limits = Limits()) -> dict[str, Any]:
        """What the callers of that host keep for the battles after theirs (a what-if's answers, kept
        by ``game.battle.foresight``): it lives as long as the host, and is its callers' to bound."""
        return self._kept.setdefault((trusted, limits), {})

    def started(self) -> dict[tuple[bool, Limits], InProcessHost | WorkerHost]:
        """The hosts started so far (for statistics and tests)."""
        return dict(self._hosts)

    def close(self) -> None:
        """Stop every host (a worker's process included); they start again on next use."""
        for found in self._hosts.values():
            found.close()
        self._hosts.clear()
        self._kept.clear()

    def __enter__(self) -> ScriptHosts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
