"""Argument types shared by the command-line parsers (``boardlab`` and
``boardlab match``, which has a parser of its own)."""

from __future__ import annotations

import argparse


def option_pair(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` of ``--option``: yes/no a bool, digits an int, else the text
    (the game's own option check says what a value may be)."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"option {text!r} is not KEY=VALUE")
    if value in ("yes", "no"):
        return key, value == "yes"
    try:
        return key, int(value)
    except ValueError:
        return key, value
