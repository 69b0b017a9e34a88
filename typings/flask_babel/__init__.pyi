# Local stubs for Flask-Babel (it ships no types), typed as far as the demo uses it.
from collections.abc import Callable
from gettext import NullTranslations
from typing import Any

from babel.core import Locale
from flask import Flask

class Domain:
    def __init__(
        self, translation_directories: str | list[str] | None = None, domain: str = "messages"
    ) -> None: ...
    def get_translations(self) -> NullTranslations: ...

class Babel:
    def __init__(
        self,
        app: Flask | None = None,
        date_formats: dict[str, str] | None = None,
        configure_jinja: bool = True,
        *,
        locale_selector: Callable[[], str | None] | None = None,
        **kwargs: Any,
    ) -> None: ...
    @property
    def domain_instance(self) -> Domain: ...

def get_locale() -> Locale | None: ...
def gettext(string: str, **variables: Any) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...
