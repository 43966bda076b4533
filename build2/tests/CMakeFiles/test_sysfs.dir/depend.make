# Empty dependencies file for test_sysfs.
# This may be replaced when dependencies are built.
