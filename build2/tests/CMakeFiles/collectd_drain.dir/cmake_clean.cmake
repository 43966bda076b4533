file(REMOVE_RECURSE
  "CMakeFiles/collectd_drain.dir/collectd/drain_plugin.c.o"
  "CMakeFiles/collectd_drain.dir/collectd/drain_plugin.c.o.d"
  "rdmakit_drain.pdb"
  "rdmakit_drain.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/collectd_drain.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
