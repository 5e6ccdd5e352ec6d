"""The ``usotsuki`` command line."""
