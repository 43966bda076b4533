file(REMOVE_RECURSE
  "CMakeFiles/test_fabric_helper.dir/unit/test_fabric_helper.c.o"
  "CMakeFiles/test_fabric_helper.dir/unit/test_fabric_helper.c.o.d"
  "test_fabric_helper"
  "test_fabric_helper.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fabric_helper.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
