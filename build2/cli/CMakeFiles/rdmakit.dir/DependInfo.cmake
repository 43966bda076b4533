
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/cli/bench_out.c" "cli/CMakeFiles/rdmakit.dir/bench_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/bench_out.c.o.d"
  "/work/main/cli/cmd_bench.c" "cli/CMakeFiles/rdmakit.dir/cmd_bench.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_bench.c.o.d"
  "/work/main/cli/cmd_counters.c" "cli/CMakeFiles/rdmakit.dir/cmd_counters.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_counters.c.o.d"
  "/work/main/cli/cmd_doctor.c" "cli/CMakeFiles/rdmakit.dir/cmd_doctor.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_doctor.c.o.d"
  "/work/main/cli/cmd_events.c" "cli/CMakeFiles/rdmakit.dir/cmd_events.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_events.c.o.d"
  "/work/main/cli/cmd_fabric.c" "cli/CMakeFiles/rdmakit.dir/cmd_fabric.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_fabric.c.o.d"
  "/work/main/cli/cmd_probe.c" "cli/CMakeFiles/rdmakit.dir/cmd_probe.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_probe.c.o.d"
  "/work/main/cli/cmd_route.c" "cli/CMakeFiles/rdmakit.dir/cmd_route.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_route.c.o.d"
  "/work/main/cli/cmd_sm.c" "cli/CMakeFiles/rdmakit.dir/cmd_sm.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_sm.c.o.d"
  "/work/main/cli/cmd_status.c" "cli/CMakeFiles/rdmakit.dir/cmd_status.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_status.c.o.d"
  "/work/main/cli/cmd_sweep.c" "cli/CMakeFiles/rdmakit.dir/cmd_sweep.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_sweep.c.o.d"
  "/work/main/cli/cmd_tune.c" "cli/CMakeFiles/rdmakit.dir/cmd_tune.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/cmd_tune.c.o.d"
  "/work/main/cli/common_opts.c" "cli/CMakeFiles/rdmakit.dir/common_opts.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/common_opts.c.o.d"
  "/work/main/cli/congestion_out.c" "cli/CMakeFiles/rdmakit.dir/congestion_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/congestion_out.c.o.d"
  "/work/main/cli/doctor_probe.c" "cli/CMakeFiles/rdmakit.dir/doctor_probe.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/doctor_probe.c.o.d"
  "/work/main/cli/fabric_dot.c" "cli/CMakeFiles/rdmakit.dir/fabric_dot.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/fabric_dot.c.o.d"
  "/work/main/cli/fabric_out.c" "cli/CMakeFiles/rdmakit.dir/fabric_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/fabric_out.c.o.d"
  "/work/main/cli/facts_out.c" "cli/CMakeFiles/rdmakit.dir/facts_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/facts_out.c.o.d"
  "/work/main/cli/host_out.c" "cli/CMakeFiles/rdmakit.dir/host_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/host_out.c.o.d"
  "/work/main/cli/json_stream.c" "cli/CMakeFiles/rdmakit.dir/json_stream.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/json_stream.c.o.d"
  "/work/main/cli/main.c" "cli/CMakeFiles/rdmakit.dir/main.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/main.c.o.d"
  "/work/main/cli/options.c" "cli/CMakeFiles/rdmakit.dir/options.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/options.c.o.d"
  "/work/main/cli/port_filter.c" "cli/CMakeFiles/rdmakit.dir/port_filter.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/port_filter.c.o.d"
  "/work/main/cli/print.c" "cli/CMakeFiles/rdmakit.dir/print.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/print.c.o.d"
  "/work/main/cli/route_out.c" "cli/CMakeFiles/rdmakit.dir/route_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/route_out.c.o.d"
  "/work/main/cli/tune_out.c" "cli/CMakeFiles/rdmakit.dir/tune_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/tune_out.c.o.d"
  "/work/main/cli/verbs_out.c" "cli/CMakeFiles/rdmakit.dir/verbs_out.c.o" "gcc" "cli/CMakeFiles/rdmakit.dir/verbs_out.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build2/common/CMakeFiles/librdmakit.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
