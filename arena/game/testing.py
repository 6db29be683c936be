"""A reusable conformance check for game engines.

``check_engine(engine)`` plays many random games and asserts the engine
contract of :mod:`arena.game` (including that ``new_game`` refuses a bad
player count or option and that ``apply`` refuses illegal actions, seats not
to act and moves after the end, which the base classes do for every engine
unless it bypasses them); every built-in engine's tests call it and a
third-party engine's tests should too.  It raises ``AssertionError`` with the
seed, player count and step of the first violation, so a failure is
reproducible with ``engine.new_game(players, seed)``.

``check_unit(unit)``, its sibling, checks the rest of a game's plugin unit
(:class:`arena.game.GameUnit`): that every part it names imports and is what
that part must be, that its rules page is there, and that the parts a
caller requires are named -- all of it at once, in one ``AssertionError``,
instead of when a bot, an environment or ``arena play`` first asks.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from arena.game import (
    PARTS,
    Action,
    Engine,
    GameUnit,
    IllegalAction,
    Observation,
    OptionError,
    Outcome,
    PlayerCountError,
    Seat,
    State,
    competition_ranks,
    resolve,
)

#: actions no engine lists as legal: one of each wire type
MADE_UP = ("\x00no-such-action", 2**31)


@dataclass
class ConformanceReport:
    """What the check saw: useful figures for an engine's tests to assert on."""

    games: int = 0
    steps: int = 0
    samples: int = 0
    hidden_changes: int = 0


def check_engine(
    engine: Engine,
    games: int = 1000,
    *,
    seed: int = 0,
    players: tuple[int, ...] | None = None,
    options: Mapping[str, Any] | None = None,
    hidden: bool = True,
    sample_rate: float = 0.05,
    max_steps: int = 100_000,
) -> ConformanceReport:
    """Play ``games`` random games and assert the contract on every step.

    ``hidden=True`` (a game with private information) also demands that
    resampling from one seat's observation changed, at least once, some other
    seat's observation or what the engine lists as hidden from the seat
    (:meth:`State.secrets`, which covers dummies and undealt cards): proof
    that the sampler really randomizes what the seat cannot see while keeping
    what it can see identical.
    """
    info = engine.info
    counts = players or info.players
    master = random.Random(seed)
    report = ConformanceReport()
    _check_new_game(engine, options)
    for index in range(games):
        n = counts[index % len(counts)]
        game_seed = master.randrange(2**31)
        where = f"{info.id}: players={n} seed={game_seed}"
        _play_checked(
            engine,
            n,
            game_seed,
            options,
            master,
            report,
            where,
            sample_rate,
            max_steps,
            check_replay=index % 10 == 0,
        )
        report.games += 1
    if hidden:
        assert report.samples > 0, f"{info.id}: no state was ever sampled"
        assert report.hidden_changes > 0, (
            f"{info.id}: sample_state never changed any other seat's view or any "
            "secret; it must randomize hidden information"
        )
    return report


def check_unit(unit: GameUnit, *, require: tuple[str, ...] = ()) -> list[str]:
    """Check a game's unit: its engine, each named part (``require``: parts
    of :data:`arena.game.PARTS`, or ``"rules"``, it must name) and its rules
    page.  Returns the parts it has; raises ``AssertionError`` listing every
    problem."""
    known = (*PARTS, "rules")
    problems = [
        f"{name}: not a part (parts: {', '.join(known)})"
        if name not in known
        else f"{name}: missing"
        for name in require
        if not getattr(unit, name, "")
    ]
    if not isinstance(unit.engine, Engine):
        problems.append(f"engine: {type(unit.engine).__name__} is not an Engine")
    present = [name for name in known if getattr(unit, name)]
    for name in present:
        problem = _rules_problem(unit) if name == "rules" else _part_problem(unit, name)
        if problem:
            problems.append(f"{name}: {problem}")
    where = unit.id if isinstance(unit.engine, Engine) else repr(unit)
    assert not problems, f"{where}: " + "; ".join(problems)
    return present


def _part_problem(unit: GameUnit, name: str) -> str | None:
    """What is wrong with the part ``name`` of ``unit`` (None: nothing)."""
    target = getattr(unit, name)
    base_name, relation = PARTS[name]
    try:
        part = unit.part(name)
    except Exception as error:  # a broken part is reported, not raised
        text = str(error).strip().splitlines()
        return f"{target!r} does not import ({type(error).__name__}: {text[0] if text else ''})"
    base = resolve(base_name)
    if relation == "subclass":
        fits, kind = isinstance(part, type) and issubclass(part, base), "a subclass"
    else:
        fits, kind = isinstance(part, base), "an instance"
    if not fits:
        return f"{target!r} is not {kind} of {base_name}"
    return _drawing_problem(unit.engine, part) if name == "drawing" else None


def _drawing_problem(engine: Engine, drawing: type, steps: int = 300) -> str | None:
    """What is wrong with ``drawing``'s tables of a random game at the
    smallest table: drawn through each seat's eyes and the whole table's at
    every move, each must be a well-formed :class:`arena.game.drawing.Table`,
    and what each seat's observation says has ended a list of lines."""
    from arena.game.drawing import check_table

    players = engine.info.players[0]
    rng = random.Random(0)
    state = engine.new_game(players, 0, None)
    draw = drawing(players, [f"bot {n}" for n in range(players)])
    for step in range(steps + 1):
        views = {seat: state.observation(seat) for seat in range(players)}
        for eyes in [views, *({seat: view} for seat, view in views.items())]:
            try:
                problems = check_table(draw.draw(eyes), players)
                if len(eyes) == 1:
                    ended = draw.ended(*eyes.values())
                    if not isinstance(ended, list) or not all(isinstance(t, str) for t in ended):
                        problems.append(f"ended() gave {ended!r}, not a list of lines")
            except Exception as error:  # a broken drawing is reported, not raised
                problems = [f"{type(error).__name__}: {error}"]
            if problems:
                return f"move {step}, seen by {sorted(eyes)}: {'; '.join(problems)}"
        acting = state.to_act()
        if not acting:
            break
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
    return None


def _rules_problem(unit: GameUnit) -> str | None:
    page = unit.rules_page()
    if "://" in page or os.path.isfile(page):
        return None
    return f"no page at {page}"


def _play_checked(
    engine: Engine,
    n: int,
    game_seed: int,
    options: Mapping[str, Any] | None,
    rng: random.Random,
    report: ConformanceReport,
    where: str,
    sample_rate: float,
    max_steps: int,
    check_replay: bool,
) -> None:
    state = engine.new_game(n, game_seed, options)
    assert state.players == n, f"{where}: state.players={state.players}"
    steps: list[dict[Seat, Action]] = []
    views: list[list[bytes]] = []
    seen: dict[Action, None] = {}  # every action listed as legal so far, for any seat, in order
    while True:
        acting = state.to_act()
        if not acting:
            break
        at = f"{where} step={len(steps)}"
        assert len(steps) < max_steps, f"{at}: game did not end"
        assert len(set(acting)) == len(acting), f"{at}: duplicate seats {acting}"
        assert all(0 <= seat < n for seat in acting), f"{at}: bad seats {acting}"
        if not engine.info.simultaneous:
            assert len(acting) == 1, f"{at}: several seats act in a sequential game"
        views.append([_packed(state.observation(seat), seat, at) for seat in range(n)])
        chosen: dict[Seat, Action] = {}
        for seat in acting:
            legal = state.legal_actions(seat)
            _check_legal(legal, at, seat)
            seen.update(dict.fromkeys(legal))
            chosen[seat] = rng.choice(legal)
        if rng.random() < sample_rate or not steps:
            _check_sampling(engine, state, rng, report, at)
            _check_rejects(state, chosen, list(seen), at)
        if steps and rng.random() < sample_rate:
            _check_clone(state, chosen, at)
        state.apply(chosen)
        steps.append(chosen)
        report.steps += 1
    _check_outcome(state.outcome(), n, where)
    _check_rejected(
        state, steps[-1] if steps else {0: MADE_UP[0]}, f"{where}: a move after the game is over"
    )
    if check_replay:
        _check_determinism(engine, n, game_seed, options, steps, views, where)


def _check_new_game(engine: Engine, options: Mapping[str, Any] | None) -> None:
    """``new_game`` must refuse a player count the game does not list and an
    option it does not have (the base's checks, unless an engine bypasses them)."""
    info = engine.info
    for count in (0, max(info.players) + 1):
        try:
            engine.new_game(count, 0, options)
        except PlayerCountError:
            continue
        raise AssertionError(
            f"{info.id}: new_game accepted {count} players (it must raise PlayerCountError)"
        )
    try:
        engine.new_game(info.players[0], 0, {**(options or {}), "\x00no-such-option": 1})
    except OptionError:
        return
    raise AssertionError(
        f"{info.id}: new_game accepted an unknown option (it must raise OptionError)"
    )


def _packed(observation: Observation, seat: Seat, at: str) -> bytes:
    assert isinstance(observation, dict), f"{at}: observation is not a dict"
    assert observation.get("seat") == seat, f"{at}: observation['seat'] != {seat}"
    try:
        data: bytes = msgpack.packb(observation)
        back = msgpack.unpackb(data, strict_map_key=True)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{at}: observation is not plain msgpack data: {error}") from None
    # a tuple comes back as a list and compares unequal: only plain values pass
    assert back == observation, f"{at}: observation does not survive msgpack unchanged"
    return data


def _check_legal(legal: list[Action], at: str, seat: Seat) -> None:
    assert isinstance(legal, list) and legal, f"{at}: no legal actions for seat {seat}"
    for action in legal:
        assert isinstance(action, (str, int)) and not isinstance(action, bool), (
            f"{at}: action {action!r} is not str or int"
        )
    assert len(set(legal)) == len(legal), f"{at}: duplicate legal actions for {seat}"


def _check_rejects(state: State, chosen: dict[Seat, Action], seen: list[Action], at: str) -> None:
    """``apply`` must raise IllegalAction, leaving the state as it was, for
    an action not in the seat's legal list (a made-up one, one legal earlier
    or for another seat, like a card already played, and a legal number in
    the wrong type: ``True`` or ``1.0`` for ``1``), for a missing seat of a
    simultaneous move and for a seat that is not to act, alone or beside the
    ones that are."""
    for seat in chosen:
        legal = set(state.legal_actions(seat))
        wrong: list[object] = list(MADE_UP) + [action for action in seen if action not in legal][:1]
        wrong += _wrong_types(chosen[seat])
        for action in wrong:
            _check_rejected(
                state,
                {**chosen, seat: action},
                f"{at}: seat {seat} playing {action!r}, not in its legal list",
            )
    if len(chosen) > 1:
        missing = dict(list(chosen.items())[1:])
        _check_rejected(
            state, missing, f"{at}: a simultaneous move without seat {next(iter(chosen))}"
        )
    idle = [seat for seat in range(state.players) if seat not in chosen]
    if idle:
        action = next(iter(chosen.values()))
        _check_rejected(
            state, {**chosen, idle[0]: action}, f"{at}: an action from seat {idle[0]}, not to act"
        )
        _check_rejected(
            state, {idle[0]: action}, f"{at}: seat {idle[0]} acting instead of {sorted(chosen)}"
        )


def _wrong_types(action: Action) -> list[float | bool]:
    """Values equal to an int ``action`` that are not ints: not wire actions."""
    if type(action) is not int:
        return []
    return [float(action)] + ([bool(action)] if action in (0, 1) else [])


def _check_rejected(state: State, actions: Mapping[Seat, Any], what: str) -> None:
    """``apply`` must refuse ``actions`` (some of them of any type: what a bot
    may send) with IllegalAction and leave the state as it was."""
    before = [msgpack.packb(state.observation(s)) for s in range(state.players)]
    try:
        state.apply(actions)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{what}: apply() accepted it (it must raise IllegalAction)")
    after = [msgpack.packb(state.observation(s)) for s in range(state.players)]
    assert before == after, f"{what}: rejected, but the state changed"


def _check_sampling(
    engine: Engine, state: State, rng: random.Random, report: ConformanceReport, at: str
) -> None:
    seat = rng.randrange(state.players)
    observation = state.observation(seat)
    sampled = engine.sample_state(observation, random.Random(rng.randrange(2**31)))
    report.samples += 1
    assert sampled.observation(seat) == observation, (
        f"{at}: sample_state for seat {seat} gives a different observation"
    )
    assert sampled.to_act() == state.to_act(), f"{at}: sampled state has other seats to act"
    if seat in state.to_act():
        assert sampled.legal_actions(seat) == state.legal_actions(seat), (
            f"{at}: sampled state gives seat {seat} other legal actions"
        )
    others_differ = any(
        sampled.observation(other) != state.observation(other)
        for other in range(state.players)
        if other != seat
    )
    if others_differ or sampled.secrets(seat) != state.secrets(seat):
        report.hidden_changes += 1
    _random_playout(sampled, rng, at + " (sampled)")


def _check_clone(state: State, chosen: dict[Seat, Action], at: str) -> None:
    before = [msgpack.packb(state.observation(s)) for s in range(state.players)]
    copy = state.clone()
    copy.apply(chosen)
    _random_playout(copy, random.Random(1), at + " (clone)")
    after = [msgpack.packb(state.observation(s)) for s in range(state.players)]
    assert before == after, f"{at}: playing on a clone changed the original"


def _random_playout(state: State, rng: random.Random, at: str, limit: int = 100_000) -> None:
    for _ in range(limit):
        acting = state.to_act()
        if not acting:
            state.outcome()
            return
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
    raise AssertionError(f"{at}: playout did not end")


def _check_outcome(outcome: Outcome, n: int, where: str) -> None:
    assert isinstance(outcome, Outcome), f"{where}: outcome() is not an Outcome"
    assert len(outcome.scores) == len(outcome.ranks) == len(outcome.teams) == n, (
        f"{where}: outcome sizes differ from players={n}"
    )
    everyone = list(outcome.scores) + [d.score for d in outcome.dummies]
    ranks = list(outcome.ranks) + [d.rank for d in outcome.dummies]
    assert ranks == competition_ranks(everyone), (
        f"{where}: ranks {ranks} inconsistent with scores {everyone}"
    )
    by_team: dict[int, float] = {}
    for team, score in zip(outcome.teams, outcome.scores):
        assert by_team.setdefault(team, score) == score, (
            f"{where}: team {team} members have different scores"
        )


def _check_determinism(
    engine: Engine,
    n: int,
    game_seed: int,
    options: Mapping[str, Any] | None,
    steps: list[dict[Seat, Action]],
    views: list[list[bytes]],
    where: str,
) -> None:
    state = engine.new_game(n, game_seed, options)
    for index, chosen in enumerate(steps):
        again = [msgpack.packb(state.observation(seat)) for seat in range(n)]
        assert again == views[index], f"{where} step={index}: same seed, other game"
        state.apply(chosen)
    assert state.is_over(), f"{where}: replay did not end where the game did"
