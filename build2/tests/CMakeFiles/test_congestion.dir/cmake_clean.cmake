file(REMOVE_RECURSE
  "CMakeFiles/test_congestion.dir/unit/test_congestion.c.o"
  "CMakeFiles/test_congestion.dir/unit/test_congestion.c.o.d"
  "test_congestion"
  "test_congestion.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_congestion.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
