snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_trap.c.o: \
 /work/main/snmp-subagent/ak_trap.c /usr/include/stdc-predef.h \
 /work/main/snmp-subagent/ak_trap.h /work/main/snmp-subagent/ak_mailbox.h \
 /work/main/snmp-subagent/ak_snapshot.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h /usr/include/stdint.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/include/x86_64-linux-gnu/bits/types.h \
 /usr/include/x86_64-linux-gnu/bits/typesizes.h \
 /usr/include/x86_64-linux-gnu/bits/time64.h \
 /usr/include/x86_64-linux-gnu/bits/wchar.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-intn.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
 /work/main/common/include/rdmakit/events.h \
 /work/main/common/include/rdmakit/health.h \
 /work/main/common/include/rdmakit/fabric.h \
 /work/main/common/include/rdmakit/link.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdbool.h \
 /work/main/common/include/rdmakit/findings.h \
 /work/main/common/include/rdmakit/host.h \
 /work/main/common/include/rdmakit/counters.h \
 /work/main/common/include/rdmakit/catalog.h \
 /work/main/common/include/rdmakit/sysfs.h \
 /usr/include/x86_64-linux-gnu/sys/types.h \
 /usr/include/x86_64-linux-gnu/bits/types/clock_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/clockid_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/time_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/timer_t.h /usr/include/endian.h \
 /usr/include/x86_64-linux-gnu/bits/endian.h \
 /usr/include/x86_64-linux-gnu/bits/endianness.h \
 /usr/include/x86_64-linux-gnu/bits/byteswap.h \
 /usr/include/x86_64-linux-gnu/bits/uintn-identity.h \
 /usr/include/x86_64-linux-gnu/sys/select.h \
 /usr/include/x86_64-linux-gnu/bits/select.h \
 /usr/include/x86_64-linux-gnu/bits/types/sigset_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__sigset_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_timeval.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_timespec.h \
 /usr/include/x86_64-linux-gnu/bits/select2.h \
 /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h \
 /usr/include/x86_64-linux-gnu/bits/thread-shared-types.h \
 /usr/include/x86_64-linux-gnu/bits/pthreadtypes-arch.h \
 /usr/include/x86_64-linux-gnu/bits/atomic_wide_counter.h \
 /usr/include/x86_64-linux-gnu/bits/struct_mutex.h \
 /usr/include/x86_64-linux-gnu/bits/struct_rwlock.h \
 /work/main/common/include/rdmakit/monitor.h \
 /work/main/common/include/rdmakit/congestion.h \
 /work/main/common/include/rdmakit/sweep.h \
 /work/main/common/include/rdmakit/mad.h \
 /work/main/common/include/rdmakit/cancel.h \
 /work/main/common/include/rdmakit/limits.h \
 /work/main/common/include/rdmakit/follow.h \
 /work/main/common/include/rdmakit/notice.h \
 /work/main/common/include/rdmakit/sm.h \
 /work/main/common/include/rdmakit/log.h /usr/include/pthread.h \
 /usr/include/sched.h /usr/include/x86_64-linux-gnu/bits/sched.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_sched_param.h \
 /usr/include/x86_64-linux-gnu/bits/cpu-set.h /usr/include/time.h \
 /usr/include/x86_64-linux-gnu/bits/time.h \
 /usr/include/x86_64-linux-gnu/bits/timex.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_tm.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_itimerspec.h \
 /usr/include/x86_64-linux-gnu/bits/types/locale_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__locale_t.h \
 /usr/include/x86_64-linux-gnu/bits/setjmp.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct___jmp_buf_tag.h \
 /usr/include/x86_64-linux-gnu/bits/pthread_stack_min-dynamic.h \
 /work/main/snmp-subagent/ak_columns.h \
 /work/main/common/include/rdmakit/facts.h \
 /work/main/snmp-subagent/ak_oid.h \
 /usr/include/net-snmp/net-snmp-config.h \
 /usr/include/net-snmp/system/linux.h /usr/include/net-snmp/system/sysv.h \
 /usr/include/net-snmp/system/generic.h \
 /usr/include/net-snmp/machine/generic.h \
 /usr/include/net-snmp/net-snmp-includes.h /usr/include/string.h \
 /usr/include/strings.h \
 /usr/include/x86_64-linux-gnu/bits/strings_fortified.h \
 /usr/include/x86_64-linux-gnu/bits/string_fortified.h \
 /usr/include/net-snmp/definitions.h /usr/include/net-snmp/types.h \
 /usr/include/stdio.h /usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h \
 /usr/include/x86_64-linux-gnu/bits/types/__fpos_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__mbstate_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__fpos64_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_FILE.h \
 /usr/include/x86_64-linux-gnu/bits/types/cookie_io_functions_t.h \
 /usr/include/x86_64-linux-gnu/bits/stdio_lim.h \
 /usr/include/x86_64-linux-gnu/bits/floatn.h \
 /usr/include/x86_64-linux-gnu/bits/floatn-common.h \
 /usr/include/x86_64-linux-gnu/bits/stdio2-decl.h \
 /usr/include/x86_64-linux-gnu/bits/stdio.h \
 /usr/include/x86_64-linux-gnu/bits/stdio2.h \
 /usr/include/net-snmp/library/oid.h \
 /usr/include/net-snmp/library/types.h \
 /usr/include/net-snmp/library/snmp_api.h \
 /usr/include/net-snmp/varbind_api.h \
 /usr/include/net-snmp/library/snmp_client.h \
 /usr/include/net-snmp/pdu_api.h /usr/include/net-snmp/library/asn1.h \
 /usr/include/net-snmp/output_api.h \
 /usr/include/net-snmp/library/netsnmp-attribute-format.h \
 /usr/include/net-snmp/library/snmp_debug.h \
 /usr/include/net-snmp/library/snmp_logging.h /usr/include/syslog.h \
 /usr/include/x86_64-linux-gnu/sys/syslog.h \
 /usr/include/x86_64-linux-gnu/bits/syslog-path.h \
 /usr/include/x86_64-linux-gnu/bits/syslog.h \
 /usr/include/net-snmp/session_api.h \
 /usr/include/net-snmp/library/callback.h \
 /usr/include/net-snmp/library/snmp_transport.h \
 /usr/include/x86_64-linux-gnu/sys/socket.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_iovec.h \
 /usr/include/x86_64-linux-gnu/bits/socket.h \
 /usr/include/x86_64-linux-gnu/bits/socket_type.h \
 /usr/include/x86_64-linux-gnu/bits/sockaddr.h \
 /usr/include/x86_64-linux-gnu/asm/socket.h \
 /usr/include/asm-generic/socket.h /usr/include/linux/posix_types.h \
 /usr/include/linux/stddef.h \
 /usr/include/x86_64-linux-gnu/asm/posix_types.h \
 /usr/include/x86_64-linux-gnu/asm/posix_types_64.h \
 /usr/include/asm-generic/posix_types.h \
 /usr/include/x86_64-linux-gnu/asm/bitsperlong.h \
 /usr/include/asm-generic/bitsperlong.h \
 /usr/include/x86_64-linux-gnu/asm/sockios.h \
 /usr/include/asm-generic/sockios.h \
 /usr/include/x86_64-linux-gnu/bits/types/struct_osockaddr.h \
 /usr/include/x86_64-linux-gnu/bits/socket2.h /usr/include/netinet/in.h \
 /usr/include/x86_64-linux-gnu/bits/in.h \
 /usr/include/net-snmp/library/snmp_service.h \
 /usr/include/net-snmp/library/snmpCallbackDomain.h \
 /usr/include/net-snmp/library/snmpUnixDomain.h \
 /usr/include/x86_64-linux-gnu/sys/un.h \
 /usr/include/net-snmp/library/snmpUDPDomain.h \
 /usr/include/net-snmp/library/snmpUDPIPv4BaseDomain.h \
 /usr/include/net-snmp/library/snmpIPv4BaseDomain.h \
 /usr/include/net-snmp/library/snmpUDPBaseDomain.h \
 /usr/include/net-snmp/library/snmpTCPDomain.h \
 /usr/include/net-snmp/library/snmpUDPIPv6Domain.h \
 /usr/include/net-snmp/library/snmpIPv6BaseDomain.h \
 /usr/include/net-snmp/library/snmpTCPIPv6Domain.h \
 /usr/include/net-snmp/library/ucd_compat.h \
 /usr/include/net-snmp/library/mib.h /usr/include/net-snmp/mib_api.h \
 /usr/include/net-snmp/library/parse.h \
 /usr/include/net-snmp/library/oid_stash.h \
 /usr/include/net-snmp/net-snmp-features.h \
 /usr/include/net-snmp/library/snmp_impl.h \
 /usr/include/net-snmp/library/snmp.h \
 /usr/include/net-snmp/library/snmp-tc.h \
 /usr/include/net-snmp/library/getopt.h /usr/include/net-snmp/utilities.h \
 /usr/include/getopt.h /usr/include/x86_64-linux-gnu/bits/getopt_core.h \
 /usr/include/x86_64-linux-gnu/bits/getopt_ext.h \
 /usr/include/net-snmp/library/system.h \
 /usr/include/net-snmp/library/tools.h \
 /usr/include/net-snmp/library/int64.h \
 /usr/include/net-snmp/library/mt_support.h \
 /usr/include/net-snmp/library/snmp_alarm.h \
 /usr/include/x86_64-linux-gnu/sys/time.h \
 /usr/include/net-snmp/library/data_list.h \
 /usr/include/net-snmp/library/check_varbind.h \
 /usr/include/net-snmp/library/container.h /usr/include/stdlib.h \
 /usr/include/x86_64-linux-gnu/bits/waitflags.h \
 /usr/include/x86_64-linux-gnu/bits/waitstatus.h /usr/include/alloca.h \
 /usr/include/x86_64-linux-gnu/bits/stdlib-bsearch.h \
 /usr/include/x86_64-linux-gnu/bits/stdlib-float.h \
 /usr/include/x86_64-linux-gnu/bits/stdlib.h \
 /usr/include/net-snmp/library/container_binary_array.h \
 /usr/include/net-snmp/library/container_list_ssll.h \
 /usr/include/net-snmp/library/container_iterator.h \
 /usr/include/net-snmp/library/container.h \
 /usr/include/net-snmp/library/snmp_assert.h \
 /usr/include/net-snmp/version.h /usr/include/net-snmp/config_api.h \
 /usr/include/net-snmp/library/read_config.h \
 /usr/include/net-snmp/library/default_store.h \
 /usr/include/net-snmp/library/snmp_parse_args.h \
 /usr/include/net-snmp/library/snmp_enum.h \
 /usr/include/net-snmp/library/vacm.h /usr/include/net-snmp/snmpv3_api.h \
 /usr/include/net-snmp/library/snmpv3.h \
 /usr/include/net-snmp/library/transform_oids.h \
 /usr/include/net-snmp/library/keytools.h \
 /usr/include/net-snmp/library/scapi.h /usr/include/openssl/ossl_typ.h \
 /usr/include/openssl/types.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/limits.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/syslimits.h \
 /usr/include/limits.h /usr/include/x86_64-linux-gnu/bits/posix1_lim.h \
 /usr/include/x86_64-linux-gnu/bits/local_lim.h \
 /usr/include/linux/limits.h \
 /usr/include/x86_64-linux-gnu/bits/posix2_lim.h \
 /usr/include/x86_64-linux-gnu/bits/xopen_lim.h \
 /usr/include/x86_64-linux-gnu/bits/uio_lim.h \
 /usr/include/openssl/e_os2.h /usr/include/openssl/macros.h \
 /usr/include/x86_64-linux-gnu/openssl/opensslconf.h \
 /usr/include/x86_64-linux-gnu/openssl/configuration.h \
 /usr/include/openssl/opensslv.h /usr/include/inttypes.h \
 /usr/include/openssl/safestack.h /usr/include/openssl/stack.h \
 /usr/include/net-snmp/library/lcd_time.h \
 /usr/include/net-snmp/library/snmp_secmod.h \
 /usr/include/net-snmp/library/snmpv3-security-includes.h \
 /usr/include/net-snmp/library/snmptsm.h \
 /usr/include/net-snmp/library/snmpusm.h \
 /usr/include/net-snmp/agent/net-snmp-agent-includes.h \
 /usr/include/net-snmp/agent/mib_module_config.h \
 /usr/include/net-snmp/agent/agent_module_config.h \
 /usr/include/net-snmp/agent/snmp_agent.h \
 /usr/include/net-snmp/agent/snmp_vars.h \
 /usr/include/net-snmp/agent/agent_handler.h \
 /usr/include/net-snmp/agent/var_struct.h \
 /usr/include/net-snmp/agent/agent_registry.h \
 /usr/include/net-snmp/library/fd_event_manager.h \
 /usr/include/net-snmp/agent/ds_agent.h \
 /usr/include/net-snmp/agent/agent_read_config.h \
 /usr/include/net-snmp/agent/agent_trap.h \
 /usr/include/net-snmp/agent/all_helpers.h \
 /usr/include/net-snmp/agent/instance.h \
 /usr/include/net-snmp/agent/baby_steps.h \
 /usr/include/net-snmp/agent/scalar.h \
 /usr/include/net-snmp/agent/scalar_group.h \
 /usr/include/net-snmp/agent/watcher.h \
 /usr/include/net-snmp/agent/multiplexer.h \
 /usr/include/net-snmp/agent/null.h \
 /usr/include/net-snmp/agent/debug_handler.h \
 /usr/include/net-snmp/agent/cache_handler.h \
 /usr/include/net-snmp/agent/old_api.h \
 /usr/include/net-snmp/agent/read_only.h \
 /usr/include/net-snmp/agent/row_merge.h \
 /usr/include/net-snmp/agent/serialize.h \
 /usr/include/net-snmp/agent/bulk_to_next.h \
 /usr/include/net-snmp/agent/mode_end_call.h \
 /usr/include/net-snmp/agent/table.h \
 /usr/include/net-snmp/agent/table_data.h \
 /usr/include/net-snmp/agent/table_dataset.h \
 /usr/include/net-snmp/agent/table_tdata.h \
 /usr/include/net-snmp/agent/table_iterator.h \
 /usr/include/net-snmp/agent/table_container.h \
 /usr/include/net-snmp/agent/table_array.h \
 /usr/include/net-snmp/agent/mfd.h \
 /usr/include/net-snmp/agent/snmp_get_statistic.h
