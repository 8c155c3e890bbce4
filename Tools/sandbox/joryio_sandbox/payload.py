"""Request bodies: transfer (Content-Length / chunked), content decoding
(gzip) and JSON parsing, done once per request.

The outcome is a Payload that both the request log and the endpoint pipeline
read, so a faulted or rejected request is still recorded with its body.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any, BinaryIO, Optional

from .validation import MAX_BODY_BYTES
from .wire import WireError, parse_json

# Raw (on-the-wire) bytes kept per request. Anything beyond is read and
# discarded so the connection stays usable and the client sees the 413.
MAX_RAW_BYTES = 2 * MAX_BODY_BYTES
_READ_CHUNK = 64 * 1024


@dataclass
class Payload:
    raw: bytes                      # as received (possibly truncated, see raw_size)
    raw_size: int                   # bytes received on the wire
    gzip: bool
    data: Optional[bytes]           # decoded body; None when undecodable or too large
    value: Any = None               # parsed JSON when `error` is None
    error: Optional[WireError] = None  # first problem: encoding, size, then JSON

    @property
    def data_size(self) -> Optional[int]:
        """Decoded size, when known (an oversized gzip body is not fully inflated)."""
        if self.data is not None:
            return len(self.data)
        return self.raw_size if not self.gzip and self.error and self.error.status == 413 else None

    def log_fields(self) -> dict[str, Any]:
        """The body-related fields of a request-log entry: the parsed JSON,
        or the text of a decoded body that is not JSON."""
        not_json = self.error is not None and self.error.error == "invalid_json"
        return {
            "gzip": self.gzip,
            "rawBytes": self.raw_size,
            "bodyBytes": self.data_size,
            "body": self.value if self.error is None else None,
            "bodyText": self.data.decode("utf-8", "replace") if not_json and self.data else None,
        }


# -- transfer ---------------------------------------------------------------

class BodyError(Exception):
    """The body could not be read as framed; the connection must be closed."""


def _read_limited(stream: BinaryIO, size: int, kept: bytearray) -> int:
    """Read exactly `size` bytes, keeping at most MAX_RAW_BYTES in `kept`."""
    remaining = size
    while remaining:
        chunk = stream.read(min(remaining, _READ_CHUNK))
        if not chunk:
            raise BodyError("connection closed before the body was complete")
        room = MAX_RAW_BYTES - len(kept)
        if room > 0:
            kept += chunk[:room]
        remaining -= len(chunk)
    return size


def read_body(stream: BinaryIO, headers: dict[str, str]) -> tuple[bytes, int]:
    """Read the request body as framed by Content-Length or chunked encoding.

    Returns (kept bytes, total size). Raises BodyError when framing is broken.
    """
    kept = bytearray()
    transfer = headers.get("transfer-encoding", "").strip().lower()
    if transfer:
        if transfer != "chunked":
            raise BodyError(f"unsupported Transfer-Encoding {transfer!r}")
        total = 0
        while True:
            line = stream.readline(1024)
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise BodyError("bad chunk size line") from None
            if size == 0:
                break
            total += _read_limited(stream, size, kept)
            if stream.readline(3).strip():
                raise BodyError("chunk not followed by CRLF")
        while stream.readline(1024).strip():  # trailers, up to the empty line
            pass
        return bytes(kept), total

    length = headers.get("content-length")
    if length is None:
        return b"", 0
    try:
        size = int(length)
    except ValueError:
        raise BodyError("bad Content-Length") from None
    if size < 0:
        raise BodyError("bad Content-Length")
    _read_limited(stream, size, kept)
    return bytes(kept), size


# -- content ----------------------------------------------------------------

def _gunzip(data: bytes, limit: int) -> Optional[bytes]:
    """Inflate (possibly multi-member) gzip data, stopping once more than
    `limit` bytes come out. Returns None when over the limit; raises
    ValueError when the data is not valid gzip."""
    out = bytearray()
    while True:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out += inflater.decompress(data, limit + 1 - len(out))
        except zlib.error as exc:
            raise ValueError(str(exc)) from exc
        if len(out) > limit or inflater.unconsumed_tail:
            return None
        if not inflater.eof:
            raise ValueError("truncated gzip stream")
        data = inflater.unused_data
        if not data:
            return bytes(out)


def decode_payload(raw: bytes, raw_size: int, content_encoding: str) -> Payload:
    encoding = content_encoding.strip().lower()
    gzip = encoding == "gzip"
    payload = Payload(raw=raw, raw_size=raw_size, gzip=gzip, data=None)

    if encoding not in ("", "identity", "gzip"):
        payload.error = WireError(
            400, "unsupported_content_encoding", f"Content-Encoding {encoding!r} is not supported"
        )
        return payload
    if raw_size > len(raw):
        payload.error = WireError(413, "payload_too_large")
        return payload
    if gzip:
        try:
            payload.data = _gunzip(raw, MAX_BODY_BYTES)
        except ValueError as exc:
            payload.error = WireError(400, "bad_gzip", f"the body is not valid gzip: {exc}")
            return payload
    else:
        payload.data = raw
    if payload.data is None or len(payload.data) > MAX_BODY_BYTES:
        payload.data = None
        payload.error = WireError(
            413, "payload_too_large", f"the decoded body exceeds {MAX_BODY_BYTES} bytes"
        )
        return payload

    if not payload.data:
        payload.error = WireError(400, "invalid_json", "the body is empty")
        return payload
    try:
        payload.value = parse_json(payload.data)
    except ValueError as exc:
        payload.error = WireError(400, "invalid_json", f"the body is not valid JSON: {exc}")
    return payload
