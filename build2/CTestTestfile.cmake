# CMake generated Testfile for 
# Source directory: /work/main
# Build directory: /work/main/build2
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("common")
subdirs("cli")
subdirs("collectd-plugin")
subdirs("snmp-subagent")
subdirs("tests")
subdirs("man")
subdirs("packaging")
