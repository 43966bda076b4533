file(REMOVE_RECURSE
  "CMakeFiles/test_bench.dir/unit/test_bench.c.o"
  "CMakeFiles/test_bench.dir/unit/test_bench.c.o.d"
  "test_bench"
  "test_bench.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_bench.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
