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

TYPE_CHECKING = False  # typing is not imported at run time (see above)
if TYPE_CHECKING:
    from dataclasses import Field
    from typing import Any

#: the attribute :mod:`dataclasses` looks for on a class
FIELDS = "__dataclass_fields__"


def init_fields(instance: object, **fields: object) -> None:
    """Store the fields of a new frozen ``instance`` (from its ``__init__``),
    past its refusing ``__setattr__``."""
    instance.__dict__.update(fields)


class _DataclassFields:
    """A frozen class's ``__dataclass_fields__``, made on first use by
    applying ``@dataclass`` to a stand-in with the same annotations and
    defaults; the result then replaces this descriptor."""

    def __init__(self, cls: type, names: tuple[str, ...]) -> None:
        self.cls = cls
        self.names = names

    def __get__(self, instance: object, owner: type) -> dict[str, Field[Any]]:
        import dataclasses

        cls, names = self.cls, self.names
        body = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
        body["__annotations__"] = {name: cls.__annotations__[name] for name in names}
        made: dict[str, Field[Any]] = vars(dataclasses.dataclass(type(cls.__name__, (), body)))[
            FIELDS
        ]
        setattr(cls, FIELDS, made)
        return made


def frozen(cls: type[Any]) -> type[Any]:
    """Make ``cls`` a frozen value class over the fields its own annotations
    name, in their order (see the module's docstring)."""
    # not inspect.get_annotations: inspect is the import this module saves
    names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063

    def values(self: object) -> tuple[object, ...]:
        return tuple([self.__dict__[name] for name in names])

    def __repr__(self: object) -> str:
        shown = ", ".join([f"{name}={self.__dict__[name]!r}" for name in names])
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(values(self))

    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            _refuse(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            _refuse(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    members: dict[str, object] = {"__match_args__": names, FIELDS: _DataclassFields(cls, names)}
    for method in (__repr__, __eq__, __hash__, __setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
        members[method.__name__] = method
    for name, member in members.items():
        setattr(cls, name, member)
    return cls


def _refuse(message: str) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(message)
