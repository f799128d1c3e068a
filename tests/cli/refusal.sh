# Sourced by the bad-input tests, with scratch.sh (dir, fail): expect_refusal PATTERN COMMAND...
# runs the command and fails unless it exits nonzero with PATTERN in what it printed.
source "$(dirname "${BASH_SOURCE[0]}")/scratch.sh"
expect_refusal() {
  local pattern=$1; shift
  local message
  if message=$("$@" 2>&1); then fail "accepted: $*"; fi
  grep -q -- "$pattern" <<<"$message" || fail "'$*' said '$message', expected '$pattern'"
}
# expect_error PATTERN ARGS...: `$kmol ARGS... --out $out` is refused so, and leaves neither $out
# nor its temporary behind (the test sets kmol and out).
expect_error() {
  expect_refusal "$1" "$kmol" "${@:2}" --out "$out"
  [[ ! -e $out && ! -e $out.tmp ]] || fail "'$*' left an output file"
}
