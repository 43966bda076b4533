file(REMOVE_RECURSE
  "CMakeFiles/test_tune_journal.dir/unit/test_tune_journal.c.o"
  "CMakeFiles/test_tune_journal.dir/unit/test_tune_journal.c.o.d"
  "test_tune_journal"
  "test_tune_journal.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tune_journal.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
