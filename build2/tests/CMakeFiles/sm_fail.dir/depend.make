# Empty dependencies file for sm_fail.
# This may be replaced when dependencies are built.
