file(REMOVE_RECURSE
  "CMakeFiles/test_fabric_dot.dir/__/cli/fabric_dot.c.o"
  "CMakeFiles/test_fabric_dot.dir/__/cli/fabric_dot.c.o.d"
  "CMakeFiles/test_fabric_dot.dir/unit/test_fabric_dot.c.o"
  "CMakeFiles/test_fabric_dot.dir/unit/test_fabric_dot.c.o.d"
  "test_fabric_dot"
  "test_fabric_dot.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fabric_dot.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
