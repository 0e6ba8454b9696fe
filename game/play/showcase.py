"""The demo's showcase: the window played as a person would, photographed at the moments that matter.

``make demo`` writes these beside its round pictures: the window application itself
(:class:`game.play.app.App`, drawing off-screen) is driven only through its inputs (hover, keys,
clicks, the clock), the way ``tests/window_steps.py`` drives it, so each picture is what a person
would see at that moment:

* ``demo-move-preview.png``: a creature's move hovered: the core's path, its cost, a fall warning;
* ``demo-walk.png``: that move under way, the token on its path;
* ``demo-tooltip.png``: a power chosen and a target hovered: the forecast (odds, damage, reasons);
* ``demo-damage.png``: a blow landed, its number floating over the target;
* ``demo-fog.png`` and ``demo-fog-gm.png``: the keep at night as its defenders see it (raiders
  out of sight not drawn) and as the GM does (G);
* ``demo-end.png``: the banner when one side is left standing.

A picture whose moment never came is not written; :func:`run` returns those it wrote.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from components import Position
from game.play import demo
from game.play.app import App
from game.play.headless import DEMO_SEED, clear_unwritten, write_out
from game.render.inputs import Click, Hover, Key

SIZE = (1280, 800)
#: The most rounds the showcase's battle is played for its end banner.
MAX_ROUNDS = 40


def _app(path: Path, seed: int) -> App:
    loaded = demo.load(path, human=True)
    app = App(loaded.battle, loaded.human_teams, loaded.team_colours, loaded.scenario, loaded.build_commands,
              seed=seed, title=loaded.title, powers=loaded.powers)
    app.open_window(SIZE, offscreen=True)
    return app


def _shoot(app: App, path: Path, shots: list[Path]) -> None:
    app.animate()
    assert app.window is not None
    window = app.window
    write_out(lambda to: window.screenshot(str(to), app.ui), path)  # type: ignore[attr-defined]  # off-screen
    shots.append(path)


def _watch(app: App) -> None:
    """Let the animations play out, as a person watching would (the clock stepped, not waited)."""
    for _ in range(200):
        if not app.motion.busy:
            return
        app.tick_clock(0.1)


def _to_persons_turn(app: App) -> bool:
    """Enter until one of the person's creatures acts, then watch what the computer did (False: the
    battle ended first)."""
    for _ in range(50):
        if app.flow.human_turn():
            _watch(app)
            return True
        if app.winner() is not None:
            return False
        app.handle(Key("return"))
    return False


def _preview_square(app: App, actor: int) -> tuple[int, int] | None:
    """A square to hover whose move preview has a path of a few squares, one with a fall if any."""
    b = app.battle
    here = b.get(actor, Position).square
    squares = sorted(((int(x), int(y)) for x, y in zip(*b.reachable(actor).nonzero(), strict=True)),
                     key=lambda s: -max(abs(s[0] - here[0]), abs(s[1] - here[1])))
    found = None
    for square in squares:
        app.handle(Hover(square))
        preview = app.ui.move_preview
        if preview is None or not preview.legal or len(preview.path) < 3:
            continue
        if preview.fall is not None and preview.fall.damage.high > 0:
            return square
        found = found or square
    return found


def _target(app: App, actor: int) -> tuple[int, int] | None:
    """Power 1 chosen and an enemy hovered whose forecast is a legal use (None: none is)."""
    b = app.battle
    app.handle(Key("1"))
    if app.ui.power is None:
        return None
    for enemy in b.creatures():
        if b.team(enemy) == b.team(actor) or not b.is_alive(enemy) or not app.ui.shows(enemy):
            continue
        square = b.get(enemy, Position).square
        app.handle(Hover(square))
        if app.ui.forecast is not None and app.ui.forecast.legal:
            return square
    app.handle(Key("escape"))
    return None


def _hit_showing(app: App) -> bool:
    """A damage number is floating now."""
    return app.ui.motion is not None and any(m.kind == "hit" or m.text.startswith("fall -")
                                             for m in app.ui.motion.marks)


def _persons_round(app: App, out: Path, shots: list[Path]) -> None:
    """The person's turns of the first round: a move previewed and walked, a power aimed and used."""
    done: set[str] = set()
    while _to_persons_turn(app) and app.battle.round == 1:
        actor = app.flow.actor
        assert actor is not None
        if "tooltip" not in done and (square := _target(app, actor)) is not None:
            _shoot(app, out / "demo-tooltip.png", shots)
            done.add("tooltip")
            app.handle(Click(square))
            app.tick_clock(0.15)
            if _hit_showing(app) and "damage" not in done:
                _shoot(app, out / "demo-damage.png", shots)
                done.add("damage")
        elif "move" not in done and (square := _preview_square(app, actor)) is not None:
            app.handle(Hover(square))
            _shoot(app, out / "demo-move-preview.png", shots)
            app.handle(Click(square))
            app.handle(Hover(None))
            app.tick_clock(0.0)
            app.tick_clock(0.14)
            _shoot(app, out / "demo-walk.png", shots)
            done.add("move")
        app.handle(Key("space"))


def _computer_to_the_end(app: App, out: Path, shots: list[Path]) -> None:
    """The computer plays every side, a turn a delay apart, to the end (a number photographed on the
    way if none was yet), then the banner."""
    app.ui.human_teams = frozenset()
    app.refresh()
    want_damage = not any(p.name == "demo-damage.png" for p in shots)
    for _ in range(MAX_ROUNDS * 10):
        if app.ui.banner or app.flow.over():
            break
        app.tick_clock(app.flow.delay)
        app.tick_clock(0.1)
        if want_damage and _hit_showing(app):
            _shoot(app, out / "demo-damage.png", shots)
            want_damage = False
    if app.ui.banner:
        app.handle(Key("backspace"))
        _shoot(app, out / "demo-end.png", shots)


def _fog(out: Path, shots: list[Path], seed: int) -> None:
    """The keep at night: what its defenders see, then the GM view (G)."""
    app = _app(demo.DEMO_SCENARIO.with_name("keep.toml"), seed)
    try:
        _to_persons_turn(app)
        if app.ui.hidden:
            _shoot(app, out / "demo-fog.png", shots)
            app.handle(Key("g"))
            _shoot(app, out / "demo-fog-gm.png", shots)
    finally:
        _close(app)


def _close(app: App) -> None:
    if app.window is not None:
        app.window.close()


def run(out: Path, seed: int = DEMO_SEED) -> list[Path]:
    """Play the demo scenario as a person on the human side would, and the keep for its fog; write
    the pictures to ``out`` (see the module's list) and return those written; pictures of an older
    showcase that this one did not write are cleared once it is done.

    Raises:
        PlayError: a picture cannot be written (the last run's are then left as they were).
    """
    shots: list[Path] = []
    app: Any = _app(demo.DEMO_SCENARIO, seed)
    try:
        _persons_round(app, out, shots)
        _computer_to_the_end(app, out, shots)
    finally:
        _close(app)
    _fog(out, shots, seed)
    clear_unwritten(out, "demo-*.png", shots)
    return shots
