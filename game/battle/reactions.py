"""The scripting hook: powers' and reactions' Starlark scripts, seen through a narrow context.

A script never sees a component. It reads state and issues commands through ``ctx`` methods that
land here (the bridge); each command is validated at once, exactly like the Python API, and
buffered. When the call returns the buffer is applied in order; when it fails (a limit broken, a
refusal, a crash of the worker) the buffer is dropped, the generator is rewound, a ``script_failed``
event is recorded and the battle is exactly as it was before the call: all or nothing.

Trust comes in two levels. The designer's own scripts (``assets/scripts``) may run in-process, which
is fast; anything from a scenario written by a stranger runs in a worker process with a memory
limit and a wall clock (``trusted=False``), because one huge string in starlark aborts the process
that runs it. Hosts are shared per process and mode, so a script is parsed and frozen once per
host, never per use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import esper

from components import Conditions, Creature, Fatigue, Health, Position, Visibility
from components.commands import Heal, Hit, Move
from components.dice import Dice
from components.effects import ActiveEffect
from components.events import AreaCreated, Event, ScriptFailed
from components.terrain import MAX_AREAS, MAX_LIGHTS, Area, Light
from game.battle.errors import IllegalCommand
from game.content.files import MEGABYTE, UnreadableFile, read_bounded
from game.content.powers import SCRIPTS_DIR
from game.scripting import InProcessHost, Limits, ScriptError, WorkerHost
from systems.geometry import distance_ft, within_radius
from systems.vitals import is_dead

if TYPE_CHECKING:
    from game.battle.facade import Battle

#: ctx methods and their exact number of arguments. Reads answer at once; commands are buffered.
READS: dict[str, int] = {
    "health": 1, "max_health": 1, "fatigue": 1, "position": 1, "conditions": 1, "team": 1, "name": 1,
    "is_alive": 1, "distance": 2, "can_see": 2, "creatures_in_area": 3, "roll": 1,
}
COMMANDS: dict[str, int] = {
    "damage": 2, "heal": 2, "add_condition": 2, "remove_condition": 2, "move": 3, "push": 3,
    "create_area": 5, "create_light": 5,
}
#: event kind -> the reaction function a script defines for it
REACTIONS: dict[str, str] = {
    "damaged": "on_damaged", "downed": "on_downed", "fell": "on_fell", "landed": "on_landed",
    "turn_started": "on_turn_start", "round_ended": "on_round_end",
}

_HOSTS: dict[tuple[bool, Limits], InProcessHost | WorkerHost] = {}


def shared_host(trusted: bool, limits: Limits = Limits()) -> InProcessHost | WorkerHost:
    """One host per process for each trust level: scripts load once per host, not once per battle."""
    key = (trusted, limits)
    host = _HOSTS.get(key)
    if host is None:
        methods = {**READS, **COMMANDS}
        host = InProcessHost(methods, COMMANDS, limits) if trusted else WorkerHost(methods, COMMANDS, limits)
        _HOSTS[key] = host
    return host


def close_hosts() -> None:
    """Stop every shared host (workers included); they restart on next use."""
    for host in _HOSTS.values():
        host.close()
    _HOSTS.clear()


def _small(event: Event) -> dict[str, Any]:
    """The few fields a reaction needs: passing a big dict into starlark costs microseconds per key."""
    data: dict[str, Any] = {"kind": event.kind, "round": event.round}
    for key in ("entity", "amount", "health", "distance_ft", "damage"):
        value = getattr(event, key, None)
        if value is not None:
            data[key] = value
    return data


class ScriptHook:
    """Runs a battle's scripts and applies what they ask for, all or nothing per call."""

    def __init__(self, battle: Battle, trusted: bool = True, script_dir: Path | str = SCRIPTS_DIR,
                 limits: Limits = Limits()) -> None:
        self.battle = battle
        self.trusted = trusted
        self.script_dir = Path(script_dir)
        self.host = shared_host(trusted, limits)
        self.reactions: list[tuple[str, int | None]] = []  # (script, creature or None for the whole battle)
        self.python_handlers: dict[type[Event], list[Callable[[Battle, Event], None]]] = {}
        self._seen = 0
        self._loaded: dict[str, frozenset[str]] = {}
        self._names: dict[str, str] = {}  # file name -> the name the host knows it by
        self._broken: dict[str, ScriptError] = {}  # scripts that do not load
        self._out: dict[str, ScriptError] = {}  # scripts that ran out of time or memory once
        self._buffer: list[Callable[[], None]] = []
        self._ctx: dict[str, Any] = {}

    # ------------------------------------------------------------------ loading

    def load(self, script: str) -> frozenset[str]:
        """Load a script by file name (once); ScriptError names the file when it does not parse.

        The host knows the script by a name made of its file name and a digest of its text, never
        by where it is stored: errors and events then read the same on every machine and in every
        folder, and two folders' scripts of one name never share a parse unless their text is one.
        """
        if script in self._loaded:
            return self._loaded[script]
        if script in self._broken:
            raise self._broken[script]  # read and parsed once: a broken script stays broken this battle
        if not (isinstance(script, str) and script.endswith(".star") and "/" not in script
                and "\\" not in script and ".." not in script):
            raise ScriptError(repr(script), "a script is a plain file name ending in .star, in the script folder",
                              kind="missing")
        path = self.script_dir / script
        try:
            # Only a regular file inside the script folder (a symlink out of it could read any file
            # on the machine into an error message), and not a huge one.
            if not path.resolve().is_relative_to(self.script_dir.resolve()):
                raise UnreadableFile("it leads outside the script folder")
            source = read_bounded(path, MEGABYTE).decode("utf-8")
        except (UnreadableFile, UnicodeDecodeError) as err:
            reason = str(err) if isinstance(err, UnreadableFile) else "not UTF-8 text"
            self._broken[script] = ScriptError(script, f"cannot read script: {reason}", kind="missing")
            raise self._broken[script] from None
        name = f"{script}#{hashlib.sha256(source.encode()).hexdigest()[:12]}"
        try:
            self.host.load(name, source)
        except ScriptError as err:
            self._broken[script] = _named(err, name, script)
            raise self._broken[script] from None
        self._names[script] = name
        self._loaded[script] = self.host.functions(name)
        return self._loaded[script]

    # ------------------------------------------------------------------ calls

    def run(self, script: str, function: str, ctx: dict[str, Any], *args: Any) -> bool:
        """Call ``function(ctx, *args)`` if the script defines it; True when it ran and was applied."""
        state = self.battle.state
        try:
            functions = self.load(script)
        except ScriptError as err:
            state.emit(ScriptFailed(state.round, script, function, str(err)))
            return False
        if function not in functions:
            return False
        if script in self._out:
            state.emit(ScriptFailed(state.round, script, function, str(self._out[script])))
            return False
        rng_state = state.rng.getstate()
        self._buffer, self._ctx = [], ctx
        try:
            self.host.call(self._names[script], function, args=(ctx, *args), bridge=self._bridge)
        except ScriptError as failure:
            err = _named(failure, self._names[script], script)
            state.rng.setstate(rng_state)  # rolls made during the failed call never happened
            self._buffer = []
            state.emit(ScriptFailed(state.round, script, function, str(err)))
            if err.kind in ("timeout", "died", "panic"):
                # A script that ran out of time or memory would do it again on every call, each
                # costing seconds: it is out for the rest of this battle.
                self._out[script] = err
            return False
        buffer, self._buffer = self._buffer, []
        for apply in buffer:
            apply()
        return True

    def react(self) -> None:
        """Give reaction scripts and trusted Python handlers the events recorded since the last call."""
        events = self.battle.state.events
        while self._seen < len(events):
            event = events[self._seen]
            self._seen += 1
            for handler in self.python_handlers.get(type(event), ()):
                handler(self.battle, event)
                self.battle._enter()  # the handler may have used another battle: come back
            function = REACTIONS.get(event.kind)
            if function is None or not self.reactions:
                continue
            subject = getattr(event, "entity", None)
            for script, owner in list(self.reactions):
                if owner is not None and subject is not None and owner != subject:
                    continue  # a creature's reaction hears its own events and the round's
                ctx = {"me": -1 if owner is None else owner, "round": event.round, "power": "", "user": -1}
                self.run(script, function, ctx, _small(event))

    def skip_to_now(self) -> None:
        """Events before this point are not reactions' business (setting the battle up)."""
        self._seen = len(self.battle.state.events)

    # ------------------------------------------------------------------ the bridge

    def _bridge(self, method: str, args: tuple[Any, ...]) -> Any:
        """Answer a read or validate-and-buffer a command; ValueError/LookupError refuse it."""
        if method in READS:
            return getattr(self, f"_read_{method}")(*args)
        if len(self._buffer) >= self.host.limits.max_commands:
            raise ValueError("too many commands in one call")
        apply = getattr(self, f"_cmd_{method}")(*args)
        self._buffer.append(apply)
        return None

    def _creature(self, entity: object) -> int:
        return self.battle._check(entity)  # UnknownEntity is a LookupError: refused, script fails

    def _read_health(self, e: object) -> int:
        return esper.component_for_entity(self._creature(e), Health).current

    def _read_max_health(self, e: object) -> int:
        return esper.component_for_entity(self._creature(e), Health).maximum

    def _read_fatigue(self, e: object) -> int:
        return esper.component_for_entity(self._creature(e), Fatigue).level

    def _read_position(self, e: object) -> list[Any]:
        p = esper.component_for_entity(self._creature(e), Position)
        return [p.x, p.y, p.z]

    def _read_conditions(self, e: object) -> list[str]:
        return sorted(esper.component_for_entity(self._creature(e), Conditions).active)

    def _read_team(self, e: object) -> str:
        return esper.component_for_entity(self._creature(e), Creature).team

    def _read_name(self, e: object) -> str:
        return esper.component_for_entity(self._creature(e), Creature).name

    def _read_is_alive(self, e: object) -> bool:
        entity = self._creature(e)
        return not is_dead(esper.component_for_entity(entity, Health), esper.component_for_entity(entity, Fatigue))

    def _read_distance(self, a: object, b: object) -> int:
        pa = esper.component_for_entity(self._creature(a), Position)
        pb = esper.component_for_entity(self._creature(b), Position)
        return distance_ft(pa.square, pb.square, self.battle.rules)

    def _read_can_see(self, a: object, b: object) -> bool:
        return self.battle.can_see(self._creature(a), self._creature(b))

    def _read_creatures_in_area(self, x: object, y: object, radius_ft: object) -> list[int]:
        square = self.battle._square(x, y, "area centre")
        radius = self._feet(radius_ft, "radius")
        mask = within_radius(self.battle.state.terrain.walls.shape, square, radius, self.battle.rules)
        return [e for e, p in sorted(esper.get_component(Position)) if mask[p.square]]

    def _read_roll(self, notation: object) -> int:
        try:
            return Dice.parse(notation).roll(self.battle.state.rng)
        except ValueError as err:
            raise ValueError(f"roll: {err}") from None

    @staticmethod
    def _feet(value: object, what: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value > 10_000:
            raise ValueError(f"{what} must be a number of feet in 0..10000, not {value!r}")
        return float(value)

    def _source(self) -> str:
        effect = self._ctx.get("effect", -1)
        return f"effect:{effect}" if effect not in (-1, None) else self._script_source()

    def _script_source(self) -> str:
        """Whose hits and heals these are, for the log: the power's script, or a reaction."""
        return f"script:{self._ctx.get('power') or 'reaction'}"

    def _cmd_damage(self, e: object, amount: object) -> Callable[[], None]:
        entity = self._creature(e)
        value = _plain_amount(amount, "damage")
        source = self._script_source()
        return lambda: self.battle.state.health_queue.append(Hit(entity, value, source))

    def _cmd_heal(self, e: object, amount: object) -> Callable[[], None]:
        entity = self._creature(e)
        value = _plain_amount(amount, "healing")
        source = self._script_source()
        return lambda: self.battle.state.health_queue.append(Heal(entity, value, source))

    def _cmd_add_condition(self, e: object, condition: object) -> Callable[[], None]:
        entity = self._creature(e)
        name = self.battle._condition_name(condition)
        source = self._source()
        effect = self.battle.state.effects.get(self._ctx.get("effect", -1))

        def apply() -> None:
            conditions = esper.component_for_entity(entity, Conditions)
            if "dead" in conditions.active:
                return
            conditions.grant(name, source)
            if effect is not None:
                effect.conditions.append((entity, name))
            self.battle.state.dirty.add(entity)
        return apply

    def _cmd_remove_condition(self, e: object, condition: object) -> Callable[[], None]:
        entity = self._creature(e)
        name = self.battle._condition_name(condition)

        def apply() -> None:
            # A script cures what it can: grants from the GM, falls, scripts and permanent powers.
            # A live effect's grant stays until the effect ends (an ongoing power cannot be cut
            # short by someone else's script), and the dead are not changed at all.
            state = self.battle.state
            conditions = esper.component_for_entity(entity, Conditions)
            if "dead" in conditions.active:
                return
            for source in list(conditions.granted.get(name, {})):
                live = source.startswith("effect:") and int(source.split(":", 1)[1]) in state.effects
                if not live:
                    conditions.revoke(name, source, every=True)
            state.dirty.add(entity)
            if name == "flying":
                state.mark_moved(entity)
        return apply

    def _cmd_move(self, e: object, x: object, y: object) -> Callable[[], None]:
        entity = self._creature(e)
        try:
            self.battle._validate_move(entity, x, y)
        except IllegalCommand as err:
            raise ValueError(str(err)) from None
        goal = (int(x), int(y))  # type: ignore[call-overload]
        return lambda: self.battle._queue(entity, Move(entity, *goal))

    def _cmd_push(self, e: object, away_from: object, feet: object) -> Callable[[], None]:
        entity, origin = self._creature(e), self._creature(away_from)
        distance = self._feet(feet, "push distance")
        return lambda: self.battle._power_use._force(origin, entity, distance, away=True)

    def _made(self, kind: str, x: object, y: object, radius_ft: object, level: object, duration: object
              ) -> Callable[[], None]:
        """Check a light or an area a script asks for; the command that makes it."""
        square = self.battle._square(x, y, "centre")
        radius = self._feet(radius_ft, "radius")
        parsed = Visibility.parse(level)  # type: ignore[arg-type]
        if isinstance(duration, bool) or not isinstance(duration, int) or not 1 <= duration <= 100:
            raise ValueError(f"duration must be 1..100 rounds, not {duration!r}")
        terrain = self.battle.state.terrain
        held, most = (terrain.areas, MAX_AREAS) if kind == "area" else (terrain.lights, MAX_LIGHTS)
        if len(held) + len(self._buffer) >= most:
            raise ValueError(f"the map already holds the most {kind}s it takes ({most})")
        return lambda: self._create(kind, square, radius, parsed, duration)

    def _cmd_create_area(self, x: object, y: object, radius_ft: object, level: object, duration: object
                         ) -> Callable[[], None]:
        return self._made("area", x, y, radius_ft, level, duration)

    def _cmd_create_light(self, x: object, y: object, radius_ft: object, level: object, duration: object
                          ) -> Callable[[], None]:
        return self._made("light", x, y, radius_ft, level, duration)

    def _create(self, kind: str, square: tuple[int, int], radius: float, level: Visibility, duration: int) -> None:
        state = self.battle.state
        effect_id = self.battle._power_use.new_effect_id()
        user = int(self._ctx.get("user", -1))
        effect = ActiveEffect(effect_id, str(self._ctx.get("power") or "script"), user, f"effect:{effect_id}",
                              state.round + duration)
        map_id = self.battle._new_map_id()
        if kind == "area":
            state.terrain.areas[map_id] = Area(square[0], square[1], radius, level, effect.source)
            effect.areas.append(map_id)
        else:
            state.terrain.lights[map_id] = Light(square[0], square[1], radius, level, effect.source)
            effect.lights.append(map_id)
        state.terrain.touch()
        state.effects[effect_id] = effect
        state.emit(AreaCreated(state.round, effect_id, kind, square[0], square[1], radius, level.name.lower()))


def _named(err: ScriptError, host_name: str, script: str) -> ScriptError:
    """The same error, told by the script's file name instead of the host's name for it."""
    return ScriptError(script, err.reason.replace(host_name, script), line=err.line, function=err.function,
                       kind=err.kind, steps=err.steps, detail=err.detail.replace(host_name, script))


def _plain_amount(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1_000_000:
        raise ValueError(f"{what} must be a whole number in 0..1000000, not {value!r}")
    return value
