"""The one home of argument checks for the functions a chapter shows.

A taught function stays its plainest correct form; what it refuses is said in one
readable line above it::

    @checks(n=positive_int)
    def ngrams(tokens, n): ...

``checks(**rules)`` runs ``rule(value, name)`` for each named argument before the call;
a rule raises ``TypeError`` or ``ValueError`` with a message that names the argument.
``checks(whole, ...)`` also runs ``whole(arguments)`` with every argument by name, for a
condition on several arguments together. Only the decorator line appears in a chapter.

>>> @checks(n=positive_int)
... def double(n):
...     return 2 * n
>>> double(3)
6
>>> double(0)
Traceback (most recent call last):
  ...
ValueError: n must be at least 1, got 0
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

__all__ = ["checks", "positive_int", "non_negative", "one_of", "optional", "string", "non_empty",
           "probability"]

F = TypeVar("F", bound=Callable[..., Any])
Rule = Callable[[Any, str], None]


def checks(*whole: Callable[[Mapping[str, Any]], None], **rules: Rule) -> Callable[[F], F]:
    """Check the named arguments of the decorated function before each call."""

    def decorate(func: F) -> F:
        # read from the code object, not ``inspect`` (slow to import: ``import bleu_lesson``
        # stays light); *args / **kwargs of the checked function are not supported
        code = func.__code__
        n_positional = code.co_argcount
        names = code.co_varnames[:n_positional + code.co_kwonlyargcount]
        defaults = dict(zip(names[n_positional - len(func.__defaults__ or ()):n_positional],
                            func.__defaults__ or (), strict=True))
        defaults.update(func.__kwdefaults__ or {})
        unknown = set(rules) - set(names)
        if unknown:
            raise TypeError(f"checks: {func.__qualname__} has no argument {sorted(unknown)}")
        # where each checked argument is found: its position (None: keyword only)
        where = [(name, names.index(name) if names.index(name) < n_positional else None, rule)
                 for name, rule in rules.items()]

        @functools.wraps(func)
        def checked(*args: Any, **kwargs: Any) -> Any:
            for name, pos, rule in where:
                if name in kwargs:
                    rule(kwargs[name], name)
                elif pos is not None and pos < len(args):
                    rule(args[pos], name)
                elif name in defaults:
                    rule(defaults[name], name)
            if whole:
                bound = {**defaults, **dict(zip(names, args, strict=False)), **kwargs}
                for condition in whole:
                    condition(bound)
            return func(*args, **kwargs)

        return checked  # type: ignore[return-value]

    return decorate


# --- the rules: each raises with a message that names the argument -------------------

def positive_int(value: object, name: str) -> None:
    """An int ≥ 1 (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")


def non_negative(value: object, name: str) -> None:
    """A number ≥ 0 (an int, a float, a numpy number; not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a non-negative number, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must be non-negative, got {name}={value}")


def optional(rule: Rule) -> Rule:
    """``None``, or a value ``rule`` accepts."""
    def check(value: object, name: str) -> None:
        if value is not None:
            rule(value, name)
    return check


def one_of(choices: Sequence[str]) -> Rule:
    """One of ``choices``."""
    def rule(value: object, name: str) -> None:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, "
                             f"got {value!r}")
    return rule


def string(value: object, name: str) -> None:
    """A str."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")


def non_empty(value: object, name: str) -> None:
    """A sequence with at least one element."""
    if isinstance(value, str) or not hasattr(value, "__len__"):
        raise TypeError(f"{name} must be a list, got {type(value).__name__}")
    if len(value) == 0:
        raise ValueError(f"{name} must not be empty (at least one is required)")


def probability(value: object, name: str) -> None:
    """A number strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(value) or not 0 < float(value) < 1:
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
