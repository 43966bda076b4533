
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/collectd-plugin/cd_config.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config.c.o.d"
  "/work/main/collectd-plugin/cd_config_fabric.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_fabric.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_fabric.c.o.d"
  "/work/main/collectd-plugin/cd_config_keys.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_keys.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_keys.c.o.d"
  "/work/main/collectd-plugin/cd_config_probe.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_probe.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_probe.c.o.d"
  "/work/main/collectd-plugin/cd_config_tune.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_tune.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_config_tune.c.o.d"
  "/work/main/collectd-plugin/cd_events.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_events.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_events.c.o.d"
  "/work/main/collectd-plugin/cd_fabric.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_fabric.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_fabric.c.o.d"
  "/work/main/collectd-plugin/cd_fabric_values.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_fabric_values.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_fabric_values.c.o.d"
  "/work/main/collectd-plugin/cd_findings.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_findings.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_findings.c.o.d"
  "/work/main/collectd-plugin/cd_host.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_host.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_host.c.o.d"
  "/work/main/collectd-plugin/cd_mon.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_mon.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_mon.c.o.d"
  "/work/main/collectd-plugin/cd_names.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_names.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_names.c.o.d"
  "/work/main/collectd-plugin/cd_plan.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_plan.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_plan.c.o.d"
  "/work/main/collectd-plugin/cd_ports.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_ports.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_ports.c.o.d"
  "/work/main/collectd-plugin/cd_probe.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_probe.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_probe.c.o.d"
  "/work/main/collectd-plugin/cd_sm.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_sm.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_sm.c.o.d"
  "/work/main/collectd-plugin/cd_submit.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_submit.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_submit.c.o.d"
  "/work/main/collectd-plugin/cd_tune.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_tune.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_tune.c.o.d"
  "/work/main/collectd-plugin/cd_values.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_values.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/cd_values.c.o.d"
  "/work/main/collectd-plugin/rdmakit.c" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/rdmakit.c.o" "gcc" "collectd-plugin/CMakeFiles/collectd_rdmakit.dir/rdmakit.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build2/common/CMakeFiles/librdmakit.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
