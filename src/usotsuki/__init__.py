"""usotsuki (嘘つき, "liar"): Bluff and the Liar Game, rules, records, bots and play."""

__version__ = "0.1.0"
