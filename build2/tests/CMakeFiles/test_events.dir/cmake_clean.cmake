file(REMOVE_RECURSE
  "CMakeFiles/test_events.dir/unit/test_events.c.o"
  "CMakeFiles/test_events.dir/unit/test_events.c.o.d"
  "test_events"
  "test_events.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_events.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
