#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The CLI's JSON documents, byte for byte, against goldens written by an earlier build: every
report command on every sysfs fixture, and rdmakit tune on the host tree (audit, plan, apply,
history, verify, rollback). A change to the writers that changes one byte of a document fails
here; a deliberate change to a document regenerates the goldens with --write."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from rktest import FIXTURES, RDMAKIT, SYSFS_FIXTURES as SYSFS  # noqa: E402

GOLDEN = os.path.join(HERE, "golden")
HOST = os.path.join(FIXTURES, "tune", "host")
ROOT_MARK = "@ROOT@"  # where a document names the temporary tree it ran on


def fixture_cases():
    """(name, argv) of every report command on every fixture."""
    for fixture in sorted(os.listdir(SYSFS)):
        root = os.path.join(SYSFS, fixture)
        if not os.path.isdir(root):
            continue
        for name, args in (("status", ["status"]), ("counters", ["counters"]),
                           ("doctor", ["doctor"]),
                           ("doctor-expect-400", ["doctor", "--expect-rate", "400"])):
            yield f"{fixture}.{name}", [*args, "--json", "--sysfs-root", root]
        first = sorted(os.listdir(os.path.join(root, "class", "infiniband")))[0]
        yield f"{fixture}.status-one", ["status", f"{first}:1", "--json", "--sysfs-root", root]


def run(argv):
    proc = subprocess.run([RDMAKIT, *argv], capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout


def tune_documents():
    """(name, exit status, document) of tune's actions on a copy of the host tree, in order."""
    tmp = tempfile.mkdtemp()
    try:
        root = os.path.join(tmp, "root")
        shutil.copytree(HOST, root, symlinks=True)
        steps = [("audit", ["audit"]), ("audit-latency", ["audit", "--profile", "latency"]),
                 ("audit-throughput", ["audit", "--profile", "throughput"]),
                 ("plan-latency", ["plan", "--profile", "latency"]),
                 ("plan-throughput", ["plan", "--profile", "throughput"]),
                 ("history-empty", ["history"]),
                 ("apply-latency", ["apply", "--profile", "latency"]),
                 ("apply-again", ["apply", "--profile", "latency"]),
                 ("history", ["history"]), ("verify", ["verify"]),
                 ("rollback", ["rollback"]), ("history-rolled-back", ["history"])]
        for name, args in steps:
            rc, out = run(["tune", *args, "--json", "--root", root])
            out = out.replace(root, ROOT_MARK)
            # When a journal was started is the only value that differs from run to run.
            out = re.sub(r'"started": [0-9]+', '"started": 0', out)
            yield f"tune.{name}", rc, out
    finally:
        shutil.rmtree(tmp)


def documents():
    for name, argv in fixture_cases():
        rc, out = run(argv)
        yield name, rc, out
    yield from tune_documents()


def golden_path(name):
    return os.path.join(GOLDEN, name + ".json")


def write_goldens():
    os.makedirs(GOLDEN, exist_ok=True)
    count = 0
    for name, rc, out in documents():
        with open(golden_path(name), "w") as f:
            f.write(f"{rc}\n{out}")
        count += 1
    print(f"wrote {count} goldens to {GOLDEN}")


class Golden(unittest.TestCase):
    def test_every_document_is_byte_identical(self):
        compared = 0
        for name, rc, out in documents():
            with self.subTest(document=name):
                with open(golden_path(name)) as f:
                    want_rc, want = f.read().split("\n", 1)
                self.assertEqual(rc, int(want_rc))
                self.assertEqual(out, want)
                json.loads(out)  # and a document at all
            compared += 1
        self.assertEqual(compared, len(os.listdir(GOLDEN)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_goldens()
    else:
        unittest.main()
