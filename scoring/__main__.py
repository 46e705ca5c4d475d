"""``python -m scoring``: see :mod:`scoring.cli`."""

import sys

from scoring.cli import main

sys.exit(main())
