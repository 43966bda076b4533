file(REMOVE_RECURSE
  "CMakeFiles/test_sysfs.dir/unit/test_sysfs.c.o"
  "CMakeFiles/test_sysfs.dir/unit/test_sysfs.c.o.d"
  "test_sysfs"
  "test_sysfs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sysfs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
