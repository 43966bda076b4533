file(REMOVE_RECURSE
  "CMakeFiles/test_fabric.dir/unit/test_fabric.c.o"
  "CMakeFiles/test_fabric.dir/unit/test_fabric.c.o.d"
  "test_fabric"
  "test_fabric.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fabric.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
