"""PLACEHOLDER: being written."""
from ..core.game import Game


class Implo(Game):
    name = "implo"
    default_size = 9
