"""`python -m tests.benchmarks`: see tests/benchmarks/run.py."""

import sys

from tests.benchmarks.run import main

sys.exit(main())
