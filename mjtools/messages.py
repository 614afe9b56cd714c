"""The few fixed words of explanations, in en / zh / ja (rule text itself lives in the rule files).

`text(key, lang, **params)` formats an entry of `data/messages.json`. `Msg` is a string that
remembers its key and parameters, so a score step written in English by a score model can be
re-rendered in the language the user asked for (`localize`). The catalogue is JSON, not YAML,
because score steps are built on the single-hand path, which must not import yaml.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

LANGS = ("en", "zh", "ja")
# os.path, not pathlib: score steps need the catalogue on the single-hand path, and pathlib
# (with urllib.parse and ipaddress behind it) costs a single call about 5 ms to import.
CATALOGUE_PATH = os.path.join(os.path.dirname(__file__), "data", "messages.json")


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    with open(CATALOGUE_PATH, encoding="utf-8") as f:
        return json.load(f)


def has(key: str) -> bool:
    return key in catalogue()


def text(key: str, lang: str = "en", **params: Any) -> str:
    """The message `key` in `lang` (English where a translation is missing), parameters filled."""
    entry = catalogue()[key]
    template = entry.get(lang) or entry["en"]
    return template.format(**{k: localize(v, lang) for k, v in params.items()})


def unit_word(unit: str, lang: str) -> str:
    """A fan unit in `lang`: han, yakuman and limit have words; 番, 台 and the like are shown as
    the rule file writes them."""
    key = f"unit.{unit}"
    return text(key, lang) if key in catalogue() else unit


def yakuman_word(times: int, lang: str) -> str:
    """yakuman, double yakuman, triple yakuman, then Nx yakuman."""
    key = f"yakuman.{times}"
    return text(key, lang) if key in catalogue() else text("yakuman.n", lang, n=times)


class Msg(str):
    """A message rendered in English that can be rendered again in another language."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, **params: Any) -> Msg:
        obj = super().__new__(cls, text(key, "en", **params))
        obj.key = key
        obj.params = params
        return obj

    def in_lang(self, lang: str) -> str:
        return text(self.key, lang, **self.params)


def localize(value: Any, lang: str) -> Any:
    """A Msg or Joined in `lang`; any other value unchanged (plain strings from code without a key)."""
    if isinstance(value, (Msg, Joined)):
        return value.in_lang(lang)
    return value


class Joined(str):
    """Items (messages or plain strings) joined by a separator, re-rendered item by item."""

    items: tuple[Any, ...]
    sep: str

    def __new__(cls, items: list[Any] | tuple[Any, ...], sep: str = ", ") -> Joined:
        obj = super().__new__(cls, sep.join(str(i) for i in items))
        obj.items = tuple(items)
        obj.sep = sep
        return obj

    def in_lang(self, lang: str) -> str:
        return self.sep.join(str(localize(i, lang)) for i in self.items)
