"""text/records.py: a class made by `@record` is the dataclass `@dataclass` would make of it.

Its `__init__` is written by hand, so the class's parameters must be its fields: the same names in
the same order, the same defaults (None standing for a default_factory's value), and every field set
by it; and the methods `@record` adds behave as those `@dataclass` writes."""
from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil

import pytest

import pdn_tools
from pdn_tools.text.records import record


def _records() -> list[type]:
    """Every class of pdn_tools decorated by @record (a dataclass whose __init__ is its own)."""
    found = []
    for info in pkgutil.walk_packages(pdn_tools.__path__, "pdn_tools."):
        if info.name.endswith("distributed"):
            continue                                    # imports Dask, an optional extra
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == info.name and dataclasses.is_dataclass(value) \
                    and "__init__" in vars(value) and "__create_fn__" not in value.__init__.__qualname__ \
                    and "__dataclass_fields__" in vars(value) and not _made_by_dataclass(value):
                found.append(value)
    return found


def _made_by_dataclass(cls: type) -> bool:
    """Whether @dataclass wrote the class's __init__ (its code was compiled from a string)."""
    return cls.__init__.__code__.co_filename.startswith("<")


RECORDS = _records()
_DUMMIES: dict[str, object] = {"int": 1, "bool": False, "str": "x"}    # a value for a required field, by its type


def test_the_records_are_found():
    names = {cls.__name__ for cls in RECORDS}
    assert {"Game", "NotatedMove", "Checking", "Variant"} <= names and len(RECORDS) >= 20


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_a_record_s_init_takes_its_fields_in_order_with_their_defaults_and_sets_each(cls):
    fields = [f for f in dataclasses.fields(cls) if f.init]
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in fields]
    arguments = {}
    for field, parameter in zip(fields, parameters):
        if field.default is not dataclasses.MISSING:
            assert parameter.default == field.default, field.name
        elif field.default_factory is not dataclasses.MISSING:
            assert parameter.default is None, field.name
        else:
            assert parameter.default is inspect.Parameter.empty, field.name
            arguments[field.name] = _DUMMIES.get(str(field.type), object())
    made = cls(**arguments)
    for field in dataclasses.fields(cls):
        getattr(made, field.name)                      # raises when the hand-written __init__ skipped it


class _Plain:
    number: int
    text: str = dataclasses.field(default="", compare=False)
    items: list[int] = dataclasses.field(default_factory=list)

    def __init__(self, number: int, text: str = "", items: list[int] | None = None) -> None:
        self.number, self.text, self.items = number, text, [] if items is None else items


class _Frozen:
    number: int
    text: str = dataclasses.field(default="", compare=False)

    def __init__(self, number: int, text: str = "") -> None:
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "text", text)


Plain = record(slots=True)(type("Plain", (), dict(vars(_Plain))))
DataPlain = dataclasses.dataclass(slots=True)(type("Plain", (), {k: v for k, v in vars(_Plain).items()
                                                                   if k != "__init__"}))
Frozen = record(frozen=True, slots=True)(type("Frozen", (), dict(vars(_Frozen))))
DataFrozen = dataclasses.dataclass(frozen=True, slots=True)(type("Frozen", (), {k: v for k, v in vars(_Frozen).items()
                                                                               if k != "__init__"}))


@pytest.mark.parametrize("mine, theirs", [(Plain, DataPlain), (Frozen, DataFrozen)])
def test_a_record_behaves_as_the_dataclass(mine, theirs):
    a, b, c = mine(1, "x"), mine(1, "y"), mine(2, "x")
    da, db, dc = theirs(1, "x"), theirs(1, "y"), theirs(2, "x")
    assert repr(a) == repr(da)
    assert (a == b, a == c, a == 1) == (da == db, da == dc, da == 1)
    assert (mine.__hash__ is None) == (theirs.__hash__ is None)
    if mine.__hash__ is not None:
        assert hash(a) == hash(b) and hash(a) == hash(da)
    assert dataclasses.astuple(a) == dataclasses.astuple(da)
    assert dataclasses.replace(a, number=5).number == 5 and copy.copy(a) == a
    assert [f.name for f in dataclasses.fields(mine)] == [f.name for f in dataclasses.fields(theirs)]
    assert mine.__match_args__ == theirs.__match_args__


@pytest.mark.parametrize("cls", [Plain, Frozen, *RECORDS], ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_a_record_pickles_by_every_protocol_and_copies(cls):
    """Every record (a slotted one too, frozen or not) comes back equal, field by field, from pickle
    by each protocol (0 and 1 as well: a slotted class without its own __getstate__ raised 'a class
    that defines __slots__ without defining __getstate__ cannot be pickled') and from copy, deepcopy."""
    fields = [f for f in dataclasses.fields(cls) if f.init]
    made = cls(**{f.name: _DUMMIES.get(str(f.type)) for f in fields
                  if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING})
    expected = [getattr(made, f.name) for f in dataclasses.fields(cls)]
    copies = [pickle.loads(pickle.dumps(made, protocol)) for protocol in range(pickle.HIGHEST_PROTOCOL + 1)]
    for again in [*copies, copy.copy(made), copy.deepcopy(made)]:
        assert type(again) is cls and [getattr(again, f.name) for f in dataclasses.fields(cls)] == expected


def test_a_frozen_record_refuses_changes_and_pickles():
    frozen = Frozen(3, "t")
    with pytest.raises(dataclasses.FrozenInstanceError):
        frozen.number = 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        del frozen.text
    assert copy.deepcopy(frozen) == frozen and frozen.text == "t"
