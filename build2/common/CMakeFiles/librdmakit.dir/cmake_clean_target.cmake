file(REMOVE_RECURSE
  "librdmakit.a"
)
