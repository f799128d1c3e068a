#!/usr/bin/env bash
# kmol rdf --blocks on an SPC water run made here with Debian's gmx: every output carries the
# standard errors of g(r) and n(r), finite and positive where pairs were counted, equal to the
# standard error of the mean of the per-block g(r) and n(r) the HDF5 file holds (numpy), and
# the blocks' counts add up to the whole run's; --gmx writes its error column; auto states the
# block blocking analysis chose.
set -uo pipefail
kmol=$1
source "$(dirname "$0")/scratch.sh"
source "$(dirname "$0")/gromacs_water.sh"
cd "$dir"
make_water water 2.3 420 10  # 43 frames: 5 blocks of 8, 3 left over

"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 9 --bins 90 --blocks 5 \
    --out ow.xvg --csv ow.csv --h5 ow.h5 --quiet || fail "rdf --blocks 5"
grep -q "^# blocks: 5 of 8 frames; errors: the standard error of the mean of the blocks" ow.xvg ||
  fail "the xvg does not state the blocks: $(grep '^# blocks' ow.xvg)"
/usr/bin/python3 - <<'PY' || fail "--blocks: the standard errors are not those of the blocks"
import h5py, numpy as np
r = h5py.File("ow.h5")["rdf"]
g, n, se_g, se_n = r["g"][:], r["n"][:], r["g_std_error"][:], r["n_std_error"][:]
block_g, block_n = r["block_g"][:], r["block_n"][:]
assert block_g.shape == (5, 90) and np.ravel(r.attrs["block_frames"])[0] == 8, block_g.shape
assert list(r["block_first_frame"][:]) == [0, 8, 16, 24, 32]
# An independent computation: the standard error of the mean of 5 blocks, per bin.
expected_g = block_g.std(axis=0, ddof=1) / np.sqrt(5)
expected_n = block_n.std(axis=0, ddof=1) / np.sqrt(5)
np.testing.assert_allclose(se_g, expected_g, rtol=1e-12, atol=0)
np.testing.assert_allclose(se_n, expected_n, rtol=1e-12, atol=0)
counted = r["counts"][:] > 0
assert counted.sum() > 50 and np.all(np.isfinite(se_g)) and np.all(np.isfinite(se_n))
assert np.all(se_g[counted] > 0), se_g[counted].min()
assert np.all(se_n[np.cumsum(r["counts"][:]) > 0] > 0)
# The blocks are the run's frames 0-39: their mean g is the g of those frames, near the whole's.
assert np.abs(block_g.mean(axis=0) - g)[counted].max() < 0.25
# Errors of a 43-frame water g(r) at its first peak: a few percent, not zero and not the peak.
peak = np.argmax(g)
assert 0.001 < se_g[peak] / g[peak] < 0.2, (g[peak], se_g[peak])
csv = np.genfromtxt([l for l in open("ow.csv") if l[0] != "#"], delimiter=",", names=True)
np.testing.assert_allclose(csv["g_std_error"], se_g, rtol=1e-9)
np.testing.assert_allclose(csv["n_std_error"], se_n, rtol=1e-9)
xvg = np.loadtxt([l for l in open("ow.xvg") if l[0] not in "#@"])
assert xvg.shape == (90, 5)
np.testing.assert_allclose(xvg[:, 3], se_g, rtol=1e-7, atol=1e-12)
np.testing.assert_allclose(xvg[:, 4], se_n, rtol=1e-7, atol=1e-12)
PY

# --gmx: gmx rdf's two columns and the standard error as a third.
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 0.9nm --bins 90 --gmx \
    --blocks 4 --out gmx.xvg --quiet || fail "rdf --gmx --blocks 4"
grep -q '@ s1 legend "standard error"' gmx.xvg || fail "--gmx: no standard error legend"
awk '!/^[#@]/ { n++; if (NF != 3 || $3 < 0) exit 1; if ($2 > 0.5 && !($3 > 0)) exit 1 } END { if (n != 90) exit 1 }' gmx.xvg ||
  fail "--gmx --blocks: no positive third column"

# auto: blocking analysis over single frames states the block it chose.
"$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 9 --bins 90 --blocks auto \
    --h5 auto.h5 --out auto.xvg --quiet || fail "rdf --blocks auto"
grep -q "^# blocks: 43 of 1 frames; errors: blocking analysis chose [0-9]* of them a block" auto.xvg ||
  fail "auto does not state its block: $(grep '^# blocks' auto.xvg)"
/usr/bin/python3 - <<'PY' || fail "--blocks auto: errors not finite and positive"
import h5py, numpy as np
r = h5py.File("auto.h5")["rdf"]
counted = r["counts"][:] > 0
assert r["block_g"].shape == (43, 90)
assert np.all(r["g_std_error"][:][counted] > 0) and np.all(np.isfinite(r["g_std_error"][:]))
PY
# The plot draws the band from the CSV's error columns.
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  "$kmol" rdf water/md.xtc --top water/topol.tpr --sel1 'name OW' --rmax 9 --bins 90 --blocks 3 \
      --plot band.png --out band.xvg --quiet || fail "rdf --blocks --plot"
  [[ $(head -c 8 band.png | od -An -tx1 | tr -d ' ') == 89504e470d0a1a0a ]] || fail "--plot: no PNG"
fi
echo "rdf --blocks: ok"
