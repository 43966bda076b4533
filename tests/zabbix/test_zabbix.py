#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""packaging/zabbix/rdmakit_snmp.yaml in a real Zabbix 6.0 server (TESTBEDS section 6): the
template is imported through the API, a host with an SNMP interface to a private snmpd with
rdmakit-agentx is linked to it, discovery creates the port items, their values equal the
fixture's, and the "not ACTIVE" trigger fires when the fixture's port goes down.

Not a ctest test: it needs PostgreSQL, zabbix-server-pgsql and PHP (installed here when
missing, as root) and about a minute. Run as root: tests/zabbix/test_zabbix.py"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d)
                for d in ("lib", "snmp")]
from rktest import TOP, copy_fixture, wait_for, write_attr  # noqa: E402
from snmptest import Setup  # noqa: E402

PACKAGES = ["zabbix-server-pgsql", "zabbix-frontend-php", "php-pgsql", "php-cli", "php8.2-cgi",
            "php-gd", "php-bcmath", "php-mbstring", "php-xml", "php-ldap", "postgresql"]
TEMPLATE = os.path.join(TOP, "packaging", "zabbix", "rdmakit_snmp.yaml")
FRONTEND_CONF = "/etc/zabbix/zabbix.conf.php"
PG = "/usr/lib/postgresql/15/bin"
SCHEMA = "/usr/share/zabbix-server-pgsql"


def install_packages():
    missing = [p for p in PACKAGES if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout
        != "install ok installed"]
    if missing:
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends",
                        "--no-upgrade", *missing], check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def as_user(user, *cmd, **kw):
    proc = subprocess.run(["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups",
                           *cmd], **kw)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd[:3])}...: exit {proc.returncode}: "
                             f"{(proc.stderr or b'')[-2000:]!r}")
    return proc


class Zabbix:
    """PostgreSQL, zabbix_server and the PHP API on private ports, stopped by PID."""

    def __init__(self, workdir):
        self.dir = workdir
        base = 20000 + (os.getpid() * 13) % 12000  # ListenPort is at most 32767
        self.pg_port, self.server_port, self.web_port = base, base + 1, base + 2
        self.pgdata = os.path.join(workdir, "pg")
        self.sock = os.path.join(workdir, "pgsock")
        self.procs = []
        self.saved_conf = None

    def psql(self, *args, stdin=None):
        return as_user("postgres", "psql", "-h", self.sock, "-p", str(self.pg_port), "-q",
                       "-v", "ON_ERROR_STOP=1", *args, input=stdin, capture_output=True)

    def start_db(self):
        os.makedirs(self.sock)
        shutil.chown(self.dir, "postgres")
        shutil.chown(self.sock, "postgres")
        as_user("postgres", f"{PG}/initdb", "-D", self.pgdata, "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C.UTF-8", capture_output=True)
        as_user("postgres", f"{PG}/pg_ctl", "-w", "-D", self.pgdata, "-l",
                os.path.join(self.dir, "pg.log"), "-o",
                f"-k {self.sock} -p {self.pg_port} -c listen_addresses='' -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off", "start",
                capture_output=True)
        self.psql("-U", "postgres", "-c", "CREATE ROLE zabbix LOGIN")
        self.psql("-U", "postgres", "-c", "CREATE DATABASE zabbix OWNER zabbix")
        for part in ("schema", "images", "data"):
            with gzip.open(os.path.join(SCHEMA, f"{part}.sql.gz")) as f:
                self.psql("-U", "zabbix", "zabbix", stdin=f.read())
        self.psql("-U", "zabbix", "zabbix", "-c",
                  "UPDATE hosts SET status=1 WHERE host='Zabbix server';")

    def start_server(self):
        conf = os.path.join(self.dir, "zabbix_server.conf")
        run = os.path.join(self.dir, "zbx")
        os.makedirs(run)
        shutil.chown(run, "zabbix")
        with open(conf, "w") as f:
            f.write(f"DBHost={self.sock}\nDBPort={self.pg_port}\nDBName=zabbix\nDBUser=zabbix\n"
                    f"ListenIP=127.0.0.1\nListenPort={self.server_port}\n"
                    f"PidFile={run}/server.pid\nLogFile={run}/server.log\nSocketDir={run}\n"
                    "CacheUpdateFrequency=1\nStartPollers=2\nStartPollersUnreachable=1\n"
                    "StartPreprocessors=1\nStartHistoryPollers=1\nStartDBSyncers=1\n"
                    "StartLLDProcessors=1\nStartPingers=0\nStartDiscoverers=0\n"
                    "StartHTTPPollers=0\nCacheSize=16M\nHousekeepingFrequency=0\n")
        started = subprocess.run(["zabbix_server", "-c", conf], capture_output=True, text=True)
        if started.returncode != 0:
            raise AssertionError(f"zabbix_server: {started.stdout}{started.stderr}")
        self.server_pidfile = f"{run}/server.pid"
        wait_for(lambda: os.path.exists(self.server_pidfile), 20, "zabbix_server")

    def start_frontend(self):
        if os.path.exists(FRONTEND_CONF):
            with open(FRONTEND_CONF) as f:
                self.saved_conf = f.read()
        with open(FRONTEND_CONF, "w") as f:
            f.write("<?php\n$DB['TYPE']='POSTGRESQL';\n"
                    f"$DB['SERVER']='{self.sock}';\n$DB['PORT']='{self.pg_port}';\n"
                    "$DB['DATABASE']='zabbix';\n$DB['USER']='zabbix';\n$DB['PASSWORD']='';\n"
                    "$DB['SCHEMA']='';\n$ZBX_SERVER='127.0.0.1';\n"
                    f"$ZBX_SERVER_PORT='{self.server_port}';\n$ZBX_SERVER_NAME='test';\n"
                    "$IMAGE_FORMAT_DEFAULT=IMAGE_FORMAT_PNG;\n")
        os.chmod(FRONTEND_CONF, 0o644)
        log = open(os.path.join(self.dir, "php.log"), "w")
        self.procs.append(subprocess.Popen(
            ["setpriv", "--reuid=www-data", "--regid=www-data", "--init-groups", "php", "-S",
             f"127.0.0.1:{self.web_port}", "-t", "/usr/share/zabbix", "-d", "memory_limit=256M",
             "-d", "post_max_size=16M", "-d", "max_execution_time=300", "-d",
             "date.timezone=UTC"], stdout=log, stderr=log))
        log.close()
        wait_for(lambda: self.api_ready(), 20, "the Zabbix API")

    def api_ready(self):
        try:
            self.call("apiinfo.version", {}, auth=False)
            return True
        except OSError:
            return False

    def call(self, method, params, auth=True):
        body = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
        if auth:
            body["auth"] = self.token
        req = urllib.request.Request(f"http://127.0.0.1:{self.web_port}/api_jsonrpc.php",
                                     json.dumps(body).encode(),
                                     {"Content-Type": "application/json-rpc"})
        with urllib.request.urlopen(req, timeout=120) as r:
            answer = json.load(r)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        return answer["result"]

    def stop(self):
        for p in self.procs:
            p.terminate()
            p.wait(10)
        if getattr(self, "server_pidfile", None) and os.path.exists(self.server_pidfile):
            with open(self.server_pidfile) as f:
                pid = int(f.read())
            os.kill(pid, 15)
            wait_for(lambda: not os.path.exists(f"/proc/{pid}"), 20, "zabbix_server stopped")
        if os.path.exists(os.path.join(self.pgdata, "postmaster.pid")):
            as_user("postgres", f"{PG}/pg_ctl", "-w", "-D", self.pgdata, "stop", "-m", "fast",
                    capture_output=True)
        if self.saved_conf is not None:
            with open(FRONTEND_CONF, "w") as f:
                f.write(self.saved_conf)
        elif os.path.exists(FRONTEND_CONF):
            os.unlink(FRONTEND_CONF)


class Template(unittest.TestCase):
    def test_template_in_a_real_zabbix(self):
        install_packages()
        tmp = tempfile.mkdtemp(prefix="rdmakit-zbx-")
        os.chmod(tmp, 0o755)
        root = copy_fixture("ib-hdr", tmp)
        zbx = Zabbix(os.path.join(tmp, "zabbix"))
        os.makedirs(zbx.dir)
        snmp = Setup(root, config="refresh 1\n", offset=30)
        try:
            snmp.__enter__()
            zbx.start_db()
            zbx.start_server()
            zbx.start_frontend()
            self.run_checks(zbx, snmp, root)
        finally:
            snmp.__exit__(None, None, None)
            zbx.stop()
            shutil.rmtree(tmp, ignore_errors=True)

    def run_checks(self, zbx, snmp, root):
        zbx.token = zbx.call("user.login", {"username": "Admin", "password": "zabbix"},
                             auth=False)
        with open(TEMPLATE) as f:
            source = f.read()
        every = {"createMissing": True, "updateExisting": True}
        zbx.call("configuration.import", {"format": "yaml", "source": source, "rules": {
            "groups": {"createMissing": True}, "templates": every, "items": every,
            "discoveryRules": every, "triggers": every, "valueMaps": every}})
        template = zbx.call("template.get", {"filter": {"host": "RDMA by SNMP rdmakit"}})
        group = zbx.call("hostgroup.get", {"filter": {"name": "Templates/Network devices"}})
        host = zbx.call("host.create", {
            "host": "rdmakit-test", "groups": [{"groupid": group[0]["groupid"]}],
            "templates": [{"templateid": template[0]["templateid"]}],
            "macros": [{"macro": "{$RDMAKIT.INTERVAL}", "value": "2s"},
                       {"macro": "{$RDMAKIT.DISCOVERY}", "value": "5s"}],
            "interfaces": [{"type": 2, "main": 1, "useip": 1, "ip": "127.0.0.1", "dns": "",
                            "port": str(snmp.snmpd.port),
                            "details": {"version": 2, "bulk": 1, "community": "public"}}]})
        hostid = host["hostids"][0]
        rules = zbx.call("discoveryrule.get", {"hostids": hostid, "output": ["itemid", "key_"]})
        zbx.call("task.create", [{"type": 6, "request": {"itemid": r["itemid"]}} for r in rules])

        def port_items():
            return {i["key_"]: i for i in zbx.call("item.get", {
                "hostids": hostid, "search": {"key_": "rdmakit.port."}, "output": "extend"})}
        wait_for(lambda: "rdmakit.port.state[1.1]" in port_items(), 60, "discovered ports")
        items = port_items()
        self.assertIn("rdmakit.port.state[2.1]", items)
        self.assertEqual(items["rdmakit.port.state[1.1]"]["flags"], "4")

        def last(key):
            return port_items()[key]["lastvalue"]
        wait_for(lambda: last("rdmakit.port.state[1.1]") == "4", 60, "port 1.1 ACTIVE")
        wait_for(lambda: last("rdmakit.port.rate[1.1]") == "200000000000", 60, "200 Gb/s")
        unsupported = {k: i["error"] for k, i in port_items().items() if i["state"] == "1"}
        self.assertEqual(unsupported, {}, "items the agent does not answer")
        write_attr(root, "class/infiniband/mlx5_0/ports/1/state", "1: DOWN")
        wait_for(lambda: last("rdmakit.port.state[1.1]") == "1", 60, "port 1.1 DOWN")

        def problems():
            return [p["name"] for p in zbx.call("problem.get", {"hostids": hostid})]
        wait_for(lambda: any("Port 1.1: not ACTIVE" in p for p in problems()), 60,
                 "the not-ACTIVE trigger")
        print("problems:", problems())


if __name__ == "__main__":
    if os.geteuid() != 0:
        sys.exit("run as root: it starts PostgreSQL and zabbix_server as their own users")
    unittest.main(verbosity=2)
