#!/usr/bin/env python3
"""Joryio sandbox: a local Joryio-compatible backend for SDK tests and app teams.

    python3 Tools/sandbox/sandbox.py [--host 127.0.0.1] [--port 0] [--sdk-key KEY]
                                     [--prefix /api] [--exit-on-stdin-eof] [--quiet]

Prints `JORYIO_SANDBOX_URL=http://127.0.0.1:PORT` on stdout once listening.
See Tools/sandbox/README.md and docs/protocol.md.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from joryio_sandbox.server import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
