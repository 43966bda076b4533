file(REMOVE_RECURSE
  "CMakeFiles/test_tune_opensm.dir/unit/test_tune_opensm.c.o"
  "CMakeFiles/test_tune_opensm.dir/unit/test_tune_opensm.c.o.d"
  "test_tune_opensm"
  "test_tune_opensm.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tune_opensm.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
