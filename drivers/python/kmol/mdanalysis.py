"""MDAnalysis' InterRDF and InterRDF_s with kmol counting the pairs.

Drop-in replacements: the constructor arguments of MDAnalysis 2.4 (and newer releases'
``exclude_same``), ``.run(start, stop, step, frames, verbose)``, and ``results.bins``,
``results.edges``, ``results.count``, ``results.rdf`` (``results.cdf`` / ``get_cdf()`` for
InterRDF_s) with MDAnalysis' shapes and meaning. MDAnalysis reads the trajectory (any format it
knows); kmol counts the pairs, on the GPU when the CUDA build runs on one. A thread reads the
next frames while kmol counts the current one.

    from kmol.mdanalysis import InterRDF
    rdf = InterRDF(u.select_atoms("name OW"), u.select_atoms("name OW"), nbins=200,
                   range=(0.0, 12.0), exclusion_block=(1, 1)).run()

Extra keywords, after MDAnalysis' own: ``device`` ('auto', 'cpu', 'gpu'), ``impl`` (as
``kmol histogram --impl``) and ``precision``: 'double' (default) gives MDAnalysis' counts except
for pairs whose distance lies within rounding (a few 1e-15 relative) of a bin edge or of the
range's end, which MDAnalysis closes and kmol opens; 'single' is faster on GPUs.
"""
import queue
import threading
import warnings

import numpy as np
from MDAnalysis.analysis.base import AnalysisBase
from MDAnalysis.lib.log import ProgressBar
from MDAnalysis.lib.mdamath import triclinic_vectors

from . import _kmol

_NORMS = ("rdf", "density", "none")
# exclude_same: the AtomGroup attribute that says which residue, segment or chain an atom is in.
_SAME = {"residue": "resindices", "segment": "segindices", "chain": "chainIDs"}


def _check_norm(norm):
    norm = str(norm).lower()
    if norm not in _NORMS:
        raise ValueError(f"'{norm}' is an invalid norm. Use 'rdf', 'density' or 'none'.")
    return norm


def _box(dimensions):
    """kmol's box for MDAnalysis' dimensions: lengths, the edge vectors MDAnalysis itself uses,
    or None without a box."""
    if dimensions is None or not np.all(dimensions[:3] > 0):
        return None
    if np.all(dimensions[3:] == 90):
        return np.asarray(dimensions[:3], dtype=np.float64)
    return np.asarray(triclinic_vectors(dimensions), dtype=np.float64)


def _histogram(*args, **kwargs):
    """kmol.pair_histogram of one frame or block, which may hold no pair in range (MDAnalysis
    counts those as zeros); the whole run's counts are checked once, in _warn_if_empty."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _kmol.EmptyResultWarning)
        return _kmol.pair_histogram(*args, allow_empty=True, **kwargs)


def _warn_if_empty(counts, r_min, r_max, frames):
    """MDAnalysis returns an empty result as zeros; kmol says so."""
    if not np.any(counts):
        warnings.warn(f"no pair within [{r_min}, {r_max}) Angstrom in {frames} frames: every "
                      "count is 0; check the range's unit (Angstrom)", _kmol.EmptyResultWarning,
                      stacklevel=3)


def _zeroed(size):
    """A zeroed float64 array on transparent huge pages: np.zeros maps 4 KB pages at their first
    touch, a page fault each (465,000 for InterRDF_s' 1.9 GB of OW x HW counts), where numpy's
    own allocation asks for 2 MB pages."""
    out = np.empty(size, dtype=np.float64)
    out.fill(0)
    return out


def _any_nonzero(array, chunk=1 << 20):
    """np.any that stops at the first chunk holding a nonzero value (a result's first chunk
    usually does), instead of reading every count."""
    flat = array.reshape(-1)
    return any(flat[i:i + chunk].any() for i in range(0, flat.size, chunk))


def _shell_volumes(edges):
    return 4 / 3 * np.pi * np.diff(np.power(edges, 3))


def _read_ahead(trajectory, snapshot, depth=2):
    """Yields (frame, time, snapshot(ts)) for every timestep of `trajectory`, read by a thread
    up to `depth` frames ahead: MDAnalysis reads the next frames while kmol (which releases the
    GIL) counts this one. Kokkos runs kernels from the thread that started it, so the counting
    stays on the caller's thread and the reading moves."""
    frames = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def read():
        try:
            for ts in trajectory:
                item = (ts.frame, ts.time, snapshot(ts))
                while not stop.is_set():
                    try:
                        frames.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        pass
                if stop.is_set():
                    return
            frames.put(None)
        except BaseException as error:  # handed to the caller's thread
            frames.put(error)

    reader = threading.Thread(target=read, name="kmol-frame-reader", daemon=True)
    reader.start()
    try:
        while True:
            item = frames.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        reader.join()


class _ReadAhead(AnalysisBase):
    """AnalysisBase whose run() reads frames on a thread while the caller's thread counts.
    Subclasses define _snapshot(ts) (copies of what a frame needs) and _count(snapshot)."""

    def _single_frame(self):
        self._count(self._snapshot(self._ts))

    def run(self, start=None, stop=None, step=None, frames=None, verbose=None):
        """As MDAnalysis' AnalysisBase.run: start, stop, step or frames select the frames."""
        verbose = getattr(self, "_verbose", False) if verbose is None else verbose
        self._setup_frames(self._trajectory, start=start, stop=stop, step=step, frames=frames)
        self._prepare()
        read = _read_ahead(self._sliced_trajectory, self._snapshot)
        for i, (frame, time, snapshot) in enumerate(
                ProgressBar(read, total=self.n_frames, verbose=verbose)):
            self._frame_index = i
            self.frames[i] = frame
            self.times[i] = time
            self._count(snapshot)
        self._conclude()
        return self


class InterRDF(_ReadAhead):
    """Radial distribution function between two AtomGroups (MDAnalysis' InterRDF).

    g1, g2: AtomGroups; every pair (i of g1, j of g2) counts, as in MDAnalysis (an atom in both
    groups is paired with itself at distance 0). nbins, range: bins of (r_min, r_max) in Angstrom.
    norm: 'rdf' (g(r)), 'density' (number density, 1/Angstrom^3) or 'none' (counts per frame).
    exclusion_block (nA, nB): skip pairs within the same block of nA atoms of g1 and nB of g2.
    exclude_same: 'residue', 'segment' or 'chain': skip pairs within one of them.
    """

    def __init__(self, g1, g2, nbins=75, range=(0.0, 15.0), norm="rdf", exclusion_block=None,
                 exclude_same=None, *, device="auto", impl="auto", precision="double", **kwargs):
        super().__init__(g1.universe.trajectory, **kwargs)
        self.g1, self.g2 = g1, g2
        self.norm = _check_norm(norm)
        self.rdf_settings = {"bins": nbins, "range": range}
        self._exclusion_block = exclusion_block
        if exclude_same is not None and exclude_same not in _SAME:
            raise ValueError("The exclude_same argument to InterRDF must be None, 'residue', "
                             "'segment' or 'chain'.")
        if exclude_same is not None and exclusion_block is not None:
            raise ValueError("The exclude_same argument to InterRDF cannot be used with "
                             "exclusion_block.")
        self._exclude_same = exclude_same
        self._kmol = {"device": device, "impl": impl, "precision": precision}
        self._r_min, self._r_max = float(range[0]), float(range[1])
        self._bins = int(nbins)
        _histogram(np.zeros((1, 3)), r_max=self._r_max, r_min=self._r_min, bins=self._bins,
                   **self._kmol)  # bad settings fail here

    def _labels(self):
        """Exclusion labels for g1 and g2 (None: no exclusions)."""
        if self._exclusion_block is not None:
            x_a, x_b = self._exclusion_block
            return (np.arange(len(self.g1), dtype=np.int32) // x_a,
                    np.arange(len(self.g2), dtype=np.int32) // x_b)
        if self._exclude_same is not None:
            attribute = _SAME[self._exclude_same]
            a, b = getattr(self.g1, attribute), getattr(self.g2, attribute)
            # One integer per distinct value over both groups (chain IDs are strings).
            _, labels = np.unique(np.concatenate([a, b]), return_inverse=True)
            labels = labels.astype(np.int32)
            return labels[:len(a)], labels[len(a):]
        return None, None

    def _prepare(self):
        count, edges = np.histogram([-1], **self.rdf_settings)
        self.results.count = np.zeros(len(count), dtype=np.float64)
        self.results.edges = edges
        self.results.bins = 0.5 * (edges[:-1] + edges[1:])
        if self.norm == "rdf":
            self.volume_cum = 0
        self._maxrange = self.rdf_settings["range"][1]
        label_a, label_b = self._labels()
        # The same atoms in both groups: count each unordered pair once and double it, adding
        # every atom paired with itself (distance 0) unless the labels exclude those pairs.
        self._one_set = (len(self.g1) == len(self.g2)
                         and np.array_equal(self.g1.indices, self.g2.indices)
                         and (label_a is None or np.array_equal(label_a, label_b)))
        self._label_a, self._label_b = label_a, label_b
        self._self_pairs = 0
        if self._one_set and label_a is None and self._r_min <= 0:
            self._self_pairs = len(self.g1)
        self._totals = np.zeros(self._bins, dtype=np.uint64)

    def _snapshot(self, ts):
        return (self.g1.positions.copy(), None if self._one_set else self.g2.positions.copy(),
                _box(ts.dimensions), ts.volume)

    def _count(self, snapshot):
        a, b, box, volume = snapshot
        if self.norm == "rdf":
            self.volume_cum += volume
        if self._one_set:
            h = _histogram(a, box=box, r_max=self._r_max, r_min=self._r_min, bins=self._bins,
                           molecules=self._label_a, **self._kmol)
            counts = 2 * h.counts
            counts[0] += np.uint64(self._self_pairs)
        else:
            h = _histogram(a, b, box=box, r_max=self._r_max, r_min=self._r_min, bins=self._bins,
                           molecules=self._label_a, molecules_b=self._label_b, **self._kmol)
            counts = h.counts
        self._totals += counts
        self.impl = h.impl

    def _conclude(self):
        _warn_if_empty(self._totals, self._r_min, self._r_max, self.n_frames)
        self.results.count = self._totals.astype(np.float64)
        norm = self.n_frames
        if self.norm in ("rdf", "density"):
            norm *= _shell_volumes(self.results.edges)
        if self.norm == "rdf":
            n_a, n_b = len(self.g1), len(self.g2)
            pairs = n_a * n_b
            if self._exclusion_block:
                x_a, x_b = self._exclusion_block
                pairs -= x_a * x_b * (n_a / x_a)
            norm *= pairs / (self.volume_cum / self.n_frames)
        self.results.rdf = self.results.count / norm


class InterRDF_s(_ReadAhead):
    """Site-specific radial distribution functions (MDAnalysis' InterRDF_s).

    ags: a list of pairs of AtomGroups [[A1, B1], [A2, B2], ...]; for each pair, results.count[k]
    has shape (len(A), len(B), nbins): the histogram of every atom pair. nbins, range (Angstrom),
    norm ('rdf', 'density', 'none') and density (deprecated: norm='density') as in MDAnalysis.
    Each frame's positions of the groups' atoms (their union, read once) are counted in one pass
    over every requested pair of every group pair (kmol.SiteHistograms). A frame whose box is
    narrower than twice range[1] is counted with kmol.pair_histogram instead, every image within
    range[1] included (as InterRDF here; MDAnalysis counts one image per pair).
    """

    # Largest (A block + B block) per kmol.pair_histogram call: the partial histograms of one call
    # hold S (S + 1) / 2 species pairs of nbins counts each.
    _block = 256

    def __init__(self, u, ags, nbins=75, range=(0.0, 15.0), norm="rdf", density=False, *,
                 device="auto", impl="auto", precision="double", **kwargs):
        super().__init__(ags[0][0].universe.trajectory, **kwargs)
        warnings.warn("The `u` attribute is superflous and will be removed in MDAnalysis 3.0.0.",
                      DeprecationWarning)
        self.ags = ags
        self.norm = _check_norm(norm)
        self.rdf_settings = {"bins": nbins, "range": range}
        if density:
            warnings.warn("The `density` attribute was deprecated in MDAnalysis 2.3.0 and will be "
                          "removed in MDAnalysis 3.0.0. Please use `norm=density` instead.",
                          DeprecationWarning)
            self.norm = "density"
        self._kmol = {"device": device, "impl": impl, "precision": precision}
        self._r_min, self._r_max = float(range[0]), float(range[1])
        self._bins = int(nbins)
        _histogram(np.zeros((1, 3)), r_max=self._r_max, r_min=self._r_min, bins=self._bins,
                   **self._kmol)

    def _prepare(self):
        count, edges = np.histogram([-1], **self.rdf_settings)
        self.results.edges = edges
        self.results.bins = 0.5 * (edges[:-1] + edges[1:])
        if self.norm == "rdf":
            self.volume_cum = 0
        self._maxrange = self.rdf_settings["range"][1]
        # The union of every group's atoms, read once per frame; each group as indices into it.
        self._union = np.unique(np.concatenate([np.concatenate([ag1.indices, ag2.indices])
                                                for ag1, ag2 in self.ags]))
        self._atoms = self.ags[0][0].universe.atoms[self._union]
        requests = [(np.searchsorted(self._union, ag1.indices),
                     np.searchsorted(self._union, ag2.indices)) for ag1, ag2 in self.ags]
        self._requests = requests
        self._image_counts = None  # frames counted with every image, added at the end
        # One array holds every count, request after request; results.count[k] are views of it.
        sizes = [ag1.n_atoms * ag2.n_atoms * self._bins for ag1, ag2 in self.ags]
        self._counts = _zeroed(sum(sizes))
        self.results.count = []
        start = 0
        for (ag1, ag2), size in zip(self.ags, sizes):
            self.results.count.append(self._counts[start:start + size].reshape(
                ag1.n_atoms, ag2.n_atoms, self._bins))
            start += size
        self._sites = _kmol.SiteHistograms(requests, len(self._union), self._r_min, self._r_max,
                                           self._bins, self._counts,
                                           device=self._kmol["device"],
                                           precision=self._kmol["precision"])

    def _snapshot(self, ts):
        return self._atoms.positions.copy(), _box(ts.dimensions), ts.volume

    def _site_counts(self, target, a, b, box):
        """Adds the per-pair histograms of a x b, every image, into target (len(a), len(b),
        nbins): a and b go into one set, one species per atom, with only the (a, b) species pairs
        switched on."""
        half = self._block // 2
        for i0 in np.arange(0, len(a), half):
            for j0 in np.arange(0, len(b), half):
                block_a, block_b = a[i0:i0 + half], b[j0:j0 + half]
                n_a, n_b = len(block_a), len(block_b)
                species_count = n_a + n_b
                s = np.arange(n_a)[:, None]
                t = n_a + np.arange(n_b)[None, :]
                index = s * (2 * species_count - s - 1) // 2 + t  # species_pair_index(s, t)
                mask = np.zeros(species_count * (species_count + 1) // 2, dtype=np.uint8)
                mask[index.ravel()] = 1
                h = _histogram(np.concatenate([block_a, block_b]), box=box, r_max=self._r_max,
                               r_min=self._r_min, bins=self._bins,
                               species=np.arange(species_count, dtype=np.int32),
                               species_pairs=mask, **self._kmol)
                target[i0:i0 + n_a, j0:j0 + n_b] += h.counts[index]

    def _count_every_image(self, positions, box):
        if self._image_counts is None:
            self._image_counts = [np.zeros_like(c) for c in self.results.count]
        for target, (a, b) in zip(self._image_counts, self._requests):
            self._site_counts(target, positions[a], positions[b], box)

    def _count(self, snapshot):
        positions, box, volume = snapshot
        try:
            self._sites.add_frame(positions, box)
        except _kmol.UnsupportedError:  # refused before counting: range[1] beyond the box's limit
            self._count_every_image(positions, box)
        if self.norm == "rdf":
            self.volume_cum += volume

    def _conclude(self):
        self._sites.finish()
        for count, images in zip(self.results.count, self._image_counts or []):
            count += images
        _warn_if_empty([_any_nonzero(c) for c in self.results.count], self._r_min, self._r_max,
                       self.n_frames)
        norm = self.n_frames
        if self.norm in ("rdf", "density"):
            norm *= _shell_volumes(self.results.edges)
        if self.norm == "rdf":
            norm *= 1 / (self.volume_cum / self.n_frames)
        self.results.indices = []
        self.results.rdf = []
        for k, (ag1, ag2) in enumerate(self.ags):
            self.results.indices.append([ag1.indices, ag2.indices])
            self.results.rdf.append(self.results.count[k] / norm)

    def get_cdf(self):
        """Cumulative counts of every site pair per frame: results.cdf, also returned."""
        self.results.cdf = [np.cumsum(count, axis=2) / self.n_frames
                            for count in self.results.count]
        return self.results.cdf
