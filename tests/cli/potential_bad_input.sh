#!/usr/bin/env bash
# kmol potential refuses bad input with a message naming the file, line and field (or the
# option), a nonzero exit, and no output file.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
out=$dir/out.dx
printf 'ATOM 1 N ALA 1 0 0 0 1 1.5\nATOM 2 C ALA 1 1 0 0 -1 1.5\n' > "$dir/good.pqr"
printf 'REMARK\nATOM 1 N ALA 1 0 0 0 1 1.5\nATOM 2 C ALA 1 1 0 0 0.5x 1.5\n' > "$dir/charge.pqr"
printf 'ATOM 1 N ALA 1 0 0 0 1\n' > "$dir/short.pqr"
printf 'REMARK only\nEND\n' > "$dir/empty.pqr"
expect_error "charge.pqr: charge: \[3\] line 3: expected a charge in e, found '0.5x'" potential "$dir/charge.pqr"
expect_error "short.pqr: record: \[1\] line 1: expected 'ATOM serial" potential "$dir/short.pqr"
expect_error "empty.pqr: atoms: no ATOM or HETATM records" potential "$dir/empty.pqr"
expect_error "\-\-spacing: must be positive" potential "$dir/good.pqr" --spacing 0
expect_error "\-\-spacing: must be positive" potential "$dir/good.pqr" --spacing -0.5
expect_error "not enough .* change --counts, or add --force" \
  potential "$dir/good.pqr" --origin 0 0 0 --counts 100001 100001 100001
expect_error "\-\-cutoff: must be positive" potential "$dir/good.pqr" --method cutoff --cutoff 0
expect_error "\-\-cutoff: must be positive" potential "$dir/good.pqr" --method cutoff --cutoff -3
expect_error "\-\-ionic-strength: must not be negative" potential "$dir/good.pqr" --method mdh --ionic-strength -0.1
expect_error "\-\-faces-only: applies only with --method mdh" potential "$dir/good.pqr" --faces-only
expect_error "unknown units 'mV'" potential "$dir/good.pqr" --units mV
PYTHONPATH="$(dirname "$0")" /usr/bin/python3 - "$dir/nocharge.h5md" <<'PY' || fail "writing the H5MD input"
import sys
from h5md_file import write_unboxed
write_unboxed(sys.argv[1], [[[0, 0, 0], [0, 0, 0]]])
PY
expect_error "nocharge.h5md: charge: the particle group has no charge dataset" potential "$dir/nocharge.h5md"
expect_error "input: give a structure .* or --example water" potential
expect_error "input: cannot be combined with --example" potential "$dir/good.pqr" --example water
expect_error "\-\-atoms: applies only with --example water" potential "$dir/good.pqr" --atoms 30
expect_error "\-\-frames: applies only with an input file" potential --example water --frame 1
echo "bad input refused cleanly"
