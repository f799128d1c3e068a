# Sourced by the CLI tests: `dir`, a fresh directory removed when the test exits, and
# fail MESSAGE, which stops the test.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
