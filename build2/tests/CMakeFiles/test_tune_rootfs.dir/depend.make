# Empty dependencies file for test_tune_rootfs.
# This may be replaced when dependencies are built.
