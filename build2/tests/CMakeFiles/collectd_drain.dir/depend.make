# Empty dependencies file for collectd_drain.
# This may be replaced when dependencies are built.
