file(REMOVE_RECURSE
  "CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_mailbox.c.o"
  "CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_mailbox.c.o.d"
  "CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_oid.c.o"
  "CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_oid.c.o.d"
  "CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_snapshot.c.o"
  "CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_snapshot.c.o.d"
  "CMakeFiles/test_ak_mailbox.dir/unit/test_ak_mailbox.c.o"
  "CMakeFiles/test_ak_mailbox.dir/unit/test_ak_mailbox.c.o.d"
  "test_ak_mailbox"
  "test_ak_mailbox.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ak_mailbox.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
