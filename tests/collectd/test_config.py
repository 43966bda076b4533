#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with bad <Plugin rdmakit> blocks: each bad key or value is reported with
its name and value, collectd refuses the configuration, and the plugin never reads."""
import os
import re
import shutil
import tempfile
import time
import unittest

import cdtest

IB_HDR = cdtest.fixture("ib-hdr")

# (lines inside <Plugin rdmakit>, the error line the plugin must log)
BAD = [
    ('Frobnicate 3', 'Frobnicate 3: unknown option (known: SysfsRoot, Port, IgnoreSelected, '
                     'HwCounters, HwCounter, Notifications, Rescan, Fabric, SubnetManager, '
                     'FabricInterval, FabricWindow, FabricTimeout, FabricPackets, Routes, '
                     'RoutesInterval, NodeNameMap, Expect, Rediscover, CA, CAPort, '
                     'CongestionThreshold, XmitWaitTick, UnreachableHold, DiscoveryDeadline, '
                     'Events, FlapDowns, '
                     'FlapWindow, FlapStable, FabricRole, FabricPriority, FabricLease, FabricHost, '
                     'Audit, AuditInterval, AuditPartitions, Tune, '
                     'TuneInterval, TuneRoot, TuneProfile, '
                     'Probe, ProbeInterval, ProbeDevice)'),
    ('IgnoreSelected "maybe"', 'IgnoreSelected "maybe": expected true or false'),
    ('HwCounters 1', 'HwCounters 1: expected true or false'),
    ('Notifications true false', 'Notifications true false: expected true or false'),
    ('Rescan -1', 'Rescan -1: expected a number of seconds from 0 (at every read) to 86400'),
    ('Rescan "soon"', 'Rescan "soon": expected a number of seconds from 0 (at every read) to 86400'),
    ('Port "mlx5_0"', 'Port "mlx5_0": expected "DEVICE:PORT" (e.g. "mlx5_0:1") or a /regex/'),
    ('Port "mlx5_0:65536"', 'Port "mlx5_0:65536": expected "DEVICE:PORT"'),
    ('Port 1', 'Port 1: expected one string'),
    ('Port "/(/"', 'Port "/(/": not a valid regular expression: '),
    # a /regex/ whose compile would need more than 2 GB (found by fuzz_cd_config), and the
    # other bounds on what one may cost
    ('Port "/]:' + '+' * 24 + '/"',
     'Port "/]:' + '+' * 24 + '/": a repetition of a repetition ("++", "(a+)*") in a /regex/: '
     'not allowed (it may need gigabytes to compile)'),
    ('Port "/(mlx5_[0-9]+)*/"',
     'Port "/(mlx5_[0-9]+)*/": a repetition of a repetition ("++", "(a+)*") in a /regex/'),
    ('Port "/a{33}/"', 'Port "/a{33}/": a bound above 32 in {m,n} in a /regex/: not allowed'),
    ('Port "/' + 'a?' * 17 + '/"',
     'Port "/' + 'a?' * 17 + '/": more than 16 repetitions (*, +, ?, {m,n}) in a /regex/'),
    # the value is shown cut to 255 characters
    ('Port "/' + 'a' * 257 + '/"',
     'Port "/' + 'a' * 253 + ': a /regex/ longer than 256 characters: not allowed'),
    ('SysfsRoot "relative/dir"',
     'SysfsRoot "relative/dir": expected the absolute path of an existing directory'),
    ('SysfsRoot "/nonexistent/rdmakit"',
     'SysfsRoot "/nonexistent/rdmakit": expected the absolute path of an existing directory'),
    ('HwCounter "a/b"', 'HwCounter "a/b": expected the file name of a driver counter'),
    ('HwCounter ""', 'HwCounter "": expected the file name of a driver counter'),
    ('HwCounters false\n  HwCounter "out_of_buffer"',
     'HwCounter "out_of_buffer" given with HwCounters false: choose one'),
    ('<Port "mlx5_0:1">\n    Foo 1\n  </Port>', 'Port "mlx5_0:1": is an option, not a block'),
    ('<Port>\n    Foo 1\n  </Port>', 'Port (no value): is an option, not a block'),
    # probe mode
    ('Probe "maybe"', 'Probe "maybe": expected true or false'),
    ('Probe true\n  ProbeInterval 0',
     'ProbeInterval 0: expected a number of seconds from 1 to 86400'),
    ('Probe true\n  ProbeInterval 86401',
     'ProbeInterval 86401: expected a number of seconds from 1 to 86400'),
    ('Probe true\n  ProbeDevice "mlx5_0:0"',
     'ProbeDevice "mlx5_0:0": expected "DEVICE" or "DEVICE:PORT" (e.g. "mlx5_0:1")'),
    ('Probe true\n  ProbeDevice "a/b"', 'ProbeDevice "a/b": expected "DEVICE" or'),
    ('Probe true\n  ProbeDevice ":1"', 'ProbeDevice ":1": expected "DEVICE" or'),
    ('Probe true\n  ProbeDevice 3', 'ProbeDevice 3: expected "DEVICE" or'),
    # fabric and SM modes
    ('Fabric "maybe"', 'Fabric "maybe": expected true or false'),
    ('SubnetManager 1', 'SubnetManager 1: expected true or false'),
    ('Fabric true\n  FabricInterval 0',
     'FabricInterval 0: expected a number of seconds from 0.001 to 86400'),
    ('Fabric true\n  FabricInterval "10"',
     'FabricInterval "10": expected a number of seconds from 0.001 to 86400'),
    ('Fabric true\n  FabricWindow 0', 'FabricWindow 0: expected a whole number from 1 to 4096'),
    ('Fabric true\n  FabricWindow 2.5',
     'FabricWindow 2.5: expected a whole number from 1 to 4096'),
    ('SubnetManager true\n  FabricTimeout 60001',
     'FabricTimeout 60001: expected a whole number of milliseconds from 1 to 60000'),
    ('Fabric true\n  Rediscover -1',
     'Rediscover -1: expected a number of seconds from 0 (never) to 604800'),
    ('Fabric true\n  NodeNameMap "/nonexistent/node-name-map"',
     'NodeNameMap "/nonexistent/node-name-map": cannot read it: No such file or directory'),
    ('Fabric true\n  NodeNameMap "/"', 'NodeNameMap "/": cannot read it: a directory, not a regular file'),
    ('Fabric true\n  NodeNameMap ""',
     'NodeNameMap "": expected the path of a node name map file'),
    ('Fabric true\n  Expect "/nonexistent/fabric.plan"',
     'Expect "/nonexistent/fabric.plan": cannot read it: No such file or directory'),
    ('Fabric true\n  Expect ""',
     'Expect "": expected the path of a fabric plan file (rdmakit fabric --save)'),
    (f'SubnetManager true\n  Expect "{os.path.abspath(__file__)}"',
     f'Expect "{os.path.abspath(__file__)}": needs Fabric true'),
    ('Fabric true\n  CA "mlx5/0"', 'CA "mlx5/0": expected the name of an RDMA device ("mlx5_0")'),
    ('Fabric true\n  CA 0', 'CA 0: expected the name of an RDMA device ("mlx5_0")'),
    ('Fabric true\n  CAPort 0', 'CAPort 0: expected a port number from 1 to 254'),
    ('Fabric true\n  CAPort "1"', 'CAPort "1": expected a port number from 1 to 254'),
    ('FabricWindow 64', 'FabricWindow 64: needs Fabric true or SubnetManager true'),
    ('Fabric false\n  CA "mlx5_0"', 'CA "mlx5_0": needs Fabric true or SubnetManager true'),
    ('SubnetManager true\n  FabricPackets true', 'FabricPackets true: needs Fabric true'),
    ('SubnetManager true\n  Audit true', 'Audit: needs Fabric true (the fabric audit runs with '
                                         'the sweep)'),
    (f'Fabric true\n  AuditPartitions "{os.path.abspath(__file__)}"',
     'AuditPartitions: needs Audit true'),
    ('Fabric true\n  Audit true\n  AuditPartitions "/nonexistent/partitions.conf"',
     'AuditPartitions "/nonexistent/partitions.conf": cannot read it: No such file or '
     'directory'),
    ('Fabric true\n  Audit true\n  AuditInterval 0',
     'AuditInterval 0: expected a number of seconds from 1 to 604800'),
    ('<Fabric>\n    Foo 1\n  </Fabric>', 'Fabric (no value): is an option, not a block'),
]

# The same bad value given to the plugin (lines inside <Plugin rdmakit>) and to the CLI:
# both front ends ask the core's rk_limit_check and print its message.
SAME_IN_BOTH = [
    ('Fabric true\n  FabricWindow 4097', ["sweep", "--window", "4097"]),
    ('Fabric true\n  FabricWindow 0', ["sm", "--window", "0"]),
    ('Fabric true\n  FabricWindow 2.5', ["fabric", "--window", "2.5"]),
    ('SubnetManager true\n  FabricTimeout 60001', ["sm", "--timeout", "60001"]),
    ('Fabric true\n  Rediscover -1', ["sweep", "--rediscover", "-1"]),
    ('Fabric true\n  CAPort 255', ["doctor", "--fabric", "-P", "255"]),
    ('Fabric true\n  CongestionThreshold 0', ["sweep", "--threshold", "0"]),
    ('Fabric true\n  XmitWaitTick 0', ["sweep", "--tick-ns", "0"]),
]
RDMAKIT = os.environ.get("RDMAKIT", os.path.join(cdtest.TOP, "build", "cli", "rdmakit"))

# The same values given to the plugin and to the subagent (rdmakit-agentx's config file):
# (plugin key, subagent key, [(value as collectd's config writes it, as agentx.conf does)]).
# Both take the core's range (rk_limit_*) and print its message; the first values of each
# are good, the rest bad.
BAD_NUMBERS = [("-1", "-1"), ('"abc"', "abc"), ('"nan"', "nan"), ("1e999", "1e999"),
               ('""', "")]
SAME_IN_THE_SUBAGENT = [
    ("FabricInterval", "fabric-interval",
     [("0.5", "0.5"), ("0.001", "0.001"), ("0", "0"), ("86401", "86401"), *BAD_NUMBERS]),
    ("Rediscover", "rediscover",
     [("604800", "604800"), ("0", "0"), ("604801", "604801"), *BAD_NUMBERS]),
    ("FabricWindow", "window", [("4096", "4096"), ("0", "0"), ("2.5", "2.5"), *BAD_NUMBERS]),
    ("FabricTimeout", "timeout", [("1", "1"), ("60001", "60001"), *BAD_NUMBERS]),
    ("CAPort", "ca-port", [("254", "254"), ("0", "0"), ("255", "255"), *BAD_NUMBERS]),
    ("DiscoveryDeadline", "discovery-deadline",
     [("86400", "86400"), ("0", "0"), ("2.5", "2.5"), *BAD_NUMBERS]),
    ("ProbeInterval", "probe-interval", [("1", "1"), ("0.5", "0.5"), *BAD_NUMBERS]),
    ("TuneInterval", "tune-interval", [("604800", "604800"), ("604801", "604801"),
                                       *BAD_NUMBERS]),
    ("CongestionThreshold", "congestion-threshold", [("0.01", "0.01"), ("100.5", "100.5")]),
    ("XmitWaitTick", "xmit-wait-tick", [("2.56", "2.56"), ("0", "0")]),
]
GOOD_VALUES = {"FabricInterval": 2, "Rediscover": 2, "FabricWindow": 1, "FabricTimeout": 1,
               "CAPort": 1, "ProbeInterval": 1, "TuneInterval": 1, "CongestionThreshold": 1,
               "XmitWaitTick": 1, "DiscoveryDeadline": 1}
AGENTX = os.environ.get("RDMAKIT_AGENTX", os.path.join(cdtest.TOP, "build", "snmp-subagent",
                                                       "rdmakit-agentx"))


class BadConfig(unittest.TestCase):
    def check_refused(self, lines, message, args=()):
        block = f'<Plugin rdmakit>\n  SysfsRoot "{IB_HDR}"\n  Port "mlx5_0:1"\n  {lines}\n</Plugin>'
        with cdtest.Daemon(block) as daemon:
            if args:
                proc = cdtest.subprocess.run([cdtest.COLLECTD, *args, "-C", daemon.conf],
                                             capture_output=True, text=True, timeout=30,
                                             env=cdtest.collectd_env(None, daemon.dir))
                status, output = proc.returncode, proc.stdout + proc.stderr
            else:
                status, output = daemon.start(expect_values=False), daemon.start_output
            self.assertNotEqual(status, 0, f"{lines!r}: collectd accepted it")
            self.assertIn("Parsing the config file failed", output)
            self.assertIn(f"[error] rdmakit plugin: {message}", daemon.log(), lines)
            self.assertIsNone(daemon.read_pidfile())
            self.assertEqual(daemon.values_dirs(), [])

    def test_each_bad_key_or_value_is_refused(self):
        for lines, message in BAD:
            with self.subTest(lines=lines):
                self.check_refused(lines, message)

    def test_node_name_map_that_is_a_fifo_is_refused_at_once(self):
        """Found by fuzz_cd_config: a FIFO as NodeNameMap used to hang collectd's start in
        open (waiting for a writer) until the start timed out."""
        fifo_dir = tempfile.mkdtemp(prefix="rdmakit-fifo-")
        self.addCleanup(shutil.rmtree, fifo_dir, True)
        fifo = os.path.join(fifo_dir, "names")
        os.mkfifo(fifo)
        self.check_refused(f'Fabric true\n  NodeNameMap "{fifo}"',
                           f'NodeNameMap "{fifo}": cannot read it: not a regular file')

    @unittest.skipUnless(os.access(RDMAKIT, os.X_OK), "the CLI is not built")
    def test_the_cli_and_the_plugin_say_the_same(self):
        for lines, args in SAME_IN_BOTH:
            with self.subTest(lines=lines):
                key, value = lines.split("\n")[-1].split()
                block = (f'<Plugin rdmakit>\n  SysfsRoot "{IB_HDR}"\n  {lines}\n</Plugin>')
                with cdtest.Daemon(block) as daemon:
                    self.assertNotEqual(daemon.start(expect_values=False), 0)
                    plugin = re.search(rf"\[error\] rdmakit plugin: {key} {value}: (.+)",
                                       daemon.log())
                proc = cdtest.subprocess.run([RDMAKIT, *args], capture_output=True, text=True,
                                             timeout=30)
                self.assertEqual(proc.returncode, 3, proc.stderr)
                cli = re.search(rf"^rdmakit: {args[-2]} {value}: (.+)$", proc.stderr, re.M)
                self.assertIsNotNone(plugin, lines)
                self.assertIsNotNone(cli, proc.stderr)
                self.assertTrue(plugin.group(1).startswith("expected a "), plugin.group(1))
                self.assertEqual(cli.group(1), plugin.group(1))

    def plugin_reasons(self, lines):
        """The plugin's reason for each bad value of lines (in their order), from one collectd
        that refuses the block."""
        block = f'<Plugin rdmakit>\n  SysfsRoot "{IB_HDR}"\n  Fabric true\n  {lines}\n</Plugin>'
        with cdtest.Daemon(block) as daemon:
            self.assertNotEqual(daemon.start(expect_values=False), 0)
            return re.findall(r"\[error\] rdmakit plugin: (\w+) [^:]*: (.+)", daemon.log())

    def subagent_reasons(self, lines):
        """The subagent's reason for each bad line of its config file, by index in lines."""
        conf = os.path.join(tempfile.mkdtemp(prefix="rdmakit-agentx-"), "agentx.conf")
        self.addCleanup(shutil.rmtree, os.path.dirname(conf), True)
        with open(conf, "w") as f:
            f.write("fabric yes\n" + "".join(f"{line}\n" for line in lines))
        env = dict(os.environ, SNMPCONFPATH=os.path.dirname(conf),
                   SNMP_PERSISTENT_DIR=os.path.dirname(conf))
        proc = cdtest.subprocess.run([AGENTX, "-f", "-Le", "-c", conf, "--sysfs-root", IB_HDR],
                                     capture_output=True, text=True, timeout=30, env=env)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        found = re.findall(rf"^{re.escape(conf)}:(\d+): (.+)$", proc.stderr, re.M)
        return {int(lineno) - 2: why for lineno, why in found}

    @unittest.skipUnless(os.access(AGENTX, os.X_OK), "the subagent is not built")
    def test_the_subagent_and_the_plugin_say_the_same(self):
        """Every value in one collectd block and one agentx.conf: the good ones pass in both
        (fabric-interval 0.5 and rediscover 604800 among them), the bad ones fail in both
        with the same reason."""
        plugin_lines, agentx_lines, bad = [], [], []
        for plugin_key, agentx_key, values in SAME_IN_THE_SUBAGENT:
            for i, (plugin_value, agentx_value) in enumerate(values):
                if i >= GOOD_VALUES[plugin_key]:
                    bad.append((len(agentx_lines), plugin_key, f'{agentx_key}: "{agentx_value}"'))
                plugin_lines.append(f"{plugin_key} {plugin_value}")
                agentx_lines.append(f"{agentx_key} {agentx_value}".rstrip())
        plugin = self.plugin_reasons("\n  ".join(plugin_lines))
        subagent = self.subagent_reasons(agentx_lines)
        self.assertEqual([key for key, _ in plugin], [key for _, key, _ in bad], plugin)
        self.assertEqual(sorted(subagent), [line for line, _, _ in bad], subagent)
        for (_, plugin_why), (line, _, agentx_shown) in zip(plugin, bad):
            with self.subTest(plugin=plugin_lines[line], subagent=agentx_lines[line]):
                self.assertTrue(plugin_why.startswith("expected a "), plugin_why)
                self.assertEqual(subagent[line], f"{agentx_shown}: {plugin_why}")

    def test_refused_in_one_shot_mode(self):
        self.check_refused('IgnoreSelected "maybe"', 'IgnoreSelected "maybe"', ["-T"])

    def test_every_error_of_a_block_is_reported(self):
        block = ('<Plugin rdmakit>\n  Bogus 1\n  Port "x"\n  HwCounters "perhaps"\n'
                 f'  SysfsRoot "{IB_HDR}"\n</Plugin>')
        with cdtest.Daemon(block) as daemon:
            self.assertNotEqual(daemon.start(expect_values=False), 0)
            log = daemon.log()
            for key in ("Bogus 1:", 'Port "x":', 'HwCounters "perhaps":'):
                self.assertIn(f"[error] rdmakit plugin: {key}", log)

    def test_good_options_in_any_case(self):
        block = (f'<Plugin rdmakit>\n  sysfsroot "{IB_HDR}"\n  PORT "mlx5_0:1"\n'
                 '  ignoreselected off\n  hwcounters "on"\n  NOTIFICATIONS yes\n</Plugin>')
        with cdtest.Daemon(block) as daemon:
            self.assertEqual(daemon.start(), 0, daemon.start_output)
            time.sleep(1.5)
            self.assertEqual(daemon.values_dirs(), ["rdma-mlx5_0", "rdma-mlx5_0-1"])

    def test_fabric_options_without_a_fabric(self):
        """Good fabric, SM and probe options on a machine without InfiniBand (and without a
        verbs device): host values flow, and each failing read is logged once, not at every
        interval; the probe that cannot run is a PROBE_NOT_RUN finding, reported once."""
        parent = tempfile.mkdtemp(prefix="rdmakit-map-")
        self.addCleanup(shutil.rmtree, parent, True)
        name_map = os.path.join(parent, "map")
        with open(name_map, "w") as f:
            f.write('0x0002c90200100001 "leaf1"\nnot a line\n')
        block = cdtest.plugin_block(SysfsRoot=IB_HDR, Fabric=True, SubnetManager=True,
                                    FabricInterval=0.5, FabricWindow=8, FabricTimeout=100,
                                    FabricPackets=True, NodeNameMap=name_map, Rediscover=0,
                                    CA="mlx5_9", CAPort=2, Notifications=True, Probe=True,
                                    ProbeInterval=1)
        with cdtest.Daemon(block) as daemon:
            self.assertEqual(daemon.start(), 0, daemon.start_output)
            time.sleep(3)
            log = daemon.log()
            self.assertIn(f"[warning] rdmakit plugin: {name_map}:2: expected 0xGUID", log)
            self.assertEqual(log.count("rdmakit plugin: fabric sweep failed: "), 1, log)
            # tried after 1, 2, 4 intervals of 0.5 s: 4 tries in 3 s, not 6
            self.assertLessEqual(log.count("fabric discovery through mlx5_9 port 2 failed"), 8)
            self.assertEqual(log.count("rdmakit plugin: SM query failed: "), 1, log)
            self.assertNotIn("read-function of plugin", log)
            self.assertIn("rdma-mlx5_0-1", daemon.values_dirs())
            self.assertEqual(daemon.values_dirs("rdma_fabric"), [])
            self.check_probe_not_run(daemon, log)

    def check_probe_not_run(self, daemon, log):
        for port in ("mlx5_0:1", "mlx5_1:1"):
            self.assertEqual(log.count(
                f"[warning] rdmakit plugin: PROBE_NOT_RUN {port}: the loopback probe could not "
                "open the device: Function not implemented; check that the device's verbs "
                "driver is loaded (ibv_devices)"), 1, log)
        # tried every second, at least 3 times in 3 s: the core says why each time
        self.assertGreaterEqual(log.count("cannot list RDMA devices: Function not implemented"),
                                6, log)
        notes = [n for n in daemon.notifications() if n.get("type_instance") == "PROBE_NOT_RUN"]
        self.assertEqual(sorted(n["plugin_instance"] for n in notes), ["mlx5_0-1", "mlx5_1-1"])
        self.assertEqual({n["severity"] for n in notes}, {"WARNING"})
        self.assertNotIn("gauge-probe_passed", daemon.value_files("mlx5_0-1"))
        self.assertIn("gauge-state", daemon.value_files("mlx5_0-1"))

    def test_init_failure_unloads_the_plugin(self):
        """A root whose class/infiniband cannot be listed: init fails, collectd runs on
        without the plugin and never calls a read callback of it."""
        parent = tempfile.mkdtemp(prefix="rdmakit-fixture-")
        self.addCleanup(shutil.rmtree, parent, True)
        os.makedirs(os.path.join(parent, "class"))
        with open(os.path.join(parent, "class", "infiniband"), "w") as f:
            f.write("not a directory\n")
        with cdtest.Daemon(cdtest.plugin_block(SysfsRoot=parent)) as daemon:
            self.assertEqual(daemon.start(expect_values=False), 0, daemon.start_output)
            cdtest.wait_for(lambda: "Initialization of plugin `rdmakit' failed" in daemon.log(),
                            10, "the init failure")
            time.sleep(2)
            log = daemon.log()
            self.assertIn(f"[error] rdmakit plugin: not started: cannot read {parent}: "
                          "Not a directory", log)
            self.assertIn("Plugin will be unloaded", log)
            self.assertTrue(daemon.running())
            self.assertEqual(daemon.values_dirs(), [])
            self.assertNotIn("read-function of plugin `rdmakit' failed", log)
            listed = daemon.collectdctl("listval")
            self.assertNotIn("rdma", listed)


if __name__ == "__main__":
    unittest.main()
