"""Fast construction of frozen slots dataclasses for the cores' hot transitions.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``. The
cores' fast paths instead store the fields into a bare instance of a plain slots class
with the same fields in the same order (the same layout), then give it the frozen class
(``__class__`` may change between classes of the same slot layout). The result is an
ordinary frozen instance: equal, hashable and picklable as if built by ``__init__``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any


def draft_class(frozen: type) -> Any:
    """A plain (mutable) slots class with ``frozen``'s fields and defaults in its order."""
    names: dict[str, Any] = {"__annotations__": {f.name: f.type for f in fields(frozen)}}
    names |= {f.name: f.default for f in fields(frozen) if f.default is not MISSING}
    draft: Any = dataclass(slots=True)(type(f"_{frozen.__name__}Draft", (), names))
    if draft.__slots__ != getattr(frozen, "__slots__", None):  # same layout, or no __class__ swap
        raise TypeError(f"{frozen.__name__} is not a slots dataclass")
    return draft
