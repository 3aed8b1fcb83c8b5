"""`python -m proof_kind.serve [serve's options]`: `tenant-console serve` with the widgets.

The tests' launcher for the local service of the proof (with tests/ on PYTHONPATH, as
`WidgetService` starts it): it registers WIDGETS, then runs the product's own `serve` with
the widgets' router added, so it binds, bootstraps, announces and serves exactly as `serve`
does. Only this module passes a router: no option of the console's command line does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from console.cli import parse_arguments
    from console.kinds import KINDS
    from console.service.cli import serve
    from proof_kind.kind import WIDGETS
    from proof_kind.routes import router

    KINDS.register(WIDGETS)  # before the bootstrap, which grants every kind's permissions
    args = parse_arguments(["serve", *(sys.argv[1:] if argv is None else argv)])
    return serve(args, routers=(router,))


if __name__ == "__main__":
    sys.exit(main())
