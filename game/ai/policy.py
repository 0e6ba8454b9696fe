"""Computer players: plan a creature's turn as a list of Battle commands, then issue them.

Plans are plain ``(method_name, args, kwargs)`` triples, the same shape as ``Battle.command_log``,
so a caller can inspect, log or replay them before (or instead of) issuing them. Every plan is
checked against what the battle itself reports, so issuing it should never raise: the simulation
runner counts a refused command as a finding rather than failing the battle. A plan that must see
the board settle before it goes on (after a fall) holds a ``resolve_orders``: a turn is played by
:func:`decisions`, which looks again there.

No pygame and no global ``random`` here: the runner is headless, and a battle replays only if every
random choice comes from a generator the caller seeded.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from components import Falling
from game.ai import tactical
from game.ai.baseline import PLANNERS, expected_of
from game.ai.board import Command, View, area_expected, area_victims, can_act
from game.ai.tactical import SETTLE, Decision
from systems.vitals import takes_its_turn

#: Every policy, with what it does in two lines (the README and ``--help`` show these).
POLICY_HELP: Mapping[str, str] = MappingProxyType({
    "tactical": "weighs a few squares it could end on by the battle's forecasts: damage it deals (kills, shoves "
                "off ledges, areas without friends),\nheals and conditions, against what the enemies could do "
                "to it there (cover, light, reach); acts then falls back, or moves then acts.",
    "greedy": "the fixed baseline: the most expected damage now, else the nearest square with an enemy in reach;"
              "\nnever ends a move below a ledge that hurts (its way may cross one); ignores heals, areas near friends,"
              " threats and falls it causes.",
    "random": "one legal action drawn from the seeded generator: nothing, a use that harms an enemy, standing up"
              "\nor a move to any reachable square (never a heal, light or flight): the floor any player should beat.",
})
POLICIES = tuple(POLICY_HELP)
#: The computer player a battle gets unless told otherwise: play, the demo, simulate and the API alike.
DEFAULT_POLICY = "tactical"


def parse_policies(spec: str) -> dict[str, str]:
    """A policy for every team (``"tactical"``) or per team (``"keep=tactical,raiders=greedy"``), as
    ``team -> policy`` with ``""`` for the teams not named (tactical unless the spec says otherwise).

    Raises:
        ValueError: an unknown policy, a team named twice or without a policy, in one line.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"policy {spec!r}: expected one of {', '.join(POLICIES)}, or TEAM=POLICY,TEAM=POLICY")
    if "=" not in spec:
        if spec.strip() not in POLICIES:
            raise ValueError(f"unknown AI policy {spec!r}: expected one of {', '.join(POLICIES)}")
        return {"": spec.strip()}
    found = {"": DEFAULT_POLICY}
    for part in spec.split(","):
        team, _, policy = (p.strip() for p in part.partition("="))
        if not team or policy not in POLICIES:
            raise ValueError(f"policy {part.strip()!r}: expected TEAM=POLICY with POLICY one of {', '.join(POLICIES)}")
        if team in found:
            raise ValueError(f"policy: team {team!r} is given twice")
        found[team] = policy
    return found


def policies_for(spec: str, teams: Iterable[str], where: str) -> dict[str, str]:
    """:func:`parse_policies` for a battle with these ``teams`` (``where``: its file, for the message).

    Raises:
        ValueError: a spec :func:`parse_policies` refuses, or one that names a team the battle does
            not have (a typo would otherwise leave that side to the default policy unnoticed).
    """
    policies = parse_policies(spec)
    known = set(teams)
    unknown = sorted(set(policies) - {""} - known)
    if unknown:
        raise ValueError(f"--policy names team {unknown[0]!r}, which {where} does not have; "
                         f"its teams: {', '.join(sorted(known))}")
    return policies


def policy_of(policies: Mapping[str, str], team: str) -> str:
    """The policy a team plays under (see :func:`parse_policies`)."""
    return policies.get(team, policies[""])


def turn_rng(seed: int, round_no: int, entity: int) -> random.Random:
    """The generator a computer player draws from for one creature's turn, derived from the seed,
    the round and the creature alone.

    Why: a window that rewinds to a round (or a replay stepped back and played on) must see the
    computer choose again exactly as it did; one generator shared across turns would be wherever
    the turns before it left it. String seeds hash with SHA-512, the same in every process.
    """
    return random.Random(f"turn:{seed}:{round_no}:{entity}")


def plan_turn(battle: Any, entity: int, policy: str = DEFAULT_POLICY, rng: random.Random | None = None,
              reserved: set[tuple[int, int]] | None = None,
              powers: Mapping[int, Sequence[str]] | None = None) -> list[Command]:
    """Plan one creature's turn without changing the battle.

    Args:
        battle: the battle.
        entity: the creature to plan for.
        policy: "tactical" (every move and use weighed by the battle's forecasts, see POLICY_HELP),
            "greedy" (most expected damage now) or "random" (a legal action that may harm an enemy, drawn by lot).
        rng: the caller's seeded generator (only "random" draws from it); a fixed seed if None, so
            a plan never depends on hidden global state.
        reserved: squares other creatures already plan to move into this round (kept free).
        powers: entity -> the power ids it may use (a scenario's ``powers_by_entity``); by default
            whatever ``battle.powers_of`` allows.

    Returns:
        ``(method_name, args, kwargs)`` commands, empty when the creature cannot or need not act; what
        follows a ``resolve_orders`` in them is the plan as it stands now (:func:`decisions` looks again).
    """
    return list(decide(battle, entity, policy, rng, reserved, powers).commands)


def decide(battle: Any, entity: int, policy: str = DEFAULT_POLICY, rng: random.Random | None = None,
           reserved: set[tuple[int, int]] | None = None,
           powers: Mapping[int, Sequence[str]] | None = None) -> Decision:
    """:func:`plan_turn` with the reason for it (the tactical player says why; the others say which
    policy chose)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown AI policy {policy!r}: expected one of {', '.join(POLICIES)}")
    rng = rng if rng is not None else random.Random(0)
    if not battle.is_alive(entity):  # a facade entry: checks the id and makes this battle's world current
        return Decision((), "not alive")
    allowed = None if powers is None else powers.get(entity)
    if policy == "tactical":  # it reads the board through the forecasts: no baseline view to build
        if not takes_its_turn(battle.conditions(entity), battle.get(entity, Falling)):
            return Decision((), "cannot act")
        return tactical.plan(battle, entity, reserved, allowed)
    view = View(battle, entity, allowed)
    if not can_act(view) or not view.enemies:
        return Decision((), "cannot act" if view.enemies else "no enemy left")
    commands = until_it_falls(battle, entity, PLANNERS[policy](view, rng, reserved if reserved is not None else set()))
    return Decision(tuple(commands), described(view, policy, commands))


#: How many times a turn settles and goes on at most (each settle spends a move or a use: a bound, not a rule).
MOST_SETTLES = 4


def decisions(battle: Any, entity: int, policy: str = DEFAULT_POLICY, rng: random.Random | None = None,
              reserved: set[tuple[int, int]] | None = None,
              powers: Mapping[int, Sequence[str]] | None = None) -> Iterator[Decision]:
    """One creature's turn as the decisions it makes, one after another: issue each one's commands
    (in order) before asking for the next. Every caller that plays a computer's turn plays it so: the
    simulations' runner, the window's and the headless play's computer seats, ``act`` and ``controller``.

    A plan that settles (its :data:`SETTLE` order, ``resolve_orders``: after a move whose walk falls,
    a blink, a flight) ends a decision there; once it has been issued the rest of the plan is looked at
    again on the board as it has settled, as XCOM plays a turn (move, see, then act): nothing more if
    the creature can no longer act (the fall downed it), the rest as planned if its next order is still
    legal (the battle's forecast of it, the same check the order meets when given), and else a new plan
    from where it stands, with what its moves spent (:func:`decide` again). Why: an order planned
    before a fall was refused when the fall downed its creature (35 in 100 gauntlet battles), and one
    given up for any chance of that lost likely blows to unlikely falls.

    A plan with no settle (most: no fall on its way) is one decision, planned as it always was.
    """
    decision = decide(battle, entity, policy, rng, reserved, powers)
    for _ in range(MOST_SETTLES):
        commands = decision.commands
        cut = next((i + 1 for i, c in enumerate(commands[:-1]) if c[0] == SETTLE), None)
        if cut is None:
            break
        yield Decision(commands[:cut], decision.why)
        rest = commands[cut:]
        if not battle.can_act(entity):
            return
        if still_legal(battle, entity, rest[0]):
            decision = Decision(rest, "")  # (said with the plan: nothing new to explain)
        else:
            again = decide(battle, entity, policy, rng, reserved, powers)
            decision = Decision(again.commands, _again(again))
    yield decision


def _again(decision: Decision) -> Callable[[], str]:
    """The reason of a plan made again after the board settled, put into words when read."""
    return lambda: f"after that, plans again: {decision.why}"


def still_legal(battle: Any, entity: int, command: Command) -> bool:
    """Whether the battle would take ``command`` from ``entity`` now, by its own forecasts: a use by
    ``Battle.forecast`` (the checks ``use_power`` makes), a move by ``Battle.forecast_move``; any other
    order as the plan gave it (the battle refuses it when given, and the caller counts that)."""
    name, args, kwargs = command
    if name == "use_power":
        return bool(battle.forecast(args[0], args[1], target=kwargs.get("target"), point=kwargs.get("point"),
                                    direction=kwargs.get("direction")).legal)
    if name == "move":
        return bool(battle.forecast_move(entity, (int(args[1]), int(args[2])), cover=False).legal)
    return True


def until_it_falls(battle: Any, entity: int, commands: list[Command]) -> list[Command]:
    """A baseline's plan, cut after a move whose walk does not end on its goal (it steps off a ledge
    short of it and lands there, or its fall goes on into the next round), and before a move the
    turn would refuse (its walk would land it on another creature).

    Why: the baselines plan what follows a move from the move's goal, and weigh no falls (greedy only
    keeps off a goal whose drop would hurt); from where the walk lands instead that order may not
    reach, and after a fall into the next round the turn refuses everything ("it is falling").
    Greedy is the fixed yardstick: its choice is kept as it is, and only what cannot go as planned is
    left out. Each move is asked about by ``Battle.queued_stop`` with the plan's moves so far (no
    forecast: on level ground it is a cached path cost a move, where a move's forecast cost greedy
    3.7% more instructions a battle); a move that leaves it where it was was refused.
    """
    moves: list[tuple[int, int]] = []  # the plan's moves so far (a way in two legs)
    was = None
    for at, (name, args, _) in enumerate(commands):
        if name == "move":
            if was is None:
                was = battle.queued_stop(entity)[0]
            goal = (int(args[1]), int(args[2]))
            moves.append(goal)
            stop, falling = battle.queued_stop(entity, moves)
            if stop == was and goal != was:
                return commands[:at]  # the walk would land on someone: the turn refuses it
            if at < len(commands) - 1 and (falling is not None or stop != goal):
                return commands[:at + 1]
            was = stop
    return commands


def described(view: View, policy: str, commands: Sequence[Command]) -> str:
    """What a baseline's plan does, in a few words for ``--explain``: its moves, and each power with
    its target and the damage the baseline itself expected of it (the baselines weigh nothing else).
    That count is the fixed baseline's own and rough (a power's own attack bonus left out, a save
    taken as half the dice): said so, since it differs from the battle's forecast."""
    battle, parts = view.battle, []
    for name, args, kwargs in commands:
        if name == "move":
            parts.append(f"moves to ({args[1]}, {args[2]})")
        elif name == "use_power":
            aim = kwargs.get("target")
            at = f" at {battle.display_name(aim)}" if aim is not None else \
                f" at {tuple(kwargs['point'])}" if "point" in kwargs else ""
            expected = expected_of(view, (name, args, kwargs)) if aim is not None else \
                _area_expected(view, args[1], kwargs)
            parts.append(f"{battle.power(args[1]).name}{at}"
                         + (f" ({expected:.1f} expected by its own rough count)" if expected else ""))
        else:
            parts.append("stands up" if name == "stand" else name.replace("_", " "))
    return f"{policy}: " + ("; ".join(parts) if parts else "does nothing")


def _area_expected(view: View, power_id: str, kwargs: Mapping[str, Any]) -> float:
    """The damage the baseline expected of an area use it chose, by its own sum over the enemies
    caught (areas are weighed only from where the creature stands); only the chosen aim is asked."""
    point = kwargs.get("point")
    info = view.caches.power_info(view.battle, power_id)
    victims = area_victims(view, info, None if point is None else (int(point[0]), int(point[1])))
    return area_expected(view, info, victims) if victims else 0.0


def issue(battle: Any, commands: Iterable[Command]) -> list[Command]:
    """Issue planned commands on the battle, in order; returns them."""
    issued = []
    for name, args, kwargs in commands:
        getattr(battle, name)(*args, **kwargs)
        issued.append((name, args, kwargs))
    return issued


def act(battle: Any, entity: int, policy: str = DEFAULT_POLICY, rng: random.Random | None = None,
        reserved: set[tuple[int, int]] | None = None,
        powers: Mapping[int, Sequence[str]] | None = None) -> list[Command]:
    """Plan and issue one creature's turn (see :func:`decisions`: it looks again after a fall); returns
    what was issued."""
    issued: list[Command] = []
    for decision in decisions(battle, entity, policy, rng, reserved, powers):
        issued += issue(battle, decision.commands)
    return issued


class TeamController:
    """A turn controller that names the teams its policy is for (``teams_named``), so that ``tick``
    refuses it before a round begins when one is not in the battle: a misspelt team would otherwise
    be left to the default policy unnoticed."""

    __slots__ = ("play", "teams_named")

    def __init__(self, play: Callable[[Any, int], None], teams_named: frozenset[str]) -> None:
        self.play = play
        self.teams_named = teams_named

    def __call__(self, battle: Any, entity: int) -> None:
        self.play(battle, entity)


def controller(policy: str = DEFAULT_POLICY, rng: random.Random | None = None,
               powers: Mapping[int, Sequence[str]] | None = None,
               controls: Callable[[int], bool] | None = None, seed: int | None = None) -> TeamController:
    """A turn controller for ``Battle.tick(controller=...)``: plans each creature's turn when it comes.

    Deciding at the creature's own turn means it sees the board as it is then (who moved, who fell),
    so its attacks aim at where their targets really are.

    Args:
        policy: one policy for every team, or one per team (see :func:`parse_policies`).
        controls: which creatures this player runs (default: all of them).
        seed: each turn draws from :func:`turn_rng` of this seed, the round and the creature instead
            of from ``rng`` (what a window that rewinds needs; ``rng`` is kept for the simulations,
            whose pinned event logs it made).

    Raises:
        ValueError: ``policy`` is not a policy (at once). A team it names that the battle does not
            have is refused by ``tick`` before its round begins (``TeamController.teams_named``).
    """
    rng = rng if rng is not None else random.Random(0)
    policies = parse_policies(policy)

    def take_turn(battle: Any, entity: int) -> None:
        if controls is None or controls(entity):
            turn = rng if seed is None else turn_rng(seed, battle.round, entity)
            act(battle, entity, policy_of(policies, battle.team(entity)), turn, None, powers)

    return TeamController(take_turn, frozenset(policies) - {""})


def act_for(battle: Any, entities: Iterable[int], policy: str = DEFAULT_POLICY, rng: random.Random | None = None,
            powers: Mapping[int, Sequence[str]] | None = None) -> list[Command]:
    """Plan and issue a round for several creatures, in turn order, never two into one square.

    Squares a creature plans to leave are not freed for others: the battle resolves moves in turn
    order, so a later creature could otherwise be refused; staying safe costs a step, not a turn.
    """
    rng = rng if rng is not None else random.Random(0)
    wanted = set(entities)
    order = [e for e in battle.turn_order() if e in wanted] + [e for e in wanted if e not in battle.turn_order()]
    reserved: set[tuple[int, int]] = set()
    issued: list[Command] = []
    for entity in order:
        ends = []
        for decision in decisions(battle, entity, policy, rng, reserved, powers):
            ends += [(args[1], args[2]) for name, args, _ in decision.commands if name == "move"]
            issued += issue(battle, decision.commands)
        if ends:  # where it ends its turn (a way in two legs only passes the first)
            reserved.add(ends[-1])
    return issued
