file(REMOVE_RECURSE
  "CMakeFiles/test_mad_queue.dir/fakes/fake_umad.c.o"
  "CMakeFiles/test_mad_queue.dir/fakes/fake_umad.c.o.d"
  "CMakeFiles/test_mad_queue.dir/unit/test_mad_queue.c.o"
  "CMakeFiles/test_mad_queue.dir/unit/test_mad_queue.c.o.d"
  "test_mad_queue"
  "test_mad_queue.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_mad_queue.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
