"""usotsuki (嘘つき, "liar"): Bluff and the Liar Game, rules, records, bots and play."""

from usotsuki import _native

__version__ = "0.1.0"

_native.install()  # the compiled cores, or their sources (USOTSUKI_PURE=1, stale build)
