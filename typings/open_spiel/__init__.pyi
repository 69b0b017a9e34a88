"""Stubs for OpenSpiel's Python package, typed as far as liarsdice uses it."""
