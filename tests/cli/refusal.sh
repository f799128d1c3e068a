# Sourced by the bad-input tests. fail MESSAGE stops the test; expect_refusal PATTERN COMMAND...
# runs the command and fails unless it exits nonzero with PATTERN in what it printed.
fail() { echo "FAIL: $*"; exit 1; }
expect_refusal() {
  local pattern=$1; shift
  local message
  if message=$("$@" 2>&1); then fail "accepted: $*"; fi
  grep -q -- "$pattern" <<<"$message" || fail "'$*' said '$message', expected '$pattern'"
}
