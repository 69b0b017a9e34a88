# The parts of PyICU the demo uses (it ships no type information).

class SpoofChecker:
    def __init__(self) -> None: ...
    def getSkeleton(self, type: int, text: str) -> str: ...

class Char:
    @staticmethod
    def hasBinaryProperty(c: str | int, which: int) -> bool: ...

class UProperty:
    DEFAULT_IGNORABLE_CODE_POINT: int
