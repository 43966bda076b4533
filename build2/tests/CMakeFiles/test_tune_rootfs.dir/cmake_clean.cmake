file(REMOVE_RECURSE
  "CMakeFiles/test_tune_rootfs.dir/unit/test_tune_rootfs.c.o"
  "CMakeFiles/test_tune_rootfs.dir/unit/test_tune_rootfs.c.o.d"
  "test_tune_rootfs"
  "test_tune_rootfs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_tune_rootfs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
