file(REMOVE_RECURSE
  "CMakeFiles/man"
  "rdmakit-agentx.8"
  "rdmakit-collectd.5"
  "rdmakit.1"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/man.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
