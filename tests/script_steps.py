"""What the script host tests share: the bridge's methods and commands, an ordinary script, and a
fake game that answers the bridge the way the battle would."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.scripting import Limits, WorkerHost

METHODS = ("health", "damage", "heal", "glitch")
COMMANDS = frozenset({"damage", "heal"})
# 150 ctx calls stay within the step budget. The wall clock is only a backstop here: every hostile case
# ends by its steps (a step is no second), and at 1.0 s a busy machine stopped replace_grow's string
# doublings by the clock first ("timeout", not "budget"); the wall clock's own tests set their limits.
LIMITS = Limits(wall_seconds=10.0, max_bridge_calls=150)

ORDINARY = "assets/scripts/ordinary.star"
ORDINARY_SRC = '''
def on_use(ctx, amount):
    before = ctx.health(ctx.target)
    ctx.damage(ctx.target, amount)
    return {"before": before, "power": ctx.power, "round": ctx.round, "user": ctx.user}
'''


# --------------------------------------------------------------------------- fakes


@dataclass
class FakeGame:
    """A tiny stand-in for the battle facade: entity -> hp, plus a command buffer."""

    hp: dict[int, int] = field(default_factory=lambda: {1: 10, 2: 20, 3: 30})
    commands: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    reads: int = 0

    def bridge(self, method: str, args: tuple[Any, ...]) -> Any:
        """Dispatches like a real bridge would: ``getattr`` + ``*args`` (so a wrong
        arity is a TypeError), ValueError/LookupError for illegal requests."""
        return getattr(self, "_" + method)(*args)

    def _entity(self, e: Any) -> int:
        if type(e) is not int:
            raise ValueError(f"entity id must be an int, got {e!r}")
        if e not in self.hp:
            raise LookupError(f"unknown entity {e}")
        return e

    def _health(self, e: Any) -> int:
        self.reads += 1
        return self.hp[self._entity(e)]

    def _damage(self, e: Any, n: Any) -> None:
        self._entity(e)
        if type(n) is not int or n < 0:
            raise ValueError(f"illegal damage amount {n!r}")
        self.commands.append(("damage", (e, n)))

    def _heal(self, e: Any, n: Any) -> None:
        self.commands.append(("heal", (self._entity(e), n)))

    def _glitch(self) -> None:
        raise RuntimeError("bridge bug: dict changed size during iteration")


CTX = {"user": 1, "target": 2, "power": "fireball", "round": 2}


def ordinary_call(host: Any) -> None:
    """The 'next ordinary call succeeds' half of every hostile test."""
    game = FakeGame()
    result = host.call(ORDINARY, "on_use", (dict(CTX), 3), game.bridge)
    assert result == {"before": 20, "power": "fireball", "round": 2, "user": 1}
    assert game.commands == [("damage", (2, 3))]


#: The hostile scripts, one file a case, with the outcome each must have in ``cases.toml``.
HOSTILE_DIR = Path(__file__).resolve().parent / "data" / "hostile_host"
#: A script of the hostile suite that is slow when its budget is unbounded, for the worker's time-out tests.
HOG_SRC = (HOSTILE_DIR / "dag_equality.star").read_text(encoding="utf-8")
#: Limits no ordinary script reaches, so that only the wall clock stops a call.
UNBOUNDED = Limits(wall_seconds=5.0, max_bridge_calls=150, max_steps=10**9, round_steps=10**10,
                   battle_steps=10**11)


def ordinary_worker() -> WorkerHost:
    """A script worker with the test methods and commands, the ordinary script loaded (close it after)."""
    host = WorkerHost(methods=METHODS, commands=COMMANDS, limits=LIMITS)
    host.load(ORDINARY, ORDINARY_SRC)
    return host
