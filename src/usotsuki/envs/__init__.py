"""Environments for research on top of the rules cores (docs/research.md).

- :mod:`usotsuki.envs.openspiel`: OpenSpiel games ``python_usotsuki_bluff`` and
  ``python_usotsuki_liar``, registered with pyspiel when the module is imported.
- :mod:`usotsuki.envs.bluff_v0`, :mod:`usotsuki.envs.liar_v0`: PettingZoo AEC environments.
- Gymnasium: ``gymnasium.make("usotsuki/Bluff-v0")`` and ``"usotsuki/Liar-v0"`` once this
  package is imported (or ``gymnasium.make("usotsuki.envs:usotsuki/Bluff-v0")``).

Every environment sees a game only through a seat's view and applies actions through the
core; :mod:`usotsuki.envs.bluff_codec` and :mod:`usotsuki.envs.liar_codec` define the action
ids and the tensors all three share.
"""

try:  # the rl extra: without Gymnasium there is nothing to register
    from usotsuki.envs.gym import register as _register
except ImportError:  # pragma: no cover
    pass
else:
    _register()
