# Sourced by the bad-input tests after scratch.sh: expect_refusal PATTERN COMMAND... runs the
# command and fails unless it exits nonzero with PATTERN in what it printed.
expect_refusal() {
  local pattern=$1; shift
  local message
  if message=$("$@" 2>&1); then fail "accepted: $*"; fi
  grep -q -- "$pattern" <<<"$message" || fail "'$*' said '$message', expected '$pattern'"
}
