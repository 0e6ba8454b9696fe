"""The odds before you commit: what the hovered target, point or square would give, from the battle.

With a power chosen, hovering a creature or a square asks ``battle.forecast`` (hit chance, damage,
who an area catches, cover and roll mode with their reasons); with none, hovering a square asks
``battle.forecast_move`` (the real path, its cost, a fall). The answers are kept in the
:class:`game.render.ui.UiState` for the renderer to show; nothing here computes a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from components import Position
from game.play.orders import needs_aim

if TYPE_CHECKING:
    from game.play.app import App


def power_forecast(app: App, user: int, power_id: str, square: tuple[int, int]) -> Any:
    """``battle.forecast`` of the chosen power aimed where the mouse is (None: nothing to aim at),
    as the person's team is told it: the enemies it cannot see count as absent (``unseen``), so a push
    stopped short by one of them does not show where it stands."""
    b, unseen = app.battle, app.ui.hidden
    try:
        power = b.power(power_id)
        if not needs_aim(power):  # on the user or centred on it: the mouse does not aim it
            return b.forecast(user, power_id, unseen=unseen)
        if power.single_target:
            target = app.creature_at(square)
            if target is None:
                return None
            return b.forecast(user, power_id, target=target, unseen=unseen)
        return b.forecast(user, power_id, point=square, unseen=unseen)
    except (KeyError, ValueError):
        return None


def script_foresight(app: App, user: int, forecast: Any) -> tuple[Any, ...] | None:
    """What the power's script would add (``battle.foresee_script``): its ``on_use``, then its
    ``on_hit`` on each creature the use reaches; None when it has no script or one is not foreseen."""
    if forecast is None or not forecast.scripted or not forecast.legal:
        return None
    b = app.battle
    aim = (forecast.target, forecast.point)
    asked = [b.foresee_script(user, forecast.power, *aim)]
    asked += [b.foresee_script(user, forecast.power, *aim, hit=t.target) for t in forecast.targets]
    return tuple(asked) if all(f.known for f in asked) else None


def move_forecast(app: App, entity: int, square: tuple[int, int]) -> Any:
    """``battle.forecast_move`` to the hovered square (None on the creature's own or a taken one)."""
    b = app.battle
    if square == b.get(entity, Position).square or app.creature_at(square) is not None:
        return None
    try:
        return b.forecast_move(entity, square, unseen=app.ui.hidden)
    except (KeyError, ValueError):
        return None


def update(app: App) -> None:
    """Ask the battle again what the hovered square would give the creature whose turn it is."""
    ui = app.ui
    ui.forecast = ui.move_preview = ui.foresight = None
    user, square = ui.selected, ui.hover
    if user is None or square is None or not app.may_order(user):
        return
    if ui.power is not None:
        ui.forecast = power_forecast(app, user, ui.power, square)
        ui.foresight = script_foresight(app, user, ui.forecast)
    else:
        ui.move_preview = move_forecast(app, user, square)
