"""The rule-law suite: load the Hypothesis profile named by $HYPOTHESIS_PROFILE (default "fast")."""

from liarsdice.testing import register_profiles

register_profiles()
