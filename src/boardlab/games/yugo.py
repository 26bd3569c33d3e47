"""PLACEHOLDER: being written."""
from ..core.game import Game


class Yugo(Game):
    name = "yugo"
    default_size = 9
