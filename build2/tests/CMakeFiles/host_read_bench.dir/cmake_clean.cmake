file(REMOVE_RECURSE
  "CMakeFiles/host_read_bench.dir/perf/host_read_bench.c.o"
  "CMakeFiles/host_read_bench.dir/perf/host_read_bench.c.o.d"
  "host_read_bench"
  "host_read_bench.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/host_read_bench.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
