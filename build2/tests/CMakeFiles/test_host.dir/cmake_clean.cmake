file(REMOVE_RECURSE
  "CMakeFiles/test_host.dir/unit/test_host.c.o"
  "CMakeFiles/test_host.dir/unit/test_host.c.o.d"
  "test_host"
  "test_host.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_host.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
