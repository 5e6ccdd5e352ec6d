"""Fast construction of frozen slots dataclasses for the cores' hot transitions.

Pure Python: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``. The cores' fast paths instead store the fields into a bare
instance of a plain slots class with the same fields in the same order (the same layout),
then give it the frozen class (``__class__`` may change between classes of the same slot
layout). The result is an ordinary frozen instance: equal, hashable and picklable as if
built by ``__init__``.

Compiled (mypyc, issue 15): the state classes are native classes, whose ``__init__`` is C
that stores the fields directly, and whose ``__class__`` cannot change; so a compiled
module calls the class itself (:func:`is_compiled` tells which build runs).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any


def is_compiled(module_file: str) -> bool:
    """Whether the module whose ``__file__`` this is runs compiled (not from its ``.py``)."""
    return not module_file.endswith(".py")


def draft_class(frozen: type) -> Any:
    """A plain (mutable) slots class with ``frozen``'s fields and defaults in its order."""
    names: dict[str, Any] = {"__annotations__": {f.name: f.type for f in fields(frozen)}}
    names |= {f.name: f.default for f in fields(frozen) if f.default is not MISSING}
    draft: Any = dataclass(slots=True)(type(f"_{frozen.__name__}Draft", (), names))
    if draft.__slots__ != getattr(frozen, "__slots__", None):  # same layout, or no __class__ swap
        raise TypeError(f"{frozen.__name__} is not a slots dataclass")
    return draft


def reduce_frozen(obj: Any) -> tuple[Any, tuple[object, ...]]:
    """``__reduce__`` for the state classes: rebuild by calling the class with the fields'
    values. The same compiled or not: a mypyc class with its own ``__init__`` cannot be
    made empty first (``cls.__new__(cls)`` runs ``__init__``), so no ``__setstate__``."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))
