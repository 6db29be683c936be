"""Frozen value classes, as ``@dataclass(frozen=True)`` makes them, without
importing :mod:`dataclasses`.

:mod:`arena.game` is imported by every engine, so its import is part of the
start of every fresh process that plays a game, and ``@dataclass`` would
make it costly there (``dataclasses`` imports ``inspect`` and with it ``ast``,
``dis`` and ``tokenize``, and each decorated class compiles its generated
methods; docs/performance.md has the cost).

:func:`frozen` gives a class what ``@dataclass(frozen=True)`` gave it, for
the fields its annotations name: ``__repr__``, ``__eq__`` (same class, equal
fields) and ``__hash__`` over the fields, ``__match_args__``, and assignment
or deletion refused with :class:`dataclasses.FrozenInstanceError` (imported
when one is refused).  The class writes its own ``__init__``, storing its
fields with :func:`init_fields`.  ``dataclasses.fields``, ``asdict``,
``replace`` and ``is_dataclass`` still work on such a class and its
instances (the records store engines' results with ``asdict``): its
``__dataclass_fields__`` is made by :mod:`dataclasses` itself on first use.
"""

from __future__ import annotations


def init_fields(instance: object, **fields: object) -> None:
    """Store the fields of a new frozen ``instance`` (from its ``__init__``),
    past its refusing ``__setattr__``."""
    instance.__dict__.update(fields)


class _DataclassFields:
    """A frozen class's ``__dataclass_fields__``, made on first use by
    applying ``@dataclass`` to a stand-in with the same annotations and
    defaults; the result then replaces this descriptor."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __get__(self, instance: object, owner: type) -> dict:
        import dataclasses

        cls = self.cls
        names = cls.__match_args__
        body = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
        body["__annotations__"] = {name: cls.__annotations__[name] for name in names}
        made = dataclasses.dataclass(type(cls.__name__, (), body)).__dataclass_fields__
        cls.__dataclass_fields__ = made
        return made


def frozen(cls: type) -> type:
    """Make ``cls`` a frozen value class over the fields its own annotations
    name, in their order (see the module's docstring)."""
    names = tuple(cls.__dict__.get("__annotations__", {}))

    def values(self) -> tuple:
        return tuple([self.__dict__[name] for name in names])

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={self.__dict__[name]!r}" for name in names])
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object):
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(values(self))

    def __setattr__(self, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            _refuse(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is cls or name in names:
            _refuse(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__repr__, __eq__, __hash__, __setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        setattr(cls, method.__name__, method)
    cls.__match_args__ = names
    cls.__dataclass_fields__ = _DataclassFields(cls)
    return cls


def _refuse(message: str) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(message)
