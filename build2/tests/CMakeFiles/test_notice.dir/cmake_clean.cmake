file(REMOVE_RECURSE
  "CMakeFiles/test_notice.dir/fakes/fake_umad.c.o"
  "CMakeFiles/test_notice.dir/fakes/fake_umad.c.o.d"
  "CMakeFiles/test_notice.dir/unit/test_notice.c.o"
  "CMakeFiles/test_notice.dir/unit/test_notice.c.o.d"
  "test_notice"
  "test_notice.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_notice.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
