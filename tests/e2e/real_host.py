#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Every rdmakit command on this machine's real /sys and /proc (no fixture), judged by what the
machine has: with or without an HCA, ib_umad or ib_uverbs. Each command must exit with the
documented status, print valid JSON with --json, and write nothing on stderr but rdmakit's own
lines (no libibumad, libibnetdisc or libibverbs chatter; none at all when it succeeds).

  real_host.py RDMAKIT     prints one line per command and a verdict; exits 1 on a problem

test_real_host.py runs it here; tests/vm/test_probe.py runs it inside the soft-RoCE VM."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

JOURNAL_DIR = "/var/lib/rdmakit/tune"
CANNOT_SEND_MADS = "rdmakit: error: cannot send MADs: "


def entries(path, prefix=""):
    try:
        return sorted(e for e in os.listdir(path) if e.startswith(prefix))
    except OSError:
        return []


class Machine:
    """What this machine's kernel offers for RDMA, read as rdmakit's rk_rdma_stack reads it."""

    def __init__(self):
        self.devices = entries("/sys/class/infiniband")
        self.umad_loaded = os.path.exists("/sys/class/infiniband_mad/abi_version")
        self.umad_ports = entries("/sys/class/infiniband_mad", "umad")
        self.uverbs_loaded = os.path.exists("/sys/class/infiniband_verbs/abi_version")
        self.uverbs_nodes = entries("/dev/infiniband", "uverbs")
        self.journals = entries(JOURNAL_DIR)

    def no_umad(self):
        """The start of rdmakit's reason why no MAD can be sent, or None."""
        if self.umad_ports:
            return None
        if not self.devices:
            return "no RDMA device on this host"
        if not self.umad_loaded:
            return "ib_umad is not loaded"
        return "no InfiniBand port has a umad device"

    def verbs_usable(self):
        return bool(self.devices and self.uverbs_loaded and self.uverbs_nodes)

    def __str__(self):
        return (f"devices {self.devices or '-'}, umad ports {self.umad_ports or '-'} "
                f"(ib_umad {'loaded' if self.umad_loaded else 'not loaded'}), ib_uverbs "
                f"{'loaded' if self.uverbs_loaded else 'not loaded'}, uverbs nodes "
                f"{self.uverbs_nodes or '-'}, tune journals {self.journals or '-'}")


WORST_EXIT = {"ok": 0, "warning": 1, "critical": 2}


class Run:
    def __init__(self, rdmakit, args, cwd):
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "IBSIM_SOCKNAME")}
        proc = subprocess.run([rdmakit, *args], capture_output=True, text=True, timeout=120,
                              cwd=cwd, env=env)
        self.args, self.status = args, proc.returncode
        self.stdout, self.stderr = proc.stdout, proc.stderr
        self.errors = proc.stderr.splitlines()

    def __str__(self):
        return f"rdmakit {' '.join(self.args)}: exit {self.status}"

    def document(self):
        return json.loads(self.stdout)


class Checker:
    def __init__(self, rdmakit):
        self.rdmakit = os.path.abspath(rdmakit)
        self.machine = Machine()
        self.problems = []
        self.cwd = tempfile.mkdtemp(prefix="rdmakit-real-host-")

    def problem(self, run, what):
        self.problems.append(f"{run}: {what}\n  stdout: {run.stdout[:600]!r}\n"
                             f"  stderr: {run.stderr[:600]!r}")

    def run(self, *args):
        os.makedirs(self.cwd, exist_ok=True)
        return Run(self.rdmakit, args, self.cwd)

    def expect_status(self, run, allowed):
        if run.status not in allowed:
            self.problem(run, f"expected exit status {sorted(allowed)}")

    def expect_quiet(self, run):
        """A command that did its work: nothing at all on stderr."""
        if run.errors:
            self.problem(run, "wrote on stderr although it succeeded")

    def expect_own_lines(self, run, first=None):
        """A command that could not do its work: at most two lines, each rdmakit's own (the
        core's message, then the command's summary); the first starts with first."""
        if not run.errors or len(run.errors) > 2:
            self.problem(run, "expected one message (and a summary) on stderr")
        for line in run.errors:
            if not line.startswith("rdmakit"):
                self.problem(run, f"a line on stderr that is not rdmakit's: {line!r}")
        if first and run.errors and not run.errors[0].startswith(first):
            self.problem(run, f"expected the first line on stderr to start with {first!r}")

    def expect_json(self, run):
        """--json: a document on success; nothing or a document when it could not run."""
        if run.status == 3 and not run.stdout.strip():
            return None
        try:
            return run.document()
        except ValueError as e:
            self.problem(run, f"stdout is not one JSON document: {e}")
            return None

    def both(self, *args):
        """The text and the --json run of a command."""
        return self.run(*args), self.run(*args, "--json")

    def check_host_reads(self):
        for args in (("status",), ("counters",)):
            for run in self.both(*args):
                self.expect_status(run, {0})
                self.expect_quiet(run)
        status = self.run("status", "--json")
        doc = self.expect_json(status)
        if doc is not None and len(doc["devices"]) != len(self.machine.devices):
            self.problem(status, f"lists {len(doc['devices'])} devices, /sys/class/infiniband "
                                 f"has {len(self.machine.devices)}")
        self.expect_json(self.run("counters", "--json"))

    def check_findings(self, *args):
        """doctor and tune audit: exit 0, 1 or 2 as the worst finding says."""
        text, as_json = self.both(*args)
        doc = self.expect_json(as_json)
        for run in (text, as_json):
            self.expect_status(run, {0, 1, 2})
            self.expect_quiet(run)
        if doc is None:
            return None
        expected = WORST_EXIT.get(doc["worst"])
        if expected is None or (text.status, as_json.status) != (expected, expected):
            self.problem(as_json, f"worst {doc['worst']} but exit {as_json.status}/{text.status}")
        return doc

    def check_doctor(self):
        for args in (("doctor",), ("doctor", "--probe")):
            doc = self.check_findings(*args)
            if doc is not None and not self.machine.devices:
                codes = [f["code"] for f in doc["findings"]]
                if codes != ["NO_DEVICES"] or doc["worst"] != "warning":
                    self.problem(self.run(*args, "--json"), "expected only NO_DEVICES, a warning")

    def check_bench(self):
        """A client with no server to talk to: it could not run, and says why in its lines."""
        for run in self.both("bench", "client", "127.0.0.1", "--test", "write_bw", "--port",
                             "1", "--timeout", "2"):
            self.expect_status(run, {3})
            self.expect_own_lines(run)
            if run.errors and not self.machine.verbs_usable() and \
                    "no RDMA connection manager: " not in run.errors[0]:
                self.problem(run, "expected it to say that there is no RDMA connection manager")

    def check_mads(self):
        why = self.machine.no_umad()
        for args in (("sm",), ("fabric",), ("sweep",), ("doctor", "--fabric")):
            for run in self.both(*args):
                if why:
                    self.expect_status(run, {3})
                    self.expect_own_lines(run, CANNOT_SEND_MADS + why)
                    self.expect_json(run)
                    continue
                self.expect_status(run, {0, 1, 2, 3, 4})
                if run.status in (3, 4):
                    self.expect_own_lines(run)
                else:
                    self.expect_quiet(run)
                if "--json" in args:
                    self.expect_json(run)

    def check_probe(self):
        for run in self.both("probe"):
            if not self.machine.verbs_usable():
                self.expect_status(run, {3})
                self.expect_own_lines(run)
                if run.errors and "Function not implemented" in run.errors[0] and \
                        "; " not in run.errors[0]:
                    self.problem(run, "says ENOSYS without saying what is missing")
                continue
            self.expect_status(run, {0, 2, 3})
            if run.status == 0:
                self.expect_quiet(run)
            else:
                self.expect_own_lines(run)
            if run.args[-1] == "--json":
                doc = self.expect_json(run)
                if doc is not None and run.status == 0 and doc["result"] != "pass":
                    self.problem(run, "exit 0 but the result is not pass")

    def check_tune(self):
        self.check_findings("tune", "audit")
        for run in self.both("tune", "history"):
            self.expect_status(run, {0})
            self.expect_quiet(run)
        history = self.expect_json(self.run("tune", "history", "--json"))
        for run in self.both("tune", "verify"):
            if self.machine.journals:
                self.expect_status(run, {0, 1, 2, 3, 4})
                continue
            self.expect_status(run, {3})
            self.expect_own_lines(run, "rdmakit: error: tune: nothing applied under / to verify")
        if history is not None and not self.machine.journals and history["journals"]:
            self.problem(self.run("tune", "history", "--json"), "journals listed, none on disk")

    def check(self):
        """Run every command once; the problems found (empty: none)."""
        try:
            self.check_host_reads()
            self.check_doctor()
            self.check_mads()
            self.check_probe()
            self.check_bench()
            self.check_tune()
        finally:
            shutil.rmtree(self.cwd, ignore_errors=True)
        return self.problems


def main(argv):
    if len(argv) != 2:
        print("usage: real_host.py RDMAKIT", file=sys.stderr)
        return 2
    checker = Checker(argv[1])
    print(f"machine: {checker.machine}")
    problems = checker.check()
    for problem in problems:
        print(f"PROBLEM {problem}")
    print("REAL-HOST-OK" if not problems else f"REAL-HOST-FAILED {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
