"""Shared test settings.

Hypothesis: no per-example deadline (CI machines vary); ``HYPOTHESIS_PROFILE=ci`` makes
runs reproducible (derandomized), the default explores new examples on every run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
