file(REMOVE_RECURSE
  "CMakeFiles/test_cd_ports.dir/__/collectd-plugin/cd_ports.c.o"
  "CMakeFiles/test_cd_ports.dir/__/collectd-plugin/cd_ports.c.o.d"
  "CMakeFiles/test_cd_ports.dir/__/collectd-plugin/cd_values.c.o"
  "CMakeFiles/test_cd_ports.dir/__/collectd-plugin/cd_values.c.o.d"
  "CMakeFiles/test_cd_ports.dir/unit/test_cd_ports.c.o"
  "CMakeFiles/test_cd_ports.dir/unit/test_cd_ports.c.o.d"
  "test_cd_ports"
  "test_cd_ports.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cd_ports.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
