
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/cli/fabric_dot.c" "tests/CMakeFiles/test_fabric_dot.dir/__/cli/fabric_dot.c.o" "gcc" "tests/CMakeFiles/test_fabric_dot.dir/__/cli/fabric_dot.c.o.d"
  "/work/main/tests/unit/test_fabric_dot.c" "tests/CMakeFiles/test_fabric_dot.dir/unit/test_fabric_dot.c.o" "gcc" "tests/CMakeFiles/test_fabric_dot.dir/unit/test_fabric_dot.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build2/common/CMakeFiles/librdmakit.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
