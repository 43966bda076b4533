file(REMOVE_RECURSE
  "CMakeFiles/test_array.dir/unit/test_array.c.o"
  "CMakeFiles/test_array.dir/unit/test_array.c.o.d"
  "test_array"
  "test_array.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_array.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
