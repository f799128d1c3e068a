#!/usr/bin/env bash
# Bad input: a clear message naming the problem, a nonzero exit and no output file.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/refusal.sh"
out=$dir/out.csv
printf '2\ncomment\nAr 0 0 0\nAr 1 1 nan\n' > "$dir/nan.xyz"
printf '3\ncomment\nAr 0 0 0\nAr 1 1 1\n' > "$dir/short.xyz"
printf '2\ncomment\nAr 0 0 0\nAr 1 1 x\n' > "$dir/garbled.xyz"
printf '2\ncomment\nAr 0 0 0\nAr 1 1 1\n' > "$dir/good.xyz"
expect_error "nan.xyz: atom line: \[4\] atom 1 has a non-finite coordinate" histogram --xyz "$dir/nan.xyz" --rmax 2
expect_error "short.xyz: atoms: \[5\] file ends after 2 of 3 atoms" histogram --xyz "$dir/short.xyz" --rmax 2
expect_error "garbled.xyz: atom line: \[4\]" histogram --xyz "$dir/garbled.xyz" --rmax 2
expect_error "--rmax: required when there is no periodic box" histogram --xyz "$dir/good.xyz"
expect_error "unknown pair-histogram implementation 'fast'" histogram --impl fast
expect_error "number of bins must be between 1 and" histogram --bins 0
echo "bad input refused cleanly"
