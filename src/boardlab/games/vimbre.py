"""PLACEHOLDER: being written."""
from ..core.game import Game


class Vimbre(Game):
    name = "vimbre"
    default_size = 9
