# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Run a list of commands in one boot of the test VM (tests/vm/run.sh) and split the output."""
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, "run.sh")
RDMAKIT = os.environ.get("RDMAKIT", "rdmakit")

WAIT_ACTIVE = ("for i in $(seq 100); do grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state"
               " && break; sleep 0.1; done; cat /sys/class/infiniband/rxe0/ports/1/state")
WAIT_DOWN = WAIT_ACTIVE.replace("grep -q ACTIVE", "grep -q DOWN")


class Result:
    def __init__(self, command, output, status):
        self.command, self.output, self.status = command, output, status

    def __repr__(self):
        return "[exit %s] $ %s\n%s" % (self.status, self.command, self.output)


def boot(commands, timeout=600):
    """Run the commands in order in one VM; a list of Results, and run.sh's whole output."""
    proc = subprocess.run([RUN] + list(commands), capture_output=True, text=True,
                          timeout=timeout)
    results, current, lines = [], None, []
    for line in proc.stdout.splitlines():
        begin = re.match(r"^--- \[(\d+)\] \$ ", line)
        end = re.match(r"^--- \[(\d+)\] exit (\d+)$", line)
        if begin:
            current, lines = int(begin.group(1)), []
        elif end and current == int(end.group(1)):
            results.append(Result(commands[current - 1], "\n".join(lines), int(end.group(2))))
            current = None
        elif current is not None:
            lines.append(line)
    if len(results) != len(commands):
        raise AssertionError("the VM ran %d of %d commands; run.sh said:\n%s\n%s"
                             % (len(results), len(commands), proc.stdout, proc.stderr))
    return results, proc.stdout + proc.stderr


def quote(text):
    """One shell word (for paths put into VM command lines)."""
    return "'" + text.replace("'", "'\\''") + "'"
