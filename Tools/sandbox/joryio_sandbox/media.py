"""Media fixtures for the rich-push tests (issue 15): GET /_sandbox/media/*.

Real, tiny files built with the standard library: a baseline JPEG (one grey 8x8 block), a PNG, a
GIF, an MP4 container (ftyp + moov/mvhd, no tracks) and a WAV, each with its Content-Type. Query
parameters turn them into the cases the Notification Service Extension must survive:

  type=MIME        send this Content-Type instead; `type=none` sends no Content-Type
  bytes=N          pad the file with zeros to N bytes (an oversize download), generated on the fly
  chunkBytes=N     write the body in chunks of N bytes (default 65536)
  delayMs=N        wait N ms before each chunk (a slow download)
  length=0         send no Content-Length: the body ends when the connection closes

GET /_sandbox/media/redirect?to=URL[&status=302] answers a redirect to URL (for example an http
URL the extension must refuse). See docs/protocol.md §6.2.
"""

from __future__ import annotations

import struct
import time
import wave
import zlib
from io import BytesIO
from typing import Iterator

from .routing import CONTROL_PREFIX, Request, Response, Router
from .wire import WireError

MEDIA_PREFIX = f"{CONTROL_PREFIX}/media"
DEFAULT_CHUNK_BYTES = 65536
MAX_BYTES = 256 * 1024 * 1024      # the largest padded body served
MAX_DELAY_MS = 10_000


def _jpeg() -> bytes:
    """A baseline JPEG: one 8x8 grey block (DC difference 0, end of block at once)."""
    def segment(marker: int, payload: bytes) -> bytes:
        return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload

    jfif = segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    quant = segment(0xDB, b"\x00" + bytes([1] * 64))
    frame = segment(0xC0, b"\x08" + struct.pack(">HH", 8, 8) + b"\x01" + b"\x01\x11\x00")
    one_code = bytes([1] + [0] * 15) + b"\x00"  # one code of length 1 -> symbol 0
    huffman = segment(0xC4, b"\x00" + one_code + b"\x10" + one_code)  # DC table 0, AC table 0
    scan = segment(0xDA, b"\x01" + b"\x01\x00" + b"\x00\x3f\x00")
    entropy = b"\x3f"  # DC '0' (category 0), AC '0' (EOB), padded with 1 bits
    return b"\xff\xd8" + jfif + quant + frame + huffman + scan + entropy + b"\xff\xd9"


def _png() -> bytes:
    """A 1x1 opaque red PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def _gif() -> bytes:
    """A 1x1 GIF89a, one black pixel."""
    return (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff"
            b"!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def _box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def _mp4() -> bytes:
    """An ISO base media file: ftyp (isom) and a movie header, no tracks."""
    ftyp = _box(b"ftyp", b"isom" + struct.pack(">I", 512) + b"isomiso2mp41")
    matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
    mvhd = _box(b"mvhd", b"\x00\x00\x00\x00" + struct.pack(">IIII", 0, 0, 1000, 0)
                + struct.pack(">IH", 0x10000, 0x100) + b"\x00" * 10 + matrix + b"\x00" * 24
                + struct.pack(">I", 1))
    return ftyp + _box(b"moov", mvhd)


def _wav() -> bytes:
    """10 ms of 8 kHz mono 8-bit silence."""
    out = BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(1)
        file.setframerate(8000)
        file.writeframes(b"\x80" * 80)
    return out.getvalue()


# name -> (bytes, Content-Type)
FIXTURES: dict[str, tuple[bytes, str]] = {
    "image.jpg": (_jpeg(), "image/jpeg"),
    "image.png": (_png(), "image/png"),
    "image.gif": (_gif(), "image/gif"),
    "video.mp4": (_mp4(), "video/mp4"),
    "audio.wav": (_wav(), "audio/wav"),
}


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query.get(name, [None])[0]
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise WireError(400, "bad_request", f"{name} must be an integer") from None
    if not low <= value <= high:
        raise WireError(400, "bad_request", f"{name} must be in {low}...{high}")
    return value


def _body(data: bytes, total: int, chunk_bytes: int, delay_ms: int) -> Iterator[bytes]:
    """`data` padded with zeros to `total` bytes, in chunks, each after `delay_ms`."""
    sent = 0
    while sent < total:
        if delay_ms:
            time.sleep(delay_ms / 1000)
        size = min(chunk_bytes, total - sent)
        start = data[sent:sent + size]
        yield start + b"\x00" * (size - len(start))
        sent += size


def fixture(request: Request) -> Response:
    name = request.path[len(MEDIA_PREFIX) + 1:]
    data, content_type = FIXTURES[name]
    total = _int_param(request, "bytes", len(data), len(data), MAX_BYTES)
    chunk_bytes = _int_param(request, "chunkBytes", DEFAULT_CHUNK_BYTES, 1, 1024 * 1024)
    delay_ms = _int_param(request, "delayMs", 0, 0, MAX_DELAY_MS)
    with_length = _int_param(request, "length", 1, 0, 1) == 1
    declared = request.query.get("type", [content_type])[0]
    return Response(
        200,
        content_type=None if declared == "none" else declared,
        chunks=_body(data, total, chunk_bytes, delay_ms),
        content_length=total if with_length else None,
    )


def redirect(request: Request) -> Response:
    target = request.query.get("to", [""])[0]
    if not target:
        raise WireError(400, "bad_request", "give ?to=URL")
    status = _int_param(request, "status", 302, 300, 308)
    return Response(status, raw=b"", headers={"Location": target})


def register(router: Router) -> None:
    for name in FIXTURES:
        router.control("GET", f"{MEDIA_PREFIX}/{name}", fixture)
    router.control("GET", f"{MEDIA_PREFIX}/redirect", redirect)
