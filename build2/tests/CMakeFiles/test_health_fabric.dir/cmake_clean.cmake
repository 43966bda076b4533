file(REMOVE_RECURSE
  "CMakeFiles/test_health_fabric.dir/unit/test_health_fabric.c.o"
  "CMakeFiles/test_health_fabric.dir/unit/test_health_fabric.c.o.d"
  "test_health_fabric"
  "test_health_fabric.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_health_fabric.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
