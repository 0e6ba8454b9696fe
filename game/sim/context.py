"""What one simulation worker keeps between battles: parsed scenarios, power tables, battle
templates, its trust level.

A sweep builds the same variant thousands of times, and parsing a scenario costs 15-120 ms, so a
worker parses each variant once; and it builds each variant's battle once, copying it for every
battle (:class:`~game.sim.template.ScenarioTemplate`). Those caches belong to a :class:`WorkerContext`, never to a
module: a pool worker makes one in its initializer, a Dask worker's plugin holds one, the parent
makes its own to check variants before any battle, and a test that plays battles directly makes
(or is given) another. Two contexts share nothing.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import weakref
from collections.abc import Iterable
from typing import Any

from components.powers import Power
from game.battle.reactions import new_hosts
from game.content.powers import apply_power_overrides
from game.content.recorded import RecordedFiles, ScriptReads
from game.content.references import check_script_overrides
from game.content.scenario import Scenario, load_scenario, load_scenario_text
from game.content.scenario_costs import scenario_area_problem
from game.content.toml_values import with_overrides
from game.scripting import ScriptHosts
from game.sim.template import Overrides, ScenarioTemplate

#: Override keys starting with this change a power (``powers.fireball.damage``), not the scenario.
POWER_PREFIX = "powers."

#: Entries a cache holds before it is emptied (a sweep has a handful of variants, not thousands).
CACHE_ENTRIES = 64



def split_overrides(overrides: Iterable[tuple[str, Any]]) -> tuple[Overrides, Overrides]:
    """Separate power overrides (``powers.ID.FIELD``) from scenario overrides (everything else)."""
    powers: list[tuple[str, Any]] = []
    scenario: list[tuple[str, Any]] = []
    for key, value in overrides:
        (powers if key.startswith(POWER_PREFIX) else scenario).append((key, value))
    return tuple(powers), tuple(scenario)


def _close_all(hosts: list[ScriptHosts]) -> None:
    """Close every thread's hosts (a finalizer: it must not hold the context itself)."""
    for one in hosts:
        one.close()
    hosts.clear()


@dataclasses.dataclass(frozen=True)
class ScenarioSource:
    """A run's scenario as the parent read it: its text, the texts of its power files and of every
    script it and its sweep read (``RecordedFiles.as_json``), and whether its scripts may run in-process.

    Workers build their battles from these texts, never from the disk: a pool worker, a recycled one
    or a Dask worker that read the file itself read it when it started, so a scenario, power file or
    script edited (or deleted) while a run went on made one run play two scenarios, unchecked.
    """

    path: str
    text: str
    files: dict[str, dict[str, str]]
    trusted: bool


def _key(*parts: Any) -> str:
    """A cache key for override values, lists included (they are not hashable)."""
    return json.dumps(parts, default=repr)


class WorkerContext:
    """The caches and trust level of one worker (or of the parent, or of one test).

    Args:
        sandboxed: the process itself is the scripts' sandbox (a pool worker with an address-space
            limit, see :func:`game.sim.worker.worker_init`): scripts then run in-process
            (``trusted=True``) and each battle has a watchdog. Otherwise untrusted scripts run in a
            script-host worker process, as anywhere else.
    """

    def __init__(self, sandboxed: bool = False) -> None:
        self.sandboxed = sandboxed
        self.scenarios: dict[str, Scenario] = {}
        self.powers: dict[str, dict[str, Power] | None] = {}
        self.templates: dict[tuple[str, ...], ScenarioTemplate] = {}
        #: the run's scenario as its parent read it (see :meth:`pin`), None: read from the disk
        self.source: ScenarioSource | None = None
        #: the scripts the variants read while they were checked (a swept ``reactions`` or ``powers.ID.script``)
        self.variant_scripts: dict[str, str] = {}
        self._threads = threading.local()
        self._hosts: list[ScriptHosts] = []
        self._closer = weakref.finalize(self, _close_all, self._hosts)

    def script_hosts(self) -> ScriptHosts:
        """The script hosts this thread's battles share, started on first use and kept until :meth:`close`.

        A worker host is a process: started per battle it cost about 70 ms, more than the battle.
        One per thread, since a host serves one call at a time (a Dask worker may run tasks in threads).
        """
        hosts: ScriptHosts | None = getattr(self._threads, "hosts", None)
        if hosts is None:
            hosts = self._threads.hosts = new_hosts()
        if not any(one is hosts for one in self._hosts):  # new, or closed and cleared by close()
            self._hosts.append(hosts)
        return hosts

    def close(self) -> None:
        """Stop the script-host processes this context started (also done when it is collected)."""
        self._closer()

    @property
    def trusted(self) -> bool | None:
        """What to pass as ``trusted`` to loaders and builders: True in a sandbox, else the pinned
        source's trust (the file's, as the parent found it), else None (ask the file)."""
        if self.sandboxed:
            return True
        return self.source.trusted if self.source is not None else None

    def pin(self, source: ScenarioSource | None) -> None:
        """Build the battles of ``source.path`` from ``source``'s texts from now on (a worker is handed
        its run's with each task); a different source empties every cache, which may hold another's."""
        if source != self.source:
            self.scenarios.clear()
            self.powers.clear()
            self.templates.clear()
            self.source = source

    def source_of(self, path: str) -> ScenarioSource:
        """The scenario at ``path`` as this context read it, with the scripts its sweep read: what its
        workers are to build from (:meth:`pin`)."""
        scenario = self.scenario_for(path, ())
        files = scenario.files.with_scripts(self.variant_scripts)
        return ScenarioSource(path, scenario.text, files.as_json(), scenario.trusted)

    def trusts(self, scenario: Scenario) -> bool:
        """Whether ``scenario``'s scripts run in-process here: always in a sandbox, else as the file says."""
        return scenario.trusts(self.trusted)

    def scenario_for(self, path: str, overrides: Overrides) -> Scenario:
        """A loaded scenario with scenario overrides applied, parsed once per context.

        Raises:
            ScenarioError: the file or an override cannot be used.
        """
        key = _key(path, overrides)
        scenario = self.scenarios.get(key)
        if scenario is None:
            if len(self.scenarios) > CACHE_ENTRIES:
                self.scenarios.clear()
            # a variant is the file's scenario (loaded once, here too) with its overrides, whose check
            # reuses what the file's load parsed: a sweep of 1,000 values does not read it 1,000 times
            scenario = self.scenario_for(path, ()).with_overrides(dict(overrides)) if overrides \
                else self._loaded(path)
            if self.source is not None and self.source.path == path:
                # every script the parent read is the battles' to read (a sweep's too, which no load reads)
                every = scenario.files.with_scripts(self.source.files["scripts"])
                scenario = dataclasses.replace(scenario, files=every)
            self.scenarios[key] = scenario
        return scenario

    def _loaded(self, path: str) -> Scenario:
        """The scenario at ``path``: from the pinned source's texts when it is that file, else read from disk."""
        source = self.source
        if source is None or source.path != path:
            return load_scenario(path, trusted=self.trusted)
        return load_scenario_text(source.text, path, path=path, trusted=self.trusted,
                                  recorded=RecordedFiles.from_json(source.files))

    def powers_for(self, overrides: Overrides, scenario: Scenario | None = None) -> dict[str, Power] | None:
        """The power table for these power overrides of the scenario's powers (None: the scenario's
        own table; no scenario: the shipped powers), built once per context.

        Raises:
            ValueError: an override the power loader refuses.
        """
        if not overrides:
            return None
        key = _key(scenario.path if scenario is not None else None, overrides)
        if key not in self.powers:
            if len(self.powers) > CACHE_ENTRIES:
                self.powers.clear()
            self.powers[key] = apply_power_overrides(overrides, scenario.library, scenario.script_dir,
                                                     check_scripts=not scenario.recorded) \
                if scenario is not None else apply_power_overrides(overrides)
        return self.powers[key]

    def template_for(self, path: str, overrides: Overrides) -> ScenarioTemplate:
        """The battles of a variant (scenario and power overrides together): its scenario built once
        with its power table and this context's trust, then copied for each battle.

        Raises:
            ScenarioError: the file or a scenario override cannot be used.
            ValueError: a power override the power loader refuses.
        """
        key = (path, _key(overrides)) if overrides else (path,)  # spelt out: True is not 1, lists are values
        template = self.templates.get(key)
        if template is None:
            if len(self.templates) > CACHE_ENTRIES:
                self.templates.clear()
            power_overrides, scenario_overrides = split_overrides(overrides)
            scenario = self.scenario_for(path, scenario_overrides)
            powers = self.powers_for(power_overrides, scenario)
            untrusted = not self.trusts(scenario)
            template = ScenarioTemplate(scenario, powers, power_overrides, self.trusted,
                                        self.script_hosts() if untrusted else None)
            self.templates[key] = template
        return template

    def check_variant(self, path: str, overrides: Overrides) -> Scenario:
        """Validate a variant (in the parent, before any worker starts): a bad key fails the command now.

        Raises:
            ScenarioError: a scenario override that the scenario refuses.
            ValueError: a power override the power loader refuses, or a swept ``script`` that the
                scenario's loader would refuse (missing, not parsing, no function a use calls).
        """
        power_overrides, scenario_overrides = split_overrides(overrides)
        scenario = self.scenario_for(path, scenario_overrides)
        self.variant_scripts.update(scenario.files.scripts)  # (a swept reaction's, which the file's load did not read)
        powers = self.powers_for(power_overrides, scenario)
        if powers is not None:  # a swept script is read, parsed and checked as the file's own are
            reads = ScriptReads()
            check_script_overrides(power_overrides, powers, scenario.source, scenario.script_dir,
                                   self.trusts(scenario), reads)
            self.variant_scripts.update(reads.read)
            # and a swept area as the file's own are (a burst of 10,000 ft for every creature)
            found = scenario_area_problem(scenario, powers)
            if found:
                raise ValueError(f"{scenario.source} {with_overrides(power_overrides)}: creatures: {found}")
        return scenario
