"""Public engine calls given values of the wrong kind refuse them with the engine's own
errors (issue 27): never an IndexError, TypeError, AttributeError or KeyError from
inside, in the pure build and in the compiled one (where a compiled function would
otherwise refuse a wrongly typed argument with mypyc's TypeError before any check of
ours ran).

The calls and the junk are `tests/argfuzz.py`'s; `benchmarks/fuzz_arguments.py` makes
many more of them and counts."""

from __future__ import annotations

import random

import pytest
from argfuzz import GOOD, TARGETS, Target, a_game, call, choose_call, plain_junk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toonerville as T
from toonerville.engine.errors import (
    MalformedActionError,
    NotationError,
    RulesError,
    ToonervilleError,
)

JUNK = plain_junk()

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
    st.text(max_size=12), st.text(alphabet="RYGBK0123456789= ,.:/", max_size=16),
    st.binary(max_size=6), st.sampled_from(JUNK))
junk = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.integers(), st.text(max_size=6)), inner, max_size=3)),
    max_leaves=8)


def arguments(data: st.DataObject, target: Target) -> tuple[tuple[object, ...],
                                                           dict[str, object]]:
    names = list(target.required) + [n for n in target.optional
                                     if data.draw(st.booleans(), label=f"give {n}")]
    by_position = data.draw(st.integers(0, len(target.required)), label="by position")

    def value(name: str) -> object:
        good = GOOD.get(name)
        choices = junk if not good else st.one_of(st.sampled_from(good), junk)
        return data.draw(choices, label=name)

    return (tuple(value(n) for n in names[:by_position]),
            {n: value(n) for n in names[by_position:]})


@settings(max_examples=400, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(target=st.sampled_from(TARGETS), game=st.integers(0, 4), data=st.data())
def test_any_value_to_a_public_call_ends_in_an_engine_refusal_or_an_answer(
    target: Target, game: int, data: st.DataObject,
) -> None:
    args, kwargs = arguments(data, target)
    err = call(target, args, kwargs, game)
    assert err is None or isinstance(err, ToonervilleError), (
        f"{target.name}{args!r} {kwargs!r} raised {type(err).__name__}: {err}")


def test_the_random_calls_of_the_benchmark_end_only_in_engine_refusals() -> None:
    """The same as the benchmark does, a few thousand calls with a fixed seed."""
    rng = random.Random(27)
    foreign = []
    for k in range(3000):
        target = TARGETS[k % len(TARGETS)]
        args, kwargs = choose_call(target, rng, JUNK)
        err = call(target, args, kwargs, rng.randrange(5))
        if err is not None and not isinstance(err, ToonervilleError):
            foreign.append(f"{target.name}: {type(err).__name__}: {err}"[:120])
    assert foreign == []


# -- the examples of the issue, and what each refusal says -----------------------------------
@pytest.mark.parametrize("cards", [["R5", ""], [""], ["RK=", "R6"], ["R5 R6", "R7", "R8"]])
def test_T4_a_list_item_that_is_not_one_card_is_a_notation_error(cards: list[str]) -> None:
    with pytest.raises(NotationError):
        T.is_run(cards)


@pytest.mark.parametrize("rules", [1, 1.0, "H1", {"extra_melds": True}, object()])
def test_a_meld_check_refuses_rules_that_are_no_Rules(rules: object) -> None:
    for check in (T.is_run, T.is_set, T.check_meld):
        with pytest.raises(RulesError, match="Rules"):
            check("R5 R6 R7 R8", rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("data", [{1: True}, [("extra_melds", True)], "extra_melds", None])
def test_rules_from_dict_refuses_what_is_no_mapping_of_names(data: object) -> None:
    with pytest.raises(RulesError):
        T.Rules.from_dict(data)  # type: ignore[arg-type]


def test_H1_rules_replace_names_an_unknown_house_rule_as_from_dict_does() -> None:
    with pytest.raises(RulesError, match="unknown house rule: penalty"):
        T.Rules().replace(penalty=2)


@pytest.mark.parametrize("naturals", ["2", 2.0, None, True])
def test_H1_rooks_allowed_takes_a_whole_number(naturals: object) -> None:
    with pytest.raises(RulesError):
        T.Rules().rooks_allowed(naturals)  # type: ignore[arg-type]


def test_meld_methods_take_notation_and_refuse_what_is_no_card() -> None:
    run = T.Meld.parse("R5 R6 RK R8")
    assert run.lay_off("R9") == run.lay_off(T.Card.parse("R9"))
    assert run.fits("R4") and run.swap_rook("R7") == run.swap_rook(T.Card.parse("R7"))
    for bad in (None, 5, ["R9"], b"R9"):
        for method in (run.lay_off, run.fits, run.swap_rook):
            with pytest.raises(NotationError):
                method(bad)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        run.lay_off("RK", as_card=4)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        run.lay_off("RK", "R4", rules=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("index", ["0", 0.0, None, True])
def test_T6_stands_for_takes_a_place_in_the_run(index: object) -> None:
    with pytest.raises(MalformedActionError):
        T.Meld.parse("R5 R6 RK R8").stands_for(index)  # type: ignore[arg-type]


@pytest.mark.parametrize("args", [
    (["R5"], T.ROOK), ("run", ("R5",)), (T.MeldKind.RUN, ["R5"]), (T.MeldKind.RUN, ()),
    (T.MeldKind.RUN, ("R5", "R6", "R7", "R8"), T.Colour.RED, 5),
    (T.MeldKind.RUN, (T.ROOK,) * 4, "R", 5), (T.MeldKind.SET, (T.ROOK,) * 3, None, 15),
    (T.MeldKind.RUN, (T.ROOK,) * 4, T.Colour.RED, 12), (T.MeldKind.SET, (T.ROOK,) * 3, None, True),
])
def test_a_meld_made_of_parts_refuses_parts_of_the_wrong_kind(args: tuple[object, ...]
                                                              ) -> None:
    with pytest.raises(MalformedActionError, match="Meld.parse"):
        T.Meld(*args)  # type: ignore[arg-type]


def test_a_meld_made_of_right_parts_is_the_meld_parse_makes() -> None:
    run = T.Meld.parse("R5 R6 RK R8")
    assert T.Meld(run.kind, run.cards, run.colour, run.low) == run


@pytest.mark.parametrize("args", [(1, T.Message("x", {})), (True, "x"),
                                  (True, T.Message("x", {}), "R5 R6 R7 R8")])
def test_a_verdict_made_of_parts_refuses_parts_of_the_wrong_kind(args: tuple[object, ...]
                                                                 ) -> None:
    with pytest.raises(MalformedActionError):
        T.Verdict(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("cards", [12, None, T.MeldKind.SET, ["R5", 3]])
def test_T1_format_cards_refuses_what_is_no_group_of_cards(cards: object) -> None:
    with pytest.raises(NotationError):
        T.format_cards(cards)  # type: ignore[arg-type]


def test_T1_format_cards_takes_notation_as_the_other_card_functions_do() -> None:
    assert T.format_cards("y7 r7 rk") == "Y7 R7 RK"


@pytest.mark.parametrize("kwargs", [
    {"rules": object()}, {"rules": {"extra_melds": True}}, {"seed": (1, 2)}, {"seed": 1.5},
    {"seed": "7"}, {"seed": True}, {"names": 5}, {"names": "abcd"},
    {"names": [b"a", b"b", b"c", b"d"]},
])
def test_game_new_refuses_settings_of_the_wrong_kind(kwargs: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        T.Game.new(players=4, **kwargs)  # type: ignore[arg-type]


POSITION = {"hands": ["R5 R6", "R7 R8", "R9 R10"], "stock": "B1 B2", "discard_pile": "B3"}


@pytest.mark.parametrize("kwargs", [
    {"table": "R5"}, {"table": [1, 2]}, {"table": {1: b"Y7"}}, {"table": {1: 5}},
    {"scores": 5}, {"scores": [5]}, {"scores": [["a", 1, 2]]}, {"round_number": 2,
                                                              "scores": [[1, 2, "3"]]},
    {"rules": "H1"}, {"seed": 2.5}, {"dealer": "0"}, {"names": 3},
])
def test_game_from_position_refuses_parts_of_the_wrong_kind(kwargs: dict[str, object]
                                                            ) -> None:
    with pytest.raises(ToonervilleError):
        T.Game.from_position(**{**POSITION, **kwargs})  # type: ignore[arg-type]


@pytest.mark.parametrize("call_it", [
    lambda g: g.renamed(5), lambda g: g.renamed("abc"), lambda g: g.lay_down(5),
    lambda g: g.lay_down(["R5 R6 R7 R8", 5]),
    lambda g: g.swap_rook("R7", (1, 1), lay_down=T.Meld.parse("R5 R6 RK R8")),
    lambda g: g.swap_rook("R7", (1, 1), lay_off_onto=5),
    lambda g: g.to_json(indent={1: True}), lambda g: g.to_json(indent=10**30),
    lambda g: g.to_json(indent=-1), lambda g: g.lay_off("R9", onto=5),
])
def test_game_methods_refuse_values_of_the_wrong_kind_and_change_nothing(call_it: object
                                                                         ) -> None:
    game = a_game(2)
    before = game.to_json()
    with pytest.raises(ToonervilleError):
        call_it(game)  # type: ignore[operator]
    assert game.to_json() == before


def test_the_issue_examples() -> None:
    with pytest.raises(NotationError):
        T.is_run(["R5", ""])
    with pytest.raises(RulesError):
        T.Rules.from_dict({1: True})  # type: ignore[dict-item]
