"""Media fixtures for the Notification Service Extension (issue 15): GET /_sandbox/media/*.

Each fixture is a real file of its type with its Content-Type; the query parameters give a wrong or
missing type, padding to any size, a slow body and a body without Content-Length; the redirect route
answers a redirect anywhere. None of it is recorded or faulted (control API)."""

from __future__ import annotations

import http.client
import struct
import time
import unittest
import wave
import zlib
from io import BytesIO

from joryio_sandbox.media import FIXTURES

from .support import HOST, SandboxTestCase


class MediaTests(SandboxTestCase):
    def get(self, path: str) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection(HOST, self.server.server_address[1], timeout=10)
        self.addCleanup(connection.close)
        connection.request("GET", path)
        return connection.getresponse()

    def test_each_fixture_is_served_with_its_type(self):
        expected = {
            "image.jpg": "image/jpeg", "image.png": "image/png", "image.gif": "image/gif",
            "video.mp4": "video/mp4", "audio.wav": "audio/wav",
        }
        self.assertEqual(set(FIXTURES), set(expected))
        for name, content_type in expected.items():
            with self.subTest(name=name):
                response = self.get(f"/_sandbox/media/{name}")
                body = response.read()
                self.assertEqual(response.status, 200)
                self.assertEqual(response.getheader("Content-Type"), content_type)
                self.assertEqual(int(response.getheader("Content-Length")), len(body))
                self.assertEqual(body, FIXTURES[name][0])

    def test_fixtures_are_real_files(self):
        jpeg = FIXTURES["image.jpg"][0]
        self.assertTrue(jpeg.startswith(b"\xff\xd8\xff") and jpeg.endswith(b"\xff\xd9"))
        png = FIXTURES["image.png"][0]
        self.assertTrue(png.startswith(b"\x89PNG\r\n\x1a\n"))
        # Every PNG chunk's CRC holds, and the pixels decompress.
        offset, kinds = 8, []
        while offset < len(png):
            (length,) = struct.unpack(">I", png[offset:offset + 4])
            kind, data = png[offset + 4:offset + 8], png[offset + 8:offset + 8 + length]
            (crc,) = struct.unpack(">I", png[offset + 8 + length:offset + 12 + length])
            self.assertEqual(crc, zlib.crc32(kind + data))
            if kind == b"IDAT":
                self.assertEqual(zlib.decompress(data), b"\x00\xff\x00\x00")
            kinds.append(kind)
            offset += 12 + length
        self.assertEqual(kinds, [b"IHDR", b"IDAT", b"IEND"])
        gif = FIXTURES["image.gif"][0]
        self.assertTrue(gif.startswith(b"GIF89a") and gif.endswith(b";"))
        mp4 = FIXTURES["video.mp4"][0]
        self.assertEqual(mp4[4:12], b"ftypisom")
        (ftyp_size,) = struct.unpack(">I", mp4[:4])
        (moov_size,) = struct.unpack(">I", mp4[ftyp_size:ftyp_size + 4])
        self.assertEqual(mp4[ftyp_size + 4:ftyp_size + 8], b"moov")
        self.assertEqual(ftyp_size + moov_size, len(mp4))
        with wave.open(BytesIO(FIXTURES["audio.wav"][0])) as audio:
            self.assertEqual((audio.getnchannels(), audio.getframerate(), audio.getnframes()), (1, 8000, 80))

    def test_wrong_and_missing_content_type(self):
        response = self.get("/_sandbox/media/image.png?type=text/plain")
        self.assertEqual((response.getheader("Content-Type"), response.read()),
                         ("text/plain", FIXTURES["image.png"][0]))
        response = self.get("/_sandbox/media/image.gif?type=none")
        self.assertIsNone(response.getheader("Content-Type"))
        self.assertEqual(response.read(), FIXTURES["image.gif"][0])

    def test_padded_to_any_size(self):
        jpeg = FIXTURES["image.jpg"][0]
        response = self.get("/_sandbox/media/image.jpg?bytes=300000&chunkBytes=4096")
        body = response.read()
        self.assertEqual((int(response.getheader("Content-Length")), len(body)), (300000, 300000))
        self.assertEqual(body[:len(jpeg)], jpeg)
        self.assertEqual(body[len(jpeg):], b"\x00" * (300000 - len(jpeg)))

    def test_without_content_length_the_body_ends_at_close(self):
        response = self.get("/_sandbox/media/video.mp4?bytes=100000&length=0")
        self.assertIsNone(response.getheader("Content-Length"))
        self.assertEqual(response.getheader("Connection"), "close")
        self.assertEqual(len(response.read()), 100000)

    def test_slow_body(self):
        started = time.monotonic()
        response = self.get("/_sandbox/media/image.png?chunkBytes=20&delayMs=50")
        body = response.read()
        self.assertEqual(body, FIXTURES["image.png"][0])
        chunks = -(-len(body) // 20)
        self.assertGreaterEqual(time.monotonic() - started, chunks * 0.05 * 0.9)

    def test_client_that_gives_up_does_not_disturb_the_server(self):
        response = self.get("/_sandbox/media/video.mp4?bytes=50000000&chunkBytes=65536")
        response.read(1000)
        response.close()
        self.assertEqual(self.get("/_sandbox/health").status, 200)

    def test_redirect(self):
        response = self.get("/_sandbox/media/redirect?to=http://example.com/a.jpg")
        self.assertEqual((response.status, response.getheader("Location")), (302, "http://example.com/a.jpg"))
        response.read()
        response = self.get("/_sandbox/media/redirect?to=/_sandbox/media/image.jpg&status=307")
        self.assertEqual(response.status, 307)

    def test_bad_parameters(self):
        for path in ("/_sandbox/media/image.jpg?bytes=x", "/_sandbox/media/image.jpg?bytes=1",
                     "/_sandbox/media/image.jpg?delayMs=-1", "/_sandbox/media/redirect",
                     "/_sandbox/media/redirect?to=/x&status=200"):
            with self.subTest(path=path):
                response = self.get(path)
                self.assertEqual(response.status, 400)
                response.read()
        self.assertEqual(self.get("/_sandbox/media/nothing.jpg").status, 404)

    def test_media_requests_are_not_recorded(self):
        self.get("/_sandbox/media/image.jpg").read()
        self.assertEqual(self.client.requests(), [])


if __name__ == "__main__":
    unittest.main()
