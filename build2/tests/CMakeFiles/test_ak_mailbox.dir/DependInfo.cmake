
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/snmp-subagent/ak_mailbox.c" "tests/CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_mailbox.c.o" "gcc" "tests/CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_mailbox.c.o.d"
  "/work/main/snmp-subagent/ak_oid.c" "tests/CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_oid.c.o" "gcc" "tests/CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_oid.c.o.d"
  "/work/main/snmp-subagent/ak_snapshot.c" "tests/CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_snapshot.c.o" "gcc" "tests/CMakeFiles/test_ak_mailbox.dir/__/snmp-subagent/ak_snapshot.c.o.d"
  "/work/main/tests/unit/test_ak_mailbox.c" "tests/CMakeFiles/test_ak_mailbox.dir/unit/test_ak_mailbox.c.o" "gcc" "tests/CMakeFiles/test_ak_mailbox.dir/unit/test_ak_mailbox.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build2/common/CMakeFiles/librdmakit.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
