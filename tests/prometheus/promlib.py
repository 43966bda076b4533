# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A private Prometheus server for the tests: its own config, data directory and port on
127.0.0.1, scraping given targets every second with the shipped rules (or a test copy of them),
stopped by its PID. Reads back through its HTTP API (/api/v1/query, /api/v1/alerts)."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "collectd"))
import cdtest  # noqa: E402

PROMETHEUS = os.environ.get("PROMETHEUS", "/usr/bin/prometheus")
RULES = os.path.join(cdtest.TOP, "packaging", "prometheus", "rdmakit.rules.yml")


def short_for_rules(path, seconds):
    """A copy of the shipped rules with every alert's `for:` set to seconds (the shipped ones
    are minutes long); written to path. Returns {alert: shipped for} for the record."""
    text = cdtest.read_text(RULES)
    shipped = dict(re.findall(r"- alert: (\w+)\n\s+expr: .*\n\s+for: (\S+)", text))
    with open(path, "w") as f:
        f.write(re.sub(r"(\n\s+)for: \S+", rf"\1for: {seconds}s", text))
    return shipped


class Prometheus:
    """prometheus --config.file ... --web.listen-address 127.0.0.1:PORT in a temp dir."""

    def __init__(self, targets, rules):
        self.dir = tempfile.mkdtemp(prefix="rdmakit-prometheus-")
        self.port = cdtest.free_port()
        self.conf = os.path.join(self.dir, "prometheus.yml")
        self.logfile = os.path.join(self.dir, "prometheus.log")
        self.proc = None
        listed = ", ".join(f'"{t}"' for t in targets)
        with open(self.conf, "w") as f:
            f.write(f"""global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - {rules}
scrape_configs:
  - job_name: collectd
    honor_labels: true
    static_configs:
      - targets: [{listed}]
""")

    def start(self):
        """Start the server; return once its log says it is ready (about 2-4 s)."""
        log = open(self.logfile, "w")
        self.proc = subprocess.Popen(
            [PROMETHEUS, f"--config.file={self.conf}", f"--storage.tsdb.path={self.dir}/data",
             f"--web.listen-address=127.0.0.1:{self.port}"],
            stdout=log, stderr=subprocess.STDOUT, cwd=self.dir)
        log.close()
        cdtest.wait_for(lambda: "Server is ready to receive web requests" in self.log()
                        or self.proc.poll() is not None, 30, "Prometheus to be ready")
        if self.proc.poll() is not None:
            raise AssertionError(f"prometheus exited {self.proc.returncode}:\n{self.log()}")

    def log(self):
        return cdtest.read_text(self.logfile)

    def get(self, path, **params):
        url = f"http://127.0.0.1:{self.port}{path}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        with urllib.request.urlopen(url, timeout=10) as r:
            answer = json.loads(r.read())
        assert answer["status"] == "success", answer
        return answer["data"]

    def query(self, expr):
        """The instant vector of expr: [(labels, value)]."""
        data = self.get("/api/v1/query", query=expr)
        return [(s["metric"], float(s["value"][1])) for s in data["result"]]

    def alerts(self, name=None):
        """The alerts Prometheus has now (pending or firing), of alertname name if given."""
        found = self.get("/api/v1/alerts")["alerts"]
        return [a for a in found if name is None or a["labels"]["alertname"] == name]

    def stop(self):
        """SIGTERM to its PID, SIGKILL if it does not exit within 15 s."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(15)
        self.proc = None

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def wait_alert(prom, name, state, timeout, match=None):
    """Poll /api/v1/alerts every 0.2 s until alert name is in state ("pending", "firing");
    match: labels it must have. Returns (the alert, time.monotonic() when seen)."""
    deadline = time.monotonic() + timeout
    while True:
        for alert in prom.alerts(name):
            if alert["state"] == state and all(alert["labels"].get(k) == v
                                               for k, v in (match or {}).items()):
                return alert, time.monotonic()
        if time.monotonic() > deadline:
            raise AssertionError(f"{name} not {state} within {timeout} s: {prom.alerts()}")
        time.sleep(0.2)
