"""`python -m grader --help`: the maintainers' table, and the commands that grade hand-ins
(grader/cli/)."""

import sys

from .cli import main

sys.exit(main())
