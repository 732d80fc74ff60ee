"""`python -m grader`: the maintainers' table (grader/report.py);
`python -m grader regrade PATH...`: learners' hand-ins, graded (grader/regrade.py)."""

import sys

if sys.argv[1:2] == ["regrade"]:
    from .regrade import main

    sys.exit(main(sys.argv[2:]))

from .report import main

sys.exit(main())
