"""``python -m boardlab``: the same as the ``boardlab`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
