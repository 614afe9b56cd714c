"""fan_spec.bind: a pattern with its rule-file parameters as a copy of the function with those
keyword defaults (no partial on the per-reading path), the same answers as the partial."""

from functools import partial
from types import FunctionType

from mjtools.scoring.fan_spec import bind


def _pattern(ctx, *, shape: str = "pair", live: bool = True) -> int:
    """A pattern."""
    return (ctx, shape, live)  # type: ignore[return-value]


def test_bound_pattern_is_a_function_with_the_parameters():
    got = bind(_pattern, {"shape": "edge"})
    assert type(got) is FunctionType
    assert got(1) == partial(_pattern, shape="edge")(1) == (1, "edge", True)
    assert got(2, live=False) == (2, "edge", False)
    assert got.__doc__ == _pattern.__doc__ and got.__name__ == "_pattern"
    assert _pattern(3) == (3, "pair", True)  # the registered function keeps its own defaults


def test_other_callables_and_parameters_stay_partials():
    assert isinstance(bind(_pattern, {"other": 1}), partial)  # not a keyword-only parameter
    assert isinstance(bind(partial(_pattern), {"shape": "edge"}), partial)
    got = bind(lambda ctx, n=1: ctx * n, {"n": 3})  # a positional parameter
    assert isinstance(got, partial) and got(2) == 6


def _required(ctx, *, shape: str) -> tuple:
    return (ctx, shape)


def test_keyword_only_parameters_become_positional_defaults():
    """A call the interpreter specializes (no keyword-only parameters), the body reading the same
    values; one left without a default stays keyword-only."""
    got = bind(_pattern, {"live": False})
    assert got.__code__.co_kwonlyargcount == 0 and got.__defaults__ == ("pair", False)
    assert got(4) == (4, "pair", False) and got(5, shape="edge") == (5, "edge", False)
    assert bind(_required, {"shape": "edge"})(1) == (1, "edge")
    kept = bind(lambda ctx, *, a=1, b: (ctx, a, b), {"a": 2})  # (b has no default)
    assert kept.__code__.co_kwonlyargcount == 2 and kept(0, b=3) == (0, 2, 3)
    assert _pattern.__code__.co_kwonlyargcount == 2  # (the registered function unchanged)
