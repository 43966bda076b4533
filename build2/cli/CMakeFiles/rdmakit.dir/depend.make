# Empty dependencies file for rdmakit.
# This may be replaced when dependencies are built.
