"""Run the lesson's command line: ``python -m lesson --help``."""

import os
import sys

# ``python -m`` puts the current folder first on sys.path.  A learner's
# json.py or queue.py there would then replace the standard library's own;
# so the folder goes last (the lesson itself has been imported already).
if sys.path and sys.path[0] in ("", os.getcwd()):
    sys.path.append(sys.path.pop(0))

from lesson.cli import main  # noqa: E402

sys.exit(main())
