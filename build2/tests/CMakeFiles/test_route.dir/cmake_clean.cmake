file(REMOVE_RECURSE
  "CMakeFiles/test_route.dir/unit/test_route.c.o"
  "CMakeFiles/test_route.dir/unit/test_route.c.o.d"
  "test_route"
  "test_route.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_route.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
