file(REMOVE_RECURSE
  "CMakeFiles/test_tune_checks.dir/unit/test_tune_checks.c.o"
  "CMakeFiles/test_tune_checks.dir/unit/test_tune_checks.c.o.d"
  "test_tune_checks"
  "test_tune_checks.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tune_checks.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
