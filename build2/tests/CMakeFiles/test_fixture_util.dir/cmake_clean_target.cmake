file(REMOVE_RECURSE
  "libtest_fixture_util.a"
)
