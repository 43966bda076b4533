# CMake generated Testfile for 
# Source directory: /work/main/man
# Build directory: /work/main/build2/man
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
