snmp-subagent/CMakeFiles/rdmakit_agentx.dir/ak_index.c.o: \
 /work/main/snmp-subagent/ak_index.c /usr/include/stdc-predef.h \
 /work/main/snmp-subagent/ak_index.h \
 /usr/include/net-snmp/net-snmp-config.h \
 /usr/include/net-snmp/system/linux.h /usr/include/net-snmp/system/sysv.h \
 /usr/include/net-snmp/system/generic.h \
 /usr/include/net-snmp/machine/generic.h /usr/include/net-snmp/types.h \
 /usr/include/stdio.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h \
 /usr/include/x86_64-linux-gnu/bits/types.h \
 /usr/include/x86_64-linux-gnu/bits/typesizes.h \
 /usr/include/x86_64-linux-gnu/bits/time64.h \
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
 /usr/include/x86_64-linux-gnu/sys/types.h \
 /usr/include/x86_64-linux-gnu/bits/types/clock_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/clockid_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/time_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/timer_t.h \
 /usr/include/x86_64-linux-gnu/bits/stdint-intn.h /usr/include/endian.h \
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
 /usr/include/net-snmp/library/oid.h \
 /usr/include/net-snmp/library/types.h \
 /usr/include/net-snmp/definitions.h \
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
 /usr/include/x86_64-linux-gnu/bits/stdint-uintn.h \
 /usr/include/x86_64-linux-gnu/bits/in.h \
 /usr/include/net-snmp/library/snmp_service.h \
 /usr/include/net-snmp/library/snmpCallbackDomain.h \
 /usr/include/net-snmp/library/snmpUnixDomain.h \
 /usr/include/x86_64-linux-gnu/sys/un.h /usr/include/string.h \
 /usr/include/x86_64-linux-gnu/bits/types/locale_t.h \
 /usr/include/x86_64-linux-gnu/bits/types/__locale_t.h \
 /usr/include/strings.h \
 /usr/include/x86_64-linux-gnu/bits/strings_fortified.h \
 /usr/include/x86_64-linux-gnu/bits/string_fortified.h \
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
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdbool.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h /usr/include/stdint.h \
 /usr/include/x86_64-linux-gnu/bits/wchar.h \
 /work/main/snmp-subagent/ak_snapshot.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h
