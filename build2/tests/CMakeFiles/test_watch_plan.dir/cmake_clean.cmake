file(REMOVE_RECURSE
  "CMakeFiles/test_watch_plan.dir/unit/test_watch_plan.c.o"
  "CMakeFiles/test_watch_plan.dir/unit/test_watch_plan.c.o.d"
  "test_watch_plan"
  "test_watch_plan.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_watch_plan.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
