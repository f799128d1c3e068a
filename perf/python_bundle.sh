#!/usr/bin/env bash
# python_bundle.sh OUT_DIR MODULE_DIR IMPORTS [IMPORT_DIR]
#
# Packs Debian's /usr/bin/python3 with the standard-library and dist-packages files that
# `import IMPORTS` loads (as found by running it here with IMPORT_DIR, default MODULE_DIR, on the
# path: a CUDA build's module does not start without a GPU, so give the OpenMP build's), every
# shared library they need, and the kmol package in MODULE_DIR, for a machine without Debian's
# Python (the GPU machines: Ubuntu, Python 3.12, no MDAnalysis). OUT_DIR/python runs it:
#   perf/python_bundle.sh /tmp/pyb build/cuda/python MDAnalysis.analysis.rdf,kmol.mdanalysis \
#       build/openmp/python
#   /tmp/pyb/python perf/interrdf_bench.py --device gpu ...      (there)
# With pytest among IMPORTS, OUT_DIR/python -m pytest runs the Python tests there.
set -euo pipefail
out=$1 module=$2 imports=$3 import_dir=${4:-$2}
rm -rf "$out"
mkdir -p "$out/usr/bin" "$out/lib"
files=$(PYTHONPATH=$import_dir /usr/bin/python3 -W ignore -c "
import sys, importlib
for name in '$imports'.split(','):
    importlib.import_module(name)
import encodings.idna, encodings.cp437, json, argparse, platform, queue, threading
for m in list(sys.modules.values()):
    f = getattr(m, '__file__', None)
    if f and f.startswith('/usr/lib/'):
        print(f)
")
cp -L /usr/bin/python3 "$out/usr/bin/python3"
# Every package directory a loaded module lives in comes whole when small (data files, lazily
# imported helpers); scipy comes as the files loaded (it is larger than the rest together).
for f in $files; do
  rel=${f#/}
  mkdir -p "$out/$(dirname "$rel")"
  cp -L "$f" "$out/$rel"
done
for d in MDAnalysis numpy tqdm joblib threadpoolctl gridData mmtf msgpack; do
  [[ -d /usr/lib/python3/dist-packages/$d ]] && cp -rL "/usr/lib/python3/dist-packages/$d" \
    "$out/usr/lib/python3/dist-packages/"
done
# pytest imports its plugins and the standard library they need only as it runs: its packages
# and the whole standard library come with it.
if [[ ,$imports, == *,pytest,* ]]; then
  for d in pytest _pytest pluggy iniconfig hypothesis; do
    [[ -d /usr/lib/python3/dist-packages/$d ]] && cp -rL "/usr/lib/python3/dist-packages/$d" \
      "$out/usr/lib/python3/dist-packages/"
  done
  (cd /usr/lib && tar cf - --exclude=__pycache__ --exclude=python3.11/test --exclude=python3.11/idlelib \
     --exclude=python3.11/tkinter --exclude=python3.11/lib2to3 --exclude=python3.11/ensurepip --exclude='python3.11/config-*' python3.11) |
    tar xf - -C "$out/usr/lib"
fi
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cp -L /usr/lib/python3.11/os.py /usr/lib/python3.11/site.py /usr/lib/python3.11/sysconfig.py \
  /usr/lib/python3.11/_sysconfigdata__linux_x86_64-linux-gnu.py "$out/usr/lib/python3.11/"
cp -rL "$module/kmol" "$out/kmol-package"
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libgomp\.so|libcuda\.so|libnvidia)'
for so in "$out/usr/bin/python3" $(find "$out" -name '*.so*'); do
  ldd "$so" 2>/dev/null | awk '/=>/ {print $1, $3}' | while read -r name path; do
    [[ $name =~ $skip || $path == not || -z $path || -e $out/lib/$name ]] && continue
    [[ $path == "$out"* ]] && continue
    cp -L "$path" "$out/lib/$name"
  done
done
cat > "$out/python" <<'RUN'
#!/usr/bin/env bash
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PYTHONHOME="$here/usr"
export PYTHONPATH="$here/kmol-package/..${PYTHONPATH:+:$PYTHONPATH}" PYTHONNOUSERSITE=1
exec "$here/usr/bin/python3" "$@"
RUN
chmod +x "$out/python"
mv "$out/kmol-package" "$out/kmol-pkg-tmp" && mkdir -p "$out/site" && mv "$out/kmol-pkg-tmp" "$out/site/kmol"
sed -i 's|kmol-package/..|site|' "$out/python"
du -sh "$out" | awk '{print "python_bundle: " $1}'
