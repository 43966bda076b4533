file(REMOVE_RECURSE
  "CMakeFiles/test_link_history.dir/unit/test_link_history.c.o"
  "CMakeFiles/test_link_history.dir/unit/test_link_history.c.o.d"
  "test_link_history"
  "test_link_history.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_link_history.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
