file(REMOVE_RECURSE
  "CMakeFiles/plan_bench.dir/perf/plan_bench.c.o"
  "CMakeFiles/plan_bench.dir/perf/plan_bench.c.o.d"
  "plan_bench"
  "plan_bench.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/plan_bench.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
