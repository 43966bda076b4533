# Empty dependencies file for librdmakit.
# This may be replaced when dependencies are built.
