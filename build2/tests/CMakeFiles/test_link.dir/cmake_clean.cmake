file(REMOVE_RECURSE
  "CMakeFiles/test_link.dir/unit/test_link.c.o"
  "CMakeFiles/test_link.dir/unit/test_link.c.o.d"
  "test_link"
  "test_link.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_link.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
