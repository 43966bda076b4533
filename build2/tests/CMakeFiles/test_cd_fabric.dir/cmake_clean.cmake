file(REMOVE_RECURSE
  "CMakeFiles/test_cd_fabric.dir/__/collectd-plugin/cd_fabric_values.c.o"
  "CMakeFiles/test_cd_fabric.dir/__/collectd-plugin/cd_fabric_values.c.o.d"
  "CMakeFiles/test_cd_fabric.dir/__/collectd-plugin/cd_names.c.o"
  "CMakeFiles/test_cd_fabric.dir/__/collectd-plugin/cd_names.c.o.d"
  "CMakeFiles/test_cd_fabric.dir/__/collectd-plugin/cd_values.c.o"
  "CMakeFiles/test_cd_fabric.dir/__/collectd-plugin/cd_values.c.o.d"
  "CMakeFiles/test_cd_fabric.dir/unit/test_cd_fabric.c.o"
  "CMakeFiles/test_cd_fabric.dir/unit/test_cd_fabric.c.o.d"
  "test_cd_fabric"
  "test_cd_fabric.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cd_fabric.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
