"""Pickling for the cores' state classes, the same whether they run compiled or not.

The state classes (``BluffState``, ``RoundResult``, ``LiarState``) are slots dataclasses
whose fields are ``Final``: mypy refuses an assignment to one, and so does a mypyc build
at run time (it gives ``Final`` attributes no setter). That also refuses the default
pickling, which restores an instance's slots one ``setattr`` at a time; so the classes
pickle as a call of the class with their fields' values, in both builds alike.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_frozen(obj: Any) -> tuple[Any, tuple[object, ...]]:
    """``__reduce__`` for the state classes: rebuild by calling the class with the fields'
    values (a mypyc class with its own ``__init__`` cannot be made empty first either:
    ``cls.__new__(cls)`` runs ``__init__``)."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))
