"""Dataclasses made without compiling code at each start: `@record(...)` for a class that writes its own `__init__`.

`@dataclass` writes each method it adds as source and compiles it, at every start: 2 to 4 million
instructions a class (4 methods a plain class, 6 a frozen one), some 60 M for the 27 classes a
`pdn validate` loads (docs/start-up.md).  A class decorated `@record(...)` writes its `__init__`
by hand (compiled once, into its module's bytecode) and is still a dataclass (`dataclasses.fields`,
`replace`, `astuple` and `asdict` work, `__match_args__` is made): `dataclass(init=False,
repr=False, eq=False)` finds its fields, then `__repr__`, `__eq__` and, frozen, `__hash__`,
`__setattr__` and `__delattr__` are made from the field names by functions written here once,
behaving as those `@dataclass` writes (a method the class defines itself is kept, as there).
"""
from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import Field, FrozenInstanceError, dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["record", "slots_state"]

T = TypeVar("T")

_set = object.__setattr__


def _record(*, frozen: bool = False, slots: bool = False, kw_only: bool = False) -> Callable[[type[T]], type[T]]:
    """`@dataclass(frozen=frozen, slots=slots, kw_only=kw_only)` for a class whose `__init__` is
    written by hand (a frozen one sets its fields by `object.__setattr__`)."""
    def make(cls: type[T]) -> type[T]:
        body = dict(cls.__dict__)
        made: Any = dataclass(init=False, repr=False, eq=False, slots=slots, kw_only=kw_only)(cls)
        fields: list[Field[Any]] = list(made.__dataclass_fields__.values())
        if "__repr__" not in body:
            made.__repr__ = _repr([f.name for f in fields if f.repr])
        if "__eq__" not in body:
            made.__eq__ = _eq(_key([f.name for f in fields if f.compare]))
        explicit_hash = "__hash__" in body and not (body["__hash__"] is None and "__eq__" in body)
        if not explicit_hash:
            made.__hash__ = _hash(_key([f.name for f in fields if f.compare and (f.hash is None or f.hash)])) \
                if frozen else None
        if frozen:
            names = frozenset(f.name for f in fields)
            made.__setattr__, made.__delattr__ = _frozen(made, names)
            if slots:
                made.__getstate__, made.__setstate__ = _state([f.name for f in fields])
        elif slots and "__getstate__" not in body:
            made.__getstate__ = slots_state
        return made  # type: ignore[no-any-return]
    return make


if TYPE_CHECKING:       # to a type checker a record is the dataclass it is (fields, replace, frozen)
    from dataclasses import dataclass as record
else:
    record = _record


def _key(names: list[str]) -> Callable[[object], tuple[object, ...]]:
    """The tuple of the fields `names` of an object, as `@dataclass`'s methods compare and hash it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    return lambda value: ()


def _repr(names: list[str]) -> Callable[[object], str]:
    key = _key(names)

    @reprlib.recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, key(self)))
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__


def _eq(key: Callable[[object], tuple[object, ...]]) -> Callable[[object, object], bool]:
    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _hash(key: Callable[[object], tuple[object, ...]]) -> Callable[[object], int]:
    def __hash__(self: object) -> int:
        return hash(key(self))
    return __hash__


def _frozen(cls: Any, names: frozenset[str]) -> tuple[Callable[[object, str, object], None],
                                                        Callable[[object, str], None]]:
    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _state(names: list[str]) -> tuple[Callable[[object], list[object]], Callable[[object, list[object]], None]]:
    """`__getstate__` and `__setstate__` of a frozen slotted class, as `@dataclass` makes them (copy, pickle)."""
    def __getstate__(self: object) -> list[object]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: object, state: list[object]) -> None:
        for name, value in zip(names, state):
            _set(self, name, value)
    return __getstate__, __setstate__


def slots_state(self: object) -> object:
    """`__getstate__` of a slotted class: `object.__getstate__`'s state (the slots set, an unset one
    left out), given as the class's own, so that pickle by protocols 0 and 1 takes it too (they
    refuse a slotted class that does not define __getstate__)."""
    return object.__getstate__(self)
