# Empty dependencies file for rdmakit_discover.
# This may be replaced when dependencies are built.
