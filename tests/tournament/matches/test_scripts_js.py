"""The tablet's scripts' own tests, under Node's test runner (``node --test``): the queue's
state machine (tests/js/queue.test.js: saved, already saved, refused, stale, a 5xx, no network,
an expired login, two tabs) and the turn's check before it is queued
(tests/js/turn_check.test.js). Without Node.js or ``npm ci``'s packages they fail, never skip
(tests/node.py)."""

from __future__ import annotations

import re

from tests.node import ROOT, eslint, node, run


def node_tests(*paths: str):
    eslint()  # jsdom comes with the development packages: `npm ci`
    return run([node(), "--test", "--test-reporter=tap", *paths])


def counts(output: str) -> dict[str, int]:
    return {name: int(value) for name, value in re.findall(r"^# (tests|pass|fail) (\d+)$",
                                                           output, re.M)}


def test_the_scripts_tests_pass_under_node():
    result = node_tests(*sorted(str(p) for p in (ROOT / "tests" / "js").glob("*.test.js")))
    found = counts(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert found["fail"] == 0 and found["pass"] == found["tests"] >= 9, found


def test_a_failing_script_test_fails_the_suite(tmp_path):
    """The runner can fail: a test that asserts a falsehood is reported and exits non-zero."""
    probe = tmp_path / "probe.test.js"
    probe.write_text('require("node:test")("probe", () => { require("node:assert").equal(1, 2); });\n')
    result = node_tests(str(probe))
    assert result.returncode != 0
    assert counts(result.stdout)["fail"] == 1
