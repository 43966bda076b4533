
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/snmp-subagent/ak_agent.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_agent.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_agent.c.o.d"
  "/work/main/snmp-subagent/ak_build.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_build.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_build.c.o.d"
  "/work/main/snmp-subagent/ak_build_fabric.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_build_fabric.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_build_fabric.c.o.d"
  "/work/main/snmp-subagent/ak_build_findings.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_build_findings.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_build_findings.c.o.d"
  "/work/main/snmp-subagent/ak_config.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_config.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_config.c.o.d"
  "/work/main/snmp-subagent/ak_daemon.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_daemon.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_daemon.c.o.d"
  "/work/main/snmp-subagent/ak_fabric.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_fabric.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_fabric.c.o.d"
  "/work/main/snmp-subagent/ak_index.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_index.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_index.c.o.d"
  "/work/main/snmp-subagent/ak_index_map.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_index_map.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_index_map.c.o.d"
  "/work/main/snmp-subagent/ak_log.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_log.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_log.c.o.d"
  "/work/main/snmp-subagent/ak_mailbox.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_mailbox.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_mailbox.c.o.d"
  "/work/main/snmp-subagent/ak_mainloop.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_mainloop.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_mainloop.c.o.d"
  "/work/main/snmp-subagent/ak_oid.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_oid.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_oid.c.o.d"
  "/work/main/snmp-subagent/ak_probe.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_probe.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_probe.c.o.d"
  "/work/main/snmp-subagent/ak_refresh.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_refresh.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_refresh.c.o.d"
  "/work/main/snmp-subagent/ak_snapshot.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_snapshot.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_snapshot.c.o.d"
  "/work/main/snmp-subagent/ak_trap.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_trap.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_trap.c.o.d"
  "/work/main/snmp-subagent/ak_tune.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_tune.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_tune.c.o.d"
  "/work/main/snmp-subagent/rdmakit-agentx.c" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/rdmakit-agentx.c.o" "gcc" "snmp-subagent/CMakeFiles/rdmakit_agentx.dir/rdmakit-agentx.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build2/common/CMakeFiles/librdmakit.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
