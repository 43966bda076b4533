#!/usr/bin/env python3
"""A real collectd with bad <Plugin rdmakit> blocks: each bad key or value is reported with
its name and value, collectd refuses the configuration, and the plugin never reads."""
import os
import shutil
import tempfile
import time
import unittest

import cdtest

IB_HDR = cdtest.fixture("ib-hdr")

# (lines inside <Plugin rdmakit>, the error line the plugin must log)
BAD = [
    ('Frobnicate 3', 'Frobnicate 3: unknown option (known: SysfsRoot, Port, IgnoreSelected, '
                     'HwCounters, HwCounter, Notifications)'),
    ('IgnoreSelected "maybe"', 'IgnoreSelected "maybe": expected true or false'),
    ('HwCounters 1', 'HwCounters 1: expected true or false'),
    ('Notifications true false', 'Notifications true false: expected true or false'),
    ('Port "mlx5_0"', 'Port "mlx5_0": expected "DEVICE:PORT" (e.g. "mlx5_0:1") or a /regex/'),
    ('Port "mlx5_0:0"', 'Port "mlx5_0:0": expected "DEVICE:PORT"'),
    ('Port 1', 'Port 1: expected one string'),
    ('Port "/(/"', 'Port "/(/": not a valid regular expression: '),
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
]


class BadConfig(unittest.TestCase):
    def check_refused(self, lines, message, args=()):
        block = f'<Plugin rdmakit>\n  SysfsRoot "{IB_HDR}"\n  Port "mlx5_0:1"\n  {lines}\n</Plugin>'
        with cdtest.Daemon(block) as daemon:
            if args:
                proc = cdtest.subprocess.run([cdtest.COLLECTD, *args, "-C", daemon.conf],
                                             capture_output=True, text=True, timeout=30)
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
