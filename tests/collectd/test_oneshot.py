#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""collectd -T (one read, then exit) with rdmakit.so: the values it prints are right.

write_log (Format JSON) prints each value list through the logfile plugin on stdout. Its exit
status says little (0 even when values were dropped), so the output is checked value by value.
collectd 5.12's -T stops its write threads right after the read and drops the value lists
still queued ("N value lists were left after shutting down the write threads"), so a test-only
plugin loaded last (drain_plugin.c) holds the run until the expected number of value lists
has been written: one run must then print every value of the fixture, each exactly once.
"""
import json
import re
import shutil
import subprocess
import tempfile
import unittest

import cdtest

ROCE = cdtest.fixture("roce")


class OneShot(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rdmakit-oneshot-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def conf(self, block, expect=0):
        path = f"{self.dir}/collectd.conf"
        with open(path, "w") as f:
            f.write(f"""Hostname "{cdtest.HOST}"
FQDNLookup false
BaseDir "{self.dir}"
PIDFile "{self.dir}/collectd.pid"
TypesDB "/usr/share/collectd/types.db"
Interval 1
PluginDir "{cdtest.SYSTEM_PLUGIN_DIR}"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File STDOUT
  PrintSeverity true
</Plugin>
LoadPlugin write_log
<Plugin write_log>
  Format JSON
</Plugin>
PluginDir "{cdtest.PLUGIN_DIR}"
LoadPlugin rdmakit
{block}
PluginDir "{cdtest.TEST_PLUGIN_DIR}"
LoadPlugin rdmakit_drain
<Plugin rdmakit_drain>
  Expect {expect}
</Plugin>
""")
        return path

    def run_once(self, conf):
        proc = subprocess.run([cdtest.COLLECTD, "-T", "-C", conf], capture_output=True,
                              text=True, timeout=60, env=cdtest.collectd_env(None, self.dir))
        errors = cdtest.sanitizer_errors(self.dir) if cdtest.SANITIZED else []
        self.assertEqual(errors, [])
        return proc.returncode, proc.stdout + proc.stderr

    def expected(self):
        """{(plugin_instance, type, type_instance): [values]} for the roce fixture."""
        documented = cdtest.parse_reference_table()
        scale = {k: v["scale"] for k, v in cdtest.reference_rows().items()}
        want = {}
        for instance, port in (("mlx5_2-1", 1), ("mlx5_2", None)):
            for source, raw in cdtest.counter_files(ROCE, "mlx5_2", port).items():
                row = documented[source]
                key = (instance, row["type"], row["type_instance"])
                slot = {"rx": 0, "value": 0, "tx": 1}[row["ds"]]
                want.setdefault(key, [None, None] if row["ds"] != "value" else [None])
                want[key][slot] = int(raw) * scale[source]
        gauges = {"state": 4, "phys_state": 5, "rate": 100, "lid": 0, "sm_lid": 0, "sm_sl": 0,
                  "lid_mask_count": 0, "cap_mask": 0x04010000}
        for name, value in gauges.items():
            want[("mlx5_2-1", "gauge", name)] = [value]
        return want

    def test_prints_the_expected_values(self):
        want = self.expected()
        conf = self.conf(cdtest.plugin_block(SysfsRoot=ROCE), expect=len(want))
        status, output = self.run_once(conf)
        self.assertEqual(status, 0, output)
        self.assertNotIn("[error]", output)
        self.assertNotIn("left after shutting down", output)
        self.assertIn(f"rdmakit_drain: {len(want)} of {len(want)} value lists written", output)
        printed = []
        for text in re.findall(r"write_log values:\n(\[.*\])", output):
            printed += json.loads(text)
        keys = [(vl["plugin_instance"], vl["type"], vl["type_instance"]) for vl in printed]
        self.assertEqual(len(keys), len(set(keys)), "a value list printed twice")
        self.assertEqual(sorted(keys), sorted(want))
        for key, vl in zip(keys, printed):
            self.assertEqual((vl["host"], vl["plugin"]), (cdtest.HOST, "rdma"))
            self.assertEqual(vl["values"], want[key], key)

    def test_init_failure_fails_the_one_shot(self):
        conf = self.conf(cdtest.plugin_block(SysfsRoot=self.dir))
        with open(f"{self.dir}/class", "w") as f:
            f.write("not a directory\n")
        status, output = self.run_once(conf)
        self.assertEqual(status, 1, output)
        self.assertIn("[error] rdmakit plugin: not started: cannot read", output)
        self.assertNotIn("write_log values", output)


if __name__ == "__main__":
    unittest.main()
