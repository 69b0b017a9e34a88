"""``liarsdice-demo``: run the demo app (work in progress)."""


def main() -> None:
    raise SystemExit("the demo app is not built yet")
