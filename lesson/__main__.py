"""Run the lesson's command line: ``python -m lesson --help``."""

import sys

from lesson.cli import main

sys.exit(main())
