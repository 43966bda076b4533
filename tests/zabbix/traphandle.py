#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""snmptrapd's traphandle for tests/zabbix: appends the trap it reads on stdin to Zabbix's
SNMP trapper file (argv[1]) as one record, "<time> ZBXTRAP <source address>" and then the
trap's text, the format zabbix_trap_receiver.pl writes (Debian does not ship that script)."""
import os
import re
import sys
import time

lines = sys.stdin.read().splitlines()
# snmptrapd gives the sender's host name, then its transport address, then the varbinds.
address = re.search(r"\[([0-9.]+)\]", lines[1] if len(lines) > 1 else "")
record = (f"{time.strftime('%H:%M:%S %Y/%m/%d')} ZBXTRAP "
          f"{address.group(1) if address else '0.0.0.0'}\n" + "\n".join(lines[2:]) + "\n")
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
try:
    os.write(fd, record.encode())
finally:
    os.close(fd)
