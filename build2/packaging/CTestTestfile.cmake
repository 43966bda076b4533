# CMake generated Testfile for 
# Source directory: /work/main/packaging
# Build directory: /work/main/build2/packaging
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
