"""``python -m scoring``: see :mod:`scoring.cli`.

The process ends with ``os._exit`` once its output is flushed: the interpreter's own
finalization (freeing every module, the geometry cache, the memory of a long record) is
work a command that is about to exit need not do, 7 to 12 ms of a check (measured with
``python -m scoring bench-command``). Nothing of the engine registers an exit handler.
"""

import os
import sys

from scoring.cli import main

status = main()
try:
    sys.stdout.flush()
    sys.stderr.flush()
except OSError:  # a closed pipe: let the interpreter report it as usual
    sys.exit(status)
os._exit(status)
