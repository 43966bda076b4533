# Empty dependencies file for collectd_rdmakit.
# This may be replaced when dependencies are built.
