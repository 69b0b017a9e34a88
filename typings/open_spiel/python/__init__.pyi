"""Stubs for ``open_spiel.python``, typed as far as liarsdice uses it."""
