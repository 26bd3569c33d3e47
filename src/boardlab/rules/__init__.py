"""Each game's rules page, shipped with the package (``boardlab rules GAME``).

The pages are ``boardlab/rules/<game>.md`` (package data), written for
players: the rules in the project's own words, worked diagrams (fenced
``board`` blocks holding a position text, drawn by the web app and by
``boardlab rules``) and how to write moves. What programs need beyond that
(integer actions, position fields, engine rulings) is in docs/games/ of the
repository, and the rulings shared by all games in docs/rules.md.
"""

from __future__ import annotations

from importlib import resources

from .. import game_class
from ..errors import BoardlabError


class MissingRulesError(BoardlabError):
    """The rules page of a known game is not installed."""


def rules_text(game: str) -> str:
    """The rules page of ``game`` (markdown text); OptionError for an unknown game,
    MissingRulesError when the page is not installed."""
    name = game_class(game).name
    page = resources.files("boardlab") / "rules" / f"{name}.md"
    try:
        return page.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise MissingRulesError(
            f"no rules page for {name} in this installation "
            f"(expected boardlab/rules/{name}.md)") from None
