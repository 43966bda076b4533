#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""RDMAKIT-MIB's columns agree with the core's table of facts and catalog: every fact is an
object of the MIB with the fact's column (or one of the few left out on purpose), and every
PMA counter is a column of the port and fabric counter tables with the catalog's number, and the
core's link speeds are RdmakitLinkSpeed's enumeration."""
import os
import re
import subprocess
import unittest

import snmptest

PRINT_COLUMNS = os.environ.get("RDMAKIT_PRINT_COLUMNS",
                               os.path.join(snmptest.TOP, "build", "tests", "snmp_print_columns"))

MIB_OF_FACT = {
    "port": {"state": "PortState", "phys_state": "PortPhysState", "rate": "PortRate",
             "width": "PortWidth", "speed": "PortSpeed", "lid": "PortLid",
             "sm_lid": "PortSmLid", "sm_sl": "PortSmSl", "lid_mask_count": "PortLmc",
             "link_layer": "PortLinkLayer", "gid0": "PortGid0", "netdev": "PortNetdev",
             "guid": "PortGuid"},
    "device": {"node_type": "DeviceNodeType", "node_guid": "DeviceNodeGuid",
               "sys_image_guid": "DeviceSysImageGuid", "fw_ver": "DeviceFirmware",
               "hca_type": "DeviceHcaType", "board_id": "DeviceBoardId",
               "hw_rev": "DeviceHwRev", "node_desc": "DeviceNodeDesc",
               "num_ports": "DeviceNumPorts", "pci_address": "DevicePciAddress",
               "numa_node": "DeviceNumaNode", "pcie_speed": "DevicePcieCurSpeed",
               "pcie_max_speed": "DevicePcieMaxSpeed", "pcie_width": "DevicePcieCurWidth",
               "pcie_max_width": "DevicePcieMaxWidth", "sriov_numvfs": "DeviceSriovNumVfs",
               "sriov_totalvfs": "DeviceSriovTotalVfs", "pci_vendor": "DevicePciVendor",
               "pci_device": "DevicePciDevice", "node_guid_text": "DeviceNodeGuidText",
               "sys_image_guid_text": "DeviceSysImageGuidText"},
    "sm": {"master_lid": "SmMasterLid", "master_priority": "SmMasterPriority",
           "master_state": "SmMasterState", "master_activity_count": "SmMasterActivity",
           "answered": "SmAnswered", "masters": "SmMasters", "standbys": "SmStandbys",
           "discovering": "SmDiscovering", "not_active": "SmNotActive"},
    "sm_entry": {"lid": "SmLid", "answered": "SmAnswers", "priority": "SmPriority",
                 "state": "SmState", "activity_count": "SmActivity", "name": "SmName",
                 "guid_text": "SmGuidText"},
    "fabric": {"nodes": "FabricNodes", "switches": "FabricSwitches", "cas": "FabricCas",
               "routers": "FabricRouters", "links": "FabricLinks",
               "degraded_links": "FabricDegradedLinks", "swept_ports": "FabricSweptPorts",
               "answered_ports": "FabricAnsweredPorts",
               "unanswered_ports": "FabricUnansweredPorts",
               "sweep_seconds": "FabricSweepTime", "discovery_seconds": "FabricDiscoveryTime",
               "routes": "FabricRoutes", "route_holes": "FabricRouteHoles",
               "route_loops": "FabricRouteLoops", "route_dead_ends": "FabricRouteDeadEnds",
               "route_max_hops": "FabricRouteMaxHops",
               "routes_unbalanced": "FabricRoutesUnbalanced",
               "watcher_active": "FabricWatcherActive", "active_watcher": "FabricActiveWatcher",
               "audit_critical": "FabricAuditCritical", "audit_warning": "FabricAuditWarning"},
}
# Left out of the MIB (as in snmp-subagent/ak_oid.c): the text twins of numbered states and
# types (an NMS gets the number and a value map), the capability mask, the flag of a device
# that vanished (it has no row then), and the SM's GUID, which is the SM table's index.
NOT_SERVED = {("port", "state_name"), ("port", "phys_state_name"), ("port", "cap_mask"),
              ("device", "node_type_name"), ("device", "vanished"),
              ("sm_entry", "state_name"), ("sm_entry", "guid")}


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def columns_of_mib(names):
    """{object name: last sub-identifier} through snmptranslate with RDMAKIT-MIB loaded."""
    out = subprocess.run(["snmptranslate", "-M", snmptest.MIBDIRS, "-m", "RDMAKIT-MIB",
                          "-On", *[f"RDMAKIT-MIB::{n}" for n in names]], capture_output=True,
                         text=True, env=snmptest.env(snmptest.HERE), check=True)
    oids = out.stdout.split()
    assert len(oids) == len(names), out.stderr
    return {n: int(o.rsplit(".", 1)[1]) for n, o in zip(names, oids)}


class Columns(unittest.TestCase):
    def setUp(self):
        out = subprocess.run([PRINT_COLUMNS], capture_output=True, text=True, check=True)
        self.facts, self.pma, self.speeds = {}, {}, {}
        for line in out.stdout.splitlines():
            kind, *rest = line.split()
            if kind == "fact":
                self.facts[(rest[0], rest[1])] = int(rest[2])
            elif kind == "speed":
                self.speeds[rest[0].lower()] = int(rest[1])
            else:
                self.pma[rest[0]] = int(rest[1])

    def test_every_fact_is_a_column_of_the_mib(self):
        wanted = {}
        for (scope, name), column in self.facts.items():
            if (scope, name) in NOT_SERVED:
                continue
            self.assertIn(name, MIB_OF_FACT.get(scope, {}), f"fact {scope}.{name} has no MIB object")
            wanted["rdmakit" + MIB_OF_FACT[scope][name]] = column
        self.assertEqual(columns_of_mib(list(wanted)), wanted)

    def test_every_fabric_node_port_and_counter_fact_is_a_column_of_the_mib(self):
        out = subprocess.run([PRINT_COLUMNS, "--topology"], capture_output=True, text=True,
                             check=True)
        prefix = {"fabric_node": "rdmakitFn", "fabric_port": "rdmakitFp",
                  "fabric_counter": "rdmakitFc"}
        wanted = {}
        for line in out.stdout.splitlines():
            _, scope, name, column = line.split()
            wanted[prefix[scope] + camel(name)] = int(column)
        self.assertEqual(len(wanted), 18)
        self.assertEqual(columns_of_mib(list(wanted)), wanted)

    def test_every_pma_counter_has_the_catalogs_column(self):
        self.assertEqual(len(self.pma), 21)
        for prefix in ("rdmakitPc", "rdmakitFc"):
            wanted = {prefix + camel(n): c for n, c in self.pma.items()}
            self.assertEqual(columns_of_mib(list(wanted)), wanted)

    def test_link_speeds_are_the_mibs_enumeration(self):
        self.assertEqual(self.speeds["xdr"], 9)
        for column in ("rdmakitPortSpeed", "rdmakitFpSpeed"):
            out = subprocess.run(["snmptranslate", "-M", snmptest.MIBDIRS, "-m", "RDMAKIT-MIB",
                                  "-Td", f"RDMAKIT-MIB::{column}"], capture_output=True,
                                 text=True, env=snmptest.env(snmptest.HERE), check=True)
            syntax = next(line for line in out.stdout.splitlines() if "SYNTAX" in line)
            named = {n: int(v) for n, v in re.findall(r"(\w+)\((\d+)\)", syntax)}
            self.assertEqual(named, self.speeds, column)


if __name__ == "__main__":
    unittest.main(verbosity=2)
