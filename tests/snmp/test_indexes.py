#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Issue 19: indexes that never move, ports and driver counters named, the modes served.
Through a real snmpd: a device added to the tree (whose name sorts first) keeps the others'
indexes and they survive a restart (the map in state-dir); a driver counter file added in front
keeps the others' numbers; a corrupt or hostile map file is logged and rebuilt; GUIDs print in
the 2x: form; rdmakitServedModes says host (and probe), and no SM or fabric object is served on
a host-only agent."""
import os
import shutil
import tempfile
import unittest

from snmptest import Setup
from rktest import copy_fixture, fixture, wait_for

HEADER = "rdmakit-agentx index map 1"


def devices_by_index(values):
    """{device name: rdmakitDeviceIndex} of a named walk."""
    return {v: int(k.split(".")[1]) for k, v in values.items()
            if k.startswith("rdmakitDeviceName.")}


def driver_counters(values, device_index, port_key):
    """{counter name: rdmakitDcIndex} of one directory in a named walk."""
    prefix = f"rdmakitDcName.{device_index}.{port_key}."
    return {v: int(k[len(prefix):]) for k, v in values.items() if k.startswith(prefix)}


def served_with(setup, name):
    """A named walk when it has name, else None."""
    values = setup.named()
    return values if name in values else None


class StableIndexes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rdmakit-index-")
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.state = os.path.join(self.tmp, "state")
        os.mkdir(self.state)
        self.map = os.path.join(self.state, "index")
        self.root = copy_fixture("ib-hdr", self.tmp)
        self.config = f"refresh 0.3\nstate-dir {self.state}\n"

    def add_device(self, name, source, guid):
        """A copy of device source as name (the device link is relative: it still resolves),
        made beside the devices and renamed in whole, so that the subagent never sees half."""
        base = os.path.join(self.root, "class", "infiniband")
        staged = os.path.join(self.root, "class", name)
        shutil.copytree(os.path.join(base, source), staged, symlinks=True)
        with open(os.path.join(staged, "node_guid"), "w") as f:
            f.write(guid + "\n")
        os.rename(staged, os.path.join(base, name))

    def test_added_device_keeps_the_indexes_and_a_restart_keeps_them_all(self):
        with Setup(self.root, config=self.config) as s:
            self.assertEqual(devices_by_index(s.named()), {"mlx5_0": 1, "mlx5_1": 2})
            self.add_device("mlx4_0", "mlx5_1", "0002:c903:0000:0010")
            # a walk may cross a new snapshot: wait for the earliest column read below, so
            # that every later one in the walk is of a snapshot with the device too
            values = wait_for(lambda: served_with(s, "rdmakitDeviceNodeType.3"), 10,
                              "the added device served")
            self.assertEqual(devices_by_index(values), {"mlx5_0": 1, "mlx5_1": 2, "mlx4_0": 3})
            # its ports and counters under its own index, named
            self.assertEqual(values["rdmakitPortDeviceName.3.1"], "mlx4_0")
            self.assertEqual(values["rdmakitPortDeviceName.1.1"], "mlx5_0")
            self.assertEqual(values["rdmakitDeviceNodeGuidText.3"], "0002:c903:0000:0010")
            s.agent.stop()
            s.agent.start()
            s.wait_ready()
            # a fresh numbering in name order would give mlx4_0 1: the map keeps 3
            self.assertEqual(devices_by_index(s.named()), {"mlx5_0": 1, "mlx5_1": 2, "mlx4_0": 3})
        with open(self.map) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], HEADER)
        self.assertIn("device mlx4_0 3", lines)
        self.assertIn("counter mlx4_0 2 duplicate_request 1", lines)

    def test_a_counter_file_added_in_front_keeps_the_others_numbers(self):
        hw = os.path.join(self.root, "class", "infiniband", "mlx5_0", "ports", "1", "hw_counters")
        with Setup(self.root, config=self.config) as s:
            before = driver_counters(s.named(), 1, 2)
            self.assertEqual(before["duplicate_request"], 1)  # first in name order
            s.agent.stop()
            with open(os.path.join(hw, "aaa_added_by_a_driver_update"), "w") as f:
                f.write("7\n")
            s.agent.start()
            s.wait_ready()
            values = s.named()
        after = driver_counters(values, 1, 2)
        self.assertEqual({k: v for k, v in after.items() if k in before}, before)
        # lifespan has a number too (it is not served): the new file takes the next one
        self.assertEqual(after["aaa_added_by_a_driver_update"], len(os.listdir(hw)))
        key = f"1.2.{after['aaa_added_by_a_driver_update']}"
        self.assertEqual(values[f"rdmakitDcValue.{key}"], "7")
        self.assertEqual(values[f"rdmakitDriverCounterDeviceName.{key}"], "mlx5_0")
        self.assertEqual(values[f"rdmakitDriverCounterPortNum.{key}"], "1")
        device_counter = driver_counters(values, 1, 0)["out_of_buffer"]
        self.assertEqual(values[f"rdmakitDriverCounterPortNum.1.0.{device_counter}"], "0")

    def check_rebuilt(self, content, why):
        """A map file with content: the subagent logs one line naming it and why, numbers the
        devices in name order, and writes a good map in its place."""
        with open(self.map, "w") as f:
            f.write(content)
        with Setup(self.root, config=self.config) as s:
            self.assertEqual(devices_by_index(s.named()), {"mlx5_0": 1, "mlx5_1": 2})
            log = s.agent.log()
            self.assertIn(f"{self.map}: line", log)
            self.assertIn(why, log)
            self.assertIn("numbered again", log)
        with open(self.map) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:3], [HEADER, "device mlx5_0 1", "device mlx5_1 2"])

    def test_a_corrupt_map_is_logged_and_rebuilt(self):
        self.check_rebuilt("\x00\xffgarbage\n", "not an index map")

    def test_a_hostile_map_is_logged_and_rebuilt(self):
        # mlx5_1 given mlx5_0's number; then a number out of range, a name with a space
        self.check_rebuilt(f"{HEADER}\ndevice mlx5_0 1\ndevice mlx5_1 1\n",
                           "line 3: a name or a number appears twice")
        self.check_rebuilt(f"{HEADER}\ndevice mlx5_0 99999999999999999999\n",
                           "line 2: the number is not from 1 to 65535")
        self.check_rebuilt(f"{HEADER}\ncounter mlx5_0 1 a b 3\n", "line 2: not \"device")

    def test_a_map_that_cannot_be_written_is_logged_once(self):
        os.rmdir(self.state)
        os.mkdir(self.state)
        os.mkdir(self.map)  # a directory where the file should be: not read, not replaced
        with Setup(self.root, config=self.config) as s:
            self.assertEqual(devices_by_index(s.named()), {"mlx5_0": 1, "mlx5_1": 2})
            log = s.agent.log()
        self.assertEqual(log.count(f"{self.map}: cannot be written"), 1, log)
        self.assertTrue(os.path.isdir(self.map))


class ServedModes(unittest.TestCase):
    def test_host_only(self):
        with Setup(fixture("ib-hdr")) as s:
            values = s.named()
            self.assertEqual(values["rdmakitServedModes.0"], "host")
            self.assertEqual(values["rdmakitDeviceNodeGuidText.1"], "b859:9f03:00d4:6f2a")
            self.assertFalse([k for k in values if k.startswith(("rdmakitSm", "rdmakitF"))
                              and not k.startswith(("rdmakitFinding", "rdmakitFabricSwept",
                                                    "rdmakitFabricSweep"))], values)
            for name in ("rdmakitSmMasterLid.0", "rdmakitFabricNodes.0"):
                out = s.tool("snmpget", f"RDMAKIT-MIB::{name}")
                self.assertIn("No Such Object available on this agent", out, name)

    def test_probe_mode_is_listed(self):
        with Setup(fixture("ib-hdr"), config="probe yes\n") as s:
            values = s.named()
            self.assertEqual(values["rdmakitServedModes.0"], "host,probe")
            # the probe columns still find their port's device by name
            self.assertEqual(values["rdmakitPortProbeStatus.1.1"], "1")  # notRun(1)
            self.assertEqual(values["rdmakitPortDeviceName.2.1"], "mlx5_1")


if __name__ == "__main__":
    unittest.main(verbosity=2)
