"""The liarsdice demo app (work in progress)."""
