"""The sweep of ``tox -e props``: every rule law on every ruleset of the sweep's plan (a covering
array of the installed variants and option values, or every valid combination), and each
installed variant's games kept apart. The kit's pytest plugin makes the items
(:mod:`liarsdice.testing.pytest_sweep`); collected only with ``LIARSDICE_PROPS=1`` (conftest.py).
"""

liarsdice_sweep = True
