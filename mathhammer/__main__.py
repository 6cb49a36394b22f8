"""``python -m mathhammer``: the command line (see :mod:`mathhammer.cli`)."""

import sys

from .cli import main

sys.exit(main())
