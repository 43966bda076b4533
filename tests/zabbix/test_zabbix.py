#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""packaging/zabbix/rdmakit_snmp.yaml in a real Zabbix 6.0 server (TESTBEDS section 6), started
once for the file: the template is imported through the API and linked to a host whose SNMP
interface is a private snmpd with rdmakit-agentx on a copy of the ib-hdr fixture. The tests
check that no item is unsupported, that every port is named by device and port, that the
values equal the fixture's, that a port going down raises its problem within two polling
intervals and resolves with an OK event (and a link going down physically is one problem),
that a finding does the same, and that a trap reaches its trap item through snmptrapd and
SNMPTT, and through snmptrapd and a receiver in zabbix_trap_receiver.pl's format, each with
and without RDMAKIT-MIB loaded there; and that a subagent restart with a device added keeps
every item. A second host runs the subagent in fabric and SM mode
on an ibsim fabric with two OpenSMs: nothing unsupported there either, the SM and fabric
items discovered from rdmakitServedModes, and the master OpenSM stopped gives one problem.

ctest test zabbix_template (label zabbix). It needs root and the packages that
scripts/install-deps.sh installs (PostgreSQL, zabbix-server-pgsql, PHP, SNMPTT); without them it
exits 77 (skipped)."""
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", d)
                for d in ("lib", "snmp")]
from rktest import TOP, copy_fixture, read_text, umad2sim_env, wait_for, write_attr  # noqa: E402
from snmptest import MIBDIRS, Setup, env, free_port  # noqa: E402

sys.path.insert(0, os.path.join(TOP, "tests", "sim"))
import simlib  # noqa: E402

PACKAGES = ["zabbix-server-pgsql", "zabbix-frontend-php", "php-pgsql", "php-cli", "php8.2-cgi",
            "php-gd", "php-bcmath", "php-mbstring", "php-xml", "php-ldap", "postgresql",
            "snmptt", "libsnmp-perl"]
TEMPLATE = os.path.join(TOP, "packaging", "zabbix", "rdmakit_snmp.yaml")
SNMPTT = "/usr/sbin/snmptt"
TRAPHANDLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "traphandle.py")
INTERVAL = 2  # seconds between polls of the test host's items ({$RDMAKIT.INTERVAL})
FLAP_STABLE = 20  # the fabric host's flap-stable, seconds
FRONTEND_CONF = "/etc/zabbix/zabbix.conf.php"
PG = "/usr/lib/postgresql/15/bin"
SCHEMA = "/usr/share/zabbix-server-pgsql"


def missing_packages():
    return [p for p in PACKAGES if subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout
        != "install ok installed"]


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
        # ANALYZE: without statistics on the fresh tables, the query that links the trigger
        # dependencies of a template to a host runs for minutes.
        self.psql("-U", "zabbix", "zabbix", "-c",
                  "UPDATE hosts SET status=1 WHERE host='Zabbix server'; ANALYZE;")

    def start_server(self, trapper_file):
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
                    "StartHTTPPollers=0\nCacheSize=16M\nHousekeepingFrequency=0\n"
                    # A loaded machine may answer late: an SNMP timeout would make the host
                    # unreachable, and then Zabbix polls it only every UnreachableDelay.
                    "Timeout=15\nUnreachableDelay=1\nUnavailableDelay=2\n"
                    f"StartSNMPTrapper=1\nSNMPTrapperFile={trapper_file}\n")
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


SNMPTT_INI = """[General]
mode = standalone
multiple_event = 0
dns_enable = 0
net_snmp_perl_enable = {perl}
translate_trap_oid_format = 2
translate_varname_oid_format = 2
date_time_format = %H:%M:%S %Y/%m/%d
[Logging]
stdout_enable = 0
log_enable = 1
log_format = $Fz
log_file = {trapper_file}
syslog_enable = 0
syslog_system_enable = 0
[TrapFiles]
snmptt_conf_files = <<END
{conf}
END
"""
# Zabbix's documented SNMPTT rule: every trap, as "ZBXTRAP <agent address>" and then the
# notification's OID and every varbind (named when the MIB is loaded, numeric when not).
SNMPTT_CONF = 'EVENT any .* "any trap" Normal\nFORMAT ZBXTRAP $aA $O $+*\n'


class Trapd:
    """A private snmptrapd that hands every trap to Zabbix's trapper file, through one of the
    two receivers: "snmptt" (Debian's SNMPTT in standalone mode, one of the two routes
    Zabbix documents) or "receiver" (tests/zabbix/traphandle.py, which writes the format of
    the other route, zabbix_trap_receiver.pl, that Debian does not ship). mib is True for
    RDMAKIT-MIB loaded (with -M MIBDIRS) or False for no MIB at all, as on a stock Debian
    where RDMAKIT-MIB's imports are missing."""

    def __init__(self, workdir, port, trapper_file, mib, receiver):
        self.port = port
        os.makedirs(workdir)
        if receiver == "snmptt":
            ini = os.path.join(workdir, "snmptt.ini")
            rules = os.path.join(workdir, "snmptt.conf")
            with open(rules, "w") as f:
                f.write(SNMPTT_CONF)
            with open(ini, "w") as f:
                f.write(SNMPTT_INI.format(perl=int(mib), trapper_file=trapper_file,
                                          conf=rules))
            handler = f"{SNMPTT} --ini={ini}"
            numeric = ["-On"]  # what SNMPTT expects: it translates with its own MIBs
        else:
            numeric = []
            handler = f"{sys.executable} {TRAPHANDLE} {trapper_file}"
        conf = os.path.join(workdir, "snmptrapd.conf")
        with open(conf, "w") as f:
            f.write(f"disableAuthorization yes\ntraphandle default {handler}\n")
        empty = os.path.join(workdir, "no-mibs")
        os.makedirs(empty)
        mib_args = ["-M", MIBDIRS, "-m", "RDMAKIT-MIB"] if mib else ["-M", empty, "-m", "ALL"]
        log = os.path.join(workdir, "snmptrapd.log")
        trap_env = env(workdir)  # SNMPTT's Perl SNMP module reads MIBS and MIBDIRS
        if not mib:
            trap_env.pop("MIBS")
            trap_env.pop("MIBDIRS")
        self.proc = subprocess.Popen(
            ["snmptrapd", "-f", "-C", "-c", conf, "-Lf", log, *mib_args, *numeric,
             f"udp:127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=trap_env)
        wait_for(lambda: os.path.exists(log) and "NET-SNMP" in read_text(log), 10,
                 "snmptrapd started")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class Lab:
    """Everything the tests share: the fixture tree, snmpd and the subagent, two snmptrapds,
    the Zabbix server and the host linked to the template."""

    def start(self):
        self.started = time.monotonic()
        self.tmp = tempfile.mkdtemp(prefix="rdmakit-zbx-")
        os.chmod(self.tmp, 0o755)
        self.root = copy_fixture("ib-hdr", self.tmp)
        self.trapper_file = os.path.join(self.tmp, "zabbix_traps.tmp")
        open(self.trapper_file, "w").close()
        os.chmod(self.trapper_file, 0o644)
        self.trapds = [Trapd(os.path.join(self.tmp, f"trapd-{receiver}-{mib}"),
                             free_port(), self.trapper_file, mib, receiver)
                       for n, (receiver, mib) in enumerate(
                           (r, m) for r in ("receiver", "snmptt") for m in (True, False))]
        sinks = "".join(f"trap2sink 127.0.0.1:{t.port} public\n" for t in self.trapds)
        self.state = os.path.join(self.tmp, "agentx-state")  # the subagent's index map
        os.makedirs(self.state)
        self.snmp = Setup(self.root, config=f"refresh 1\nstate-dir {self.state}\n",
                          snmpd_extra="agentXPerms 0660 0770\n" + sinks)
        self.zbx = Zabbix(os.path.join(self.tmp, "zabbix"))
        os.makedirs(self.zbx.dir)
        self.snmp.__enter__()
        self.zbx.start_db()
        self.zbx.start_server(self.trapper_file)
        self.zbx.start_frontend()
        self.zbx.token = self.zbx.call("user.login", {"username": "Admin",
                                                      "password": "zabbix"}, auth=False)
        self.import_template()
        self.hostid = self.create_host()
        self.discover()

    def import_template(self):
        with open(TEMPLATE) as f:
            source = f.read()
        every = {"createMissing": True, "updateExisting": True}
        self.zbx.call("configuration.import", {"format": "yaml", "source": source, "rules": {
            "groups": {"createMissing": True}, "templates": every, "items": every,
            "discoveryRules": every, "triggers": every, "valueMaps": every, "graphs": every,
            "templateDashboards": every}})

    def create_host(self, name="rdmakit-test", snmp=None, macros=()):
        template = self.zbx.call("template.get", {"filter": {"host": "RDMA by SNMP rdmakit"}})
        group = self.zbx.call("hostgroup.get", {"filter": {"name": "Templates/Network devices"}})
        return self.zbx.call("host.create", {
            "host": name, "groups": [{"groupid": group[0]["groupid"]}],
            "templates": [{"templateid": template[0]["templateid"]}],
            "macros": [{"macro": "{$RDMAKIT.INTERVAL}", "value": f"{INTERVAL}s"},
                       {"macro": "{$RDMAKIT.DISCOVERY}", "value": "5s"}, *macros],
            "interfaces": [{"type": 2, "main": 1, "useip": 1, "ip": "127.0.0.1", "dns": "",
                            "port": str((snmp or self.snmp).snmpd.port),
                            "details": {"version": 2, "bulk": 1, "community": "public"}}]
        })["hostids"][0]

    def discover(self, hostid=None, expected=("rdmakit.port.worst.text[2.1]",
                                               "rdmakit.port.port_rcv_data[2.1]")):
        hostid = hostid or self.hostid
        started = time.monotonic()
        rules = self.zbx.call("discoveryrule.get", {"hostids": hostid, "output": ["itemid"]})
        self.zbx.call("task.create", [{"type": 6, "request": {"itemid": r["itemid"]}}
                                      for r in rules])
        wait_for(lambda: all(k in self.items(hostid=hostid) for k in expected), 60,
                 f"discovered {expected}")
        wait_for(lambda: self.polled(hostid), 60, "a value or an error for every polled item")
        print(f"zabbix: host {hostid} discovered and polled in "
              f"{time.monotonic() - started:.0f} s", file=sys.stderr)

    def polled(self, hostid=None):
        """Whether every polled item has a value or an error; else ask Zabbix to poll the
        others now (the hourly ones are scheduled anywhere in the hour, and a request made
        before the server's config sync saw a new item is lost)."""
        waiting = [i["itemid"] for i in self.items(hostid=hostid).values()
                   if i["type"] != "17" and i["lastclock"] == "0" and i["state"] != "1"]
        if waiting:
            self.zbx.call("task.create", [{"type": 6, "request": {"itemid": i}}
                                          for i in waiting])
            time.sleep(2)
        return not waiting

    def items(self, prefix="", hostid=None):
        return {i["key_"]: i for i in self.zbx.call("item.get", {
            "hostids": hostid or self.hostid, "search": {"key_": prefix}, "output": "extend"})}

    def last(self, key):
        return self.items(key)[key]["lastvalue"]

    def problems(self, hostid=None):
        return {p["name"]: p for p in self.zbx.call("problem.get", {
            "hostids": hostid or self.hostid, "recent": True, "output": "extend"})}

    def stop(self):
        try:
            self.snmp.__exit__(None, None, None)
            for t in self.trapds:
                t.stop()
        finally:
            self.zbx.stop()
            shutil.rmtree(self.tmp, ignore_errors=True)


LAB = Lab()


def setUpModule():
    try:
        LAB.start()
    except BaseException:
        LAB.stop()
        raise


def tearDownModule():
    LAB.stop()
    print(f"zabbix: {time.monotonic() - LAB.started:.0f} s in all", file=sys.stderr)


class Discovery(unittest.TestCase):
    def test_no_item_is_unsupported(self):
        unsupported = {k: i["error"] for k, i in LAB.items().items() if i["state"] == "1"}
        self.assertEqual(unsupported, {}, "items the agent does not answer")
        rules = LAB.zbx.call("discoveryrule.get", {"hostids": LAB.hostid, "output": "extend"})
        self.assertEqual({r["key_"]: r["error"] for r in rules if r["state"] == "1"}, {})
        self.assertGreaterEqual(len(rules), 9)

    def test_ports_are_named_by_device_and_port(self):
        names = {k: i["name"] for k, i in LAB.items("rdmakit.port.").items()}
        self.assertEqual(names["rdmakit.port.state[1.1]"], "mlx5_0 port 1: state")
        self.assertEqual(names["rdmakit.port.rate[2.1]"], "mlx5_1 port 1: rate")
        self.assertEqual(names["rdmakit.port.port_xmit_wait[1.1]"],
                         "mlx5_0 port 1: transmit wait")
        unnamed = [n for n in names.values()
                   if not n.startswith(("mlx5_0 port 1: ", "mlx5_1 port 1: "))]
        self.assertEqual(unnamed, [])
        counters = [i["name"] for i in LAB.items("rdmakit.dc[").values()]
        self.assertTrue(counters)
        self.assertEqual([n for n in counters if not n.startswith(("mlx5_0", "mlx5_1"))], [])

    def test_values_equal_the_fixture(self):
        self.assertEqual(LAB.last("rdmakit.port.state[1.1]"), "4")
        self.assertEqual(LAB.last("rdmakit.port.phys[1.1]"), "5")
        self.assertEqual(LAB.last("rdmakit.port.rate[1.1]"), "200000000000")
        self.assertEqual(LAB.last("rdmakit.port.width[1.1]"), "4")
        self.assertEqual(LAB.last("rdmakit.port.speed[1.1]"), "7")  # HDR
        self.assertEqual(LAB.last("rdmakit.port.worst[1.1]"), "1")
        self.assertEqual(LAB.last("rdmakit.dev.fw[1]"), read_fixture(
            "class/infiniband/mlx5_0/fw_ver"))
        self.assertEqual(LAB.last("rdmakit.modes"), "host")
        self.assertEqual(LAB.items("rdmakit.sm."), {}, "SM items on a host-only agent")
        self.assertEqual(LAB.items("rdmakit.fabric."), {}, "fabric items on a host-only agent")

    def test_template_has_graphs_and_a_dashboard(self):
        graphs = LAB.zbx.call("graphprototype.get", {"hostids": LAB.hostid, "output": ["name"]})
        self.assertEqual(sorted(g["name"] for g in graphs),
                         ["{#DEVNAME} port {#PORTNUM}: errors",
                          "{#DEVNAME} port {#PORTNUM}: traffic",
                          "{#DEVNAME} port {#PORTNUM}: transmit wait"])
        template = LAB.zbx.call("template.get", {"filter": {"host": "RDMA by SNMP rdmakit"}})
        dashboards = LAB.zbx.call("templatedashboard.get", {
            "templateids": template[0]["templateid"], "output": ["name"]})
        self.assertEqual([d["name"] for d in dashboards], ["RDMA (rdmakit)"])


def read_fixture(relpath):
    with open(os.path.join(LAB.root, relpath)) as f:
        return f.read().strip()


class FabricAndSm(unittest.TestCase):
    """A second host: the subagent in fabric and SM mode on an ibsim fabric with two
    OpenSMs (failing over fast), as on a management node."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=2, hosts=2,
                              spines=1, radix=4)
        cls.sim = simlib.Sim(f"rkzbx{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.snmp = None
        try:
            cls.sim.fast_failover()
            cls.sim.opensm("Hca1", 10)
            cls.sim.opensm("Hca2", 5)
            cls.snmp = Setup(copy_fixture("ib-hdr", cls.tmp.name),
                             config="refresh 1\nfabric yes\nsm yes\nfabric-interval 1\n"
                             f"rediscover 2\nxmit-wait-tick 100\nflap-stable {FLAP_STABLE}\n",
                             env_extra=umad2sim_env(cls.sim.name))
            cls.snmp.__enter__()
            wait_for(lambda: cls.snmp.get_raw("RDMAKIT-MIB::rdmakitSmStandbys.0") == "1", 60,
                     "one standby SM")
            cls.hostid = LAB.create_host("rdmakit-fabric", cls.snmp, [
                {"macro": "{$RDMAKIT.FABRIC.PORTS}", "value": ".*"}])
            LAB.discover(cls.hostid, ("rdmakit.sm.masters[0]", "rdmakit.fabric.degraded[0]",
                                      "rdmakit.port.state[2.1]"))
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        # Deleted before its snmpd stops, and the snmpd kept until the server has dropped the
        # host from its cache (CacheUpdateFrequency=1) and finished the polls it had started:
        # a poller sent to a stopped snmpd waits out Timeout for every bulk it retries, and
        # both pollers stuck there stall the other host's polls for minutes.
        if getattr(cls, "hostid", None):
            LAB.zbx.call("host.delete", [cls.hostid])
            time.sleep(3)
            wait_for(lambda: "getting values" not in processes(), 60, "the pollers idle")
        if cls.snmp:
            cls.snmp.__exit__(None, None, None)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    def test_a_flapping_link_is_one_problem_that_resolves(self):
        """ibsim counts no link downs itself (Unlink/ReLink leave LinkDownedCounter at 0) and
        this subagent follows no SA events (no issm client on this fabric), so four downs of
        Leaf1's port 2 are set from the console: that port's LINK_FLAPPING is one Zabbix
        problem, resolved by an OK event once the link has stayed up flap-stable seconds."""
        prefix = "rdmakit.fabric.port.flapping["

        def flapping():
            return [k for k, i in LAB.items(prefix, self.hostid).items()
                    if i["lastvalue"] == "1"]
        self.assertEqual(flapping(), [])
        changed = time.time()
        self.sim.cmd('PerformanceSet "Leaf1"[2] PortCounters.LinkDownedCounter=4')
        keys = wait_for(flapping, 60, "a fabric port's flapping item at 1")
        self.assertEqual(len(keys), 1, keys)
        # named by the port's node and number (rdmakitFpName), not by its index
        name = "Fabric port Leaf1[2]: link flapping"
        self.assertEqual(LAB.items(prefix, self.hostid)[keys[0]]["name"],
                         "Fabric port Leaf1[2]: flapping")

        def problem():
            return next((p for n, p in LAB.problems(self.hostid).items()
                         if n == name and int(p["clock"]) >= int(changed)), None)
        raised = wait_for(problem, 60, name)
        self.assertEqual(raised["severity"], "2")  # WARNING
        resolved = wait_for(lambda: problem()["r_eventid"] != "0" and problem(),
                            FLAP_STABLE + 60, f"{name} resolved")
        self.assertGreaterEqual(int(resolved["r_clock"]) - int(raised["clock"]), FLAP_STABLE - 2)
        self.assertEqual([n for n in LAB.problems(self.hostid) if n.endswith("link flapping")],
                         [name], "one problem")

    def test_no_item_is_unsupported(self):
        items = LAB.items(hostid=self.hostid)
        self.assertEqual({k: i["error"] for k, i in items.items() if i["state"] == "1"}, {})
        self.assertEqual(items["rdmakit.modes"]["lastvalue"], "host,fabric,sm")
        self.assertEqual(items["rdmakit.sm.masters[0]"]["lastvalue"], "1")
        self.assertEqual(items["rdmakit.sm.standbys[0]"]["lastvalue"], "1")
        self.assertEqual(items["rdmakit.port.state[1.1]"]["name"], "mlx5_0 port 1: state")
        self.assertTrue([k for k in items if k.startswith("rdmakit.fabric.port.state[")])
        self.assertTrue([k for k in items if k.startswith("rdmakit.sm.state[")])

    def test_lost_bandwidth_of_the_ports_that_have_it(self):
        """With xmit-wait-tick the ports whose link is up serve their lost bandwidth: each
        gets the item (0 bps on the healthy fabric), the ports that are down none, nor a
        switch's port 0 (the sweep reads no counters of it)."""
        def polled(prefix):
            return {k[len(prefix):]: i["lastvalue"] for k, i in
                    LAB.items(prefix, self.hostid).items() if i["lastclock"] != "0"}

        def every_active_port_polled():
            active = {k for k, v in polled("rdmakit.fabric.port.state[").items()
                      if v == "4" and not k.endswith(".0]")}
            lost = polled("rdmakit.fabric.port.lost_bandwidth[")
            return lost if active and set(lost) == active else None

        lost = wait_for(every_active_port_polled, 60, "the lost bandwidth of every ACTIVE port")
        self.assertEqual(set(lost.values()), {"0"})

    def test_the_sm_master_changing_is_one_problem(self):
        pid = self.sim.opensm_pid()
        os.kill(pid, signal.SIGTERM)  # the sim's master OpenSM, started by this class
        new_lid = self.sim.lid("host2 HCA-1")
        name = f"SM: master changed (LID {new_lid})"
        wait_for(lambda: name in LAB.problems(self.hostid), 90, name)
        time.sleep(2 * INTERVAL)
        changes = [n for n in LAB.problems(self.hostid) if n.startswith("SM: master changed")]
        self.assertEqual(changes, [name])
        self.assertEqual(LAB.problems(self.hostid)[name]["r_eventid"], "0", "closed by hand only")


class Problems(unittest.TestCase):
    def raise_and_resolve(self, changes, prefix, severity, item, polls):
        """Write changes ({attribute: text}) into the fixture and put the old texts back: a
        problem whose name starts with prefix is raised, then resolved by an OK event. The
        bound is in Zabbix's own polls of item (the key the trigger fires on), not in wall
        time, which a loaded machine stretches: the problem's clock is at most the clock of
        item's (polls + 1)th value after the change (one more, because the first poll may
        still read the subagent's refresh from before the change). Returns the problem's name
        and the names of every problem raised meanwhile."""
        good = {path: read_fixture(path) for path in changes}
        before = set(LAB.problems())
        changed, started = time.time(), time.monotonic()
        for path, bad in changes.items():
            write_attr(LAB.root, path, bad)

        def problem():  # raised by this change, not an earlier one resolved since
            return next((p for n, p in LAB.problems().items()
                         if n.startswith(prefix) and int(p["clock"]) >= int(changed)), None)
        try:
            raised = wait_for_or_explain(problem, 90, prefix, item)
            took = time.monotonic() - started
            self.assertEqual(raised["severity"], severity)
            self.assertEqual(raised["r_eventid"], "0")
            time.sleep(2 * INTERVAL)  # what else the change raises
        finally:
            for path, text in good.items():
                write_attr(LAB.root, path, text)
        resolved = wait_for(lambda: problem()["r_eventid"] != "0" and problem(), 90,
                            f"{prefix} resolved")
        ok = LAB.zbx.call("event.get", {"eventids": resolved["r_eventid"],
                                        "output": "extend"})
        self.assertEqual([e["value"] for e in ok], ["0"], "an OK event")
        seen = polls_between(item, changed, raised)
        print(f"zabbix: {raised['name']!r} raised after {took:.1f} s, at poll {seen} of "
              f"{item} after the change", file=sys.stderr)
        self.assertLessEqual(seen, polls + 1, f"polls of {item} before the problem")
        return raised["name"], sorted(set(LAB.problems()) - before)

    def test_a_port_going_down_raises_and_resolves(self):
        port = "class/infiniband/mlx5_0/ports/1/"
        # "not ACTIVE" waits for a second poll of the state (the physical link stays up)
        name, raised = self.raise_and_resolve({port + "state": "1: DOWN"},
                                              "mlx5_0 port 1: not ACTIVE", "3",
                                              "rdmakit.port.state[1.1]", 2)
        self.assertEqual(name, "mlx5_0 port 1: not ACTIVE (down (1))")
        # PORT_DOWN, the finding, is a warning of a port that is not ACTIVE: no problem.
        self.assertEqual(raised, [name])

    def test_a_link_going_down_is_one_problem(self):
        port = "class/infiniband/mlx5_0/ports/1/"
        name, raised = self.raise_and_resolve(
            {port + "phys_state": "2: Polling", port + "state": "1: DOWN"},
            "mlx5_0 port 1: physical link down", "3", "rdmakit.port.phys[1.1]", 1)
        self.assertEqual(name, "mlx5_0 port 1: physical link down (polling (2))")
        self.assertEqual(raised, [name])

    def test_a_finding_raises_and_resolves(self):
        name, raised = self.raise_and_resolve(
            {"class/infiniband/mlx5_1/ports/1/sm_lid": "0x0"},
            "mlx5_1 port 1: critical finding: ", "4", "rdmakit.port.worst[2.1]", 2)
        self.assertEqual(name, "mlx5_1 port 1: critical finding: PORT_SM_LID_ZERO: port is "
                         "ACTIVE but its SM LID is 0: no subnet manager is known")
        self.assertEqual(raised, [name])


    def test_a_link_passing_through_init_is_no_problem_until_it_stays(self):
        """Every link that comes up passes through INIT (PORT_NO_SM, critical) until the SM
        makes it ACTIVE: one poll of it raises nothing. Held there, a port that was ACTIVE is
        one problem, "not ACTIVE (init (2))" (the critical finding depends on it), and once it
        is back no late critical problem follows from a severity not yet polled again."""
        port = "class/infiniband/mlx5_1/ports/1/"
        good = read_fixture(port + "state")
        key = "rdmakit.port.worst[2.1]"
        changed = time.time()
        write_attr(LAB.root, port + "state", "2: INIT")
        try:
            wait_for(lambda: values_since(key, changed)[-1:] == ["3"], 30, "PORT_NO_SM polled")
        finally:
            write_attr(LAB.root, port + "state", good)
        restored = time.time()
        wait_for(lambda: len(values_since(key, restored)) >= 3, 60, "three polls after INIT")
        self.assertEqual(raised_since(changed, "mlx5_1 port 1:"), [],
                         f"polls while INIT: {values_since(key, changed)}")
        name, raised = self.raise_and_resolve({port + "state": "2: INIT"},
                                              "mlx5_1 port 1: not ACTIVE", "3",
                                              "rdmakit.port.state[2.1]", 2)
        self.assertEqual(name, "mlx5_1 port 1: not ACTIVE (init (2))")
        self.assertEqual(raised, [name])
        back = time.time()
        wait_for(lambda: len(values_since(key, back)) >= 3, 60, "three polls after ACTIVE")
        self.assertEqual(raised_since(back - 2 * INTERVAL, "mlx5_1 port 1:"), [])


def wait_for_or_explain(predicate, timeout, what, key):
    """wait_for, and on a timeout what Zabbix knows of item key and of the host's SNMP
    interface, and the end of the server's log, in the failure."""
    try:
        return wait_for(predicate, timeout, what)
    except AssertionError as e:
        item = LAB.items(key).get(key, {})
        iface = LAB.zbx.call("hostinterface.get", {"hostids": LAB.hostid, "output": "extend"})
        with open(os.path.join(LAB.zbx.dir, "zbx", "server.log")) as f:
            log = f.read()[-4000:]
        raise AssertionError(
            f"{e}\nitem {key}: " + str({k: item.get(k) for k in (
                "lastvalue", "lastclock", "state", "error", "status")})
            + f"\ninterface: {[(i['available'], i['error']) for i in iface]}"
            + f"\nproblems: {sorted(LAB.problems())}\nnow: {time.time():.0f}"
            + f"\nprocesses:\n{processes()}\nserver.log:\n{log}") from None


def processes():
    """zabbix_server's processes as ps shows them: each says what it is doing."""
    return subprocess.run(["ps", "-C", "zabbix_server", "-o", "args="], capture_output=True,
                          text=True).stdout


def raised_since(since, prefix):
    """The names of the problems whose name starts with prefix raised from since on."""
    return [n for n, p in LAB.problems().items()
            if n.startswith(prefix) and int(p["clock"]) >= int(since)]


def values_since(key, since):
    """The values Zabbix stored for item key from the wall clock since on, oldest first."""
    item = LAB.items(key)[key]
    return [v["value"] for v in LAB.zbx.call("history.get", {
        "itemids": item["itemid"], "history": int(item["value_type"]), "output": "extend",
        "time_from": int(since), "sortfield": "clock", "sortorder": "ASC"})
        if int(v["clock"]) + int(v["ns"]) / 1e9 >= since]


def polls_between(key, since, event):
    """How many values Zabbix stored for item key from the wall clock since up to the clock of
    event (a problem): the polls it took. The item keeps every value (no discard-unchanged)."""
    item = LAB.items(key)[key]
    until = (int(event["clock"]), int(event["ns"]))
    values = LAB.zbx.call("history.get", {
        "itemids": item["itemid"], "history": int(item["value_type"]), "output": "extend",
        "time_from": int(since), "sortfield": "clock"})
    return len([v for v in values if (int(v["clock"]), int(v["ns"])) <= until
                and int(v["clock"]) + int(v["ns"]) / 1e9 >= since])


class Traps(unittest.TestCase):
    def test_a_trap_reaches_its_item_through_both_receivers_with_and_without_the_mib(self):
        port = "class/infiniband/mlx5_1/ports/1/"
        changes = {port + "phys_state": "3: Disabled", port + "state": "1: DOWN"}
        good = {path: read_fixture(path) for path in changes}
        for path, bad in changes.items():
            write_attr(LAB.root, path, bad)
        # One trap, four receivers: zabbix_trap_receiver.pl's format and SNMPTT, each from an
        # snmptrapd with RDMAKIT-MIB and from one without any MIB.
        port_state = ("SNMPv2-SMI::snmpModules.1.1.4.1.0 RDMAKIT-MIB::rdmakitPortStateChange\n"
                      "RDMAKIT-MIB::rdmakitDeviceName.2 mlx5_1",
                      "iso.3.6.1.6.3.1.1.4.1.0 iso.3.6.1.4.1.8072.9999.9999.42.0.3\n"
                      'iso.3.6.1.4.1.8072.9999.9999.42.1.2.1.1.90.2 "mlx5_1"',
                      # SNMPTT: one line, "OID name:value ..." (Zabbix strips "ZBXTRAP address")
                      " RDMAKIT-MIB::rdmakitPortStateChange RDMAKIT-MIB::rdmakitDeviceName.2:mlx5_1 ",
                      " .1.3.6.1.4.1.8072.9999.9999.42.0.3 "
                      ".1.3.6.1.4.1.8072.9999.9999.42.1.2.1.1.90.2:mlx5_1 ")
        finding = ("RDMAKIT-MIB::rdmakitFindingRaised\nRDMAKIT-MIB::rdmakitFindingCode.",
                   "iso.3.6.1.4.1.8072.9999.9999.42.0.1\n", '"PORT_DISABLED"',
                   " RDMAKIT-MIB::rdmakitFindingRaised RDMAKIT-MIB::rdmakitFindingCode.",
                   " .1.3.6.1.4.1.8072.9999.9999.42.0.1 .1.3.6.1.4.1.8072.9999.9999.42.",
                   ":PORT_DISABLED ")
        try:
            self.wait_for_trap("rdmakitPortStateChange", port_state)
            self.wait_for_trap("rdmakitFindingRaised", finding)
        finally:
            for path, text in good.items():
                write_attr(LAB.root, path, text)

    def wait_for_trap(self, name, texts):
        key = next(k for k in LAB.items("snmptrap[") if name in k)
        itemid = LAB.items(key)[key]["itemid"]

        def history():
            return "\n".join(h["value"] for h in LAB.zbx.call("history.get", {
                "itemids": itemid, "history": 2, "output": "extend"}))
        try:
            wait_for(lambda: all(t in history() for t in texts), 60, f"{name}, all four ways")
        except AssertionError:
            self.fail(f"{texts} not all in the history of {key}:\n{history()[-3000:]}")

    def test_no_rdmakit_trap_is_unmatched(self):
        # snmpd's own coldStart may arrive before the host exists; no rdmakit trap is unmatched.
        # A trap's text ends where the next log record (" PID:YYYYMMDD:HHMMSS.mmm ") begins.
        record = re.compile(r"^\s*\d+:\d{8}:\d{6}\.\d{3} ", re.M)
        with open(os.path.join(LAB.zbx.dir, "zbx", "server.log")) as f:
            traps = [record.split(t, 1)[0] for t in f.read().split("unmatched trap received")[1:]]
        unmatched = [t for t in traps if "8072.9999.9999.42" in t or "RDMAKIT" in t]
        self.assertEqual(unmatched, [])


class Upgrades(unittest.TestCase):
    """Last of the classes (unittest runs them by name), since it adds a device to the tree."""

    def test_a_restart_and_a_device_added_keep_every_item(self):
        before = {k: (i["itemid"], i["name"]) for k, i in LAB.items("rdmakit.").items()}
        LAB.snmp.agent.stop()
        # mlx4_0 sorts before mlx5_0: numbered by name, it would take index 1 and move every
        # item's history onto another device.
        base = os.path.join(LAB.root, "class", "infiniband")
        staged = os.path.join(LAB.root, "class", "mlx4_0")
        shutil.copytree(os.path.join(base, "mlx5_1"), staged, symlinks=True)
        with open(os.path.join(staged, "node_guid"), "w") as f:
            f.write("0002:c903:0000:0010\n")
        os.rename(staged, os.path.join(base, "mlx4_0"))
        restarted = time.time()
        LAB.snmp.agent.start()
        LAB.snmp.wait_ready()
        LAB.discover(expected=("rdmakit.port.state[3.1]", "rdmakit.port.state[1.1]"))
        after = LAB.items("rdmakit.")
        self.assertEqual({k: (after[k]["itemid"], after[k]["name"]) for k in before if k in after},
                         before, "the same items under the same keys and names")
        self.assertEqual(after["rdmakit.port.state[3.1]"]["name"], "mlx4_0 port 1: state")
        self.assertTrue(after["rdmakit.dev.fw[3]"]["name"].startswith("mlx4_0"),
                        after["rdmakit.dev.fw[3]"]["name"])
        wait_for(lambda: int(LAB.items("rdmakit.port.state[1.1]")["rdmakit.port.state[1.1]"]
                             ["lastclock"]) > restarted, 30, "mlx5_0 port 1 polled again")
        self.assertEqual(LAB.last("rdmakit.port.state[3.1]"), "4")
        gbps = read_fixture("class/infiniband/mlx4_0/ports/1/rate").split()[0]
        self.assertEqual(LAB.last("rdmakit.port.rate[3.1]"), str(int(float(gbps) * 1e9)))
        unsupported = {k: i["error"] for k, i in LAB.items().items() if i["state"] == "1"}
        self.assertEqual(unsupported, {})


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("skipped: run as root (it starts PostgreSQL and zabbix_server as their users)")
        sys.exit(77)
    if missing_packages():
        print(f"skipped: missing {' '.join(missing_packages())} (scripts/install-deps.sh)")
        sys.exit(77)
    unittest.main(verbosity=2)
