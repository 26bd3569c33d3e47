"""PLACEHOLDER: being written."""
from ..core.game import Game


class Pilo(Game):
    name = "pilo"
    default_size = 9
