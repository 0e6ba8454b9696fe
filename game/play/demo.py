"""The demo: a short computer-vs-computer battle that shows every rule the core implements.

With a display it opens the window and plays itself; without one it plays headless, writes a PNG
per round and the combat log, and returns the log so the caller can print it. The battle comes from
``assets/scenarios/demo.toml`` (a file that does not load is an error, never some other battle), and
a small "director" adds the beats a short random fight might not produce on its own (someone steps
off the ledge), so the demo always shows a fall, a surprise, a torch in the dark, cover and a death.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from components.events import Died, Spawned
from components.values import counted
from game.ai import DEFAULT_POLICY
from game.battle.log_lines import round_prefix
from game.content.powers import ASSETS
from game.play.headless import DEFAULT_ROUNDS, DEMO_SEED

DEMO_SCENARIO = ASSETS / "scenarios" / "demo.toml"


@dataclass
class Demo:
    """A battle ready to play, with what the window and the saves need to know about it."""

    battle: Any
    title: str
    team_colours: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    human_teams: frozenset[str] = frozenset()
    scenario: Any = None
    build_commands: int = 0
    powers: dict[int, tuple[str, ...]] | None = None
    ids: dict[str, int] = field(default_factory=dict)


def has_display() -> bool:
    """Whether a window can open: a display server is named, it is there, and SDL is not told to draw
    nowhere. A ``DISPLAY`` naming a local X server whose socket is missing counts as none: SDL would
    fall back to drawing off screen, and a window nobody sees would play on forever."""
    if os.environ.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return False
    wayland = os.environ.get("WAYLAND_DISPLAY", "")
    if wayland:
        folder = os.environ.get("XDG_RUNTIME_DIR", "")
        if os.path.exists(wayland if os.path.isabs(wayland) else os.path.join(folder, wayland)):
            return True
    display = os.environ.get("DISPLAY", "")
    if not display:
        return False
    host, _, rest = display.rpartition(":")
    if host not in ("", "unix") or not rest.split(".")[0].isdigit():
        return True  # a remote or forwarded display (ssh -X): SDL finds out
    return os.path.exists(f"/tmp/.X11-unix/X{rest.split('.')[0]}")


def team_colours(scenario: Any) -> dict[str, tuple[int, int, int]]:
    """Team -> RGB as the scenario's teams give them (``colour``); each other team, in the order the
    file declares them, the window's next palette colour that no team has, nor one near it (as the window gives a team
    it meets first, ``Renderer.colour_of``): what the window, a hot reload and the replay window draw
    the tokens in (the one palette: ``theme.TEAM_COLOURS``)."""
    from game.render import theme  # only the palette and its parser: importing it loads no pygame

    teams = getattr(scenario, "teams", {}) or {}
    colours = {name: theme.parse_colour(team.colour, theme.TEAM_COLOURS[0])
               for name, team in teams.items() if getattr(team, "colour", None)}
    free = theme.unused_colours(colours.values())
    for index, name in enumerate(name for name in teams if name not in colours):
        colours[name] = free[index % len(free)]
    return colours


def human_teams(scenario: Any) -> frozenset[str]:
    """The teams a scenario marks ``control = "human"``: the ones the person plays."""
    teams = getattr(scenario, "teams", {}) or {}
    return frozenset(name for name, team in teams.items() if getattr(team, "control", "") == "human")


def load(path: str | Path, human: bool = True, seed: int | None = None) -> Demo:
    """A scenario file as a :class:`Demo`; ``human`` hands the teams marked human to the player;
    ``seed`` replaces the scenario's own battle seed."""
    from game.content.scenario import load_scenario

    scenario = load_scenario(path)
    battle, ids = scenario.build_with_ids(seed)
    humans = human_teams(scenario) if human else frozenset()
    return Demo(battle, scenario.name, team_colours(scenario), humans, scenario, len(battle.command_log),
                listed_powers(scenario, ids), ids)


def listed_powers(scenario: Any, ids: dict[str, int]) -> dict[int, tuple[str, ...]] | None:
    """Each creature's powers as its scenario lists them (for keys 1-9 and the AI), None where no
    creature lists any (then each may use every power, as the battle allows)."""
    return {e: p for e, p in scenario.powers_by_entity(ids).items() if p} or None


def built_ids(scenario: Any, battle: Any) -> dict[str, int]:
    """Each creature key's entity in a battle built from ``scenario``, read from the battle's own record:
    its build spawns the scenario's creatures in their order, one ``Spawned`` each. A battle a save
    rebuilt has no ``build_with_ids`` answer to keep, and its creatures' powers are the save's
    scenario's, not those of the file as it is on disk now."""
    spawned = [event.entity for event in battle.events if isinstance(event, Spawned)]
    return {spec.key: entity for spec, entity in zip(scenario.creatures, spawned)}


def build() -> Demo:
    """The demo battle, from its scenario file (``assets/scenarios/demo.toml``), with no human team.

    Raises:
        game.content.scenario.ScenarioError: the file is missing or does not load (it ships with the
            project: an error names it rather than playing some other battle).
    """
    demo = load(DEMO_SCENARIO, human=False)
    demo.human_teams = frozenset()
    return demo


def _ledge_jumper(demo: Demo) -> tuple[int, tuple[int, int]] | None:
    """The first creature in turn order with a move that ends in a fall, and the square: one whose fall
    hurts by preference (the battle's forecast says; a short drop onto hay does not)."""
    b = demo.battle
    for e in b.turn_order():
        falls = [(square, f.fall) for square, f in sorted(b.forecast_moves(e).items())
                 if f.legal and f.fall is not None and f.stops_at == square]
        for hurts in (True, False):
            found = [square for square, fall in falls if (fall.dice > 0) == hurts]
            if found:
                return e, found[0]
    return None


def _cover_seeker(demo: Demo) -> tuple[int, tuple[int, int]] | None:
    """A creature that can step to a square where an enemy sees it but a wall gives it cover from that
    enemy (the battle's move forecasts and sight say)."""
    b = demo.battle
    for e in b.turn_order():
        if not b.can_act(e):
            continue
        for square, forecast in sorted(b.forecast_moves(e).items()):
            if forecast.legal and forecast.stops_at == square and any(
                    covered and b.can_see(enemy, square) for enemy, covered in forecast.cover):
                return e, square
    return None


def director(demo: Demo) -> set[int]:
    """The scripted beats the computer players would not play on their own: in round 1 a creature
    on the ledge leaps down (the AI avoids drops), in round 2 one ducks behind a wall (the AI goes for
    the fight, not for cover).

    Returns the creatures the director gave orders to, so the AI leaves them alone this round.
    """
    b = demo.battle
    if b.round == 1:
        duck = _cover_seeker(demo)
        if duck is not None:
            try:
                b.move(duck[0], *duck[1])
                return {duck[0]}
            except ValueError:
                return set()
    if b.round != 0:
        return set()
    jump = _ledge_jumper(demo)
    if jump is None:
        return set()
    entity, square = jump
    try:
        b.move(entity, *square)
    except ValueError:
        return set()
    return {entity}


def scene_lines(battle: Any) -> list[str]:
    """What the events do not say: the light, the map's lights and areas (named by their level: a light
    is not always a torch, nor an area fog) and its walls."""
    from components import Visibility
    from systems.rolls import light_effects

    terrain = battle.terrain
    effects = ", ".join(light_effects(terrain.ambient, battle.rules))
    lines = [f"Scene: the light is {Visibility(terrain.ambient).word} ({effects})"]
    for light in terrain.lights.values():
        lines.append(f"Scene: a light at ({light.x}, {light.y}) lights {light.radius_ft:g} ft around it "
                     f"({Visibility(light.level).word})")
    for area in terrain.areas.values():
        lines.append(f"Scene: an area of {Visibility(area.level).word} at ({area.x}, {area.y}), {area.radius_ft:g} ft")
    walls = int(terrain.walls.sum())
    if walls:
        lines.append(f"Scene: {walls} wall squares block movement and sight and give cover "
                     f"(+{battle.rules.cover_bonus} Defense)")
    return lines


def cover_lines(battle: Any, told: set[tuple[int, int]] | None = None, who: Iterable[int] | None = None
                ) -> list[str]:
    """Who ended the round in cover from an enemy that can see it (``defense_against`` adds the bonus
    against that enemy only; the cover of a wall or of an arrow slit's stone alike); with ``told``,
    each pair is told once, when it first happens; with ``who``, only those creatures are looked at."""
    lines = []
    for e in battle.creatures() if who is None else who:
        if not battle.can_act(e):
            continue
        for enemy in battle.creatures():
            if battle.team(enemy) == battle.team(e) or not battle.is_alive(enemy):
                continue
            if (told is not None and (e, enemy) in told) or not battle.can_see(enemy, e) \
                    or not battle.has_cover(e, enemy):
                continue
            if told is not None:
                told.add((e, enemy))
            lines.append(f"{round_prefix(battle.round)}{battle.display_name(e)} has cover from "
                         f"{battle.display_name(enemy)} (+{battle.rules.cover_bonus} Defense against it: "
                         f"{battle.defense_against(e, enemy)})")
    return lines


def play_round(demo: Demo, seed: int, policy: str = DEFAULT_POLICY, told: set[tuple[int, int]] | None = None
               ) -> list[str]:
    """One round: combat starts if needed, the director's beat, every creature's AI turn, the tick.

    Each turn's computer draws from ``ai.turn_rng(seed, round, creature)``, as the window's do, so a
    rewound round plays again the same way.

    Returns:
        The cover the director's beat gave, said as soon as the creature stands there (``cover_lines``
        with ``told``, at the next creature's turn): by the round's end the enemies have moved, and
        one that no longer sees it gives the log nothing to say.
    """
    from game import ai

    b = demo.battle
    if not b.in_combat:
        b.start_combat()
    directed = director(demo)
    computer = ai.controller(policy, None, demo.powers, controls=lambda e: e not in directed, seed=seed)
    waiting = {e: b.square_of(e) for e in directed} if told is not None else {}
    ducked: list[str] = []

    def controller(battle: Any, entity: int) -> None:
        for moved in [e for e, start in waiting.items() if battle.square_of(e) != start]:
            del waiting[moved]
            ducked.extend(cover_lines(battle, told, [moved]))
        computer(battle, entity)

    b.tick(controller=controller)
    return ducked


def finished(battle: Any) -> bool:
    """The battle is decided (:meth:`~game.battle.facade.Battle.winner`, the one answer) and someone
    has died: the demo plays on past a last stand of downed creatures to show a death in its log."""
    return battle.winner() is not None and any(isinstance(e, Died) for e in battle.events)


def _played_with_pictures(demo: Demo, shots_taken: Any, out: Path, max_rounds: int, seed: int, policy: str,
                          shots: int) -> list[str]:
    """The demo's rounds, a picture of the first few and the last, and the log; then the pictures of
    a longer last run that this one did not write are cleared (a run that fails keeps the old ones).

    Raises:
        PlayError: a picture or the log cannot be written.
    """
    from game.battle.log import format_events
    from game.play import headless

    written = [out / "round-00.png"]
    headless.write_out(shots_taken.save, written[0])
    lines = scene_lines(demo.battle)
    seen = 0
    told: set[tuple[int, int]] = set()
    try:
        for _ in range(max_rounds):
            ducked = play_round(demo, seed, policy, told)
            events = demo.battle.state.events
            lines += format_events(demo.battle, events[seen:]) + ducked + cover_lines(demo.battle, told)
            seen = len(events)
            done = finished(demo.battle)
            if demo.battle.round <= shots or done:
                said = f"Round {demo.battle.round}: computer vs computer ({policy})"
                written.append(out / f"round-{demo.battle.round:02d}.png")
                headless.write_out(partial(shots_taken.save, message=said), written[-1])
            if done:
                break
    except KeyboardInterrupt:
        ended = [*lines, f"Interrupted in round {demo.battle.round}"]
        raise headless.keep_only_this_run(out, ended, written, headless.DEMO_OUTPUTS) from None
    won = demo.battle.winner()
    rounds = counted(demo.battle.round, "round")
    lines.append(f"End: {won} won after {rounds}" if won else f"End: no side had won after {rounds}")
    headless.write_log(out / "combat-log.txt", lines)
    headless.clear_unwritten(out, "round-*.png", written)
    return lines


def run_headless(out_dir: str | Path = "out", max_rounds: int = DEFAULT_ROUNDS, seed: int = DEMO_SEED,
                 policy: str = DEFAULT_POLICY, shots: int = 6) -> list[str]:
    """Play the demo without a window: a PNG of the first rounds and the last, and the log file;
    then the showcase's pictures of the window as a person plays it (``game.play.showcase``).

    Returns:
        The combat log lines (also written to ``out_dir/combat-log.txt``).

    Raises:
        PlayError: ``policy`` is refused (nothing in ``out_dir`` is touched), or a file cannot be written.
    """
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.play import headless
    from game.render.shots import Screenshots

    headless.quiet_signals()

    demo = build()
    out = Path(out_dir)
    headless.ready(demo.battle, policy, "the demo", out)  # before anything is written
    with headless.hold(out, demo.battle):  # until its last picture is written
        shots_taken = Screenshots(demo.battle, (1280, 800), demo.team_colours, demo.powers, demo.title,
                                  demo.human_teams)
        try:
            lines = _played_with_pictures(demo, shots_taken, out, max_rounds, seed, policy, shots)
        finally:
            shots_taken.close()
            demo.battle.close()
        from game.play import showcase  # the window played as a person would: out/demo-*.png

        showcase.run(out, seed)
    return lines


def run_window(policy: str = DEFAULT_POLICY, seed: int = DEMO_SEED, seconds_per_round: float = 1.5) -> None:
    """Open the window on the demo and let the computer play both sides, a round every few seconds.

    Raises:
        PlayError: ``policy`` is not a policy or names a team the demo does not have.
    """
    from game.play import headless
    from game.play.app import App

    demo = build()
    headless.ready(demo.battle, policy, "the demo", None)

    def directed_round(battle: Any) -> None:
        demo.battle = battle  # after Ctrl+L the window plays the loaded battle
        play_round(demo, seed, policy)

    def tell(app: App) -> None:
        app.ui.message = f"Round {app.battle.round} played (Space: next round now, ?: help)"

    app = App(demo.battle, frozenset(), demo.team_colours, demo.scenario, demo.build_commands,
              policy=policy, seed=seed, title=demo.title, powers=demo.powers, play_round=directed_round)
    app.on_turn_end.append(tell)
    app.run(autoplay_seconds=seconds_per_round, max_rounds=40)
