file(REMOVE_RECURSE
  "CMakeFiles/test_ak_config.dir/__/snmp-subagent/ak_config.c.o"
  "CMakeFiles/test_ak_config.dir/__/snmp-subagent/ak_config.c.o.d"
  "CMakeFiles/test_ak_config.dir/unit/test_ak_config.c.o"
  "CMakeFiles/test_ak_config.dir/unit/test_ak_config.c.o.d"
  "test_ak_config"
  "test_ak_config.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_ak_config.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
