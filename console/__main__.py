"""`python -m console` is the same as `tenant-console`."""

import sys

from console.cli import main

sys.exit(main())
