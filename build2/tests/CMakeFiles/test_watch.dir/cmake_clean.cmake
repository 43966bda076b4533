file(REMOVE_RECURSE
  "CMakeFiles/test_watch.dir/unit/test_watch.c.o"
  "CMakeFiles/test_watch.dir/unit/test_watch.c.o.d"
  "test_watch"
  "test_watch.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_watch.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
