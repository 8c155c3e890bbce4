"""The command-line sandbox: startup line, loopback-only binding, lifecycle."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import unittest

from .support import EVENTS, SCRIPT, Client, SandboxProcess, make_batch, make_events

URL_LINE = re.compile(r"^JORYIO_SANDBOX_URL=http://127\.0\.0\.1:(\d+)\n$")


def run_to_exit(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=10, stdin=subprocess.DEVNULL)


class StartupTests(unittest.TestCase):
    def test_port_0_prints_one_url_line_and_serves(self):
        with SandboxProcess() as sandbox:
            match = URL_LINE.match(sandbox.startup_line)
            self.assertIsNotNone(match, sandbox.startup_line)
            port = int(match.group(1))
            self.assertGreater(port, 0)
            client = Client(port)
            self.assertEqual(client.control("GET", "health"), {"ok": True})
            self.assertEqual(client.post_events(make_events(1)).status, 200)
            self.assertEqual(client.control("POST", "shutdown"), {"ok": True})
            code, rest_of_stdout, _ = sandbox.wait()
            self.assertEqual((code, rest_of_stdout), (0, ""), "stdout carries only the URL line")

    def test_requests_are_logged_on_stderr_unless_quiet(self):
        with SandboxProcess(quiet=False) as sandbox:
            client = Client(sandbox.port)
            client.post_events(make_events(1))
            client.control("GET", "health")
            client.control("POST", "shutdown")
            code, _, stderr = sandbox.wait()
        lines = stderr.splitlines()
        self.assertEqual(len(lines), 1, stderr)
        self.assertIn(f"POST {EVENTS} 200", lines[0])

    def test_options(self):
        with SandboxProcess("--sdk-key", "jry_sdk_ios_only", "--prefix", "/base/") as sandbox:
            client = Client(sandbox.port)
            body = make_batch(make_events(1))
            self.assertEqual(client.post_json("/base/v1/events", body).status, 403)
            reply = client.post_json("/base/v1/events", body, key="jry_sdk_ios_only")
            self.assertEqual(reply.status, 200)

    def test_refuses_non_loopback_hosts(self):
        for host in ("0.0.0.0", "::", "192.168.1.10", "example.com"):
            with self.subTest(host=host):
                result = run_to_exit("--host", host)
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stdout, "")
                self.assertIn("loopback", result.stderr)

    def test_refuses_bad_options(self):
        for args in (["--sdk-key", "not_a_key"], ["--sdk-key", "jry_sdk_" + "k" * 249],
                     ["--prefix", "api"], ["--prefix", "/_sandbox"]):
            with self.subTest(args=args):
                result = run_to_exit(*args)
                self.assertEqual((result.returncode, result.stdout), (2, ""))
                self.assertTrue(result.stderr)


class LifecycleTests(unittest.TestCase):
    def test_exit_on_stdin_eof(self):
        with SandboxProcess("--exit-on-stdin-eof") as sandbox:
            self.assertEqual(Client(sandbox.port).control("GET", "health"), {"ok": True})
            sandbox.close_stdin()
            self.assertEqual(sandbox.proc.wait(timeout=5), 0)

    def test_without_the_flag_stdin_eof_is_ignored(self):
        with SandboxProcess() as sandbox:
            sandbox.close_stdin()
            client = Client(sandbox.port)
            # Still serving after EOF (the request is handled after the close).
            self.assertEqual(client.control("GET", "health"), {"ok": True})
            self.assertIsNone(sandbox.proc.poll())

    def test_sigterm_and_sigint_exit_cleanly(self):
        for signum in (signal.SIGTERM, signal.SIGINT):
            with self.subTest(signal=signum.name), SandboxProcess() as sandbox:
                Client(sandbox.port).control("GET", "health")
                sandbox.proc.send_signal(signum)
                code, _, stderr = sandbox.wait()
                self.assertEqual(code, 0, stderr)
                self.assertNotIn("Traceback", stderr)


if __name__ == "__main__":
    unittest.main()
