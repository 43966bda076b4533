# Empty dependencies file for lft_set.
# This may be replaced when dependencies are built.
