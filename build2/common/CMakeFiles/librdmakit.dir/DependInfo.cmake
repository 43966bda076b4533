
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/common/src/array.c" "common/CMakeFiles/librdmakit.dir/src/array.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/array.c.o.d"
  "/work/main/common/src/bench/client.c" "common/CMakeFiles/librdmakit.dir/src/bench/client.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/bench/client.c.o.d"
  "/work/main/common/src/bench/conn.c" "common/CMakeFiles/librdmakit.dir/src/bench/conn.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/bench/conn.c.o.d"
  "/work/main/common/src/bench/loops.c" "common/CMakeFiles/librdmakit.dir/src/bench/loops.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/bench/loops.c.o.d"
  "/work/main/common/src/bench/server.c" "common/CMakeFiles/librdmakit.dir/src/bench/server.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/bench/server.c.o.d"
  "/work/main/common/src/bench/stats.c" "common/CMakeFiles/librdmakit.dir/src/bench/stats.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/bench/stats.c.o.d"
  "/work/main/common/src/cancel.c" "common/CMakeFiles/librdmakit.dir/src/cancel.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/cancel.c.o.d"
  "/work/main/common/src/clock.c" "common/CMakeFiles/librdmakit.dir/src/clock.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/clock.c.o.d"
  "/work/main/common/src/events/events.c" "common/CMakeFiles/librdmakit.dir/src/events/events.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/events/events.c.o.d"
  "/work/main/common/src/events/events_host.c" "common/CMakeFiles/librdmakit.dir/src/events/events_host.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/events/events_host.c.o.d"
  "/work/main/common/src/events/events_sm.c" "common/CMakeFiles/librdmakit.dir/src/events/events_sm.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/events/events_sm.c.o.d"
  "/work/main/common/src/fabric/congestion.c" "common/CMakeFiles/librdmakit.dir/src/fabric/congestion.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/congestion.c.o.d"
  "/work/main/common/src/fabric/fabric.c" "common/CMakeFiles/librdmakit.dir/src/fabric/fabric.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/fabric.c.o.d"
  "/work/main/common/src/fabric/fabric_helper.c" "common/CMakeFiles/librdmakit.dir/src/fabric/fabric_helper.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/fabric_helper.c.o.d"
  "/work/main/common/src/fabric/follow.c" "common/CMakeFiles/librdmakit.dir/src/fabric/follow.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/follow.c.o.d"
  "/work/main/common/src/fabric/health_fabric.c" "common/CMakeFiles/librdmakit.dir/src/fabric/health_fabric.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/health_fabric.c.o.d"
  "/work/main/common/src/fabric/link_history.c" "common/CMakeFiles/librdmakit.dir/src/fabric/link_history.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/link_history.c.o.d"
  "/work/main/common/src/fabric/mad.c" "common/CMakeFiles/librdmakit.dir/src/fabric/mad.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/mad.c.o.d"
  "/work/main/common/src/fabric/mad_queue.c" "common/CMakeFiles/librdmakit.dir/src/fabric/mad_queue.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/mad_queue.c.o.d"
  "/work/main/common/src/fabric/monitor.c" "common/CMakeFiles/librdmakit.dir/src/fabric/monitor.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/monitor.c.o.d"
  "/work/main/common/src/fabric/name_map.c" "common/CMakeFiles/librdmakit.dir/src/fabric/name_map.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/name_map.c.o.d"
  "/work/main/common/src/fabric/notice.c" "common/CMakeFiles/librdmakit.dir/src/fabric/notice.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/notice.c.o.d"
  "/work/main/common/src/fabric/plan.c" "common/CMakeFiles/librdmakit.dir/src/fabric/plan.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/plan.c.o.d"
  "/work/main/common/src/fabric/plan_diff.c" "common/CMakeFiles/librdmakit.dir/src/fabric/plan_diff.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/plan_diff.c.o.d"
  "/work/main/common/src/fabric/reread.c" "common/CMakeFiles/librdmakit.dir/src/fabric/reread.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/reread.c.o.d"
  "/work/main/common/src/fabric/route.c" "common/CMakeFiles/librdmakit.dir/src/fabric/route.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/route.c.o.d"
  "/work/main/common/src/fabric/route_check.c" "common/CMakeFiles/librdmakit.dir/src/fabric/route_check.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/route_check.c.o.d"
  "/work/main/common/src/fabric/sm.c" "common/CMakeFiles/librdmakit.dir/src/fabric/sm.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/sm.c.o.d"
  "/work/main/common/src/fabric/subscription.c" "common/CMakeFiles/librdmakit.dir/src/fabric/subscription.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/subscription.c.o.d"
  "/work/main/common/src/fabric/sweep.c" "common/CMakeFiles/librdmakit.dir/src/fabric/sweep.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/sweep.c.o.d"
  "/work/main/common/src/fabric/unseen.c" "common/CMakeFiles/librdmakit.dir/src/fabric/unseen.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/fabric/unseen.c.o.d"
  "/work/main/common/src/facts.c" "common/CMakeFiles/librdmakit.dir/src/facts.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/facts.c.o.d"
  "/work/main/common/src/file.c" "common/CMakeFiles/librdmakit.dir/src/file.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/file.c.o.d"
  "/work/main/common/src/findings.c" "common/CMakeFiles/librdmakit.dir/src/findings.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/findings.c.o.d"
  "/work/main/common/src/host/catalog.c" "common/CMakeFiles/librdmakit.dir/src/host/catalog.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/host/catalog.c.o.d"
  "/work/main/common/src/host/counters.c" "common/CMakeFiles/librdmakit.dir/src/host/counters.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/host/counters.c.o.d"
  "/work/main/common/src/host/health.c" "common/CMakeFiles/librdmakit.dir/src/host/health.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/host/health.c.o.d"
  "/work/main/common/src/host/host.c" "common/CMakeFiles/librdmakit.dir/src/host/host.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/host/host.c.o.d"
  "/work/main/common/src/host/rdma_stack.c" "common/CMakeFiles/librdmakit.dir/src/host/rdma_stack.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/host/rdma_stack.c.o.d"
  "/work/main/common/src/host/sysfs.c" "common/CMakeFiles/librdmakit.dir/src/host/sysfs.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/host/sysfs.c.o.d"
  "/work/main/common/src/limits.c" "common/CMakeFiles/librdmakit.dir/src/limits.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/limits.c.o.d"
  "/work/main/common/src/link.c" "common/CMakeFiles/librdmakit.dir/src/link.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/link.c.o.d"
  "/work/main/common/src/log.c" "common/CMakeFiles/librdmakit.dir/src/log.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/log.c.o.d"
  "/work/main/common/src/rootfs.c" "common/CMakeFiles/librdmakit.dir/src/rootfs.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/rootfs.c.o.d"
  "/work/main/common/src/text.c" "common/CMakeFiles/librdmakit.dir/src/text.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/text.c.o.d"
  "/work/main/common/src/tune/apply.c" "common/CMakeFiles/librdmakit.dir/src/tune/apply.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/apply.c.o.d"
  "/work/main/common/src/tune/audit.c" "common/CMakeFiles/librdmakit.dir/src/tune/audit.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/audit.c.o.d"
  "/work/main/common/src/tune/check_cpu.c" "common/CMakeFiles/librdmakit.dir/src/tune/check_cpu.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/check_cpu.c.o.d"
  "/work/main/common/src/tune/check_irq.c" "common/CMakeFiles/librdmakit.dir/src/tune/check_irq.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/check_irq.c.o.d"
  "/work/main/common/src/tune/check_memory.c" "common/CMakeFiles/librdmakit.dir/src/tune/check_memory.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/check_memory.c.o.d"
  "/work/main/common/src/tune/check_net.c" "common/CMakeFiles/librdmakit.dir/src/tune/check_net.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/check_net.c.o.d"
  "/work/main/common/src/tune/check_pcie.c" "common/CMakeFiles/librdmakit.dir/src/tune/check_pcie.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/check_pcie.c.o.d"
  "/work/main/common/src/tune/check_roce.c" "common/CMakeFiles/librdmakit.dir/src/tune/check_roce.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/check_roce.c.o.d"
  "/work/main/common/src/tune/fs.c" "common/CMakeFiles/librdmakit.dir/src/tune/fs.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/fs.c.o.d"
  "/work/main/common/src/tune/journal.c" "common/CMakeFiles/librdmakit.dir/src/tune/journal.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/journal.c.o.d"
  "/work/main/common/src/tune/opensm_conf.c" "common/CMakeFiles/librdmakit.dir/src/tune/opensm_conf.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/opensm_conf.c.o.d"
  "/work/main/common/src/tune/opensm_keys.c" "common/CMakeFiles/librdmakit.dir/src/tune/opensm_keys.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/opensm_keys.c.o.d"
  "/work/main/common/src/tune/opensm_log.c" "common/CMakeFiles/librdmakit.dir/src/tune/opensm_log.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/opensm_log.c.o.d"
  "/work/main/common/src/tune/partitions.c" "common/CMakeFiles/librdmakit.dir/src/tune/partitions.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/partitions.c.o.d"
  "/work/main/common/src/tune/profiles.c" "common/CMakeFiles/librdmakit.dir/src/tune/profiles.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/tune/profiles.c.o.d"
  "/work/main/common/src/verbs/probe.c" "common/CMakeFiles/librdmakit.dir/src/verbs/probe.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/verbs/probe.c.o.d"
  "/work/main/common/src/verbs/probe_ports.c" "common/CMakeFiles/librdmakit.dir/src/verbs/probe_ports.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/verbs/probe_ports.c.o.d"
  "/work/main/common/src/verbs/verbs.c" "common/CMakeFiles/librdmakit.dir/src/verbs/verbs.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/verbs/verbs.c.o.d"
  "/work/main/common/src/watch/watch.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch.c.o.d"
  "/work/main/common/src/watch/watch_events.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_events.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_events.c.o.d"
  "/work/main/common/src/watch/watch_host.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_host.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_host.c.o.d"
  "/work/main/common/src/watch/watch_jobs.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_jobs.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_jobs.c.o.d"
  "/work/main/common/src/watch/watch_lanes.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_lanes.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_lanes.c.o.d"
  "/work/main/common/src/watch/watch_plan.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_plan.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_plan.c.o.d"
  "/work/main/common/src/watch/watch_probe.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_probe.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_probe.c.o.d"
  "/work/main/common/src/watch/watch_routes.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_routes.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_routes.c.o.d"
  "/work/main/common/src/watch/watch_snapshot.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_snapshot.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_snapshot.c.o.d"
  "/work/main/common/src/watch/watch_tune.c" "common/CMakeFiles/librdmakit.dir/src/watch/watch_tune.c.o" "gcc" "common/CMakeFiles/librdmakit.dir/src/watch/watch_tune.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
