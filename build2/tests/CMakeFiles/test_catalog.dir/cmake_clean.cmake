file(REMOVE_RECURSE
  "CMakeFiles/test_catalog.dir/unit/test_catalog.c.o"
  "CMakeFiles/test_catalog.dir/unit/test_catalog.c.o.d"
  "test_catalog"
  "test_catalog.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_catalog.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
