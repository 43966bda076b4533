file(REMOVE_RECURSE
  "CMakeFiles/mad_probe.dir/sim/mad_probe.c.o"
  "CMakeFiles/mad_probe.dir/sim/mad_probe.c.o.d"
  "mad_probe"
  "mad_probe.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/mad_probe.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
