file(REMOVE_RECURSE
  "CMakeFiles/test_counters.dir/unit/test_counters.c.o"
  "CMakeFiles/test_counters.dir/unit/test_counters.c.o.d"
  "test_counters"
  "test_counters.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_counters.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
