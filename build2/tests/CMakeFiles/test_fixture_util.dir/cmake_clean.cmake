file(REMOVE_RECURSE
  "CMakeFiles/test_fixture_util.dir/lib/tree_util.c.o"
  "CMakeFiles/test_fixture_util.dir/lib/tree_util.c.o.d"
  "CMakeFiles/test_fixture_util.dir/unit/fixture_util.c.o"
  "CMakeFiles/test_fixture_util.dir/unit/fixture_util.c.o.d"
  "libtest_fixture_util.a"
  "libtest_fixture_util.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_fixture_util.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
