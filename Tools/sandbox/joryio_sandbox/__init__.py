"""Joryio sandbox: a local, loopback-only Joryio-compatible backend.

Standard library only. The wire protocol it implements is documented in
docs/protocol.md; the SDK implements the other side of the same contract.
"""

PROTOCOL_VERSION = 2
