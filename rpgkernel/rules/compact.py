"""A compact model of a fight: the kit slot ``Tactics.compact``.

Each combatant stands in a small hashable state; ``turn`` gives the chance of each pair of states
actor and target are left in, ``new_round`` a round's start, ``groups`` whose morale wavers together,
``view`` a figure view for target picking. The other hooks: docs/mitwirken.md, "Das kompakte Modell"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Mapping, Sequence, cast

from .figure import Figure

if TYPE_CHECKING:
    from .resolution import Resolution

State = Hashable


class Compact:
    """The compact model of one fight; ``figures`` are the combatants at the start, in the encounter's
    order (indices below are into it). A ruleset subclasses it and fills every method."""

    #: whether the seed picks each turn's target at random, every standing foe alike
    random_target: bool = False

    def __init__(self, figures: Sequence[Figure]) -> None:
        self.figures = tuple(figures)

    def start(self, i: int) -> State:
        """Combatant ``i``'s state at the start."""
        raise NotImplementedError

    def hit(self, actor: int, target: int, state: State) -> list[tuple[float, State]]:
        """The exact chances of the states ``target`` (in ``state``) is left in after ``actor``'s turn
        against it (the chances add up to 1), for a model whose turns change the target alone and
        whose actors act by their sheets, never by their states (else it fills ``turn``)."""
        raise NotImplementedError

    def turn(self, actor: int, target: int, mine: State, theirs: State) -> list[tuple[float, State, State]]:
        """The exact chances of the states ``actor`` (standing, in ``mine``) and ``target`` (in
        ``theirs``) are left in after the actor's turn against the target; a turn changes nobody else.
        The default: ``hit``, the actor unchanged."""
        return [(p, mine, s) for p, s in self.hit(actor, target, theirs)]

    def reads(self, i: int, state: State) -> tuple[Hashable, Hashable]:
        """What a turn reads of combatant ``i`` (standing, in ``state``): its part as the actor and as
        the target. Two turns whose actors' and targets' parts are equal have equal ``moves``. The
        default: the whole state, both ways."""
        return state, state

    def moves(self, actor: int, target: int, mine: State, theirs: State) -> list[tuple[float, Any, Any]]:
        """``turn`` as changes: the chance of each pair of changes to the actor and the target, which
        ``moved`` makes states of; the same for every pair of states with the same parts (``reads``).
        The default: the next states themselves."""
        return self.turn(actor, target, mine, theirs)

    def moved(self, i: int, state: State, change: Any) -> State:
        """Combatant ``i``'s state after ``change`` (one of ``moves``) from ``state``; the default: the
        change is the next state."""
        return cast(State, change)

    def turn_of_moves(self, actor: int, target: int, mine: State, theirs: State
                      ) -> list[tuple[float, State, State]]:
        """``turn`` for a model that fills ``moves`` and ``moved``: its moves made states, alike ones
        merged."""
        out: dict[tuple[State, State], float] = {}
        for p, change, hit in self.moves(actor, target, mine, theirs):
            key = (self.moved(actor, mine, change), self.moved(target, theirs, hit))
            out[key] = out.get(key, 0.0) + p
        return [(p, a, v) for (a, v), p in out.items()]

    def new_round(self, i: int, state: State) -> State:
        """Combatant ``i``'s state when a new round begins (the default: unchanged)."""
        return state

    def unread(self, i: int, state: State) -> State:
        """Combatant ``i``'s state once no foe of it acts again this round: what only a foe's turn of this
        round reads of it forgotten (the default: nothing)."""
        return state

    def groups(self) -> list[tuple[int, ...]]:
        """The groups whose morale wavers together, each its combatants in order: once a turn leaves at
        least half of a group out of the fight, the group saves once for all (``holds``, its first
        standing member leading) or everyone of it still standing flees (``flees``); the default: none."""
        return []

    def holds(self, leader: int, state: State) -> float:
        """The chance a group holds when ``leader`` (in ``state``) saves for it."""
        raise NotImplementedError

    def flees(self, i: int, state: State) -> State:
        """Combatant ``i``'s state when it flees with its group (out of the fight)."""
        raise NotImplementedError

    def view(self, i: int, state: State) -> Figure:
        """Combatant ``i`` in ``state`` as a figure view."""
        raise NotImplementedError

    def standing(self, i: int, state: State) -> bool:
        """Whether combatant ``i`` in ``state`` is still in the fight."""
        raise NotImplementedError

    def resources(self, i: int, state: State) -> dict[str, int]:
        """Each of combatant ``i``'s resources in ``state``."""
        return {k: r.value for k, r in self.view(i, state).resources.items()}

    def area(self, actor: int, target: int, foes: Sequence[int]) -> tuple[int, ...]:
        """Whom ``actor``'s turn on ``target`` hits, of its foes ``foes`` (in order; the target among
        them): the target alone (the default), or everyone an attack hits at once where each is rolled
        for on its own (a Blast): the turn is then ``turn`` on each of them that stands, one by one."""
        return (target,)

    def carries(self, pending: Sequence[tuple[Resolution, Mapping[str, Any]]]) -> bool:
        """Whether ``closings(pending)`` closes the open resolutions on the model: asked of the model as the
        state shows it, before a board's model is built; False (the default)."""
        return False

    def closings(self, pending: Sequence[tuple[Resolution, Mapping[str, Any]]]
                 ) -> list[tuple[float, tuple[State, ...]]] | None:
        """The combatants' states once the open resolutions ``pending`` (with their lines' options) close
        as the tactics decide, each with its chance; None (the default): the procedures close them
        (docs/mitwirken.md, "Mit offenen Entscheidungen")."""
        return None

    def played(self) -> Hashable | None:
        """What the fights it plays hang on: two models of a fight with the same (not None) play the same
        fights, so one board serves both; None (the default) where the kit does not say."""
        return None

    def kin(self) -> Hashable | None:
        """What its turns hang on besides the starts: two models of a fight with the same (not None) kin
        play the same turns from every state, so one board can play both, each fight from its own
        start; None (the default) where the kit does not say."""
        return None

    def learn(self, other: Compact) -> None:
        """Take over what ``other`` (a model of the same fight from another closing of its open
        resolutions) has worked out that holds for this one too; the default: nothing."""
