file(REMOVE_RECURSE
  "CMakeFiles/test_health.dir/unit/test_health.c.o"
  "CMakeFiles/test_health.dir/unit/test_health.c.o.d"
  "test_health"
  "test_health.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_health.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
